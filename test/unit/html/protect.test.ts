import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/core/errors';
import { protect, protectText } from '../../../src/core/html/protect';
import { upperOutsideTags } from '../../fakes/fake-provider';

const identity = (s: readonly string[]): string[] => [...s];

describe('protect: what is sent', () => {
  it.each([
    ['<a href="/x" class="k">Hello <b>world</b></a>', ['<a id="1">Hello <b id="2">world</b></a>']],
    ['Text with <br> a break', ['Text with <br id="1"> a break']],
    ['<p>Use <code class="x">f()</code> now</p>', ['<p id="1">Use <code id="2"></code> now</p>']],
    ['<p>Say <span translate="no">Acme</span> twice</p>', ['<p id="1">Say <span id="2"></span> twice</p>']],
    ['<p>Say <span class="a notranslate">Acme</span>!</p>', ['<p id="1">Say <span id="2"></span>!</p>']],
    ['<p>Edit <span contenteditable>me</span></p>', ['<p id="1">Edit <span id="2"></span></p>']],
    ['<p>Edit <span contenteditable="false">me</span></p>', ['<p id="1">Edit <span id="2">me</span></p>']],
    ['<p>a &lt; b &amp; c&nbsp;d</p>', ['<p id="1">a &lt; b &amp; c&#160;d</p>']],
    ['<p>Photo <img src="c.png" alt="A cat"></p>', ['<p id="1">Photo <img id="2"></p>', 'A cat']],
    ['<p title="Tip &amp; trick">Hi</p>', ['<p id="1">Hi</p>', 'Tip &amp; trick']],
    // Not prose: citation metadata (COinS), a URL; a title without spaces in Japanese is.
    ['<p>Cite<span class="Z3988" title="ctx_ver=Z39.88-2004&amp;rft.btitle=A+Book&amp;rft.date=2021"></span> <a title="https://example.com/a">here</a></p>', ['<p id="1">Cite<span id="2"></span> <a id="3">here</a></p>']],
    ['<p><abbr title="東京都">Tokyo</abbr></p>', ['<p id="1"><abbr id="2">Tokyo</abbr></p>', '東京都']],
    // No text: no markup segment, only the attribute values.
    ['<input type="submit" value="Send now"><input type="text" value="typed">', ['Send now']],
    ['<label>Name <input placeholder="Your name"></label>', ['<label id="1">Name <input id="2"></label>', 'Your name']],
    // Comments, scripts and ignored tags ride along with what precedes them instead of being sent.
    ['<p>One</p><!-- c --><script>x()</script><p>Two</p>', ['<p id="1">One</p><p id="2">Two</p>']],
    ['<p>Hi <!-- c --> there</p>', ['<p id="1">Hi <x-keep id="2"></x-keep> there</p>']],
    ['\n<script>a</script>\n<p>Only</p>\n<!-- end -->\n', ['<p id="1">Only</p>']],
    ['<table><!-- c --><tr><td>Cell</td><td>42</td></tr></table>', ['<table id="1"><tr id="2"><td id="3">Cell</td><td id="4"></td></tr></table>']],
    ['<p>Math <svg><text>x</text></svg> and <math><mi>y</mi></math></p>', ['<p id="1">Math <x-keep id="2"></x-keep> and <x-keep id="3"></x-keep></p>']],
    ['<div translate="no"><img alt="Not me"></div><p>Yes</p>', ['<p id="2">Yes</p>'].map((s) => s.replace('2', '1'))],
    // The nearest translate decides (HTML): what says yes inside a no is sent, what is around it kept.
    ['<div translate="no"><h1>Acme</h1><p translate="yes">Faster <b>now</b></p></div>', ['<div id="1"><h1 id="2"></h1><p id="3">Faster <b id="4">now</b></p></div>']],
    ['<p>Buy <span class="notranslate">Acme <em translate="">deluxe</em></span> today</p>', ['<p id="1">Buy <span id="2"><em id="3">deluxe</em></span> today</p>']],
    ['<div translate="no"><p>Kept <i translate="yes">open <img alt="A dog"></i></p></div>', ['<div id="1"><p id="2"><i id="3">open <img id="4"></i></p></div>', 'A dog']],
    // Not through what is left out for its kind, nor one element saying both (the class wins).
    ['<div translate="no"><code translate="yes">x()</code><pre><b translate="yes">y</b></pre><b class="notranslate" translate="yes">z</b></div><p>Plain</p>', ['<p id="1">Plain</p>']],
  ])('%s', (input, segments) => {
    expect(protect(input).segments).toEqual(segments);
  });

  it.each([
    ['   \n\t', 'blank'],
    ['<script>alert("hello")</script><style>p{}</style><!-- note -->', 'markup only'],
    ['<pre>code here</pre><code>x</code>', 'kept content only'],
    ['<p>42</p><p>3.14 — 7</p>', 'no letters'],
    ['', 'empty'],
  ])('%j (%s) sends nothing and comes back unchanged', (input) => {
    const p = protect(input);
    expect(p.segments).toEqual([]);
    expect(p.chars).toBe(0);
    expect(p.restore([])).toBe(input);
  });

  it('counts code points of the text and attribute values sent', () => {
    expect(protect('<p>héllo 😀 <b>x</b></p>').chars).toBe('héllo 😀 '.length - 1 + 1);
    expect(protect('<p title="ab">cd</p>').chars).toBe(4);
    expect(protect('<p>a</p>\n\n<p>b</p>').chars).toBe(2);
  });
});

describe('protect: restore', () => {
  it.each([
    ['<a href="/x" class="k">Hello <b>world</b></a>', '<a href="/x" class="k">HELLO <b>WORLD</b></a>'],
    ['<p class=x>Use <code>f()</code> now<br/>please</p>', '<p class=x>USE <code>f()</code> NOW<br/>PLEASE</p>'],
    ['<p>Photo <img src="c.png" alt="A cat" width=3></p>', '<p>PHOTO <img src="c.png" alt="A CAT" width=3></p>'],
    ["<p data-x='1' title='tip'>Hi</p>", `<p data-x='1' title="TIP">HI</p>`],
    ['<ul><li>one<li>two</ul>', '<ul><li>ONE<li>TWO</ul>'],
    ['<p>Hi <!-- keep me --> there</p>', '<p>HI <!-- keep me --> THERE</p>'],
    ['<p>a&nbsp;b</p>', '<p>A&nbsp;B</p>'],
    ['</div><p>tail of a split block</p></div>', '</div><p>TAIL OF A SPLIT BLOCK</p></div>'],
    ['<div><p>head of a split block</p>', '<div><p>HEAD OF A SPLIT BLOCK</p>'],
    ['<tr><td>row</td></tr><tr><td>two</td></tr></table>', '<tr><td>ROW</td></tr><tr><td>TWO</td></tr></table>'],
    ['<table>\n<input type=hidden name=a>\n<tr><td>cell</td></tr></table>', '<table>\n<input type=hidden name=a>\n<tr><td>CELL</td></tr></table>'],
    [
      '<header translate="no" title="Acme"><h1>Acme</h1> <!-- c --> <p translate="yes" title="a tip">Faster <b>now</b></p>tail</header>',
      '<header translate="no" title="Acme"><h1>Acme</h1> <!-- c --> <p translate="yes" title="A TIP">FASTER <b>NOW</b></p>tail</header>',
    ],
  ])('upper-casing provider: %s', (input, expected) => {
    const p = protect(input);
    expect(p.restore(p.segments.map(upperOutsideTags))).toBe(expected);
  });

  it.each([
    '<a href="/x" class="k">Hello <b>world</b></a>',
    '<P CLASS="a">Mixed &copy; &#8217; &#x2019; entities\r\nand CRLF</P>',
    '<p>Unclosed <b>bold <i>both</b> italic</i> end',
    '<p>a</span>b</p><div>c</br>d</div>',
    '<p title=\'q\' alt=x>attrs <img alt="&quot;cat&quot;"></p>',
  ])('identity answers give the input back byte for byte: %s', (input) => {
    const p = protect(input);
    expect(p.restore(identity(p.segments))).toBe(input);
  });

  it.each([
    ['<b>x<p>y</b>z</p>', '<b>x</b><p>yz</p>'],
    ['<table>foster<tr><td>x</td></tr></table>', 'foster<table><tr><td>x</td></tr></table>'],
  ])('misnested input comes back in the order the parser gave it: %s', (input, expected) => {
    const p = protect(input);
    expect(p.restore(identity(p.segments))).toBe(expected);
  });

  it('writes an answer that changed an element’s text with the element’s original tags', () => {
    const p = protect('<p id="intro" class="lead">Good <em>morning</em></p>');
    expect(p.restore(['<p id="1">Buenos <em id="2">días</em></p>'])).toBe('<p id="intro" class="lead">Buenos <em>días</em></p>');
  });

  it('follows the order the translator chose', () => {
    const p = protect('<p><b>red</b> <i>car</i></p>');
    expect(p.segments).toEqual(['<p id="1"><b id="2">red</b> <i id="3">car</i></p>']);
    expect(p.restore(['<p id="1"><i id="3">coche</i> <b id="2">rojo</b></p>'])).toBe('<p><i>coche</i> <b>rojo</b></p>');
  });

  it('puts back opaque elements the answer lost, at the end of their parent', () => {
    const p = protect('<p>See <img src="a.png"> and <code>x</code> here</p><p>Next</p>');
    expect(p.restore(['<p id="1">Mira aquí</p><p id="4">Siguiente</p>'])).toBe(
      '<p>Mira aquí<img src="a.png"><code>x</code></p><p>Siguiente</p>',
    );
  });

  it('keeps the text of a text element the answer lost, and what it held that is opaque', () => {
    const p = protect('<p>A <a href="/l">link <img src="i.png"></a> here</p>');
    expect(p.restore(['<p id="1">Un enlace aquí</p>'])).toBe('<p>Un enlace aquí<img src="i.png"></p>');
  });

  it('escapes text: what the translator wrote as text stays text', () => {
    const p = protect('<p>x</p>');
    expect(p.restore(['<p id="1">a &lt;b&gt; &amp; c\u00a0d</p>'])).toBe('<p>a &lt;b&gt; &amp; c&nbsp;d</p>');
  });

  it('decodes attribute answers given as HTML and escapes them into the start tag', () => {
    const p = protect('<img alt="cat" src="c.png">x');
    expect(p.restore(['x', 'Tom &amp; <b>Jerry</b> "quoted"'])).toBe('<img alt="Tom &amp; Jerry &quot;quoted&quot;" src="c.png">x');
  });

  it.each([[[]], [['a', 'b']], [['<p id="1">x</p>', 'extra']]])('an answer with %j segments is a provider failure (502)', (answer) => {
    const p = protect('<p>one</p>');
    expect(() => p.restore(answer)).toThrow(ProviderError);
    try {
      p.restore(answer);
    } catch (e) {
      expect((e as ProviderError).code).toBe(502);
    }
  });
});

describe('protectText: markers for providers without an HTML mode', () => {
  it.each([
    ['<a href="/x">Hello <b>world</b></a>', ['[1]Hello [2]world[/2][/1]']],
    ['<p>See [1] and [/2] and [ 3 ]</p>', ['[1]See [[1] and [[/2] and [[ 3 ][/1]']],
    ['<p>Bracket [</p>', ['[1]Bracket [[[/1]']],
    ['<p>a &amp; b &lt;c&gt;</p><img alt="x &amp; y">', ['[1]a & b <c>[/1]', 'x & y']],
  ])('%s', (input, segments) => {
    expect(protectText(input).segments).toEqual(segments);
  });

  it.each([
    ['<p>See [1] and [[x]] <b>[2]</b>[</p>'],
    ['<p>Wiki[<i><a href="/c">citation needed</a></i>]</p>'],
    ['<p>a &amp; b &lt;c&gt; <img src=x alt="dog"></p>'],
  ])('identity answers give the input back: %s', (input) => {
    const p = protectText(input);
    expect(p.restore(identity(p.segments))).toBe(input);
  });

  it('reads markers the way translators mangle them, and escapes the text', () => {
    const p = protectText('<p>Hello <b>big</b> world<br></p>');
    expect(p.segments).toEqual(['[1]Hello [2]big[/2] world[3][/1]']);
    expect(p.restore(['[ 1 ]Hola <mundo> [ 2]grande[/ 2 ][3][/1]'])).toBe('<p>Hola &lt;mundo&gt; <b>grande</b><br></p>');
  });

  it('drops unknown and repeated markers, keeps their text, puts back lost opaque elements', () => {
    const p = protectText('<p>A <b>b</b> <img src="i.png"></p>');
    expect(p.restore(['[1]X [9]y[/9] [2]B[/2] [2]again[/2][/1]'])).toBe('<p>X y <b>B</b> again<img src="i.png"></p>');
  });
});
