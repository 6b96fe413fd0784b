/**
 * Splits a document into the chunks of the document format (decisions.md: "Chunks are block-level
 * fragments of the input"). Cuts fall only at the edges of block elements, never inside a tag, an
 * entity or a run of inline content, so every chunk parses as the same content it held in place.
 */
import { parse, parseFragment } from 'parse5';
import { BLOCK, MAX_DEPTH, childrenOf, getAttr, isElement, skipOf, translatableAttrNames } from './rules';
import type { ChildNode, Element, Text } from './rules';
import { codePoints, isBlank, isProseValue } from './text';

export { splitSentences } from './sentences';

/**
 * A run of the source, [s, e), with `w` characters to translate (text and translatable attribute
 * values, as protect() counts them, or slightly more); `el` when it is one element.
 */
interface Unit {
  s: number;
  e: number;
  w: number;
  el?: Element;
  /** Of an inline run: where its top-level <br>s end. */
  breaks?: number[];
}

const DOCUMENT = /^\uFEFF?(?:[ \t\n\f\r]|<!--[\s\S]*?-->)*<(?:!doctype|html)/i;

/**
 * Chunks whose concatenation is exactly `html`. Neighbouring blocks are packed while their text
 * stays within `maxChars`; a longer block is split between its block children, or left whole.
 * Of a full document, what precedes the body's content (doctype, head) and what follows it are
 * chunks of their own, with nothing to translate.
 */
export function splitDocument(html: string, maxChars: number): string[] {
  // A fragment no longer than the budget is one chunk: what it has to translate (decoded text and
  // attribute values) is never longer than its source. Every call of the page translation is such a
  // fragment, and parsing it here was a third of a woken worker's time before its first request.
  if (html.length <= maxChars && !DOCUMENT.test(html)) return [html];
  return splitParsed(html, maxChars);
}

/** splitDocument by the parse (exported for the test that checks the short cut above against it). */
export function splitParsed(html: string, maxChars: number): string[] {
  if (!html) return [html];
  const isDoc = DOCUMENT.test(html);
  const tree = isDoc ? parse(html, { sourceCodeLocationInfo: true }) : parseFragment(html, { sourceCodeLocationInfo: true });
  const nodes: ChildNode[] = tree.childNodes;
  const index = new SourceIndex();
  index.walk(nodes, true);
  index.seal();
  let top = nodes;
  if (isDoc) {
    const htmlEl = nodes.find((n): n is Element => isElement(n) && n.tagName === 'html');
    const body = htmlEl?.childNodes.find((n): n is Element => isElement(n) && n.tagName === 'body');
    top = body ? body.childNodes : [];
  }
  const located = flatten(top).filter((n) => n.sourceCodeLocation);
  if (!located.length) return [html];
  let lo = isDoc ? html.length : 0;
  let hi = isDoc ? 0 : html.length;
  if (isDoc) {
    for (const n of located) {
      lo = Math.min(lo, n.sourceCodeLocation!.startOffset);
      hi = Math.max(hi, n.sourceCodeLocation!.endOffset);
    }
  }
  if (!index.safe(lo) || !index.safe(hi)) return [html];

  const cuts: number[] = [];
  if (lo > 0) cuts.push(lo);
  const packer = new Packer(index, maxChars, cuts);
  for (const u of index.units(top, lo, hi)) packer.add(u);
  if (hi < html.length) cuts.push(hi);
  const chunks: string[] = [];
  let pos = 0;
  for (const c of cuts) {
    if (c <= pos) continue;
    chunks.push(html.slice(pos, c));
    pos = c;
  }
  chunks.push(html.slice(pos));
  return chunks;
}

/** Characters protect() will send for the element's attributes. */
function attrChars(el: Element): number {
  let n = 0;
  for (const name of translatableAttrNames(el)) {
    const v = getAttr(el, name) ?? '';
    if (isProseValue(v)) n += codePoints(v);
  }
  return n;
}

/** Element children the parser implied (tbody) stand for their own children, which are in the source. */
function flatten(nodes: readonly ChildNode[]): ChildNode[] {
  const out: ChildNode[] = [];
  for (const n of nodes) {
    if (isElement(n) && !n.sourceCodeLocation?.startTag) out.push(...flatten(childrenOf(n)));
    else out.push(n);
  }
  return out;
}

/** What the chunker needs to know of the source: where text is, and where a cut would break a token. */
class SourceIndex {
  private textAt: number[] = [];
  private textW: number[] = [];
  /** Prefix sums of textW over text sorted by position. */
  private sums: number[] = [];
  private atoms: [number, number][] = [];
  private readonly blockish = new Map<Element, boolean>();

  /** Records the tree; returns whether any of `nodes` is a block or holds one. */
  walk(nodes: readonly ChildNode[], translatable: boolean, depth = 0): boolean {
    let anyBlock = false;
    for (const n of nodes) {
      if (!isElement(n)) {
        const l = n.sourceCodeLocation;
        if (!l) continue;
        this.atoms.push([l.startOffset, l.endOffset]);
        const v = n.nodeName === '#text' ? (n as Text).value : '';
        if (translatable && !isBlank(v)) this.addText(l.startOffset, codePoints(v));
        continue;
      }
      const l = n.sourceCodeLocation;
      const skip = skipOf(n);
      if (l?.startTag) {
        this.atoms.push([l.startTag.startOffset, l.startTag.endOffset]);
        if (translatable && skip !== 'no') this.addText(l.startTag.startOffset, attrChars(n));
      }
      if (l?.endTag) this.atoms.push([l.endTag.startOffset, l.endTag.endOffset]);
      let blockish = BLOCK.has(n.tagName);
      if (depth < MAX_DEPTH) {
        blockish = this.walk(childrenOf(n), translatable && n.tagName !== 'head' && !skip, depth + 1) || blockish;
      } else if (l) {
        this.atoms.push([l.startOffset, l.endOffset]);
      }
      this.blockish.set(n, blockish);
      anyBlock ||= blockish;
    }
    return anyBlock;
  }

  private addText(at: number, w: number): void {
    if (w === 0) return;
    this.textAt.push(at);
    this.textW.push(w);
  }

  seal(): void {
    const order = this.textAt.map((_, i) => i).sort((a, b) => this.textAt[a]! - this.textAt[b]!);
    this.textAt = order.map((i) => this.textAt[i]!);
    this.sums = [0];
    for (const i of order) this.sums.push(this.sums[this.sums.length - 1]! + this.textW[i]!);
    // Interiors of tokens, merged: a cut is safe when it is inside none.
    this.atoms.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [s, e] of this.atoms) {
      const last = merged[merged.length - 1];
      if (last && s < last[1]) last[1] = Math.max(last[1], e);
      else merged.push([s, e]);
    }
    this.atoms = merged;
  }

  safe(x: number): boolean {
    const i = upperBound(this.atoms, x, (a) => a[0]) - 1;
    const atom = this.atoms[i];
    return !atom || x >= atom[1] || x === atom[0];
  }

  weight(s: number, e: number): number {
    return this.sums[lowerBound(this.textAt, e)]! - this.sums[lowerBound(this.textAt, s)]!;
  }

  /** A block, or an element holding one (an <a> around <div>s): chunks may end at its edges. */
  isBlockish(el: Element): boolean {
    return this.blockish.get(el) ?? false;
  }

  /**
   * [lo, hi) as block elements and the inline runs between them, in source order. A run notes where
   * its own <br>s end: the only places it may be cut, when it alone is too long.
   */
  units(children: readonly ChildNode[], lo: number, hi: number): Unit[] {
    const nodes = flatten(children).filter((n) => n.sourceCodeLocation);
    nodes.sort((a, b) => a.sourceCodeLocation!.startOffset - b.sourceCodeLocation!.startOffset);
    const out: Unit[] = [];
    let pos = lo;
    let breaks: number[] = [];
    const run = (end: number): void => {
      if (end > pos) out.push({ s: pos, e: end, w: this.weight(pos, end), breaks: breaks.filter((b) => b > pos && b < end) });
      breaks = [];
    };
    for (const n of nodes) {
      if (!isElement(n)) continue;
      const { startOffset: s, endOffset: e } = n.sourceCodeLocation!;
      if (n.tagName === 'br' && s >= pos && this.safe(e)) breaks.push(e);
      if (!this.isBlockish(n) || s < pos || e > hi || !this.safe(s) || !this.safe(e)) continue;
      run(s);
      out.push({ s, e, w: this.weight(s, e), el: n });
      pos = e;
    }
    run(hi);
    return out;
  }

  /**
   * Parts of a unit too long for one chunk: a block's start tag, its children's units and its end
   * tag; else, as a last resort, the lines of a block or run that ends lines with <br>.
   */
  split(u: Unit): Unit[] | null {
    let parts: Unit[] | undefined;
    const l = u.el?.sourceCodeLocation;
    if (u.el && l?.startTag) {
      const innerLo = l.startTag.endOffset;
      const innerHi = l.endTag ? l.endTag.startOffset : u.e;
      if (innerHi < innerLo || !this.safe(innerLo) || !this.safe(innerHi)) return null;
      const inner = this.units(childrenOf(u.el), innerLo, innerHi);
      if (inner.some((x) => x.el)) parts = inner;
      else if (inner.length === 1 && inner[0]!.breaks?.length) parts = this.lines(inner[0]!);
      if (parts) parts = [{ s: u.s, e: innerLo, w: 0 }, ...parts, { s: innerHi, e: u.e, w: 0 }];
    } else if (!u.el && u.breaks?.length) {
      parts = this.lines(u);
    }
    return parts ? parts.filter((x) => x.e > x.s) : null;
  }

  private lines(u: Unit): Unit[] {
    const cuts = [u.s, ...(u.breaks ?? []), u.e];
    return cuts.slice(1).map((e, i) => ({ s: cuts[i]!, e, w: this.weight(cuts[i]!, e) }));
  }
}

class Packer {
  private w = 0;

  constructor(
    private readonly index: SourceIndex,
    private readonly max: number,
    private readonly cuts: number[],
  ) {}

  add(u: Unit): void {
    if (u.w === 0 || this.w + u.w <= this.max) {
      this.w += u.w;
      return;
    }
    const parts = u.w > this.max ? this.index.split(u) : null;
    if (parts) {
      for (const p of parts) this.add(p);
      return;
    }
    if (this.w > 0) this.cuts.push(u.s);
    this.w = u.w;
  }
}

function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound<T>(sorted: readonly T[], x: number, key: (t: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
