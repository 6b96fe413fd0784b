/**
 * Bilingual mode (the translation in a copy under each original block, the original untouched,
 * restore exact) and "near the viewport only" (far units sent only once scrolled near).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COPY_ATTR, type Measure } from '../../src/content/bilingual';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualFrames, reverseUpper } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

function setup(body: string, opts: { hold?: boolean; measure?: Measure; transform?: (wrapper: Element) => void } = {}) {
  document.documentElement.setAttribute('lang', 'en');
  document.head.innerHTML = '<title>The title</title>';
  document.body.innerHTML = body;
  const fake = fakeTranslator(opts);
  const frames = manualFrames();
  const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, ...(opts.measure ? { measure: opts.measure } : {}) });
  pages.push(page);
  return { page, fake, frames, original: document.body.innerHTML };
}

const copies = () => [...document.querySelectorAll(`[${COPY_ATTR}]`)];

describe('bilingual mode', () => {
  it('shows no copy that reads as its original (a name, a number, a URL): the same words twice say nothing', async () => {
    const { page, fake, frames, original } = setup('<h1>NASA</h1><p id="a">Hello <b>world</b></p><p>2024 — <a href="/x">ISS</a></p><p>  Hello  </p>');
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    // Every unit was sent and is counted as translated; only what reads otherwise is shown.
    expect(fake.calls[0]!.markup).toBe('<p i=1>The title</p><p i=2>NASA</p><p i=3>Hello <b i=4>world</b></p><p i=5>2024 — <a i=6>ISS</a></p><p i=7>Hello</p>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 5, total: 5, errors: 0 });
    expect(copies().map((c) => c.textContent)).toEqual(['HELLO WORLD', '  HELLO  ']);
    expect(document.querySelector('h1')!.nextElementSibling!.id).toBe('a');
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it("translates an SVG's title in place, with no copy under it", async () => {
    // An icon of the text's height (happy-dom has no layout: the test says what layout would).
    const measure: Measure = () => ({ width: 16, height: 16, em: 16 });
    const { page, frames, original } = setup('<p id="a">Find <svg aria-label="Magnifier"><title>Search the site</title></svg> it</p>', { measure });
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    expect(document.querySelector('svg title')!.textContent).toBe('SEARCH THE SITE');
    expect(document.querySelector('svg')!.getAttribute('aria-label')).toBe('MAGNIFIER');
    // The copy shows the icon again as decoration: no second tooltip or name, in the original language.
    expect(copies().map((c) => c.textContent)).toEqual(['FIND  IT']);
    const again = copies()[0]!.querySelector('svg')!;
    expect([again.childNodes.length, again.hasAttribute('aria-label'), again.getAttribute('aria-hidden')]).toEqual([0, false, 'true']);
    // At the size it has on the page, whatever rules size it where it sits there.
    expect([(again as SVGElement).style.width, (again as SVGElement).style.height]).toEqual(['16px', '16px']);
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('repeats an emoji or icon at its size on the page, and leaves out a picture beside the text and an image not shown', async () => {
    // Boxes as layout would give them (happy-dom has none): `data-h` px tall, in text of 16 px; no
    // `data-h`, no box (not loaded yet, or hidden).
    const measure: Measure = (el) => {
      const h = Number(el.getAttribute('data-h'));
      return h ? { width: 2 * h, height: h, em: 16 } : null;
    };
    const body =
      '<p id="a"><img src="dog.jpg" alt="A dog" data-h="150">A dog <img src="smile.png" alt="smiling" data-h="16"> on ' +
      '<svg data-h="20"><svg data-h="500"></svg></svg> the beach <picture><source srcset="sea.webp"><img src="sea.jpg" alt="" data-h="90"></picture>' +
      'at <img src="sun.png" alt="sun"> noon <img src="formula.png" alt="x^2" data-h="40"></p>';
    const { page, frames, original } = setup(body, { measure });
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    const copy = copies()[0]!;
    expect(copy.textContent).toBe('A DOG  ON  THE BEACH AT  NOON ');
    // Kept: the emoji, the icon (its inside too) and the formula (2.5 em), each at its size there.
    expect([...copy.querySelectorAll('img')].map((i) => [i.getAttribute('src'), i.getAttribute('alt'), i.style.width, i.style.height])).toEqual([
      ['smile.png', '', '32px', '16px'],
      ['formula.png', '', '80px', '40px'],
    ]);
    const svg = copy.querySelector('svg') as SVGElement;
    expect([svg.style.height, svg.querySelectorAll('svg').length]).toEqual(['20px', 1]);
    // Left out: the photo, the picture with its sources, the image with no box.
    expect(copy.querySelector('picture, source')).toBeNull();
    // The original keeps every image.
    expect(document.querySelectorAll('#a img')).toHaveLength(5);
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('an image not loaded yet (a lazy image below the screen) waits hidden in its copy: shown at its size once loaded if it is text-sized, else kept hidden; restore stops the waits', async () => {
    // Each image's height once loaded, in text of 16 px (null: it failed); not loaded yet, no box.
    const loaded = new Map<string, number | null>();
    const measure: Measure = (el) => {
      const src = el.getAttribute('src')!;
      if (!loaded.has(src)) return 'loading';
      const h = loaded.get(src);
      return h ? { width: h, height: h, em: 16 } : null;
    };
    const body =
      '<p id="a">Good <img src="smile.png" alt="smiling"> news, <picture><img src="photo.jpg" alt="A photo"></picture> ' +
      'told <img src="gone.png" alt="gone"> today</p><p id="b">Later <img src="wave.png" alt="waving"> on</p>';
    const { page, frames, original } = setup(body, { measure });
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    const copy = copies()[0]!;
    expect(copy.textContent).toBe('GOOD  NEWS,  TOLD  TODAY');
    // Waiting, each is in its copy but not shown.
    const inCopy = () => [...copy.querySelectorAll('img')].map((i) => [i.getAttribute('src'), i.style.display, i.style.height]);
    expect(inCopy()).toEqual([['smile.png', 'none', ''], ['photo.jpg', 'none', ''], ['gone.png', 'none', '']]);
    const original$ = (src: string) => document.querySelector(`#a img[src="${src}"], #b img[src="${src}"]`)!;
    const load = (src: string, h: number | null, type = 'load') => {
      loaded.set(src, h);
      original$(src).dispatchEvent(new Event(type));
    };
    // The emoji loads at 20 px: shown at that size. The photo at 300 px: it stays hidden (the
    // copy's unit holds it). The third fails: hidden too.
    load('smile.png', 20);
    load('photo.jpg', 300);
    load('gone.png', null, 'error');
    expect(inCopy()).toEqual([['smile.png', '', '20px'], ['photo.jpg', 'none', ''], ['gone.png', 'none', '']]);
    // A second load event (the page swaps its source) changes nothing.
    load('smile.png', 200);
    load('photo.jpg', 16);
    expect(inCopy()).toEqual([['smile.png', '', '20px'], ['photo.jpg', 'none', ''], ['gone.png', 'none', '']]);
    // Restored before it loads: the copy is gone and nothing waits.
    const later = copies()[1]!;
    page.restore();
    expect(document.body.innerHTML).toBe(original);
    load('wave.png', 16);
    expect(later.querySelector('img')!.style.display).toBe('none');
  });

  it('shows each translation in a copy after its block; the original untouched; restore identical', async () => {
    const body =
      '<p id="a" class="lead">Read <a href="/s" id="l">the story</a> now.</p><ul><li>Item one</li></ul>' +
      '<section>tail words<p id="inner">Inner text</p></section><form><p>Pick <input name="q"> here</p></form>';
    const { page, fake, frames, original } = setup(body);
    const link = document.getElementById('l')!;
    let clicks = 0;
    link.addEventListener('click', () => clicks++);
    page.start('en', 'es', { mode: 'bilingual' });
    expect(page.status()).toMatchObject({ mode: 'bilingual', scope: 'page' });
    // Nothing is shown before its translation is written.
    expect(copies()).toHaveLength(0);
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.markup).toBe(
      '<p i=1>The title</p><p i=2>Read <a i=3>the story</a> now.</p><p i=4>Item one</p><p i=5>tail words</p><p i=6>Inner text</p><p i=7>Pick  here</p>',
    );
    // The originals as they were, the same link with its listener.
    const a = document.getElementById('a')!;
    expect(a.outerHTML).toBe('<p id="a" class="lead">Read <a href="/s" id="l">the story</a> now.</p>');
    expect(document.getElementById('l')).toBe(link);
    // A paragraph: a copy of the element (classes kept, no id) right after it, in the target language.
    const copy = a.nextElementSibling!;
    expect(copy.outerHTML).toBe(`<p class="lead" ${COPY_ATTR}="" lang="es">READ <a href="/s">THE STORY</a> NOW.</p>`);
    // A list item keeps one bullet: its copy goes inside it; so does a run between blocks.
    expect(document.querySelector('li')!.innerHTML).toBe(`Item one<span style="display: block;" ${COPY_ATTR}="" lang="es">ITEM ONE</span>`);
    const section = document.querySelector('section')!;
    expect(section.firstChild!.textContent).toBe('tail words');
    expect((section.childNodes[1] as Element).getAttribute('lang')).toBe('es');
    expect(section.childNodes[1]!.textContent).toBe('TAIL WORDS');
    expect(document.getElementById('inner')!.nextElementSibling!.textContent).toBe('INNER TEXT');
    // No second form control: the copy is text to read.
    expect(document.querySelectorAll('input')).toHaveLength(1);
    expect(document.querySelector('form p')!.nextElementSibling!.outerHTML).toBe(`<p ${COPY_ATTR}="" lang="es">PICK  HERE</p>`);
    expect(copies()).toHaveLength(5);
    // The page keeps its language; the title (no room under it) is translated in place.
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.title).toBe('THE TITLE');
    expect(page.status()).toMatchObject({ state: 'translated', done: 6, total: 6 });
    link.click();
    page.restore();
    expect(document.body.innerHTML).toBe(original);
    expect(document.title).toBe('The title');
    expect(copies()).toHaveLength(0);
    link.click();
    expect(clicks).toBe(2);
  });

  it("a copy holds no comment and no empty text of the page's, and takes the translation's order where the page's own sentence keeps its order (a framework's part, a fragment's end)", async () => {
    const { page, frames, original } = setup('<p id="a"><!--?lit-->words <a href="#c">link</a> mid <b>bold<!--?lit--></b> end</p>', { transform: reverseUpper });
    // Vue's fragment from the bold word on: its two ends, empty Text nodes.
    const bold = document.querySelector('b')!;
    bold.before(document.createTextNode(''));
    bold.parentNode!.append(document.createTextNode(''));
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    // The translation's order: the bold word before the link, the part's words last.
    expect(copies().map((c) => c.innerHTML)).toEqual(['END<b>BOLD</b> MID <a href="#c">LINK</a>WORDS']);
    expect([...copies()[0]!.childNodes].filter((n) => n.nodeType === 3 && (n as Text).data === '')).toEqual([]);
    expect(document.getElementById('a')!.outerHTML).toBe('<p id="a"><!--?lit-->words <a href="#c">link</a> mid <b>bold<!--?lit--></b> end</p>');
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('follows the page: a changed original gets a new copy (one more call), the old one goes', async () => {
    const { page, fake, frames, original } = setup('<p id="a">First text</p><p id="b">Second text</p>');
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    const a = document.getElementById('a')!;
    (a.firstChild as Text).data = 'Changed text';
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup).toBe('<p i=1>Changed text</p>');
    expect(copies().map((c) => c.textContent)).toEqual(['CHANGED TEXT', 'SECOND TEXT']);
    expect(a.nextElementSibling!.textContent).toBe('CHANGED TEXT');
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('First text', 'Changed text'));
  });

  it("a block the page adds right after a translated block, before its copy (Preact's insert), leaves the copy under its block; restore exact", async () => {
    const { page, fake, frames } = setup('<main><p id="a">First text</p><p id="b">Second text</p></main>');
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    const a = document.getElementById('a')!;
    const copyOfA = a.nextElementSibling!;
    expect(copyOfA.textContent).toBe('FIRST TEXT');
    // Preact puts a new node before the next sibling of the node it comes after: here the copy.
    const added = document.createElement('p');
    added.id = 'new';
    added.textContent = 'Added text';
    a.parentNode!.insertBefore(added, a.nextSibling);
    await frames.settle();
    expect(fake.calls.at(-1)!.markup).toBe('<p i=1>Added text</p>');
    expect([...document.querySelector('main')!.children].map((c) => c.id || c.textContent)).toEqual(['a', 'FIRST TEXT', 'new', 'ADDED TEXT', 'b', 'SECOND TEXT']);
    expect(a.nextElementSibling).toBe(copyOfA);
    page.restore();
    expect(document.body.innerHTML).toBe('<main><p id="a">First text</p><p id="new">Added text</p><p id="b">Second text</p></main>');
  });

  it("a node the page appends to a list item, after the item's copy (React appends), joins the item's sentence: one copy, last, with all its words; restore exact", async () => {
    const { page, fake, frames } = setup('<ul><li id="item">Buy <em>Bread</em> at the market</li></ul>');
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    const item = document.getElementById('item')!;
    expect(item.lastElementChild!.textContent).toBe('BUY BREAD AT THE MARKET');
    const added = document.createElement('b');
    added.textContent = ' fresh';
    item.appendChild(added);
    await frames.settle();
    expect(fake.calls.at(-1)!.markup).toBe('<p i=1>Buy <em i=2>Bread</em> at the market<b i=3> fresh</b></p>');
    expect(copies().map((c) => c.textContent)).toEqual(['BUY BREAD AT THE MARKET FRESH']);
    expect(item.lastElementChild).toBe(copies()[0]);
    page.restore();
    expect(document.body.innerHTML).toBe('<ul><li id="item">Buy <em>Bread</em> at the market<b> fresh</b></li></ul>');
  });

  it('a paragraph longer than a call: its parts share one copy, and a change to the original takes them all again', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `<b>sentence number ${i} is here, long enough</b>`).join(' ');
    const { page, fake, frames, original } = setup(`<p id="p">${long}</p>`);
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    const parts = page.status().total;
    // The title and at least two parts.
    expect(parts).toBeGreaterThan(2);
    expect(copies()).toHaveLength(1);
    expect(copies()[0]!.textContent).toBe(document.getElementById('p')!.textContent!.toUpperCase());
    document.querySelector('#p b')!.firstChild!.textContent = 'a changed sentence';
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: parts, total: parts, errors: 0 });
    expect(copies()).toHaveLength(1);
    expect(copies()[0]!.textContent).toBe(document.getElementById('p')!.textContent!.toUpperCase());
    expect(fake.calls.length).toBeGreaterThan(1);
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('sentence number 0 is here, long enough', 'a changed sentence'));
  });

  it('switching mode restores first, then translates again', async () => {
    const { page, fake, frames, original } = setup('<p>Some text</p>');
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    expect(page.start('en', 'es', { mode: 'bilingual' }).state).toBe('translated');
    expect(fake.calls).toHaveLength(1);
    page.start('en', 'es', { mode: 'replace' });
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(copies()).toHaveLength(0);
    expect(document.body.innerHTML).toBe('<p>SOME TEXT</p>');
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });
});

describe('near the viewport only', () => {
  const tops = new Map<string, number>();
  const rect = (top: number) => ({ top, bottom: top + 20, left: 0, right: 500, width: 500, height: 20, x: 0, y: top }) as DOMRect;
  const stub = () => {
    const orig = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const t = tops.get(this.id);
      return t === undefined ? rect(0) : rect(t);
    };
    return () => (Element.prototype.getBoundingClientRect = orig);
  };

  it('sends only units near the viewport; the others when a scroll brings them near', async () => {
    const unstub = stub();
    try {
      document.head.innerHTML = '';
      document.body.innerHTML =
        '<p id="n1">Near one</p><p id="n2">Near two</p><div id="far"><p id="f1">Far one</p><p id="f2">Far two</p></div><p id="f3">Far three</p>';
      for (const [id, t] of [['n1', 10], ['n2', 900], ['far', 5000], ['f1', 5000], ['f2', 5100], ['f3', 5200]] as const) tops.set(id, t);
      const fake = fakeTranslator();
      const frames = manualFrames();
      const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewportHeight: () => 800, idle: (cb) => cb(1000) });
      pages.push(page);
      page.start('en', 'es', { scope: 'near' });
      await frames.settle();
      // The viewport at once, then the screen below it; the far ones wait.
      expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Near one</p>', '<p i=1>Near two</p>']);
      expect(page.status()).toMatchObject({ state: 'translated', scope: 'near', done: 2, total: 5 });
      // Scrolled a little: nothing new is near, nothing is sent.
      dispatchEvent(new Event('scroll'));
      await frames.settle();
      expect(fake.calls).toHaveLength(2);
      // Scrolled down to the far paragraphs: they go, in one call; the last one still waits.
      tops.set('far', 100).set('f1', 100).set('f2', 200).set('f3', 2600).set('n1', -4000).set('n2', -3100);
      dispatchEvent(new Event('scroll'));
      await frames.settle();
      expect(fake.calls.map((c) => c.markup).slice(2)).toEqual(['<p i=1>Far one</p><p i=2>Far two</p>']);
      expect(page.status()).toMatchObject({ state: 'translated', done: 4, total: 5 });
      expect(document.getElementById('f3')!.textContent).toBe('Far three');
      // The default scope sends the whole page.
      page.restore();
      page.start('en', 'es');
      await frames.settle();
      expect(fake.calls.slice(3).flatMap((c) => c.markup.match(/<p i=\d+>[^<]*/g))).toHaveLength(5);
    } finally {
      unstub();
      tops.clear();
    }
  });
});
