import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadingSpace, trailingSpace } from '../../../src/core/html/text';

/** What the write-back keeps at a run's edges: exactly the white space `\s` matches. */
describe('leadingSpace and trailingSpace', () => {
  it('every UTF-16 unit counts as space exactly when \\s matches it', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      const space = /\s/.test(ch);
      expect([c, leadingSpace(`${ch}a`), trailingSpace(`a${ch}`)]).toEqual([c, space ? ch : '', space ? ch : '']);
    }
  });

  it('match /^\\s*/ and /\\s*$/ on any string', () => {
    const unit = fc.constantFrom(' ', '\n', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b', 'a', 'é', '<', '\u{1F600}');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
        const s = parts.join('');
        expect(leadingSpace(s)).toBe(/^\s*/.exec(s)![0]);
        expect(trailingSpace(s)).toBe(/\s*$/.exec(s)![0]);
      }),
    );
  });
});
