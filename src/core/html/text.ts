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

/** Characters as the interface counts them: Unicode code points, not UTF-16 units. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** HTML's whitespace (not \s: a no-break space is content). */
export function isBlank(s: string): boolean {
  return /^[ \t\n\f\r]*$/.test(s);
}

/** Text worth sending to a translator: it has letters (numbers and punctuation alone stay as they are). */
export function hasLetters(s: string): boolean {
  return /\p{L}/u.test(s);
}
