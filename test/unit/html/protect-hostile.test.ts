/**
 * Provider answers are untrusted (decisions.md: "Output markup is never trusted"). Whatever comes
 * back, the restored fragment holds only elements, attributes and comments of the input.
 */
import { describe, expect, it } from 'vitest';
import { parseFragment } from 'parse5';
import type { DefaultTreeAdapterTypes as P } from 'parse5';
import { protect, protectText, type Protected } from '../../../src/core/html/protect';
import { LostMarkupError } from '../../../src/core/html/rebuild';
import { foreignMarkup } from './provenance';

const INPUT =
  '<p class="lead">Hello <a href="/home" title="Home page">world</a>, see <img src="cat.png" alt="A cat">' +
  ' and <code>x()</code>.<!-- note --></p><ul><li>One</li><li>Two <b>bold</b></li></ul>';

const HOSTILE = [
  '<p id="1">HELLO <script>alert(1)</script><a id="2">WORLD</a></p>',
  '<img src=x onerror=alert(1)><p id="1">x</p>',
  '<svg onload=alert(1)><a id="2">x</a></svg>',
  '<svg><script>alert(1)</script><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>',
  '<a id="2" href="javascript:alert(1)" onclick="alert(1)">x</a>',
  '<p id="1" onmouseover="alert(1)" style="x:expression(alert(1))">x</p>',
  '<p id="1">"><b>x</b><img src=x onerror=alert(1)></p>',
  '<style>*{background:url(javascript:alert(1))}</style><p id="1">x</p>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<template><img src=x onerror=alert(1)></template>',
  '<b id="99">unknown</b><i id="abc">bad id</i><u id="-1">neg</u><s id="1e3">exp</s>',
  '<a id="2">one</a><a id="2">two</a><p id="1"><p id="1">dup</p></p>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<!--><img src=x onerror=alert(1)>-->',
  '<xmp><img src=x onerror=1></xmp><textarea><img src=x onerror=1></textarea><title><img src=x onerror=1></title>',
  '<plaintext><img src=x onerror=alert(1)>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)"><base href="javascript:/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><link rel=import href=x>',
  '<a id="2"><a id="3" href="http://127.0.0.1:9/evil">nested</a></a>',
  '<code id="4" onclick="x">c</code><img id="3" src="x" onerror="alert(1)">',
  '<table><tr><td><p id="1">in table</p></td></tr></table><select><option>x</option></select>',
  '<body onload=alert(1)><html manifest=x><head><base href=//evil>',
  '<p id="1">\u0000<scr\u0000ipt>alert(1)</script>&lt;script&gt;</p>',
  '<!DOCTYPE html><p id="1">x</p><?xml version="1.0"?>',
  '<input id="1" autofocus onfocus=alert(1)><button formaction=javascript:alert(1)>x</button>',
  '<a id="2" href="/home" title="Home page">the same attributes, still not copied</a>',
  '</p></a></li></ul><p id="1">closers</p>',
];

const ATTR_HOSTILE = [
  '" onerror="alert(1)',
  '"><script>alert(1)</script>',
  "' onmouseover='alert(1)",
  '<img src=x onerror=alert(1)>',
  '&quot; onerror=&quot;alert(1)',
  '</p><iframe src=javascript:alert(1)>',
];

/**
 * What the engine keeps of an answer: the fragment rebuilt from it, or the input as it was where
 * the answer wrote none of its blocks (rebuild.ts `LostMarkupError`: the chunk keeps its original,
 * with an err, or is sent again block by block).
 */
function kept(p: Protected, answers: string[]): string {
  try {
    return p.restore(answers);
  } catch (e) {
    if (e instanceof LostMarkupError) return INPUT;
    throw e;
  }
}

function elementCount(html: string): number {
  let n = 0;
  const visit = (nodes: readonly P.ChildNode[]): void => {
    for (const c of nodes) {
      if ('tagName' in c) {
        n++;
        visit(c.childNodes);
      }
    }
  };
  visit(parseFragment(html).childNodes);
  return n;
}

describe.each([
  ['protect', protect],
  ['protectText', protectText],
])('%s: hostile answers', (_name, protectFn) => {
  const p = protectFn(INPUT);

  it('sends one markup segment and the attribute values', () => {
    expect(p.segments).toHaveLength(3);
  });

  it.each(HOSTILE)('markup answer %s adds nothing to the input', (answer) => {
    const out = kept(p, [answer, 'Página', 'Un gato']);
    expect(foreignMarkup(INPUT, out)).toEqual([]);
    expect(out).not.toMatch(/<(script|iframe|svg|style|template|object|embed|base|meta|form|math)\b/i);
  });

  it.each(ATTR_HOSTILE)('attribute answer %s stays inside its attribute', (answer) => {
    const out = p.restore([p.segments[0]!, answer, answer]);
    expect(foreignMarkup(INPUT, out)).toEqual([]);
    // The element count proves no breakout: the value could not open or close anything.
    expect(elementCount(out)).toBe(elementCount(INPUT));
  });

  it('keeps the text of hostile answers as text, and loses no image or code', () => {
    const answer = protectFn === protect ? '<p id="1"><b id="99">unknown</b> <script>gone()</script><a id="2">WORLD</a></p>' : '[1][99]unknown[/99] <script>gone()</script>[2]WORLD[/2][/1]';
    const out = kept(p, [answer, 'x', 'y']);
    expect(out).toContain('unknown');
    // In HTML mode a script is markup and dropped with its content; in text mode it is text.
    expect(out).not.toMatch(/<script/i);
    expect(out.includes('gone()')).toBe(protectFn === protectText);
    expect(out).toContain('<img src="cat.png" alt="y">');
    expect(out).toContain('<code>x()</code>');
    expect(out).toContain('<!-- note -->');
  });
});

// A chunk whose answer lost its blocks goes again block by block, and an answer without its one
// block's tags is written into that block (rebuild.ts): the same answers, into one block.
describe.each([
  ['protect', protect],
  ['protectText', protectText],
])('%s: hostile answers to one block', (_name, protectFn) => {
  const ONE = '<p class="lead">Hello <a href="/home" title="Home page">world</a>, see <img src="cat.png" alt="A cat"> and <code>x()</code>.<!-- note --></p>';
  const p = protectFn(ONE);

  it.each(HOSTILE)('markup answer %s adds nothing to the input', (answer) => {
    let out: string;
    try {
      out = p.restore([answer, 'Página', 'Un gato']);
    } catch (e) {
      // An answer with no words and no block: an err, nothing written.
      if (!(e instanceof LostMarkupError)) throw e;
      expect(answer).not.toMatch(/id="1"/);
      return;
    }
    expect(foreignMarkup(ONE, out)).toEqual([]);
    expect(out).not.toMatch(/<(script|iframe|svg|style|template|object|embed|base|meta|form|math)\b/i);
    // An answer that wrote no block is written into the input's one block, all of it.
    if (!/<p id="1"|\[1\]/.test(answer)) expect(out).toMatch(/^<p class="lead">[\s\S]*<\/p>$/);
  });
});

describe('random hostile answers (seeded)', () => {
  // A small deterministic generator, so a failure names a reproducible case.
  function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }
  const PIECES = [
    'text ', 'ÜBER ', '<', '>', '"', "'", '=', '/', '&', '&lt;', '&amp;', '<!--', '-->', '</', '<p id="1">', '</p>',
    '<a id="2">', '</a>', '<img id="3">', '<code id="4">', '</code>', '<li id="6">', '<b id="7">', '</b>', '<ul id="5">',
    '<script>', '</script>', '<style>', '</style>', '<svg>', '</svg>', '<math>', '<mtext>', '<table>', '<tr>', '<td>',
    '<noscript>', '</noscript>', '<template>', '</template>', '<iframe>', '<textarea>', '</textarea>', '<title>',
    '<img src=x onerror=alert(1)>', ' onerror=alert(1)', ' href="javascript:alert(1)"', '<a href=//evil>', '<select>',
    '<option>', '<form>', '</form>', '<p id="1" class=x>', '<br>', '<plaintext>', '[1]', '[/1]', '[2]', '[/2]', '[3]',
    '[[', ']', '[ 7 ]', '[/7]', '[99]', '\u0000', '<![CDATA[', ']]>', '<?x', '<!doctype html>', '<body onload=x>',
  ];

  it('2000 answers built from hostile pieces never add markup (both modes)', () => {
    const next = rng(20240601);
    const html = protect(INPUT);
    const text = protectText(INPUT);
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(next() * 24);
      let answer = '';
      for (let k = 0; k < n; k++) answer += PIECES[Math.floor(next() * PIECES.length)];
      const attr = PIECES[Math.floor(next() * PIECES.length)]! + PIECES[Math.floor(next() * PIECES.length)]!;
      for (const p of [html, text]) {
        const out = kept(p, [answer, attr, attr]);
        const foreign = foreignMarkup(INPUT, out);
        if (foreign.length) throw new Error(`case ${i}: ${JSON.stringify(answer)} gave ${JSON.stringify(out)}: ${foreign.join(', ')}`);
      }
    }
  });
});

describe('hostile answers in other contexts', () => {
  it.each([
    ['<tr><td>Cell <b>one</b></td></tr>', '<td id="2"><script>alert(1)</script>x</td><td>new cell</td>'],
    ['<option>Apple</option><option>Pear</option>', '<option id="1">A</option><option id="3">B<img src=x onerror=1></option>'],
    ['<dl><dt>Term</dt><dd>Def</dd></dl>', '<dl id="1"><dt id="2">T</dt><dd id="3"><iframe></iframe>D</dd><dd>extra</dd></dl>'],
    ['<textarea>keep</textarea><p>Go</p>', '<p id="1"></textarea><script>x</script>go</p>'],
  ])('%s', (input, answer) => {
    const out = protect(input).restore([answer]);
    expect(foreignMarkup(input, out)).toEqual([]);
  });
});

describe('nesting', () => {
  it('an answer nested 100000 deep is read without exhausting the stack, its text kept', () => {
    const p = protect('<p>x</p>');
    expect(p.restore([`<p id="1">${'<b>'.repeat(100_000)}deep</p>`])).toBe('<p>deep</p>');
    const t = protectText('<p>x</p>');
    expect(t.restore([`${'[1]'.repeat(100_000)}deep`])).toBe('<p>deep</p>');
  });

  it('an input nested 20000 deep restores exactly', () => {
    const input = `${'<div>'.repeat(20_000)}text${'</div>'.repeat(20_000)}`;
    const p = protect(input);
    expect(p.restore(p.segments)).toBe(input);
  });
});

describe('a chunk of blocks (page units) keeps every block\'s words whatever the answer', () => {
  const UNITS = '<p i=1>Unit one says <a i=2>dear <b i=3>friend</b></a> and <img i=4> more.</p><p i=5>Second unit</p><p i=6>Third unit</p>';
  const words = (html: string) => parseFragment(html).childNodes.map((n) => ('childNodes' in n ? textOfNode(n) : ''));
  function textOfNode(n: P.ChildNode): string {
    if (n.nodeName === '#text') return (n as P.TextNode).value;
    return 'childNodes' in n ? n.childNodes.map(textOfNode).join('') : '';
  }

  it('a provider <p> that closes a unit early: the words after it stay in that unit, not between units', () => {
    const p = protect(UNITS);
    const answer = p.segments[0]!.replace('<p id="1">', '<p id="1"><p onclick=x>evil</p>').toUpperCase().replace(/ID=/g, 'id=').replace(/<\/?[A-Z]+/g, (t) => t.toLowerCase());
    const out = p.restore([answer]);
    expect(foreignMarkup(UNITS, out)).toEqual([]);
    // Every word is inside one of the three units; nothing at the top level.
    expect(parseFragment(out).childNodes.filter((n) => n.nodeName === '#text' && /\S/.test((n as P.TextNode).value))).toEqual([]);
    expect(words(out)[0]).toContain('UNIT ONE SAYS');
    expect(words(out)[0]).toContain('MORE.');
  });

  it('a stray <style> that swallows the rest of the answer: the swallowed units come back as they were', () => {
    const p = protect(UNITS);
    const answer = '<p id="1"><form><math><mtext></form><form><mglyph><style></math><img src onerror=x>UNIT ONE</p><p id="5">SECOND</p><p id="6">THIRD</p>';
    const out = p.restore([answer]);
    expect(foreignMarkup(UNITS, out)).toEqual([]);
    expect(words(out)).toEqual(['Unit one says dear friend and  more.', 'Second unit', 'Third unit']);
  });
});
