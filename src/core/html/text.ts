/** Text helpers for the document format: escaping, counting, classifying. */

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\u00a0': '&nbsp;', '"': '&quot;' };

/** Text content as HTML: after this nothing in it can open a tag or an entity. */
export function escapeText(s: string): string {
  return s.replace(/[&<>\u00a0]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/** The same for text sent to a provider: `&#160;` survives translators that touch entity names (`&NBSP;`). */
export function escapeSegment(s: string): string {
  return s.replace(/[&<>\u00a0]/g, (c) => (c === '\u00a0' ? '&#160;' : (TEXT_ESCAPES[c] ?? c)));
}

/** A value for a double-quoted attribute; `<` and `>` too, so no later re-serialization can turn it into markup. */
export function escapeAttr(s: string): string {
  return s.replace(/[&<>"\u00a0]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/** Text as read: runs of white space as one space, none at the ends. */
export function readAs(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** A high surrogate: the first UTF-16 unit of a character outside the BMP (an emoji, a CJK extension). */
const HIGH_SURROGATE = /[\ud800-\udbff]/;
/** A high surrogate and the low one after it: one code point in two UTF-16 units. */
const SURROGATE_PAIRS = /[\ud800-\udbff][\udc00-\udfff]/g;

/**
 * Characters as the interface counts them: Unicode code points, not UTF-16 units (a lone
 * surrogate counts as one). Most text has no character outside the BMP, which one scan of the
 * regexp engine tells; a loop of `charCodeAt` ran in V8's interpreter on a page's first
 * translation, where every unit's text is counted (~30 ns a character cold, against ~3 for the scan).
 */
export function codePoints(s: string): number {
  if (!HIGH_SURROGATE.test(s)) return s.length;
  return s.length - (s.match(SURROGATE_PAIRS)?.length ?? 0);
}

/**
 * The white space (`\s`) a string starts or ends with, read a character at a time: a pattern
 * anchored at the end, `/\s*$/`, is tried from every position, and `trimStart` copies the rest.
 */
export function leadingSpace(s: string): string {
  let i = 0;
  while (i < s.length && isSpaceCode(s.charCodeAt(i))) i++;
  return i === 0 ? '' : s.slice(0, i);
}

export function trailingSpace(s: string): string {
  let i = s.length;
  while (i > 0 && isSpaceCode(s.charCodeAt(i - 1))) i--;
  return i === s.length ? '' : s.slice(i);
}

/** Whether a UTF-16 unit is one `\s` matches (ECMAScript WhiteSpace and LineTerminator). */
function isSpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * HTML's whitespace (not \s: a no-break space is content). By character codes, not a regex: the
 * content script asks it of the edges of every unit and element it sends (~20 ms of sampled time
 * on the largest saved page as a regex), and most texts fail at their first character.
 */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12) return false;
  }
  return true;
}

/** Text worth sending to a translator: it has letters (numbers and punctuation alone stay as they are). */
export function hasLetters(s: string): boolean {
  return /\p{L}/u.test(s);
}

/** One unbroken token shaped like a URL, an e-mail address, percent-encoding or a query string. */
const NOT_PROSE = /^[a-z][a-z0-9+.-]*:\/\/|^[^@]+@[^@]+\.[a-z]{2,}$|%[0-9a-f]{2}|=[^&]*&/i;

/** A TeX control word (`\frac`, `\displaystyle`); with a brace, a formula's source, not prose. */
const TEX_COMMAND = /\\[A-Za-z]+/;

/**
 * An attribute value worth translating: it has letters, it is not a TeX formula (a formula's
 * image carries its source as `alt`: `{\displaystyle A^{\mathsf {H}}}` on Wikipedia, 12% of
 * what a mathematics article's calls carried), and it is not one unbroken token shaped
 * like a URL, an e-mail address, percent-encoding or a query string. Wikipedia's COinS citation
 * metadata (`title="ctx_ver=Z39.88-2004&rft_val_fmt=..."`) was 82% of the title text of a long
 * list page (aows-nba: 398k of 483k characters, more than its visible text). A value without
 * spaces is still prose in Chinese or Japanese, so only those shapes are refused.
 */
export function isProseValue(s: string): boolean {
  if (!hasLetters(s)) return false;
  const t = s.trim();
  if (TEX_COMMAND.test(t) && t.includes('{')) return false;
  return /\s/.test(t) || !NOT_PROSE.test(t);
}

/**
 * One letter of an alphabet alone, with marks, digits or punctuation around it at most: a label,
 * not a word. Wikipedia's citation backlinks ("^ a b c": 758 on the largest saved page),
 * an index's "A B C", a grade, "(b)". Sent as a word, a translator turns it into one (Apertium:
 * "a" → "Un", "I" → "Yo"). A character of a script whose one character is a word (Chinese,
 * Japanese) is not one of these.
 */
export const LONE_LETTER = /^[^\p{L}]*[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}][^\p{L}]*$/u;

export function isLoneLetter(text: string): boolean {
  return text.length <= 16 && LONE_LETTER.test(text);
}
