/**
 * Splits text too long for one provider request at sentence boundaries (then word boundaries,
 * then anywhere between code points), so that no piece exceeds the limit and the pieces
 * concatenate to the text.
 */
import { segmenter } from '../intl';
import { codePoints } from './text';

export function splitSentences(text: string, maxChars: number, locale?: string): string[] {
  const max = Math.max(1, Math.floor(maxChars));
  if (codePoints(text) <= max) return [text];
  const pieces: string[] = [];
  let cur = '';
  let curLen = 0;
  const add = (part: string): void => {
    const len = codePoints(part);
    if (curLen + len > max && cur) {
      pieces.push(cur);
      cur = '';
      curLen = 0;
    }
    cur += part;
    curLen += len;
  };
  for (const { segment } of segmenter('sentence', locale).segment(text)) {
    if (codePoints(segment) <= max) {
      add(segment);
      continue;
    }
    for (const { segment: word } of segmenter('word', locale).segment(segment)) {
      if (codePoints(word) <= max) add(word);
      else for (const piece of hardSplit(word, max)) add(piece);
    }
  }
  if (cur) pieces.push(cur);
  return pieces;
}

function hardSplit(word: string, max: number): string[] {
  const out: string[] = [];
  const cps = Array.from(word);
  for (let i = 0; i < cps.length; i += max) out.push(cps.slice(i, i + max).join(''));
  return out;
}
