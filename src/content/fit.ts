/**
 * A unit larger than a call, in pieces that each fit one: a run cut between its nodes, an inline
 * element too large made a run of its own content, a text too large cut at sentence boundaries
 * (`Intl.Segmenter`), then at spaces.
 */
import { collapsesSpace, escapeText, sentSize, serializeRangeNodes, unitSize } from './chunk';
import type { PieceGroup, RangeUnit, Unit } from './segment';
import { excluded, kids } from './tags';
import { segmenter } from '../core/intl';

/**
 * A unit as pieces that each fit `max` alone: a run is cut between its nodes; an inline element too
 * large becomes a run of its own content; a text too large is cut at sentence boundaries. A unit
 * sent by `paragraphs` is cut at them, whatever its size.
 */
export function fit(unit: Unit, max: number, whole: number = unitSize(unit)): Unit[] {
  const wrapper = 12;
  if (unit.kind === 'range' && unit.paragraphs) return unit.nodes.flatMap((n) => (n.nodeType === 3 ? pieces(n as Text, max - wrapper, unit.hidden, true) : []));
  if (whole <= max) return [unit];
  if (unit.kind === 'attr') return [];
  if (unit.kind === 'piece') return [unit];
  const out: Unit[] = [];
  let group: Node[] = [];
  let size = 0;
  const close = (anchor: Node | null) => {
    if (group.length) out.push(subRun(unit, group, anchor));
    group = [];
    size = 0;
  };
  for (const n of unit.nodes) {
    const s = sentSize(serializeRangeNodes([n]));
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
  return { kind: 'range', parent: unit.parent, nodes: nodes.slice(), anchor, whole: false, hidden: unit.hidden };
}

/**
 * A long text node's sentences, packed into pieces that each fit `max` once escaped. Where its
 * element keeps line breaks (a text file in the browser's viewer, a `pre-wrap` message), each
 * paragraph (`paragraphs`) is a piece of its own, or its sentences are: a piece that held the end
 * of one and the start of the next came back as one run of words. A fenced code block there
 * (a README's) is a piece that is not sent.
 */
export function pieces(text: Text, max: number, hidden: boolean, keepsLines = text.parentElement !== null && !collapsesSpace(text.parentElement)): Unit[] {
  const parts: string[] = [];
  const sent: number[] = [];
  const kept: number[] = [];
  for (const paragraph of keepsLines ? paragraphs(text.data) : [{ text: text.data, code: false }]) {
    if (paragraph.code) {
      kept.push(parts.push(paragraph.text) - 1);
      continue;
    }
    let cur = '';
    for (const sentence of sentences(paragraph.text, max)) {
      if (cur && sentSize(escapeText(cur + sentence)) > max) {
        sent.push(parts.push(cur) - 1);
        cur = '';
      }
      cur += sentence;
    }
    if (cur) sent.push(parts.push(cur) - 1);
  }
  const group: PieceGroup = { text, sources: parts, outs: parts.map(() => undefined) };
  if (kept.length) group.kept = new Set(kept);
  return sent.map((index) => ({ kind: 'piece', group, index, hidden }));
}

/** A list's item: a line that starts with `-`, `*`, `•`, `1.` or `1)`. */
const LIST_ITEM = /^[\t ]*(?:[-*•]|\d+[.)])[\t ]/;
/** A Markdown heading, a line of its own. */
const HEADING = /^[\t ]{0,3}#{1,6}[\t ]/;
/** A Markdown code fence, which opens a block of code up to the same fence. */
const FENCE = /^[\t ]{0,3}(`{3,}|~{3,})/;

/** Where each paragraph of `s` but the last ends (`paragraphs`), as offsets into it. */
export function paragraphEnds(s: string): number[] {
  const ends: number[] = [];
  let at = 0;
  for (const p of paragraphs(s)) ends.push((at += p.text.length));
  ends.pop();
  return ends;
}

/**
 * A text's paragraphs, each with the blank lines after it (the first with those before it too):
 * lines up to a blank one, a list's item or a heading on its own, and a fenced block of code
 * whole (`code`).
 */
function paragraphs(s: string): { text: string; code: boolean }[] {
  const out: { text: string; code: boolean }[] = [];
  let cur = '';
  let worded = false;
  let code = false;
  let heading = false;
  let afterBlank = false;
  let fence = '';
  for (const line of s.split(/(?<=\n)/)) {
    if (fence) {
      cur += line;
      const closing = line.trim();
      if (closing.startsWith(fence) && closing.replaceAll(fence[0]!, '') === '') fence = '';
      continue;
    }
    if (line.trim() === '') {
      cur += line;
      afterBlank = worded;
      continue;
    }
    const opens = FENCE.exec(line);
    const head = HEADING.test(line);
    if (worded && (afterBlank || code || heading || opens || head || LIST_ITEM.test(line))) {
      out.push({ text: cur, code });
      cur = '';
    }
    if (cur.trim() === '') code = opens !== null;
    cur += line;
    worded = true;
    heading = head;
    afterBlank = false;
    if (opens) fence = opens[1]!;
  }
  if (cur) out.push({ text: cur, code });
  return out;
}

/** Sentences with their trailing space; one longer than `max` is cut at spaces, then anywhere. */
function sentences(s: string, max: number): string[] {
  const seg = typeof Intl.Segmenter === 'function' ? segmenter('sentence') : null;
  const raw = seg ? [...seg.segment(s)].map((x) => x.segment) : s.split(/(?<=[.!?。！？]\s+)/);
  const out: string[] = [];
  for (const r of raw) {
    if (sentSize(escapeText(r)) <= max) {
      out.push(r);
      continue;
    }
    let cur = '';
    for (const word of r.split(/(?<=\s)/)) {
      if (cur && sentSize(escapeText(cur + word)) > max) {
        out.push(cur);
        cur = '';
      }
      if (sentSize(escapeText(word)) > max) {
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
