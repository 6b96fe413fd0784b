/** The direction a language is written in (core/intl.ts `textDirection`): where a translation is laid out right to left. */
import { describe, expect, it } from 'vitest';
import { textDirection } from '../../../src/core/intl';

describe('textDirection', () => {
  it('right to left for Arabic, Hebrew, Persian, Urdu, Kurdish (Sorani), Dhivehi, and a tag in the Arabic script', () => {
    expect(['ar', 'he', 'fa', 'ur', 'ckb', 'dv', 'ar-EG', 'pa-Arab'].map(textDirection)).toEqual(Array(8).fill('rtl'));
  });

  it('left to right for the rest, and for what is no language tag', () => {
    expect(['en', 'es', 'zh', 'ja', 'sr-Latn', 'pa', '', 'not a tag!'].map(textDirection)).toEqual(Array(8).fill('ltr'));
  });
});
