import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoints } from '../../../src/core/html/text';

/** The interface's character count: code points, as a string's iterator reads them. */
describe('codePoints', () => {
  it('counts a character outside the BMP once, and a lone surrogate as one', () => {
    expect(codePoints('')).toBe(0);
    expect(codePoints('Grüße')).toBe(5);
    expect(codePoints('a\u{1F600}b')).toBe(3);
    expect(codePoints('\u{20000}\u{1F600}')).toBe(2);
    expect(codePoints('\ud800')).toBe(1);
    expect(codePoints('\udc00\ud800')).toBe(2);
    expect(codePoints('\ud800\ud800\udc00')).toBe(2);
  });

  it('equals the length of the string spread into code points, whatever its units', () => {
    const unit = fc.constantFrom('a', 'é', ' ', '\ud83d', '\ude00', '\ud800', '\udfff', '\u{1F600}', '\u{10FFFF}', '\uffff');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (parts) => {
        const s = parts.join('');
        expect(codePoints(s)).toBe([...s].length);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
