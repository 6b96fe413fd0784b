/**
 * Units as frm=html markup, packed into Translate calls within the text limit (interface.md: the
 * limit counts code points of `dat`, markup included). Each unit is a `<p i=N>` wrapper; its inline
 * elements are sent as bare tags carrying only `i=<id>`, so no page attribute (classes, URLs, data)
 * costs budget or reaches a provider, and the answer names live nodes by id only. Anything that is
 * not prose (code, images, form controls, notranslate) is an empty placeholder.
 */
import type { PieceGroup, RangeUnit, Unit } from './segment';
import { excluded, kids } from './tags';

/** Default `limits.textSize` of the engine. */
export const TEXT_LIMIT = 1000;

/** Tags whose name a provider may see: phrasing content the HTML parser nests as written. */
const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'data', 'dfn', 'em', 'i', 'mark', 'q', 's', 'small', 'span', 'strong',
  'sub', 'sup', 'time', 'u', 'font', 'big', 'tt', 'strike', 'del', 'ins',
]);

/** One id of a call: a live node, the id of the element it sits in (0: a unit wrapper's), opaque or not. */
export interface Entry {
  node: Node;
  parent: number;
  opaque: boolean;
}

/** One Translate call being built: markup, ids to live nodes, and the unit behind each wrapper id. */
export class Call<J extends { unit: Unit }> {
  readonly parts: string[] = [];
  readonly entries: (Entry | undefined)[] = [];
  readonly jobs = new Map<number, J>();
  size = 0;

  constructor(readonly limit: number = TEXT_LIMIT) {}

  get markup(): string {
    return this.parts.join('');
  }

  /** Adds the job's unit if it fits (always, when the call is empty); false leaves the call as it was. */
  add(job: J): boolean {
    const mark = this.entries.length;
    const text = serializeUnit(job.unit, this.entries);
    const n = codePoints(text);
    if (this.size > 0 && this.size + n > this.limit) {
      this.entries.length = mark;
      return false;
    }
    this.jobs.set(mark + 1, job);
    this.parts.push(text);
    this.size += n;
    return true;
  }
}

import { codePoints } from '../core/html/text';
export { codePoints };

export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** A unit as markup, its ids appended to `entries` (the wrapper's own id first). */
export function serializeUnit(unit: Unit, entries: (Entry | undefined)[]): string {
  entries.push(undefined);
  const w = entries.length;
  if (unit.kind === 'attr') return `<p i=${w}>${escapeText(unit.value)}</p>`;
  if (unit.kind === 'piece') return `<p i=${w}>${escapeText(unit.group.sources[unit.index]!)}</p>`;
  const out: string[] = [`<p i=${w}>`];
  for (const n of unit.nodes) serializeNode(n, w, false, entries, out);
  out.push('</p>');
  return out.join('');
}

function serializeNode(n: Node, parent: number, inA: boolean, entries: (Entry | undefined)[], out: string[]): void {
  if (n.nodeType === 3) {
    out.push(escapeText((n as Text).data));
    return;
  }
  if (!(n instanceof Element)) return;
  const tag = n.tagName.toLowerCase();
  if (excluded(n)) {
    entries.push({ node: n, parent, opaque: true });
    const id = entries.length;
    out.push(tag === 'br' ? `<br i=${id}>` : tag === 'img' ? `<img i=${id}>` : `<code i=${id}></code>`);
    return;
  }
  entries.push({ node: n, parent, opaque: false });
  const id = entries.length;
  // A nested <a> would be closed by the parser; so would anything not phrasing.
  const name = PHRASING.has(tag) && !(tag === 'a' && inA) ? tag : 'span';
  out.push(`<${name} i=${id}>`);
  for (let c = n.firstChild; c; c = c.nextSibling) serializeNode(c, id, inA || tag === 'a', entries, out);
  out.push(`</${name}>`);
}

/** Standalone size of a unit's markup. */
export function unitSize(unit: Unit): number {
  return codePoints(serializeUnit(unit, []));
}

/**
 * A unit as pieces that each fit `max` alone: a run is cut between its nodes; an inline element too
 * large becomes a run of its own content; a text too large is cut at sentence boundaries.
 */
export function fit(unit: Unit, max: number): Unit[] {
  if (unitSize(unit) <= max) return [unit];
  if (unit.kind === 'attr') return [];
  if (unit.kind === 'piece') return [unit];
  const out: Unit[] = [];
  let group: Node[] = [];
  let size = 0;
  const wrapper = 12;
  const close = (anchor: Node | null) => {
    if (group.length) out.push(subRun(unit, group, anchor));
    group = [];
    size = 0;
  };
  for (const n of unit.nodes) {
    const s = codePoints(serializeRangeNodes([n]));
    if (s + wrapper > max) {
      close(n);
      if (n.nodeType === 3) out.push(...pieces(n as Text, max - wrapper, unit.hidden));
      else if (n instanceof Element && !excluded(n)) {
        out.push(...fit({ kind: 'range', parent: n, nodes: kids(n), anchor: null, whole: true, hidden: unit.hidden }, max));
      }
      continue;
    }
    if (size + s + wrapper > max) close(n);
    group.push(n);
    size += s;
  }
  close(unit.anchor);
  return out;
}

function subRun(unit: RangeUnit, nodes: Node[], anchor: Node | null): RangeUnit {
  return { kind: 'range', parent: unit.parent, nodes, anchor, whole: false, hidden: unit.hidden };
}

function serializeRangeNodes(nodes: Node[]): string {
  const out: string[] = [];
  const entries: (Entry | undefined)[] = [undefined];
  for (const n of nodes) serializeNode(n, 1, false, entries, out);
  return out.join('');
}

/** A long text node's sentences, packed into pieces that each fit `max` once escaped. */
export function pieces(text: Text, max: number, hidden: boolean): Unit[] {
  const parts: string[] = [];
  let cur = '';
  for (const sentence of sentences(text.data, max)) {
    if (cur && codePoints(escapeText(cur + sentence)) > max) {
      parts.push(cur);
      cur = '';
    }
    cur += sentence;
  }
  if (cur) parts.push(cur);
  const group: PieceGroup = { text, sources: parts, outs: parts.map(() => undefined) };
  return parts.map((_, index) => ({ kind: 'piece', group, index, hidden }));
}

/** Sentences with their trailing space; one longer than `max` is cut at spaces, then anywhere. */
function sentences(s: string, max: number): string[] {
  const seg = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'sentence' }) : null;
  const raw = seg ? [...seg.segment(s)].map((x) => x.segment) : s.split(/(?<=[.!?。！？]\s+)/);
  const out: string[] = [];
  for (const r of raw) {
    if (codePoints(escapeText(r)) <= max) {
      out.push(r);
      continue;
    }
    let cur = '';
    for (const word of r.split(/(?<=\s)/)) {
      if (cur && codePoints(escapeText(cur + word)) > max) {
        out.push(cur);
        cur = '';
      }
      if (codePoints(escapeText(word)) > max) {
        // Escaping at most quintuples a character's length.
        const chars = Array.from(word);
        const step = Math.max(1, Math.floor(max / 5));
        for (let i = 0; i < chars.length; i += step) out.push(chars.slice(i, i + step).join(''));
        continue;
      }
      cur += word;
    }
    if (cur) out.push(cur);
  }
  return out;
}
