/** Units by computed style, exclusions, the attribute table, and the markup a call carries. */
import { beforeEach, describe, expect, it } from 'vitest';
import { Call, TEXT_LIMIT, codePoints } from '../../src/content/chunk';
import { fit } from '../../src/content/fit';
import { Segmenter, type RangeUnit, type Unit } from '../../src/content/segment';

const html = (u: Unit) => (u.kind === 'range' ? u.nodes.map((n) => (n instanceof Element ? n.outerHTML : n.textContent)).join('') : '');
const ranges = (us: Unit[]) => us.filter((u): u is RangeUnit => u.kind === 'range');

function markupOf(u: Unit): string {
  const call = new Call<{ unit: Unit }>();
  call.add({ unit: u });
  return call.markup;
}

describe('segmentation', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
    document.body.innerHTML = '';
  });

  it('an element whose children are all inline is one unit, sent with bare inline tags', () => {
    document.body.innerHTML = '<p class="lead">Hello <b class="x">big</b> <a href="/w" data-k="1">wide <i>world</i></a>.</p>';
    const units = new Segmenter().document(document);
    expect(units).toHaveLength(1);
    const u = units[0] as RangeUnit;
    expect(u.parent).toBe(document.querySelector('p'));
    expect(u.whole).toBe(true);
    expect(markupOf(u)).toBe('<p i=1>Hello <b i=2>big</b> <a i=3>wide <i i=4>world</i></a>.</p>');
  });

  it('block children subdivide, and inline runs between blocks are units of their own', () => {
    document.body.innerHTML = '<div>Intro <b>bold</b><p>Para one</p>tail text<ul><li>Item <em>a</em></li><li>Item b</li></ul></div>';
    const units = ranges(new Segmenter().document(document));
    expect(units.map(html)).toEqual(['Intro <b>bold</b>', 'Para one', 'tail text', 'Item <em>a</em>', 'Item b']);
    expect(units[0]!.anchor).toBe(document.querySelector('p'));
    expect(units[0]!.whole).toBe(false);
  });

  it('computed style decides: a span laid out as a block subdivides, a div laid out inline joins the run', () => {
    document.body.innerHTML = '<p>One <span style="display:block">two</span></p><p>Three <div style="display:inline">four</div></p>';
    // The parser closes the second <p> before the div; build it by DOM instead.
    const p = document.createElement('p');
    p.append('Three ', Object.assign(document.createElement('div'), { textContent: 'four' }));
    (p.lastChild as HTMLElement).style.display = 'inline';
    document.body.replaceChildren(document.body.firstChild!, p);
    const units = ranges(new Segmenter().document(document));
    expect(units.map(html)).toEqual(['One ', 'two', 'Three <div style="display: inline;">four</div>']);
    expect(markupOf(units[2]!)).toBe('<p i=1>Three <span i=2>four</span></p>');
  });

  it('skips code, pre, script, style, textarea, svg, translate=no, .notranslate, contenteditable and other languages', () => {
    document.body.innerHTML = [
      '<pre>pre text</pre><script>var s = "script"</script><style>p{}</style><textarea>typed</textarea>',
      '<div translate="no">brand name</div><div class="notranslate">nope</div><div contenteditable="true">mine</div>',
      '<div lang="fr">Bonjour</div><div lang="en-GB">Colour</div><svg><text>svg text</text></svg><noscript>ns</noscript>',
      '<p>Run <code>x = 1</code> and <kbd>Ctrl</kbd> <span translate="no">Acme</span> now</p>',
    ].join('');
    const units = ranges(new Segmenter({ src: 'en' }).document(document));
    expect(units.map(html)).toEqual(['Colour', 'Run <code>x = 1</code> and <kbd>Ctrl</kbd> <span translate="no">Acme</span> now']);
    expect(markupOf(units[1]!)).toBe('<p i=1>Run <code i=2></code> and <code i=3></code> <code i=4></code> now</p>');
  });

  it("leaves the words a ligature icon font draws as icons (Material Icons and Symbols, Angular's mat-icon), translating the label beside them", () => {
    document.body.innerHTML = [
      '<button><span class="material-icons" aria-hidden="true">search</span> Search the site</button>',
      '<a href="/next">Next <i class="material-symbols-outlined">arrow_forward</i></a>',
      '<p><mat-icon aria-label="Close the dialog">close</mat-icon> Close</p>',
      '<p><span class="material-icons-round">home</span></p>',
    ].join('');
    const units = new Segmenter({ src: 'en' }).document(document);
    expect(units.map((u) => (u.kind === 'attr' ? `${u.name}=${u.value}` : markupOf(u)))).toEqual([
      // At a unit's edge an icon shows no words: not sent, left at its edge (edges.ts).
      '<p i=1>Search the site</p>',
      '<p i=1>Next</p>',
      '<p i=1>Close</p>',
      'aria-label=Close the dialog',
    ]);
  });

  it('attributes come from the table; hidden elements keep their titles', () => {
    document.head.innerHTML = '<title>Page title</title><meta name="description" content="About the page"><meta name="viewport" content="width=device-width">';
    document.body.innerHTML = [
      '<p title="A tip">Text <img src="a.png" alt="A cat"> <abbr title="HyperText">HTML</abbr></p>',
      '<input placeholder="Your name"><input type="submit" value="Send it"><input type="text" value="typed value">',
      '<button aria-label="Close dialog">×</button>',
      '<div style="display:none"><span title="hidden tip">hidden text</span></div>',
      // Not prose: citation metadata (COinS), a URL, an address; one word in Japanese is.
      '<p>Cite<span class="Z3988" title="ctx_ver=Z39.88-2004&amp;rft.btitle=A+Book&amp;rft.au=Smith%2C+J"></span>',
      ' <a title="https://127.0.0.1/wiki/Tokyo">Tokyo</a> <a title="info@example.com">mail</a> <abbr title="東京都">TYO</abbr></p>',
    ].join('');
    const units = new Segmenter().document(document);
    const attrs = units.filter((u) => u.kind === 'attr').map((u) => (u.kind === 'attr' ? `${u.el.tagName}.${u.name}=${u.value}` : ''));
    expect(attrs.sort()).toEqual(
      ['BUTTON.aria-label=Close dialog', 'IMG.alt=A cat', 'ABBR.title=HyperText', 'INPUT.placeholder=Your name', 'INPUT.value=Send it', 'META.content=About the page', 'P.title=A tip', 'ABBR.title=東京都'].sort(),
    );
    const texts = ranges(units).map(html);
    expect(texts).toContain('Page title');
    // Hidden text is still translated (Ctrl+F, printing), last; its titles are not.
    const hidden = ranges(units).find((u) => u.nodes.map((n) => n.textContent).join('') === 'hidden text');
    expect(hidden?.hidden).toBe(true);
  });

  it('options of a select are units of their own; the select is a placeholder in its run', () => {
    document.body.innerHTML = '<p>Pick <select><option value="r">Red one</option><option>Blue one</option></select> now</p>';
    const units = ranges(new Segmenter().document(document));
    expect(units.map(html)).toEqual(['Pick <select><option value="r">Red one</option><option>Blue one</option></select> now', 'Red one', 'Blue one']);
    expect(markupOf(units[0]!)).toBe('<p i=1>Pick <code i=2></code> now</p>');
  });

  it("an SVG's text is left alone, its titles and aria-label are units; not where the page says no, nor hidden", () => {
    document.body.innerHTML = [
      '<p>Find <svg aria-label="Magnifying glass"><title>Search the site</title><path d="M0 0"/></svg> it</p>',
      '<svg style="display:block"><title>Sales by year</title><text x="1">2024 sales</text><g><title>Growth</title></g></svg>',
      '<svg class="notranslate"><title>Brand mark</title></svg><svg><g translate="no"><title>Acme</title></g></svg>',
      '<div style="display:none"><svg><symbol id="i"><title>Hidden icon</title></symbol></svg></div>',
    ].join('');
    const units = new Segmenter().document(document);
    const texts = ranges(units).map(html);
    expect(texts).toEqual(['Find <svg aria-label="Magnifying glass"><title>Search the site</title><path d="M0 0"></path></svg> it', 'Search the site', 'Sales by year', 'Growth']);
    // The run carries the SVG as an empty placeholder: its title goes alone, its text not at all.
    expect(markupOf(ranges(units)[0]!)).toBe('<p i=1>Find <code i=2></code> it</p>');
    const title = ranges(units)[1]!;
    expect(title.parent).toBe(document.querySelector('svg title'));
    expect(title.whole).toBe(true);
    expect(units.filter((u) => u.kind === 'attr').map((u) => (u.kind === 'attr' ? u.value : ''))).toEqual(['Magnifying glass']);
  });

  it("a select's group labels are units, and an option's label instead of its text", () => {
    document.body.innerHTML = [
      '<select><optgroup label="Northern Europe"><option value="se">Sweden</option><option value="no" label="Norway (Norge)">NO</option></optgroup>',
      '<optgroup label="2024"><option>Other place</option></optgroup></select>',
    ].join('');
    const units = new Segmenter().document(document);
    expect(ranges(units).map(html)).toEqual(['Sweden', 'Other place']);
    expect(units.filter((u) => u.kind === 'attr').map((u) => (u.kind === 'attr' ? `${u.el.tagName}.${u.name}=${u.value}` : ''))).toEqual([
      'OPTGROUP.label=Northern Europe',
      'OPTION.label=Norway (Norge)',
    ]);
  });

  it('open shadow roots are segmented and reported for observation', () => {
    document.body.innerHTML = '<div id="host"></div><p>Light</p>';
    const root = document.getElementById('host')!.attachShadow({ mode: 'open' });
    root.innerHTML = '<p>Shadow <b>text</b></p>';
    const seen: ShadowRoot[] = [];
    const units = ranges(new Segmenter({ onShadowRoot: (r) => seen.push(r) }).document(document));
    expect(units.map(html)).toEqual(['Shadow <b>text</b>', 'Light']);
    expect(seen).toEqual([root]);
  });

  it('a unit over the limit is split at sentence boundaries, each part within the limit', () => {
    const sentence = (i: number) => `This is sentence number ${i} of a very long paragraph that goes on. `;
    const long = Array.from({ length: 40 }, (_, i) => sentence(i)).join('');
    document.body.innerHTML = `<p>${long}<b>bold end</b></p>`;
    const [unit] = new Segmenter().document(document);
    const parts = fit(unit!, TEXT_LIMIT - 40);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(codePoints(markupOf(p))).toBeLessThanOrEqual(TEXT_LIMIT - 40);
    const pieces = parts.filter((p) => p.kind === 'piece');
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) if (p.kind === 'piece') expect(p.group.sources[p.index]).toMatch(/\. $/);
    expect(pieces.map((p) => (p.kind === 'piece' ? p.group.sources[p.index] : '')).join('')).toBe(long);
  });

  it("a long text whose element keeps its line breaks (pre-wrap: a chat's message) is cut at its blank lines and before a list's items, never across them", () => {
    const paragraph = (i: number) => `Paragraph ${i} starts here. It goes on for a while,\nwrapped by hand, and ends here.`;
    const long = Array.from({ length: 12 }, (_, i) => paragraph(i)).join('\n\n') + '\n\nTo take:\n- water\n- a map\n';
    document.body.innerHTML = `<div style="white-space: pre-wrap">${long}</div>`;
    const [unit] = new Segmenter().document(document);
    const parts = fit(unit!, TEXT_LIMIT - 40);
    const sources = parts.map((p) => (p.kind === 'piece' ? p.group.sources[p.index]! : ''));
    expect(sources.join('')).toBe(long);
    expect(sources).toEqual([...Array.from({ length: 12 }, (_, i) => paragraph(i) + '\n\n'), 'To take:\n', '- water\n', '- a map\n']);
  });

  it("a long README in the viewer: each heading a piece, a fenced block of code (its blank lines too) a piece that is not sent", () => {
    const filler = Array.from({ length: 10 }, (_, i) => `Filler paragraph ${i} with enough words to make the text long, a hundred characters or so.\n\n`).join('');
    const readme = `${filler}# Install\nRun the script below.\n\n\`\`\`sh\nnpm ci\n\n# then build\nnpm run build\n\`\`\`\n\n## Use\n   Open the page.\n`;
    document.body.innerHTML = `<div style="white-space: pre-wrap">${readme}</div>`;
    const [unit] = new Segmenter().document(document);
    const parts = fit(unit!, TEXT_LIMIT - 40);
    const group = parts[0]!.kind === 'piece' ? parts[0]!.group : null;
    expect(group!.sources.join('')).toBe(readme);
    expect(group!.sources.slice(10)).toEqual(['# Install\n', 'Run the script below.\n\n', '```sh\nnpm ci\n\n# then build\nnpm run build\n```\n\n', '## Use\n', '   Open the page.\n']);
    // Every piece is sent but the code's.
    expect(parts.map((p) => (p.kind === 'piece' ? p.index : -1))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]);
  });

  it('several small units share one call; a call never exceeds the limit', () => {
    document.body.innerHTML = Array.from({ length: 60 }, (_, i) => `<p>Paragraph number ${i} has <em>some</em> words.</p>`).join('');
    const units = new Segmenter().document(document);
    const calls: Call<{ unit: Unit }>[] = [];
    let call = new Call<{ unit: Unit }>();
    for (const unit of units) {
      if (!call.add({ unit })) {
        calls.push(call);
        call = new Call();
        call.add({ unit });
      }
    }
    calls.push(call);
    expect(calls.length).toBe(Math.ceil(units.length / Math.floor(1000 / codePoints(markupOf(units[0]!)))) );
    for (const c of calls) expect(codePoints(c.markup)).toBeLessThanOrEqual(1000);
  });
});
