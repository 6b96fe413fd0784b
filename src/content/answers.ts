/**
 * One unit's answer written into the page (merge.ts does the id-tag-and-merge), with what a form
 * and a change of writing direction need on top; everything goes into the unit's undo log.
 */
import type { AnswerEl } from './answer';
import type { Entry } from './chunk';
import { mergeAttr, mergePiece, mergeRange, UndoLog } from './merge';
import type { Unit } from './segment';
import { inPlace, primary, relabel } from './tags';

const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ckb', 'dv', 'ug', 'syr']);

/** Whether a language is written right to left. */
const isRtl = (lang: string): boolean => RTL.has(primary(lang));

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
  if (u.kind === 'attr') mergeAttr(u, answer, log);
  else if (u.kind === 'piece') mergePiece(u, answer, log);
  else {
    const parent = u.parent;
    if (parent instanceof Element && parent.tagName === 'OPTION') keepOptionValue(parent as HTMLOptionElement, log);
    mergeRange(u, answer, id, entries, log, into);
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
