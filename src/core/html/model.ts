/**
 * The model of one input fragment that protect() sends and restore() rebuilds from: elements with
 * translatable text (ElItem), opaque pieces kept verbatim (KeepItem) and text (TextItem), each
 * pointing at its source text. Every character of the input belongs to exactly one piece, so a
 * rebuild from unchanged answers gives the input back byte for byte.
 */
import { parseFragment } from 'parse5';
import { SAFE_TAG } from './rules';
import { Scanner, startOf, uncovered } from './scan';
import { readSimple } from './simple';
import type { Raw } from './scan';
import { codePoints, hasLetters, isBlank } from './text';

/** A slice of the input, [s, e). */
export interface Range {
  readonly s: number;
  readonly e: number;
}

export interface ElItem {
  kind: 'el';
  id: number;
  /** id of the input parent (0: the fragment). */
  parent: number;
  tag: string;
  /** The start tag, then opaque sources merged right after it. */
  open: Range[];
  close: Range | null;
  /** Opaque sources merged right after the element. */
  after: Range[];
  children: Item[];
}

export interface KeepItem {
  kind: 'keep';
  id: number;
  parent: number;
  /** Name of the empty placeholder element sent in its place. */
  tag: string;
  void: boolean;
  /** May be glued to its preceding sibling instead of being sent (nothing a reader sees moves). */
  mergeable: boolean;
  src: Range[];
}

export interface TextItem {
  kind: 'text';
  value: string;
  src: Range;
}

export type Item = ElItem | KeepItem | TextItem;

export interface AttrSlot {
  name: string;
  value: string;
  /** The whole attribute in the source (`name="value"`). */
  at: Range;
}

export interface Model {
  source: string;
  /** id 0: `open` is what precedes the sent markup, `after` what follows it. */
  root: ElItem;
  /** Items sent as placeholders; the one with id n is at n - 1. */
  items: (ElItem | KeepItem)[];
  /** Translatable attribute values, in source order. */
  attrs: AttrSlot[];
  /** Whether the markup has text to translate. */
  hasText: boolean;
  chars: number;
}

/** Pass 2: raw pieces to items, with gaps placed where they occur and opaque pieces merged. */
class Builder {
  private gi = 0;

  constructor(
    private readonly source: string,
    private readonly gaps: Range[],
  ) {}

  list(raws: readonly Raw[], parent: ElItem, end: number): Item[] {
    const out: Item[] = [];
    for (const r of raws) {
      this.takeGaps(startOf(r), out);
      out.push(this.item(r));
    }
    this.takeGaps(end, out);
    return coalesce(out, parent);
  }

  private takeGaps(pos: number, out: Item[]): void {
    for (let g = this.gaps[this.gi]; g && g.e <= pos; g = this.gaps[++this.gi]) {
      out.push({ kind: 'keep', id: 0, parent: 0, tag: 'x-keep', void: false, mergeable: true, src: [g] });
    }
  }

  private takeGapRanges(pos: number, out: Range[]): void {
    for (let g = this.gaps[this.gi]; g && g.e <= pos; g = this.gaps[++this.gi]) out.push(g);
  }

  private item(r: Raw): Item {
    if (r.k === 'keep') return { kind: 'keep', id: 0, parent: 0, tag: r.tag, void: r.void, mergeable: r.mergeable, src: [r.src] };
    if (r.k === 'text') {
      // Blank text that spans ignored tags (`\n</body>\n`) is markup, not spacing: keep it as it is.
      if (isBlank(r.value) && this.source.slice(r.src.s, r.src.e) !== r.value) {
        return { kind: 'keep', id: 0, parent: 0, tag: 'x-keep', void: false, mergeable: true, src: [r.src] };
      }
      return { kind: 'text', value: r.value, src: r.src };
    }
    if (!r.text) {
      const src: Range[] = [];
      this.flatten(r, src);
      const tag = SAFE_TAG.test(r.tag) ? r.tag : 'x-keep';
      return { kind: 'keep', id: 0, parent: 0, tag, void: r.void, mergeable: false, src: joinRanges(src) };
    }
    const tag = SAFE_TAG.test(r.tag) ? r.tag : 'span';
    const el: ElItem = { kind: 'el', id: 0, parent: 0, tag, open: [r.open], close: r.close, after: [], children: [] };
    el.children = this.list(r.kids, el, r.close ? r.close.s : -1);
    return el;
  }

  private flatten(r: Raw, out: Range[]): void {
    if (r.k !== 'el') return void out.push(r.src);
    out.push(r.open);
    for (const k of r.kids) {
      this.takeGapRanges(startOf(k), out);
      this.flatten(k, out);
    }
    if (r.close) {
      this.takeGapRanges(r.close.s, out);
      out.push(r.close);
    }
  }
}

function joinRanges(rs: Range[]): Range[] {
  const out: Range[] = [];
  for (const r of rs) {
    const last = out[out.length - 1];
    if (last && last.e === r.s) out[out.length - 1] = { s: last.s, e: r.e };
    else out.push(r);
  }
  return out;
}

/** Where a placeholder other than a table part would be moved out by the parser (foster parenting). */
const TABLE_CONTEXT = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);
const TABLE_PARTS = new Set(['caption', 'colgroup', 'col', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th']);

const isBlankText = (it: Item | undefined): it is TextItem => it?.kind === 'text' && isBlank(it.value);
const rangesOf = (it: Item): Range[] => (it.kind === 'text' ? [it.src] : it.kind === 'keep' ? it.src : []);

/**
 * Glues comments, scripts and ignored tags to what precedes them (the previous element, or the
 * parent's start tag), so the translator sees fewer placeholders; in a table, everything that is
 * not a table part, since the parser would move its placeholder out of the table.
 */
function coalesce(items: Item[], parent: ElItem): Item[] {
  const out: Item[] = [];
  const inTable = TABLE_CONTEXT.has(parent.tag);
  for (const it of items) {
    if (it.kind !== 'keep' || !(it.mergeable || (inTable && !TABLE_PARTS.has(it.tag)))) {
      out.push(it);
      continue;
    }
    let k = out.length;
    while (isBlankText(out[k - 1])) k--;
    const anchor = out[k - 1];
    if (anchor && anchor.kind === 'text') {
      out.push(it);
      continue;
    }
    const moved = out.splice(k).flatMap(rangesOf).concat(it.src);
    pushAll(!anchor ? parent.open : anchor.kind === 'el' ? anchor.after : anchor.src, moved);
  }
  return out;
}

/** push(...xs) without spreading: arrays here can outgrow the engine's argument limit. */
function pushAll<T>(target: T[], xs: readonly T[]): void {
  for (const x of xs) target.push(x);
}

const isOpaque = (it: Item): boolean => it.kind === 'keep' || isBlankText(it);

export function buildModel(source: string): Model {
  const nodes = readSimple(source) ?? parseFragment(source, { sourceCodeLocationInfo: true }).childNodes;
  const scanner = new Scanner();
  const raws: Raw[] = [];
  scanner.nodes(nodes, raws, 0);
  const root: ElItem = { kind: 'el', id: 0, parent: 0, tag: '', open: [], close: null, after: [], children: [] };
  const children = new Builder(source, uncovered(scanner.covered, source.length)).list(raws, root, Infinity);
  // What leads or trails the translatable content stays put and is not sent.
  let a = 0;
  let b = children.length;
  while (a < b && isOpaque(children[a]!)) a++;
  while (b > a && isOpaque(children[b - 1]!)) b--;
  pushAll(root.open, children.slice(0, a).flatMap(rangesOf));
  root.after = children.slice(b).flatMap(rangesOf);
  root.children = children.slice(a, b);

  const items: (ElItem | KeepItem)[] = [];
  let chars = 0;
  let hasText = false;
  const number = (list: Item[], parent: number): void => {
    for (const it of list) {
      if (it.kind === 'text') {
        if (!isBlank(it.value)) chars += codePoints(it.value);
        hasText ||= hasLetters(it.value);
        continue;
      }
      it.id = items.push(it);
      it.parent = parent;
      if (it.kind === 'el') {
        hasText = true;
        number(it.children, it.id);
      }
    }
  };
  number(root.children, 0);
  for (const a of scanner.attrs) chars += codePoints(a.value);
  const attrs = scanner.attrs.sort((x, y) => x.at.s - y.at.s);
  return { source, root, items, attrs, hasText, chars };
}
