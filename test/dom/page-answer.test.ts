/**
 * The answer reader (answer.ts): our own markup read without a parser must give exactly what the
 * HTML parser gives (DOMParser off-page, read the same way); anything else goes to the parser.
 * The same property runs in Chromium's parser in test/e2e/page-answer-reader.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOffPage, readAnswer, readOwn, readParsed, textOf } from '../../src/content/answer';
import { answerMarkup, ownMarkup } from '../fakes/answer-markup';

const plain = (m: Map<number, unknown>) => [...m];

describe('answer reader', () => {
  it('reads our own markup itself, as the HTML parser does', () => {
    fc.assert(
      fc.property(ownMarkup, (markup) => {
        const own = readOwn(markup);
        expect(own).not.toBeNull();
        expect(plain(own!)).toEqual(plain(readParsed(parseOffPage(markup))));
      }),
      { numRuns: 300, seed: 42 },
    );
  }, 30_000);

  it('whatever it reads itself, it reads as the HTML parser does; the rest goes to the parser', () => {
    let own = 0;
    fc.assert(
      fc.property(answerMarkup, (markup) => {
        const mine = readOwn(markup);
        if (mine === null) return;
        own++;
        expect(plain(mine), markup).toEqual(plain(readParsed(parseOffPage(markup))));
      }),
      // A fixed seed: the same 1 000 answers every run, so the count below cannot flake.
      { numRuns: 1000, seed: 42 },
    );
    // The property has teeth: a good share of the cases is read without the parser.
    expect(own).toBeGreaterThan(80);
  }, 30_000);

  it('examples: entities, ids, void tags, and what it leaves to the parser', () => {
    const m = readOwn('<p i=1>A &amp; B&nbsp;<b i=2>c&#160;d</b><br i=3>&lt;e&gt;</p>x<p i="4">&quot;</p><p i=1>second</p>')!;
    expect([...m.keys()]).toEqual([1, 4]);
    expect(m.get(1)).toEqual({ id: 1, kids: ['A & B\u00a0', { id: 2, kids: ['c\u00a0d'] }, { id: 3, kids: [] }, '<e>'] });
    expect(textOf(m.get(4)!)).toBe('"');
    for (const other of ['<p i=1>a<div>b</div></p>', '<p i=1>a', '<p i=1>a</b></p>', '<p i=1><a i=2><a i=3>x</a></a></p>', '<p i=1>&copy;</p>', '<p i=1>&#0;</p>', '<p i=1>a\r\nb</p>', '<p i=1 class=x>a</p>', '<p i=1><!-- c --></p>', '<b><p i=1>x</p></b>']) {
      expect(readOwn(other), other).toBeNull();
      // Read through the parser instead, never lost.
      expect(readAnswer(other)).toEqual(readParsed(parseOffPage(other)));
    }
    // What stands outside every wrapper is no unit's: read, and left out, as the parser's reading does.
    expect(plain(readOwn('<b i=2>x</b> words<br i=3>')!)).toEqual([]);
    expect(plain(readParsed(parseOffPage('<b i=2>x</b> words<br i=3>')))).toEqual([]);
  });
});
