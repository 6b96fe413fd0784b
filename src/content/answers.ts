/**
 * One unit's answer written into the page (merge.ts does the id-tag-and-merge), with what a form
 * and a change of writing direction need on top; everything goes into the unit's undo log.
 */
import type { AnswerEl } from './answer';
import type { Entry } from './chunk';
import { copiesIn, writeCopies } from './drawn-copies';
import { mergeAttr, mergePiece, mergeRange, UndoLog } from './merge';
import type { AttrUnit, Unit } from './segment';
import { inPlace, primary, relabel } from './tags';
import { textDirection } from '../core/intl';

/** Whether a language is written right to left. */
const isRtl = (lang: string): boolean => !!lang && textDirection(lang) === 'rtl';

/** The `value` each option was given by a write (`keepOptionValue`), while it may still be there. */
const givenValues = new WeakMap<Element, string>();

/**
 * An option without a value submits its text: it keeps submitting the original. One whose value a
 * write gave it, and whose text the page has replaced since (that write's job set aside with the
 * text it held), submits the page's new text: the value given for the old one goes first.
 */
function keepOptionValue(option: HTMLOptionElement, log: UndoLog): void {
  const given = givenValues.get(option);
  if (given !== undefined && option.getAttribute('value') === given && option.text !== given) option.removeAttribute('value');
  if (option.hasAttribute('value')) return;
  log.attr(option, 'value', option.value);
  givenValues.set(option, option.value);
}

/** Each named submit button whose label a write translated: the page's own value, and the one written. */
const submitValues = new WeakMap<Element, { own: string; shown: string }>();
/** The documents and shadow roots whose forms' data `ownSubmitValues` corrects. */
const watchedRoots = new WeakSet<Node>();

/**
 * A submit button's `value` is its label, and where it has a `name` the value its form sends for it
 * when it is the one pressed (`action=Delete the post`): a server or an app that reads it would get
 * our translation. The form's data, as the browser submits it or as a script's `new FormData(form,
 * submitter)` builds it, gets the page's own value back (`formdata`, fired on the form as the data is
 * built: the page's script reads what we leave). A page's script that reads the button's `value`
 * itself still gets what it shows.
 */
function keepSubmitValue(u: AttrUnit): void {
  const el = u.el;
  if (u.name !== 'value' || el.localName !== 'input' || (el as HTMLInputElement).type !== 'submit' || !el.getAttribute('name')) return;
  const shown = el.getAttribute('value');
  if (shown === null || shown === u.value) return;
  submitValues.set(el, { own: u.value, shown });
  // A form and its buttons are in one tree, and `formdata` is not composed: it reaches the root they are in.
  const root = el.getRootNode();
  if (watchedRoots.has(root) || !(root instanceof Document || root instanceof ShadowRoot)) return;
  watchedRoots.add(root);
  root.addEventListener('formdata', ownSubmitValues, true);
}

/** A form's data with each translated submit button's entry (its name, the value written) as the page's own value, in place. */
function ownSubmitValues(e: Event): void {
  const form = e.target;
  const data = (e as FormDataEvent).formData;
  if (!(form instanceof HTMLFormElement) || !data) return;
  const swaps = new Map<string, { own: string; shown: string }>();
  for (const el of form.elements) {
    const kept = submitValues.get(el);
    const name = el.getAttribute('name');
    if (kept && name && el.getAttribute('value') === kept.shown && data.getAll(name).includes(kept.shown)) swaps.set(name, kept);
  }
  if (swaps.size === 0) return;
  // Deleted and appended again in their order: the form's entries keep theirs.
  const entries: [string, FormDataEntryValue][] = [];
  data.forEach((v, k) => entries.push([k, v]));
  for (const k of new Set(entries.map(([k]) => k))) data.delete(k);
  for (const [k, v] of entries) {
    const swap = swaps.get(k);
    data.append(k, swap && v === swap.shown ? swap.own : (v as string));
  }
}

/**
 * `src`: the page's language. A whole unit gets the target's direction where it differs from the
 * direction it sits in: `dir=rtl` into an RTL language, and `dir=ltr` out of one where the page
 * lays it out right to left (an English paragraph on an Arabic page showed its final period at its
 * left end, and its quotes turned around). `labelled`: given once the page says the target's
 * language, the elements its relabelling took (writes.ts `relabelPage`): an element above the
 * unit that says the page's was added since (`relabelAbove`).
 */
export function writeAnswer(u: Unit, answer: AnswerEl, id: number, entries: readonly Entry[], trg: string, src = '', into?: Element, labelled?: WeakSet<Element>): UndoLog {
  const log = new UndoLog();
  if (u.kind === 'attr') {
    mergeAttr(u, answer, log);
    keepSubmitValue(u);
  } else if (u.kind === 'piece') mergePiece(u, answer, log);
  else {
    const parent = u.parent;
    if (parent instanceof Element && parent.tagName === 'OPTION') keepOptionValue(parent as HTMLOptionElement, log);
    // What the page's style draws again of the unit's texts (a glitch heading's `data-text`).
    const copies = copiesIn(into ?? (u.whole && parent instanceof Element ? parent : null), entries);
    mergeRange(u, answer, id, entries, log, into);
    if (copies) writeCopies(copies, log);
    if (u.whole && parent instanceof Element && !inPlace(parent)) {
      if (isRtl(trg)) log.attr(parent, 'dir', 'rtl');
      // Asked only out of an RTL language (a style read per unit): CSS may set the direction too.
      // An element whose `dir` is `auto` follows its new text by itself.
      else if (isRtl(src) && parent.getAttribute('dir')?.trim().toLowerCase() !== 'auto' && getComputedStyle(parent).direction === 'rtl') {
        log.attr(parent, 'dir', 'ltr');
      }
      // A block that says the page's language and that writes.ts relabelPage did not take (a post
      // an app loads as the reader scrolls after it, or one written before it: the first screen):
      // it says the target's with its text, in its own log, so it goes with the unit when the
      // page drops it.
      const lang = src ? parent.getAttribute('lang') : null;
      if (lang !== null && primary(lang) === primary(src)) {
        log.attr(parent, 'lang', trg);
        relabel(parent, trg);
      }
    }
    if (labelled && src && parent instanceof Element) relabelAbove(u.whole ? parent.parentElement : parent, src, trg, log, labelled);
  }
  return log.seal();
}

/**
 * The elements from `el` up that say the page's language, added after the page was relabelled and
 * holding more than one unit (a post of several paragraphs an app loads as the reader scrolls,
 * which a site labels with its language): they say the target's once one of their units is
 * written, in that unit's log, so they go with the post when the page drops it. The page's
 * `<body>` and `<html>` are the page's relabelling's, and so is each element in `labelled` (what
 * the relabelling took; what held it then, it took too): the walk up stops there. On Wikipedia
 * every unit is under the article's `lang`: one `closest` a unit. Not the elements a unit's log
 * relabelled: that log is undone when the page changes the unit, and the next write relabels
 * them again.
 */
export function relabelAbove(el: Element | null, src: string, trg: string, log: UndoLog, labelled: WeakSet<Element>): void {
  const page = el?.ownerDocument;
  for (let at = el?.closest('[lang]'); at && at !== page?.body && at !== page?.documentElement && !labelled.has(at); at = at.parentElement?.closest('[lang]')) {
    if (primary(at.getAttribute('lang')!) !== primary(src)) continue;
    log.attr(at, 'lang', trg);
    relabel(at, trg);
  }
}
