/**
 * Pass 1 of the model (model.ts): the parse tree of a fragment as raw pieces, each with the source
 * it claims, and the source no piece claims (tags the parser ignored).
 */
import type { AttrSlot, Range } from './model';
import { MAX_DEPTH, NEUTRAL, SAFE_TAG, VOID, childrenOf, isElement, saysOf, skipOf, translatableAttrNames } from './rules';
import type { ChildNode, Element, Text } from './rules';
import { hasLetters, isProseValue } from './text';

/** An element with its tags and children, a piece kept whole (comment, skipped subtree), or text. */
export type Raw =
  | { k: 'el'; tag: string; open: Range; close: Range | null; kids: Raw[]; text: boolean; void: boolean }
  | { k: 'keep'; tag: string; void: boolean; mergeable: boolean; src: Range }
  | { k: 'text'; value: string; src: Range };

export const startOf = (r: Raw): number => (r.k === 'el' ? r.open.s : r.src.s);

function placeholder(el: Element): { tag: string; mergeable: boolean } {
  const neutral = NEUTRAL.has(el.tagName) || !SAFE_TAG.test(el.tagName);
  return neutral ? { tag: 'x-keep', mergeable: true } : { tag: el.tagName, mergeable: false };
}

/** The parse tree as raw pieces, recording every source range a piece claims. */
export class Scanner {
  readonly covered: Range[] = [];
  readonly attrs: AttrSlot[] = [];
  private readonly seenTags = new Set<number>();

  /** `no`: inside an element that says translate="no", where only what says yes is translated. */
  nodes(list: readonly ChildNode[], out: Raw[], depth: number, no = false): void {
    for (const n of list) this.node(n, out, depth, no);
  }

  private node(n: ChildNode, out: Raw[], depth: number, no: boolean): void {
    if (!isElement(n)) {
      const l = n.sourceCodeLocation;
      if (!l) return;
      const src = { s: l.startOffset, e: l.endOffset };
      this.covered.push(src);
      if (n.nodeName === '#text' && !no) out.push({ k: 'text', value: (n as Text).value, src });
      else out.push({ k: 'keep', tag: 'x-keep', void: false, mergeable: true, src });
      return;
    }
    const l = n.sourceCodeLocation;
    const st = l?.startTag;
    // Implied elements (tbody) and the parser's clones of formatting elements have no start tag of
    // their own in the source: their children are what the source holds.
    if (!l || !st || this.seenTags.has(st.startOffset)) return this.nodes(childrenOf(n), out, depth, no);
    this.seenTags.add(st.startOffset);
    let skip = depth >= MAX_DEPTH ? 'no' : skipOf(n);
    // The nearest translate decides (HTML): what says yes inside a no is translated, and the
    // elements on the way to it are kept as tags around their kept text.
    if (depth < MAX_DEPTH && skip !== 'tag') {
      const says = saysOf(n);
      if (says === 'yes' && skip === null) no = false;
      else if ((says === 'no' || (no && skip === null)) && hasYes(n, depth)) {
        skip = null;
        no = true;
      } else if (no) skip = 'no';
    }
    if (skip !== 'no' && !no) this.collectAttrs(n);
    const isVoid = VOID.has(n.tagName);
    if (skip) {
      const src = { s: l.startOffset, e: Math.max(l.endOffset, l.endTag?.endOffset ?? 0, st.endOffset) };
      this.covered.push(src);
      out.push({ k: 'keep', ...placeholder(n), void: isVoid, src });
      return;
    }
    const open = { s: st.startOffset, e: st.endOffset };
    this.covered.push(open);
    const kids: Raw[] = [];
    this.nodes(n.childNodes, kids, depth + 1, no);
    const et = l.endTag;
    const close = et && et.startOffset >= open.e ? { s: et.startOffset, e: et.endOffset } : null;
    if (close) this.covered.push(close);
    const text = kids.some((k) => (k.k === 'text' ? hasLetters(k.value) : k.k === 'el' && k.text));
    out.push({ k: 'el', tag: n.tagName, open, close, kids, text, void: isVoid });
  }

  private collectAttrs(el: Element): void {
    const locs = el.sourceCodeLocation?.attrs;
    if (!locs) return;
    for (const name of translatableAttrNames(el)) {
      const at = locs[name];
      const value = el.attrs.find((a) => a.name === name)?.value ?? '';
      if (at && isProseValue(value)) this.attrs.push({ name, value, at: { s: at.startOffset, e: at.endOffset } });
    }
  }
}

/**
 * Whether something inside `el` says translate="yes" and is reached through elements that say no
 * or nothing (not code, an editor, or anything else left out for its kind).
 */
function hasYes(el: Element, depth: number): boolean {
  for (const c of childrenOf(el)) {
    if (!isElement(c) || depth + 1 >= MAX_DEPTH) continue;
    const skip = skipOf(c);
    if (skip === 'tag') continue;
    const says = saysOf(c);
    if (says === 'yes' && skip === null) return true;
    if ((skip === null || says === 'no') && hasYes(c, depth + 1)) return true;
  }
  return false;
}

/** Source not claimed by any piece: tags the parser ignored (stray `</div>`, `<body>` in a fragment). */
export function uncovered(covered: Range[], length: number): Range[] {
  const sorted = [...covered].sort((a, b) => a.s - b.s);
  const gaps: Range[] = [];
  let pos = 0;
  for (const r of sorted) {
    if (r.s > pos) gaps.push({ s: pos, e: r.s });
    if (r.e > pos) pos = r.e;
  }
  if (pos < length) gaps.push({ s: pos, e: length });
  return gaps;
}

