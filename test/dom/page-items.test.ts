/**
 * Links and buttons side by side (a menu, a row of buttons, breadcrumbs) are a list, not a
 * sentence: each is a unit of its own, so a translator that moves words across tags cannot give
 * one button another's label; so is a label beside them, and each item of a flex or grid container.
 * Links inside a sentence stay in its unit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COPY_ATTR } from '../../src/content/bilingual';
import { PageTranslator } from '../../src/content/page';
import { Segmenter, type RangeUnit, type SegmentOptions, type Unit } from '../../src/content/segment';
import { fakeTranslator, manualFrames, upper } from './page-fakes';

const ROW = '<div id="row"><button id="s">Sections</button> <button id="h">Home</button> <button id="q">Search</button></div>';
const SENTENCE = '<p id="p">Read <a href="/a">the docs</a> and <a href="/b">the FAQ</a>.</p>';
/** The nytimes page's kicker: a section link, a separator, a headline. */
const KICKER = '<h6 id="k"><span><a href="/africa">Africa</a></span><span class="pipe">|</span>United States to Lift Sudan Sanctions</h6>';

/**
 * The obamawhitehouse menu: each entry a link and its description, side by side with no space, in
 * a container that lays them out as flex items. Sent as one run, Apertium gave the link "Video
 * Gallery" the words "Reloj de" ("Watch", from the description).
 */
const CARD =
  '<div id="card" style="display:flex"><a id="v" href="/video">Video Gallery</a><span id="d">Watch behind-the-scenes videos and more</span></div>';

const html = (u: Unit) => (u.kind === 'range' ? u.nodes.map((n) => (n instanceof Element ? n.outerHTML : n.textContent)).join('') : '');
const ranges = (us: Unit[]) => us.filter((u): u is RangeUnit => u.kind === 'range');

/** The range units of a page whose body is `body`, as the segmenter finds them. */
function segmented(body: string, opts?: SegmentOptions): RangeUnit[] {
  document.head.innerHTML = '';
  document.body.innerHTML = body;
  return ranges(new Segmenter(opts).document(document));
}

/**
 * A translator that moves words between the tags of a unit, as Apertium did with the buttons
 * "Sections Home Search" ("Búsqueda", "de", "Casa de las secciones"): each element's text goes to
 * the next element, the last one's to the first. Then upper-cased.
 */
function rotate(wrapper: Element): void {
  const els = [...wrapper.querySelectorAll('*')].filter((e) => e.firstChild?.nodeType === 3);
  const texts = els.map((e) => e.firstChild!.textContent);
  els.forEach((e, i) => (e.firstChild!.textContent = texts[(i + texts.length - 1) % texts.length]!));
  upper(wrapper);
}

describe('links and buttons side by side', () => {
  it('each is a unit of its own, through wrappers and separators; links in a sentence stay in it', () => {
    const units = segmented(
      ROW +
      '<nav><span><a href="/">Home</a></span> <span class="sep">|</span> <a href="/w">World <b>news</b></a> › <span role="button">More</span> <img src="i.png" alt=""></nav>' +
      SENTENCE +
      '<p><a href="/x">Only link</a></p><p><b>Note:</b> <a href="/r">read this</a></p>',
    );
    expect(units.map(html)).toEqual([
      'Sections',
      'Home',
      'Search',
      'Home',
      'World <b>news</b>',
      'More',
      'Read <a href="/a">the docs</a> and <a href="/b">the FAQ</a>.',
      '<a href="/x">Only link</a>',
      // Words outside a link or button: a sentence, one unit.
      '<b>Note:</b> <a href="/r">read this</a>',
    ]);
    expect(units[0]).toMatchObject({ parent: document.getElementById('s'), whole: true, anchor: null });
    expect(units[5]!.parent).toBe(document.querySelector('[role=button]'));
  });

  it('a label heading or closing links is a unit of its own, hidden or not; words beside a link, several labels or one between links make a sentence', () => {
    const units = segmented(
      // pastebin: a toast shown once "copy" is clicked, then the row of links.
      '<div id="bar"><span class="toast" style="display:none">Copied</span> <a href="#">copy</a> <a href="/raw">raw</a> <a href="/dl">download</a></div>' +
      '<p><span><b>Tags:</b> <a href="/t/a">news</a></span>, <a href="/t/b">world <i>politics</i></a></p>' +
      '<p><span>Read <a href="/a">this</a></span> <a href="/b">or that</a></p>' +
      // correctiv: a paragraph pasted from Google Docs, every text in a span of its own.
      '<p><span style="font-weight: 400;">in Bayern den </span><i><span style="font-weight: 400;">Kurier</span></i><span style="font-weight: 400;">. Der </span>' +
      '<a href="/br"><span style="font-weight: 400;">Bayerische Rundfunk</span></a><span style="font-weight: 400;"> und </span><a href="/p">Panorama</a></p>' +
      '<p><a href="/x">Cats</a><span> and other </span><a href="/y">dogs</a></p>',
    );
    expect(units.map(html)).toEqual([
      'Copied',
      'copy',
      'raw',
      'download',
      'Tags:',
      'news',
      'world <i>politics</i>',
      '<span>Read <a href="/a">this</a></span> <a href="/b">or that</a>',
      // Several labels, or one between links: a sentence.
      '<span style="font-weight: 400;">in Bayern den </span><i><span style="font-weight: 400;">Kurier</span></i><span style="font-weight: 400;">. Der </span><a href="/br"><span style="font-weight: 400;">Bayerische Rundfunk</span></a><span style="font-weight: 400;"> und </span><a href="/p">Panorama</a>',
      '<a href="/x">Cats</a><span> and other </span><a href="/y">dogs</a>',
    ]);
    expect(units[0]).toMatchObject({ parent: document.querySelector('.toast'), whole: true, anchor: null });
  });

  it("a form's labels and its button are a unit each; a label in a sentence stays in it", () => {
    const units = segmented(
      // Twitter's search form: a label, a text field, a button (Apertium moved "query" into the button).
      '<form id="f"><label for="q">Search query</label> <input id="q" placeholder="Search Twitter"> <span><button>Search Twitter</button></span></form>' +
      '<div><label for="e">Email</label> <input id="e"> <label for="w">Password</label> <input id="w" type="password"> <button>Log in</button></div>' +
      '<p><label><input type="checkbox"> Remember me</label> <a href="/forgot">Forgot your password?</a></p>' +
      '<p>I <label for="t">agree</label> to the <a href="/terms">terms</a>.</p>',
    );
    expect(units.map(html)).toEqual([
      'Search query',
      'Search Twitter',
      'Email',
      'Password',
      'Log in',
      '<input type="checkbox"> Remember me',
      'Forgot your password?',
      'I <label for="t">agree</label> to the <a href="/terms">terms</a>.',
    ]);
    expect(units[0]).toMatchObject({ parent: document.querySelector('label[for=q]'), whole: true });
  });

  it('a run cut by separators is a unit per part; a slash, quotation marks and excluded content do not cut', () => {
    const units = segmented(
      KICKER +
      '<p id="by">By <a href="/jo">Jo Smith</a> · <time>5 June</time> <span>•</span> Four minutes</p>' +
      '<p>He said <i>yes</i> / <i>no</i> to it.</p><p>Il a dit « <a href="/b">bonjour</a> » hier</p>' +
      '<p>Type <code>|</code> to pipe</p><p>| Only one part</p>',
    );
    expect(units.map(html)).toEqual([
      '<span><a href="/africa">Africa</a></span>',
      'United States to Lift Sudan Sanctions',
      'By <a href="/jo">Jo Smith</a>',
      '<time>5 June</time> ',
      ' Four minutes',
      'He said <i>yes</i> / <i>no</i> to it.',
      'Il a dit « <a href="/b">bonjour</a> » hier',
      'Type <code>|</code> to pipe',
      '| Only one part',
    ]);
    const pipe = document.querySelector('.pipe');
    expect(units[0]).toMatchObject({ parent: document.getElementById('k'), anchor: pipe, whole: false });
    expect(units[1]).toMatchObject({ parent: document.getElementById('k'), anchor: null, whole: false });
    expect(units[3]!.anchor).toBe(document.querySelector('#by span'));
  });

  it('phrases glued with no space between elements are a unit each; names in two colours and words cut by markup are not', () => {
    const units = segmented(
      // yahoo's byline: React writes no space between elements, the page's style lays them apart.
      '<div id="by"><span class="provider"><span><a href="/ap">Associated Press</a></span></span><time>December 2, 2016</time></div>' +
      '<p><span class="a">You</span><span class="b">Tube</span> videos</p>' +
      '<p>Mc<b>Donald</b> and <b>i</b><span>Phone sales</span></p>' +
      '<p>See <a href="/a">the docs</a>, <b>Now</b> or <i>later</i><b>Then</b></p>',
    );
    expect(units.map(html)).toEqual([
      '<span class="provider"><span><a href="/ap">Associated Press</a></span></span>',
      '<time>December 2, 2016</time>',
      '<span class="a">You</span><span class="b">Tube</span> videos',
      'Mc<b>Donald</b> and <b>i</b><span>Phone sales</span>',
      'See <a href="/a">the docs</a>, <b>Now</b> or <i>later</i><b>Then</b>',
    ]);
    expect(units[0]).toMatchObject({ parent: document.getElementById('by'), anchor: document.querySelector('time'), whole: false });
    expect(units[1]).toMatchObject({ parent: document.getElementById('by'), anchor: null, whole: false });
  });

  it('bilingual mode keeps the row one unit (its copy goes under the whole row), and a run cut by separators', () => {
    const units = segmented(ROW + KICKER, { items: false });
    expect(units.map((u) => u.parent)).toEqual([document.getElementById('row'), document.getElementById('k')]);
  });
});

describe('a row of buttons translated', () => {
  let pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages) p.restore();
    pages = [];
  });

  function setup(body: string) {
    document.head.innerHTML = '';
    document.body.innerHTML = body;
    const fake = fakeTranslator({ transform: rotate });
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false });
    pages.push(page);
    return { page, fake, frames, original: document.body.innerHTML };
  }

  /** `body` translated into Spanish, every answer written. */
  async function translated(body: string) {
    const run = setup(body);
    run.page.start('en', 'es');
    await run.frames.settle();
    return run;
  }

  it('each button says its own label, from a translator that moves words across tags; listeners kept; restore exact', async () => {
    const { page, fake, frames, original } = setup(ROW + SENTENCE);
    const search = document.getElementById('q')!;
    let clicks = 0;
    search.addEventListener('click', () => clicks++);
    page.start('en', 'es');
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual([
      '<p i=1>Sections</p><p i=2>Home</p><p i=3>Search</p><p i=4>Read <a i=5>the docs</a> and <a i=6>the FAQ</a>.</p>',
    ]);
    expect([...document.querySelectorAll('button')].map((b) => [b.id, b.textContent])).toEqual([
      ['s', 'SECTIONS'],
      ['h', 'HOME'],
      ['q', 'SEARCH'],
    ]);
    expect(document.getElementById('q')).toBe(search);
    // In a sentence the translator places the links' words (here: moved), as it does for any sentence.
    expect(document.getElementById('p')!.innerHTML).toBe('READ <a href="/a">THE FAQ</a> AND <a href="/b">THE DOCS</a>.');
    expect(page.status()).toMatchObject({ state: 'translated', done: 4, total: 4, errors: 0 });
    search.click();
    page.restore();
    expect(document.body.innerHTML).toBe(original);
    search.click();
    expect(clicks).toBe(2);
  });

  it('a label the page changes later is translated alone, the other buttons untouched', async () => {
    const { page, fake, frames, original } = await translated(ROW);
    expect(fake.calls).toHaveLength(1);
    document.getElementById('h')!.firstChild!.textContent = 'Start';
    await frames.settle();
    // One more call, with that label only.
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Sections</p><p i=2>Home</p><p i=3>Search</p>', '<p i=1>Start</p>']);
    expect([...document.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['SECTIONS', 'START', 'SEARCH']);
    page.restore();
    // Restore gives back the page with its own change.
    expect(document.body.innerHTML).toBe(original.replace('>Home<', '>Start<'));
  });

  it('a row the page turns into a sentence is translated as one, the buttons with it; restore keeps the change', async () => {
    const { page, fake, frames, original } = await translated(ROW);
    const row = document.getElementById('row')!;
    row.insertBefore(document.createTextNode('or go '), document.getElementById('h'));
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual([
      '<p i=1>Sections</p><p i=2>Home</p><p i=3>Search</p>',
      // The buttons' original labels, in the sentence they are now part of (a button goes as a span).
      '<p i=1><span i=2>Sections</span> or go <span i=3>Home</span> <span i=4>Search</span></p>',
    ]);
    expect(row.textContent).toBe('SEARCH OR GO SECTIONS HOME');
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace(' <button id="h">', ' or go <button id="h">'));
  });

  it('a label beside a row of links keeps its own word, and the page showing it later changes nothing else', async () => {
    const bar = '<div id="bar"><span class="toast" style="display:none">Copied</span> <a href="#">copy</a> <a href="/raw">raw</a></div>';
    const { page, fake, frames, original } = await translated(bar);
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Copied</p><p i=2>copy</p><p i=3>raw</p>']);
    expect(document.getElementById('bar')!.textContent).toBe('COPIED COPY RAW');
    document.querySelector('.toast')!.removeAttribute('style');
    document.querySelector('.toast')!.firstChild!.textContent = 'Copied to clipboard';
    await frames.settle();
    expect(fake.calls.map((c) => c.markup).slice(1)).toEqual(['<p i=1>Copied to clipboard</p>']);
    expect(document.getElementById('bar')!.textContent).toBe('COPIED TO CLIPBOARD COPY RAW');
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace(' style="display:none">Copied', '>Copied to clipboard'));
  });

  it('a flex card: the link keeps its own words and its listener, a later change is translated alone, restore is exact', async () => {
    const { page, fake, frames, original } = setup(CARD);
    const link = document.getElementById('v')!;
    let clicks = 0;
    link.addEventListener('click', (e) => {
      e.preventDefault();
      clicks++;
    });
    page.start('en', 'es');
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Video Gallery</p><p i=2>Watch behind-the-scenes videos and more</p>']);
    expect(document.getElementById('card')!.innerHTML).toBe(
      '<a id="v" href="/video">VIDEO GALLERY</a><span id="d">WATCH BEHIND-THE-SCENES VIDEOS AND MORE</span>',
    );
    document.getElementById('d')!.firstChild!.textContent = 'Watch the briefings';
    await frames.settle();
    expect(fake.calls.map((c) => c.markup).slice(1)).toEqual(['<p i=1>Watch the briefings</p>']);
    expect(document.getElementById('card')!.textContent).toBe('VIDEO GALLERYWATCH THE BRIEFINGS');
    link.click();
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('behind-the-scenes videos and more', 'the briefings'));
    expect(document.getElementById('v')).toBe(link);
    link.click();
    expect(clicks).toBe(2);
  });

  it('glued phrases: each keeps its own words; the page changing one later translates the pair again, each alone; restore exact', async () => {
    const { page, fake, frames, original } = await translated('<div id="m"><a href="/video">Video Gallery</a><span>Watch behind-the-scenes videos</span></div>');
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Video Gallery</p><p i=2>Watch behind-the-scenes videos</p>']);
    expect(document.getElementById('m')!.innerHTML).toBe('<a href="/video">VIDEO GALLERY</a><span>WATCH BEHIND-THE-SCENES VIDEOS</span>');
    document.querySelector('#m span')!.firstChild!.textContent = 'Watch the briefings';
    await frames.settle();
    // Next to the link's translation (upper case: no glued phrases) the span would join it: the
    // link's translation goes too, and the pair, as the page has it, is cut again.
    expect(fake.calls.map((c) => c.markup).slice(1)).toEqual(['<p i=1>Video Gallery</p><p i=2>Watch the briefings</p>']);
    expect(document.getElementById('m')!.innerHTML).toBe('<a href="/video">VIDEO GALLERY</a><span>WATCH THE BRIEFINGS</span>');
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('behind-the-scenes videos', 'the briefings'));
  });

  it('hidden content the page changes: a run found smaller than the one translated leaves none of its words untranslated', async () => {
    // Inside display:none nothing is laid out: the walk reads tags (one run); read again later, the
    // container says flex (an item each). Whatever the old run held beyond the new one is found again.
    const { page, frames, original } = await translated('<div style="display:none"><div id="f" style="display:flex"><span>one word</span><span>two words</span></div></div>');
    // One run: the translator moved the words across its spans.
    expect(document.getElementById('f')!.textContent).toBe('TWO WORDSONE WORD');
    document.querySelector('#f span')!.firstChild!.textContent = 'new word';
    await frames.settle();
    expect(document.getElementById('f')!.textContent).toBe('NEW WORDTWO WORDS');
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('one word', 'new word'));
  });

  it('bilingual: one copy under the row, each label in it translated alone; a label the page changes takes the copy again; restore exact', async () => {
    const { page, fake, frames, original } = setup(ROW + KICKER);
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual([
      '<p i=1>Sections</p><p i=2>Home</p><p i=3>Search</p><p i=4>Africa</p><p i=5>United States to Lift Sudan Sanctions</p>',
    ]);
    const row = document.getElementById('row')!;
    const copy = row.nextElementSibling!;
    expect(copy.outerHTML).toBe(`<div ${COPY_ATTR}="" lang="es"><span>SECTIONS</span> <span>HOME</span> <span>SEARCH</span></div>`);
    expect(document.getElementById('k')!.nextElementSibling!.innerHTML).toBe('<span><a href="/africa">AFRICA</a></span><span class="pipe">|</span>UNITED STATES TO LIFT SUDAN SANCTIONS');
    expect(page.status()).toMatchObject({ state: 'translated', done: 5, total: 5 });
    document.getElementById('h')!.firstChild!.textContent = 'Start';
    await frames.settle();
    expect(fake.calls.map((c) => c.markup).slice(1)).toEqual(['<p i=1>Sections</p><p i=2>Start</p><p i=3>Search</p>']);
    expect(row.nextElementSibling!.textContent).toBe('SECTIONS START SEARCH');
    expect(document.querySelectorAll(`[${COPY_ATTR}]`)).toHaveLength(2);
    expect(page.status()).toMatchObject({ state: 'translated', done: 5, total: 5 });
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('>Home<', '>Start<'));
  });

  it('the kicker: the section link keeps its own word, the headline its own', async () => {
    const { page, fake, original } = await translated(KICKER);
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Africa</p><p i=2>United States to Lift Sudan Sanctions</p>']);
    expect(document.getElementById('k')!.innerHTML).toBe('<span><a href="/africa">AFRICA</a></span><span class="pipe">|</span>UNITED STATES TO LIFT SUDAN SANCTIONS');
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('a separator the page puts into a translated run: the parts are translated again, each alone; restore keeps it', async () => {
    const { page, fake, frames, original } = await translated('<p id="t">Breaking <b>news</b> and <i>more</i> today</p>');
    expect(document.getElementById('t')!.innerHTML).toBe('BREAKING <b>MORE</b> AND <i>NEWS</i> TODAY');
    const sep = document.createElement('span');
    sep.textContent = '|';
    document.getElementById('t')!.insertBefore(sep, document.querySelector('i'));
    await frames.settle();
    expect(fake.calls.map((c) => c.markup).slice(1)).toEqual(['<p i=1>Breaking <b i=2>news</b> and</p><p i=3><i i=4>more</i> today</p>']);
    expect(document.getElementById('t')!.innerHTML).toBe('BREAKING <b>NEWS</b> AND <span>|</span><i>MORE</i> TODAY');
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('<i>', '<span>|</span><i>'));
  });
});

describe('flex and grid containers', () => {
  it('each child of a flex or grid container is a unit of its own, texts between them another; inline-flex stays in its sentence', () => {
    const units = segmented(
      CARD +
      '<ul style="display:grid"><li>First <b>item</b></li></ul>' +
      '<div id="meta" style="display:grid">5 min read<span>June 5</span><time>2016</time> <i>updated</i></div>' +
      '<p>Press <span style="display:inline-flex"><b>Save</b> now</span> to keep it.</p>',
    );
    expect(units.map(html)).toEqual([
      '<a id="v" href="/video">Video Gallery</a>',
      '<span id="d">Watch behind-the-scenes videos and more</span>',
      'First <b>item</b>',
      '5 min read',
      '<span>June 5</span>',
      // A date without a letter is no unit, in a container as anywhere.
      '<i>updated</i>',
      'Press <span style="display:inline-flex"><b>Save</b> now</span> to keep it.',
    ]);
    const card = document.getElementById('card');
    expect(units[0]).toMatchObject({ parent: card, anchor: document.getElementById('d'), whole: false });
    expect(units[1]).toMatchObject({ parent: card, anchor: null, whole: false });
    expect(units[3]).toMatchObject({ parent: document.getElementById('meta'), anchor: document.querySelector('#meta span'), whole: false });
  });

  it('bilingual mode keeps a flex row one unit, as it keeps a row of links', () => {
    const units = segmented(CARD, { items: false });
    expect(units.map(html)).toEqual([CARD.slice(CARD.indexOf('<a'), CARD.lastIndexOf('</div>'))]);
  });

  it('for a content the page changes later, the run is the one item, as the walk found it', () => {
    document.body.innerHTML = CARD + '<div id="g" style="display:grid">Loose <u>text</u><b>Item</b></div>';
    const seg = new Segmenter();
    const nodes: Node[] = [];
    expect(ranges(seg.around(document.querySelector('#d')!.firstChild!, [], nodes)).map(html)).toEqual([
      '<span id="d">Watch behind-the-scenes videos and more</span>',
    ]);
    expect(nodes).toEqual([document.getElementById('d')]);
    expect(ranges(seg.around(document.querySelector('#g')!.firstChild!)).map(html)).toEqual(['Loose ']);
    expect(ranges(seg.around(document.querySelector('#g b')!)).map(html)).toEqual(['<b>Item</b>']);
  });
});
