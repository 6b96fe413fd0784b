import { describe, expect, it } from 'vitest';
import { termsToText, textToTerms } from '../../../src/ui/options/glossary-text';

describe('glossary terms in the options page', () => {
  it('reads one "source = target" per line, trimming, skipping incomplete lines', () => {
    expect(textToTerms('court = tribunal\n  plaintiff=demandante \nno equals sign\n = empty\nx =\nE = mc2 = energy')).toEqual({
      court: 'tribunal',
      plaintiff: 'demandante',
      E: 'mc2 = energy',
    });
  });

  it('writes what it reads back', () => {
    const terms = { court: 'tribunal', 'supreme court': 'Tribunal Supremo' };
    expect(textToTerms(termsToText(terms))).toEqual(terms);
  });
});
