import { describe, expect, it } from 'vitest';
import { lcsKeeps, markDisagreements, tokenize } from '../../../src/ui/shared/diff';

const marked = (tokens: { text: string; differs: boolean }[]) => tokens.filter((t) => t.differs).map((t) => t.text);

describe('word diff', () => {
  it('cuts words apart from spaces and punctuation', () => {
    expect(tokenize('Hola, mundo!')).toEqual(['Hola', ', ', 'mundo', '!']);
    expect(tokenize("l'home d’avui")).toEqual(["l'home", ' ', 'd’avui']);
  });

  it('keeps the longest common subsequence', () => {
    expect(lcsKeeps(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'e'])).toEqual([true, false, true, true]);
    expect(lcsKeeps([], ['x'])).toEqual([]);
  });

  it('marks the words where alternatives disagree, in each alternative', () => {
    const [a, b, c] = markDisagreements(['El gato negro duerme.', 'El gato negro dormía.', 'El gato oscuro duerme.']);
    expect(marked(a!)).toEqual(['negro', 'duerme']);
    // Against any other alternative: b's "negro" is c's "oscuro".
    expect(marked(b!)).toEqual(['negro', 'dormía']);
    expect(marked(c!)).toEqual(['oscuro', 'duerme']);
    // Every token is still there, in order: the text reads the same.
    expect(b!.map((t) => t.text).join('')).toBe('El gato negro dormía.');
  });

  it('marks nothing for a single text or identical texts', () => {
    expect(marked(markDisagreements(['Hola mundo'])[0]!)).toEqual([]);
    const same = markDisagreements(['Hola mundo', 'Hola mundo']);
    expect(same.flatMap(marked)).toEqual([]);
  });

  it('marks a repeated word only where it has no counterpart', () => {
    const [a] = markDisagreements(['muy muy bien', 'muy bien']);
    expect(a!.filter((t) => t.differs)).toHaveLength(1);
  });
});
