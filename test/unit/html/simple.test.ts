/**
 * The engine's simple reader (src/core/html/simple.ts) against parse5, the parser it stands in for:
 * whatever it reads itself must be parse5's tree of it, node for node, with the same source offsets
 * (the document model is built from those); anything else is left to parse5.
 */
import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { protect } from '../../../src/core/html/protect';
import type { ChildNode, Element, Span, Text } from '../../../src/core/html/rules';
import { readSimple } from '../../../src/core/html/simple';
import { answerMarkup, ownMarkup } from '../../fakes/answer-markup';

/** What the readers use of a tree: names, attributes, text and offsets. */
function shape(nodes: readonly ChildNode[]): unknown[] {
  const span = (l: Span | null | undefined) => (l ? [l.startOffset, l.endOffset] : null);
  return nodes.map((n) => {
    if ('tagName' in n) {
      const el = n as Element;
      const l = el.sourceCodeLocation;
      return {
        el: el.tagName,
        name: el.nodeName,
        ns: el.namespaceURI,
        attrs: el.attrs.map((a) => [a.name, a.value]),
        at: span(l),
        open: span(l?.startTag),
        close: span(l?.endTag),
        kids: shape(el.childNodes),
      };
    }
    if (n.nodeName === '#text') return { text: (n as Text).value, at: span(n.sourceCodeLocation) };
    return { other: n.nodeName, at: span(n.sourceCodeLocation) };
  });
}

const parsed = (s: string) => shape(parseFragment(s, { sourceCodeLocationInfo: true }).childNodes);

/** Calls as the engine gets them from other apps: text and phrasing at the top, without wrappers. */
const engineMarkup = fc
  .array(fc.oneof(answerMarkup, fc.constantFrom('Hello ', 'x &amp; y', '<b id="1">bold</b>', '<br>', '<img id=2>', '<code id="3"></code>', ' ')), { minLength: 1, maxLength: 4 })
  .map((a) => a.join(''));

describe('simple markup reader', () => {
  it('reads our own markup itself, exactly as parse5 does', () => {
    fc.assert(
      fc.property(ownMarkup, (markup) => {
        const mine = readSimple(markup);
        expect(mine, markup).not.toBeNull();
        expect(shape(mine!), markup).toEqual(parsed(markup));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('whatever it reads itself, it reads as parse5 does; the rest is left to parse5', () => {
    let own = 0;
    fc.assert(
      fc.property(engineMarkup, (markup) => {
        const mine = readSimple(markup);
        if (mine === null) return;
        own++;
        expect(shape(mine), markup).toEqual(parsed(markup));
      }),
      // A fixed seed: the same cases every run, so the count below cannot flake.
      { numRuns: 3000, seed: 7 },
    );
    // The property has teeth: a good share of the cases is read without parse5.
    expect(own).toBeGreaterThan(300);
  });

  it('examples: what it reads, and what it leaves to parse5', () => {
    expect(readSimple('<p i=1>A &amp; B&#160;<b id="2">c</b><br i=3></p> x')).not.toBeNull();
    expect(readSimple('<b><b><b><b>deep</b></b></b></b>after')).not.toBeNull();
    expect(readSimple('')).toEqual([]);
    for (const other of [
      '<div id="1">a</div>', '<p i=1>a', '<b>a</p>', '<a><a>x</a></a>', '<b><p>x</p></b>', '&copy;', '&#0;', 'a\r\nb', 'a\0b',
      '<b class=x>a</b>', '<B>a</B>', '<!-- c -->', '<br/>', '</p>', '<b id=\'1\'>x</b>', 'a < b', `${'<b>'.repeat(201)}x${'</b>'.repeat(201)}`,
    ]) {
      expect(readSimple(other), other).toBeNull();
    }
  });

  it('a call and its answers are rebuilt the same whichever reads them', () => {
    const call = '<p i=1>The <b i=2>red</b> house &amp; <a i=3>the river</a>.</p><p i=4>Two<br i=5>lines</p>';
    expect(readSimple(call)).not.toBeNull();
    const p = protect(call);
    expect(p.segments).toEqual(['<p id="1">The <b id="2">red</b> house &amp; <a id="3">the river</a>.</p><p id="4">Two<br id="5">lines</p>']);
    expect(p.restore(p.segments)).toBe(call);
    // A provider that reorders and retags: ids name the input's elements, whatever the tag. The
    // same answer in uppercase tags goes to parse5 and comes out the same.
    const answer = '<p id="1"><a id="3">El río</a> y la casa <i id="2">roja</i>.</p><p id="4">Dos<br id="5">líneas</p>';
    expect(readSimple(answer)).not.toBeNull();
    const upper = answer.replace(/<(\/?)([a-z]+)/g, (_, slash: string, tag: string) => `<${slash}${tag.toUpperCase()}`);
    expect(readSimple(upper)).toBeNull();
    const want = '<p i=1><a i=3>El río</a> y la casa <b i=2>roja</b>.</p><p i=4>Dos<br i=5>líneas</p>';
    expect(p.restore([answer])).toBe(want);
    expect(p.restore([upper])).toBe(want);
  });
});
