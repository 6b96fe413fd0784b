/**
 * Bilingual mode: the translation shown under each original block instead of replacing it. When a
 * unit is queued, a copy of it is built off-page (a shallow clone of its block with clones of the
 * unit's nodes); the translation is written into the copy through the same merge, and the copy is
 * inserted after the original with the first write, so nothing untranslated is ever shown twice;
 * a copy that reads as its original (a name, a number) is not shown at all. A copy repeats the
 * words, not the pictures: only images and icons the size of the text around them go into it.
 * The original is never written; restore removes the copies, so body.innerHTML is what it was.
 */
import { readAs } from '../core/html/text';
import { isEmptyText } from './anchors';
import { spaced } from './ours';
import { Rewind } from './rewind';
import { listItems, splitRun, type Opaque } from './runs';
import { excluded, inPlace, kids } from './tags';
import type { RangeUnit, Unit } from './units';
import { htmlElement } from '../ui/shared/html-element';

/** Marks a copy; the segmenter ignores such elements. */
export const COPY_ATTR = 'data-polyglot-bilingual';

/**
 * Blocks a sibling copy sits well after. Anything else (li, td, dt, summary, a block-level link,
 * a custom element, body) would gain a list item, a table cell or a second summary: its copy goes
 * inside it, after its content, as a block-level span.
 */
const AFTER = new Set([
  'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DIV', 'BLOCKQUOTE', 'FIGCAPTION', 'ADDRESS', 'SECTION', 'ARTICLE',
  'ASIDE', 'HEADER', 'FOOTER', 'MAIN', 'NAV', 'CENTER',
]);

/** Left out of a copy: form controls, and embedded content that would load or play a second time. */
const NOT_COPIED = 'input, select, textarea, iframe, frame, object, embed, video, audio, canvas';

/** What a copy shows again only if it reads as part of the text: images and icons. */
const PICTURES = 'img, svg';

/**
 * Taller than this many times the font size of the text around it, an image is a picture beside
 * the text (a thumbnail, a photo in a paragraph), not part of its line (an emoji, an icon, a
 * formula: Wikipedia's inline formulas are 1-2 em).
 */
const TEXT_HEIGHT_EMS = 2.5;

type Box = { width: number; height: number; em: number };

/**
 * An image's box on the page and the font size around it (px); null where it has no box;
 * `'loading'` for an image with no box yet because it has not loaded (a lazy image below the
 * screen), whose box is known once it has.
 */
export type Measure = (el: Element) => Box | null | 'loading';

/**
 * `Measure` by layout. A broken image has no picture to show again: the page shows its alt text in
 * its box, which a copy, with `alt=""`, would show as an empty frame.
 */
export const measureOnPage: Measure = (el) => {
  const img = el.localName === 'img' ? (el as HTMLImageElement) : null;
  if (img?.complete && img.naturalWidth === 0) return null;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return img && !img.complete ? 'loading' : null;
  const around = el.parentElement;
  const em = around ? parseFloat(getComputedStyle(around).fontSize) : NaN;
  return { width: r.width, height: r.height, em: em > 0 ? em : 16 };
};

export interface Copy {
  el: Element;
  /** The original block (copy after it), or the run's parent and anchor (copy inside, before it). */
  after: Element | null;
  parent: Node;
  anchor: Node | null;
}

export const isCopy = (el: Element): boolean => el.hasAttribute(COPY_ATTR);

/**
 * A copy of a unit and the units it is translated as, in the copy; null for what has no room under
 * it. One copy goes under a whole row of links or buttons, or a line cut by separators, but each
 * label or part in it is translated alone (runs.ts), as in replace mode: sent as one, a translator
 * moves words from one label into another.
 */
export function copyOf(
  unit: Unit,
  trg: string,
  doc: Document,
  opaque: Opaque = excluded,
  measure: Measure = measureOnPage,
  signal?: AbortSignal,
): { units: RangeUnit[]; copy: Copy } | null {
  if (unit.kind !== 'range') return null;
  const parent = unit.parent;
  if (inPlace(parent)) return null;
  const sibling = parent instanceof Element && unit.whole && AFTER.has(parent.tagName) && parent.parentNode !== null;
  let el: Element;
  if (sibling) el = parent.cloneNode(false) as Element;
  else {
    el = htmlElement(doc, 'span');
    // CSSOM, not a style attribute: a page's CSP may forbid inline style attributes.
    (el as HTMLElement).style.display = 'block';
  }
  const pictures: [Element, Element][] = [];
  for (const n of unit.nodes) {
    const clone = n.cloneNode(true);
    el.appendChild(clone);
    if (n.nodeType === 1) pairPictures(n as Element, clone as Element, pictures);
  }
  // A framework's comments and empty texts mark its places in the page, not in a copy: without them
  // the copy takes the translation's order wherever it puts the sentence's elements (parts.ts, anchors.ts).
  dropMarks(el);
  showAsText(pictures, measure, signal);
  // A copy is text to read: no second form control (one that does nothing, its options and labels
  // translated in place in the original) and no second player or frame loading; a button's label
  // stays, as text.
  for (const x of el.querySelectorAll(NOT_COPIED)) x.remove();
  const items: Element[] = [];
  const list = listItems(kids(el), opaque, items);
  for (const b of el.querySelectorAll('button')) {
    const span = htmlElement(doc, 'span');
    span.append(...b.childNodes);
    b.replaceWith(span);
    const at = items.indexOf(b);
    if (at >= 0) items[at] = span;
  }
  // An image shown again is decoration: a screen reader hears its (translated) alt once, on the original.
  for (const img of el.querySelectorAll('img[alt]')) img.setAttribute('alt', '');
  // So is an SVG: its titles (a tooltip and a name, translated on the original) go, and it is hidden.
  for (const svg of el.querySelectorAll('svg')) {
    for (const t of svg.querySelectorAll('title')) t.remove();
    svg.removeAttribute('aria-label');
    svg.setAttribute('aria-hidden', 'true');
  }
  // No second element with the page's ids.
  for (const x of [el, ...el.querySelectorAll('[id],[name]')]) {
    x.removeAttribute('id');
    x.removeAttribute('name');
  }
  const nodes = kids(el);
  el.setAttribute(COPY_ATTR, '');
  el.setAttribute('lang', trg);
  const copy: Copy = sibling
    ? { el, after: parent as Element, parent: parent.parentNode!, anchor: null }
    : { el, after: null, parent, anchor: unit.anchor };
  const units: RangeUnit[] = [];
  // A text file's copy is its text again, sent by paragraphs as the original is.
  if (unit.paragraphs) units.push({ kind: 'range', parent: el, nodes, anchor: null, whole: true, hidden: unit.hidden, paragraphs: true });
  else splitRun({ kind: 'range', parent: el, nodes, anchor: null, whole: true, hidden: unit.hidden }, opaque, list ? items : null, units);
  return { units, copy };
}

/** The images and icons of `original` with their clones in `clone` (an SVG's own inside not apart). */
function pairPictures(original: Element, clone: Element, out: [Element, Element][]): void {
  if (original.matches(PICTURES)) {
    out.push([original, clone]);
    return;
  }
  const a = original.querySelectorAll(PICTURES);
  const b = clone.querySelectorAll(PICTURES);
  for (let i = 0; i < a.length; i++) {
    const outer = a[i]!.parentElement!.closest('svg');
    if (!outer || !original.contains(outer)) out.push([a[i]!, b[i]!]);
  }
}

/**
 * A copy repeats the words, not the pictures: an image or icon is kept where the original shows it
 * as part of a line of text, at the size it has there (the page's rules that size it may depend on
 * where it sits, and a copy sits elsewhere: an icon sized by `#menu > a > svg` was 300 × 150 in its
 * copy); anything taller, or not shown at all, is left out (a headline's thumbnail shown twice).
 * An image not loaded yet waits in its copy, hidden, until the original has loaded (or failed to),
 * and is shown then if it reads as text; otherwise it stays hidden, not removed: the copy's unit
 * holds it (an alternative chosen later writes the unit's nodes back, and a removal would be a
 * change of the page's to follow). `signal` stops the waits (restore).
 */
function showAsText(pictures: readonly [Element, Element][], measure: Measure, signal: AbortSignal | undefined): void {
  for (const [original, clone] of pictures) {
    const box = measure(original);
    if (box !== 'loading') {
      if (textSized(box)) sizeAs(clone, box);
      else {
        const parent = clone.parentElement;
        (parent?.tagName === 'PICTURE' ? parent : clone).remove();
      }
      continue;
    }
    // CSSOM, as for the span above: a page's CSP may refuse style attributes in markup.
    const style = (clone as HTMLElement).style;
    style.display = 'none';
    // Whichever of load and error comes first decides; both listeners go then.
    const ready = new AbortController();
    const settle = () => {
      ready.abort();
      const now = measure(original);
      if (now === 'loading' || !textSized(now)) return;
      style.removeProperty('display');
      sizeAs(clone, now);
    };
    const opts = { signal: signal ? AbortSignal.any([signal, ready.signal]) : ready.signal };
    original.addEventListener('load', settle, opts);
    original.addEventListener('error', settle, opts);
  }
}

/** Whether an image of this box on the page is part of its line of text. */
const textSized = (box: Box | null): box is Box => box !== null && box.height <= TEXT_HEIGHT_EMS * box.em;

/** Sets `clone` to the size its original has on the page (CSSOM: a page's CSP may refuse style attributes). */
function sizeAs(clone: Element, box: Box): void {
  const style = (clone as HTMLElement | SVGElement).style;
  style.width = `${box.width}px`;
  style.height = `${box.height}px`;
}

/**
 * Whether a written copy reads as its original (a name, a number, a URL, "3.1 Firefox"): shown,
 * it would only say the same thing twice.
 */
export function readsAsOriginal(copy: Copy, original: Unit): boolean {
  if (original.kind !== 'range') return false;
  let text = '';
  for (const n of original.nodes) text += n.textContent ?? '';
  return readAs(copy.el.textContent ?? '') === readAs(text);
}

/**
 * A copy written into (bilingual mode): shown, and listed in `shown`, unless it is shown already or
 * reads as its `original`.
 */
export function showCopy(copy: Copy | undefined, original: Unit | undefined, shown: Element[]): void {
  if (!copy || !original || copy.el.isConnected || readsAsOriginal(copy, original)) return;
  if (place(copy)) shown.push(copy.el);
}

/** Shows a copy (once): after its original block, or after the run it copies. */
export function place(copy: Copy): boolean {
  if (copy.el.isConnected) return false;
  if (copy.after) {
    if (!copy.after.parentNode) return false;
    copy.after.parentNode.insertBefore(copy.el, copy.after.nextSibling);
  } else {
    let at = copy.anchor && copy.anchor.parentNode === copy.parent ? copy.anchor : null;
    // Before the run's last comments, not right after a framework's mark: Lit writes a part's text
    // into the node after its comment (`startNode.nextSibling`), which would be the copy.
    for (let prev = at ? at.previousSibling : copy.parent.lastChild; prev?.nodeType === 8; prev = prev.previousSibling) at = prev;
    copy.parent.insertBefore(copy.el, at);
  }
  return true;
}

/**
 * Takes a framework's marks out of `el`, a copy: comments, processing instructions and empty Text
 * nodes (anchors.ts). The copy is ours: its translation's order stands (merge.ts keeps a run's
 * own order where a mark's part or segment would break).
 */
function dropMarks(el: Element): void {
  const walk = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_PROCESSING_INSTRUCTION | NodeFilter.SHOW_TEXT);
  const found: Node[] = [];
  while (walk.nextNode()) if (walk.currentNode.nodeType !== 3 || isEmptyText(walk.currentNode)) found.push(walk.currentNode);
  for (const c of found) c.parentNode!.removeChild(c);
}

/** `n`, or the first node before it that is not a bilingual copy. */
export function pastCopies(n: Node | null): Node | null {
  while (n && n.nodeType === 1 && isCopy(n as Element)) n = n.previousSibling;
  return n;
}

/**
 * What the page does inside our copies that leaves their words as they were (an annotator's marks
 * on the translation, mark.js's, rangy's; a lazy image's source) is not its change: the copy stays
 * as the page shows it (restore takes it out whole), and nothing is sent. Before, the copy was
 * made again from its original at once, the reader's highlight gone. Words of the page's own
 * written there still make it again. The records in such copies, each copy added to `reshaped`
 * (no alternatives there: a route picked would be written beside the words a mark holds); null
 * where no record is in a copy.
 */
export function keptInCopies(records: readonly MutationRecord[], reshaped: WeakSet<Element>): Set<MutationRecord> | null {
  let inCopy: Map<Element, MutationRecord[]> | null = null;
  for (const r of records) {
    const el = r.target.nodeType === 1 ? (r.target as Element) : r.target.parentElement;
    const copy = el?.closest(`[${COPY_ATTR}]`);
    if (!copy) continue;
    const list = (inCopy ??= new Map()).get(copy);
    if (list) list.push(r);
    else inCopy.set(copy, [r]);
  }
  if (!inCopy) return null;
  const rewind = new Rewind(records);
  const kept = new Set<MutationRecord>();
  for (const [copy, list] of inCopy) {
    if (spaced(rewind.text(copy, true)) !== spaced(copy.textContent ?? '')) continue;
    for (const r of list) kept.add(r);
    reshaped.add(copy);
  }
  return kept;
}
