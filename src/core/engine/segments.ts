/**
 * Fitting texts into a provider's per-request limits: long texts are cut at paragraph, then
 * sentence, then word boundaries and joined back after translation; texts are packed into batches
 * of at most `limits.segments` segments and `limits.chars` code points.
 */
import type { ProviderLimits } from '../provider';

import { codePoints } from '../html/text';
import { segmenter } from '../intl';
export { codePoints };

/** Cuts `text` into consecutive pieces of at most `max` code points; their concatenation is `text`. */
export function cut(text: string, max: number): string[] {
  if (codePoints(text) <= max) return [text];
  const byParagraph = text.split(/(?<=\n)/);
  if (byParagraph.length > 1) return pack(byParagraph, max, (t) => cut(t, max));
  const bySentence = [...segmenter('sentence', 'en').segment(text)].map((s) => s.segment);
  if (bySentence.length > 1) return pack(bySentence, max, (t) => cut(t, max));
  const byWord = [...segmenter('word', 'en').segment(text)].map((s) => s.segment);
  if (byWord.length > 1) return pack(byWord, max, hardCut(max));
  return hardCut(max)(text);
}

const hardCut = (max: number) => (text: string): string[] => {
  const cps = [...text];
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += max) out.push(cps.slice(i, i + max).join(''));
  return out;
};

/** Greedily joins consecutive parts while they fit; a part that alone is too long is cut further. */
function pack(parts: string[], max: number, further: (t: string) => string[]): string[] {
  const out: string[] = [];
  let cur = '';
  let curLen = 0;
  for (const part of parts) {
    const len = codePoints(part);
    if (curLen + len <= max) {
      cur += part;
      curLen += len;
      continue;
    }
    if (cur) out.push(cur);
    if (len <= max) {
      cur = part;
      curLen = len;
    } else {
      out.push(...further(part));
      cur = '';
      curLen = 0;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** A piece of one input text, as sent to the provider. */
export interface Piece {
  /** Index of the input text it belongs to. */
  text: number;
  value: string;
  chars: number;
}

/** Groups pieces into batches that respect the provider's segment and character limits. */
export function batches(pieces: readonly Piece[], limits: ProviderLimits): Piece[][] {
  const out: Piece[][] = [];
  let cur: Piece[] = [];
  let chars = 0;
  for (const p of pieces) {
    if (cur.length > 0 && (cur.length >= limits.segments || chars + p.chars > limits.chars)) {
      out.push(cur);
      cur = [];
      chars = 0;
    }
    cur.push(p);
    chars += p.chars;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
