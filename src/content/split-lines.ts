/**
 * A text a script split into a block per line for an animation (SplitType's and GSAP SplitText's
 * `lines`, a heading or a paragraph that rises line by line): its lines are read as the one
 * sentence they were, inline parts of their parent's unit (kinds.ts), and sent with a space
 * between them (chunk.ts): sent a line each, a translator read each line as a sentence of its
 * own ("Jardín bello y su" for "beautiful garden and its").
 *
 * Lines are told from blocks of one kind side by side (a list of messages, an address) by their
 * layout: each is one row of text in the flow, and each but the last is full, the next line's
 * first word not fitting after its last (`textFlows`).
 */

import { HAS_LETTER } from './attributes';

/** Lines of a split text found so far, and the masks around them (GSAP's `mask`): for chunk.ts to space them apart. */
const lines = new WeakSet<Element>();

/** Whether `el` is a line of a split text (or the mask around one) that the walk read as such. */
export function isSplitLine(el: Element): boolean {
  return lines.has(el);
}

/** More lines than a split heading or paragraph has: a longer list of blocks is not read for this. */
const MOST_LINES = 40;

/** `el`'s element children, where it holds nothing else but white space and comments. */
function onlyElements(el: Element): Element[] | null {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1) out.push(c as Element);
    else if (c.nodeType === 3 && /\S/.test((c as Text).data)) return null;
  }
  return out;
}

/** What reading lines needs of the walk (kinds.ts). */
export interface LineReader {
  /** Whether `el` lays out inline, and all it holds does. */
  isInline(el: Element): boolean;
  /** Whether `el` lays out as a plain block (`display: block`). */
  isBlock(el: Element): boolean;
  flows: (lines: readonly Element[]) => boolean;
}

/**
 * Whether the children of `parent` are the lines of a split text: two or more blocks of one tag
 * (`<div>` or `<span>`) and class and nothing else (`linesAmong`), each a line (inline content
 * with a letter) or a mask around one (an element holding the line alone), and their text flows
 * from one into the next (`flows`). The lines and masks are kept for `isSplitLine`.
 */
export function splitLinesIn(parent: Element, reader: LineReader): boolean {
  const n = parent.childElementCount;
  if (n < 2 || n > MOST_LINES) return false;
  const kids = onlyElements(parent);
  const members = kids && linesAmong(kids);
  if (!members) return false;
  const inner: Element[] = [];
  for (const m of members) {
    const line = reader.isBlock(m) ? lineIn(m, reader) : null;
    if (!line) return false;
    inner.push(line);
  }
  if (!reader.flows(inner)) return false;
  for (let i = 0; i < members.length; i++) {
    lines.add(members[i]!);
    lines.add(inner[i]!);
  }
  return true;
}

/**
 * The elements of `kids` that may be lines: all of them, `<div>`s or `<span>`s (what the libraries
 * make lines of: `LINE_TAGS`), not paragraphs nor list items, of
 * one tag and class; but for one set out of the flow, of another kind or first (anime.js puts the
 * text whole, visually hidden, before the lines, for screen readers). Null where they are not.
 */
function linesAmong(kids: Element[]): Element[] | null {
  for (const k of kids) if (!LINE_TAGS.has(k.localName)) return null;
  const last = kids[kids.length - 1]!;
  const odd = kids.filter((k) => !alike(k, last));
  if (odd.length === 0) {
    const first = kids[0]!;
    // Of one kind with the lines, the copy is first.
    return kids.length > 2 && outOfFlow(first) ? kids.slice(1) : kids;
  }
  if (odd.length > 1 || !outOfFlow(odd[0]!)) return null;
  const members = kids.filter((k) => k !== odd[0]);
  return members.length >= 2 ? members : null;
}

/** What the libraries make a line of (SplitType's and GSAP's `tagName`, anime.js's): what kinds.ts asks of every block first. */
export const LINE_TAGS: ReadonlySet<string> = new Set(['div', 'span']);

/** Whether `a` and `b` are of one tag and class, as the lines of a split text are. */
export function alike(a: Element, b: Element): boolean {
  return a.localName === b.localName && a.className === b.className;
}

/** Positioned absolutely or fixed, or floated: out of the flow, where no line is. */
function setApart(style: CSSStyleDeclaration): boolean {
  return style.position === 'absolute' || style.position === 'fixed' || (style.cssFloat !== 'none' && style.cssFloat !== '');
}

function outOfFlow(el: Element): boolean {
  const view = el.ownerDocument.defaultView;
  return view !== null && setApart(view.getComputedStyle(el));
}

/** The line `m` is or holds alone (a mask around it): a block whose content is inline and has a letter. */
function lineIn(m: Element, reader: LineReader): Element | null {
  const kids = onlyElements(m);
  const line = kids?.length === 1 && reader.isBlock(kids[0]!) ? kids[0]! : m;
  for (let c = line.firstElementChild; c; c = c.nextElementSibling) if (!reader.isInline(c)) return null;
  return HAS_LETTER.test(line.textContent ?? '') ? line : null;
}

/**
 * Layout's word on split lines: each is one row of text, in the flow (not a float), where text
 * wraps, and no wider than itself; and each but the last is full: its text, a space and the next
 * line's first word are wider than the line. Lines a browser broke are; blocks a page wrote one
 * under the other (a list of short messages, an address, titles cut with an ellipsis) are not. No
 * layout (happy-dom): not lines.
 */
export function textFlows(lines: readonly Element[]): boolean {
  const doc = lines[0]!.ownerDocument;
  const view = doc.defaultView;
  if (!view) return false;
  const range = doc.createRange();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // In the flow, as wide as what holds it: not a float (a box's two titles side by side); and
    // wrapping: a title cut with an ellipsis is as long as its box, or longer, without being a line.
    const style = view.getComputedStyle(line);
    if (setApart(style) || !wraps(style)) return false;
    range.selectNodeContents(line);
    const rects = range.getClientRects();
    if (rects.length === 0) return false;
    const row = rects[0]!;
    if (row.height === 0) return false;
    let right = row.right;
    let left = row.left;
    for (const r of rects) {
      const middle = (r.top + r.bottom) / 2;
      if (middle < row.top || middle > row.bottom) return false;
      left = Math.min(left, r.left);
      right = Math.max(right, r.right);
    }
    const width = line.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (right - left > width + 1) return false;
    if (i === lines.length - 1) break;
    const next = firstWordWidth(lines[i + 1]!, range);
    if (next === null || right - left + spaceWidth(line, range, style) + next <= width) return false;
  }
  return true;
}

/** Whether text wraps in an element of this style (CSS `white-space`, `text-wrap-mode`). */
function wraps(style: CSSStyleDeclaration): boolean {
  const mode = (style as CSSStyleDeclaration & { textWrapMode?: string }).textWrapMode;
  if (mode) return mode !== 'nowrap';
  return style.whiteSpace !== 'nowrap' && style.whiteSpace !== 'pre';
}

/** The width of a space between two words of `line` as laid out; a quarter of its font's size where it has none. */
function spaceWidth(line: Element, range: Range, style: CSSStyleDeclaration): number {
  const walker = line.ownerDocument.createTreeWalker(line, 4 /* NodeFilter.SHOW_TEXT */);
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    const at = t.data.search(/ /);
    if (at < 0) continue;
    range.setStart(t, at);
    range.setEnd(t, at + 1);
    const w = range.getBoundingClientRect().width;
    if (w > 0) return w;
  }
  return 0.25 * parseFloat(style.fontSize);
}

/** A character a line may break after, with no space: Chinese and Japanese are written so. */
const BREAKS_AFTER = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The width of what `line` starts with that a browser keeps on one line: its text up to the first
 * white space, across elements (a word), or its first character where that is Chinese or
 * Japanese; null where it has no text.
 */
function firstWordWidth(line: Element, range: Range): number | null {
  const walker = line.ownerDocument.createTreeWalker(line, 4 /* NodeFilter.SHOW_TEXT */);
  let start: Text | null = null;
  let startAt = 0;
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    let from = 0;
    if (!start) {
      from = t.data.search(/\S/);
      if (from < 0) continue;
      start = t;
      startAt = from;
      if (BREAKS_AFTER.test(t.data.slice(from))) {
        range.setStart(t, from);
        range.setEnd(t, from + (t.data.codePointAt(from)! > 0xffff ? 2 : 1));
        return range.getBoundingClientRect().width;
      }
    }
    const end = t.data.slice(from).search(/\s/);
    if (end >= 0) {
      range.setStart(start, startAt);
      range.setEnd(t, from + end);
      return range.getBoundingClientRect().width;
    }
  }
  if (!start) return null;
  range.setStart(start, startAt);
  range.setEnd(line, line.childNodes.length);
  return range.getBoundingClientRect().width;
}
