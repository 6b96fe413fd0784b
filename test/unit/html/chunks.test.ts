import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitDocument, splitParsed, splitSentences } from '../../../src/core/html/chunks';
import { protect } from '../../../src/core/html/protect';

describe('splitDocument: chunks concatenate to the input exactly', () => {
  it.each([
    ['empty', ''],
    ['plain text', 'just some words, no markup at all'],
    ['blank', ' \n\t '],
    ['malformed', '<p>open <b>bold <i>both</b> text</i><div>x</span>y</div></div></p><p'],
    ['comments and doctype', '<!-- a --><!DOCTYPE html><!--b--><p>x</p><!-- unterminated'],
    ['crlf and emoji', '<p>line\r\none 😀</p>\r\n<p>two 👍🏽</p>\r\n'],
    ['scripts holding tags', '<p>a</p><script>document.write("</p><p>")</script><p>b</p>'],
    ['entities', '<p>a &amp; b &nbsp; &#8217; &copy &notin; c</p><p>d&lt;e</p>'],
    ['bom document', '\uFEFF<!doctype html><html><head><title>t</title></head><body><p>x</p><p>y</p></body></html>'],
    ['stray end tags', '</div></p></body></html><p>a</p></td>'],
    ['table', '<table><tr><td>a</td></tr>text<tr><td>b</td></tr></table>'],
    ['nested 20000 deep', `${'<div><p>a</p>'.repeat(20_000)}${'</div>'.repeat(20_000)}`],
  ])('%s', (_name, html) => {
    for (const max of [1, 5, 1000]) expect(splitDocument(html, max).join('')).toBe(html);
  });
});

describe('splitDocument: a fragment within the budget is not parsed', () => {
  // Markup of every kind the parse weighs: blocks, inline runs, <br>, translatable attributes,
  // entities (decoded shorter than written), comments, scripts, tables, stray and unclosed tags.
  const piece = fc.constantFrom(
    '<p>', '</p>', '<div>', '</div>', '<b>', '</b>', '<br>', '<li>', '<table><tr><td>', '</td></tr></table>',
    '<a title="A linked page">', '</a>', '<img alt="A photo of a cat">', '<input placeholder="Your name">',
    '&amp;', '&nbsp;', '&#8217;', '&notin;', '<!-- note -->', '<script>x("</p>")</script>', '\r\n', '😀',
    'word ', 'Two words. ', 'ça va ', '<', '>', '"',
  );
  it('gives one chunk, as the parse does, whenever the fragment is no longer than the budget', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 40 }), (parts, slack) => {
        const html = parts.join('');
        const max = html.length + slack;
        expect(splitDocument(html, max)).toEqual([html]);
        expect(splitParsed(html, max)).toEqual([html]);
      }),
      { numRuns: 500 },
    );
  });

  it('parses a fragment longer than the budget, and a document of any length', () => {
    expect(splitDocument('<p>aaa</p><p>bbb</p>', 5)).toEqual(['<p>aaa</p>', '<p>bbb</p>']);
    const doc = '<!doctype html><html><head><title>t</title></head><body><p>x</p></body></html>';
    expect(splitDocument(doc, 1000)).toEqual(splitParsed(doc, 1000));
    expect(splitDocument(doc, 1000).length).toBeGreaterThan(1);
  });
});

describe('splitDocument: boundaries', () => {
  it.each([
    // [input, maxChars, chunks]
    ['<p>aaa</p><p>bbb</p>', 3, ['<p>aaa</p>', '<p>bbb</p>']],
    ['<p>aaa</p><p>bbb</p>', 6, ['<p>aaa</p><p>bbb</p>']],
    ['<p>aa</p>\n<p>bb</p>\n<p>cc</p>\n', 4, ['<p>aa</p>\n<p>bb</p>\n', '<p>cc</p>\n']],
    // A block over the limit is split between its block children, at its edges.
    ['<div class="x"><p>aaa</p><p>bbb</p></div>', 4, ['<div class="x"><p>aaa</p>', '<p>bbb</p></div>']],
    ['<ul><li>one</li><li>two</li><li>six</li></ul>', 6, ['<ul><li>one</li><li>two</li>', '<li>six</li></ul>']],
    ['<table><tr><td>aaa</td></tr><tr><td>bbb</td></tr></table>', 3, ['<table><tr><td>aaa</td></tr>', '<tr><td>bbb</td></tr></table>']],
    // ...or left whole when it has none: an inline run is never cut.
    ['<p>aaaa <b>bbbb</b> cccc</p><p>d</p>', 3, ['<p>aaaa <b>bbbb</b> cccc</p>', '<p>d</p>']],
    ['text <b>bold</b> more<p>para</p>', 4, ['text <b>bold</b> more', '<p>para</p>']],
    // Last resort for a long block or run without blocks: after its own <br>s, never inside an inline element.
    ['<p>aaa<br>bbb<br/>ccc</p>', 4, ['<p>aaa<br>', 'bbb<br/>', 'ccc</p>']],
    ['<div><p>x</p>aaa <b>b<br>b</b><br>ccc</div>', 4, ['<div><p>x</p>', 'aaa <b>b<br>b</b><br>', 'ccc</div>']],
    // An inline element holding blocks can be split between them.
    ['<a href="/"><div>aaa</div><div>bbb</div></a>', 3, ['<a href="/"><div>aaa</div>', '<div>bbb</div></a>']],
    // Text that is not translated does not count.
    ['<p>aa</p><script>var long = "text text text";</script><pre>code code</pre><p>bb</p>', 4, ['<p>aa</p><script>var long = "text text text";</script><pre>code code</pre><p>bb</p>']],
    ['<p>aa</p><p translate="no">long long long</p><p>bb</p>', 4, ['<p>aa</p><p translate="no">long long long</p><p>bb</p>']],
    // Translatable attribute values count.
    ['<p>aa</p><p><img alt="a long description"></p><p>bb</p>', 10, ['<p>aa</p>', '<p><img alt="a long description"></p>', '<p>bb</p>']],
  ] as const)('%s (max %i)', (html, max, chunks) => {
    expect(splitDocument(html, max)).toEqual(chunks);
  });

  it('keeps the head of a document, and what follows the body, in chunks of their own', () => {
    const head = '<!DOCTYPE html>\n<html lang="en">\n<head><title>Title text here</title><style>p{}</style></head>\n<body class="b">';
    const html = `${head}\n<p>One two</p>\n<p>Three four</p>\n</body>\n</html>\n`;
    const chunks = splitDocument(html, 1000);
    expect(chunks[0]).toBe(head);
    expect(chunks.join('')).toBe(html);
    expect(protect(chunks[0]!).segments).toEqual([]);
    expect(chunks.slice(1).map((c) => protect(c).chars)).toContain(17);
  });

  it('cuts only where each chunk alone parses to what it held in place', () => {
    const html = '<div><p>First <b>para</b>.</p><blockquote><p>Quoted &amp; kept.</p></blockquote><p>Last<br>line</p></div>';
    const chunks = splitDocument(html, 12);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c).not.toMatch(/^[^<]*>/); // never starts inside a tag
      expect(c).not.toMatch(/&[a-z]*$/); // never ends inside an entity
      const p = protect(c);
      expect(p.restore(p.segments)).toBe(c);
    }
  });
});

describe('splitSentences', () => {
  it('returns short text whole', () => {
    expect(splitSentences('One. Two.', 100)).toEqual(['One. Two.']);
  });

  it('packs sentences up to the limit, concatenating to the text', () => {
    const text = 'First sentence here. Second one is here. Third! Fourth? Fifth.';
    const pieces = splitSentences(text, 25);
    expect(pieces.join('')).toBe(text);
    expect(pieces).toEqual(['First sentence here. ', 'Second one is here. ', 'Third! Fourth? Fifth.']);
  });

  it('splits an overlong sentence between words, then between code points', () => {
    const text = 'Supercalifragilistic words keep going 😀😀😀😀 and on';
    const pieces = splitSentences(text, 8);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) expect(Array.from(p).length).toBeLessThanOrEqual(8);
    expect(pieces).toContain('Supercal');
    expect(pieces.some((p) => p.includes('😀😀'))).toBe(true);
    expect(pieces.join('|')).not.toMatch(/\uD83D\|/); // no surrogate pair cut in two
  });

  it('splits Japanese at its sentence ends', () => {
    const text = '今日は晴れです。明日は雨でしょう。';
    expect(splitSentences(text, 10)).toEqual(['今日は晴れです。', '明日は雨でしょう。']);
  });
});
