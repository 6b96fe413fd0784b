/**
 * Word-level disagreement between alternative translations: each text is cut into words and the
 * spaces/punctuation between them, and a word is marked when the longest common subsequence with
 * some other alternative leaves it out. Our own small LCS: inputs are one popup text (the engine's
 * text limit is 1000 characters by default), so the quadratic table stays small.
 */

export interface Token {
  text: string;
  /** A word that at least one other alternative does not have at this place. */
  differs: boolean;
}

/** Words keep their punctuation apart, so "mundo." and "mundo" agree on the word. */
const TOKEN = /[\p{L}\p{N}\p{M}'’_-]+|[^\p{L}\p{N}\p{M}'’_-]+/gu;
const WORD = /^[\p{L}\p{N}\p{M}'’_-]+$/u;
/** Above this many words per text the table would be too big for a UI thread: nothing is marked. */
export const MAX_WORDS = 1500;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function isWord(token: string): boolean {
  return WORD.test(token);
}

/** For each word of `a` (by index in `a`), whether the LCS with `b` keeps it. */
export function lcsKeeps(a: readonly string[], b: readonly string[]): boolean[] {
  const n = a.length;
  const m = b.length;
  // One flat row-major table of lengths of the LCS of the suffixes a[i..], b[j..].
  const table = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => table[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const kept = new Array<boolean>(n).fill(false);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      kept[i] = true;
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) i++;
    else j++;
  }
  return kept;
}

/**
 * Tokens of every text with the words marked where it disagrees with at least one other text.
 * Equal texts agree entirely; a single text has nothing to disagree with.
 */
export function markDisagreements(texts: readonly string[]): Token[][] {
  const tokens = texts.map(tokenize);
  const words = tokens.map((list) => list.filter(isWord));
  const tooBig = words.some((w) => w.length > MAX_WORDS);
  return tokens.map((list, t) => {
    const differs = new Array<boolean>(words[t]?.length ?? 0).fill(false);
    if (!tooBig) {
      words.forEach((other, o) => {
        if (o === t || texts[o] === texts[t]) return;
        lcsKeeps(words[t] ?? [], other).forEach((kept, w) => {
          if (!kept) differs[w] = true;
        });
      });
    }
    let w = 0;
    return list.map((text) => ({ text, differs: isWord(text) ? (differs[w++] ?? false) : false }));
  });
}
