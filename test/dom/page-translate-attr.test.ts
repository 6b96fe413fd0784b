/**
 * HTML's `translate` attribute is inherited and the nearest one decides: what says
 * `translate="yes"` inside content the page says no to (`translate="no"`, `.notranslate`) is
 * translated, at the trigger and when the page adds to it later; what is left out for more than
 * that (code, another language) stays so. The page's own "no" at its root (the body) does not
 * count once the user asks; an editor's document (designMode, an editable body) is never touched.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { Segmenter, type Unit } from '../../src/content/segment';
import { rootSaysNo } from '../../src/content/tags';
import { fakeTranslator, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
  for (const name of ['translate', 'class', 'contenteditable']) document.body.removeAttribute(name);
  document.designMode = 'off';
});

const shown = (u: Unit) => (u.kind === 'range' ? u.nodes.map((n) => (n instanceof Element ? n.outerHTML : n.textContent)).join('') : `${u.kind}`);

const BRAND =
  '<header translate="no"><h1 id="name">Acme Rocket Skates</h1><p id="tagline" translate="yes">Faster than <b>the road</b> runner</p>' +
  '<nav><a id="home" href="/">Acme</a> <a id="shop" href="/shop" translate="">Our shop</a></nav>' +
  '<code translate="yes">npm install acme</code><div lang="fr"><p id="fr" translate="yes">Plus vite</p></div></header>' +
  '<p id="buy">Buy the <span class="notranslate">Acme <em id="deluxe" translate="yes">deluxe model</em></span> today.</p>' +
  '<div translate="no"><p id="open" translate="yes">Open <span translate="no">Acme <i id="again" translate="yes">sky blue</i></span> now</p></div>';

describe('translate="yes" inside what the page says no to', () => {
  it('is a unit of its own, walked as a block is; one left out for more than the no (code, another language) is not', () => {
    document.body.innerHTML = BRAND;
    const units = new Segmenter({ src: 'en' }).document(document).map(shown);
    expect(units).toEqual([
      'Faster than <b>the road</b> runner',
      'Our shop',
      'Buy the <span class="notranslate">Acme <em id="deluxe" translate="yes">deluxe model</em></span> today.',
      'deluxe model',
      'Open <span translate="no">Acme <i id="again" translate="yes">sky blue</i></span> now',
      'sky blue',
    ]);
  });

  it('is translated and the rest left as the page has it; restore is exact', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(BRAND, fake.translate, pages);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    const text = (id: string) => document.getElementById(id)!.textContent;
    expect(text('name')).toBe('Acme Rocket Skates');
    expect(text('tagline')).toBe('FASTER THAN THE ROAD RUNNER');
    expect([text('home'), text('shop')]).toEqual(['Acme', 'OUR SHOP']);
    expect(document.querySelector('code')!.textContent).toBe('npm install acme');
    expect(text('fr')).toBe('Plus vite');
    expect(text('buy')).toBe('BUY THE Acme DELUXE MODEL TODAY.');
    expect(text('open')).toBe('OPEN Acme SKY BLUE NOW');
    // What the outer unit sent kept the no-element as a placeholder: its words went once, in their own unit.
    const sent = fake.calls.map((c) => c.markup).join('\n');
    expect(sent.match(/deluxe model/g)).toHaveLength(1);
    expect(sent).not.toMatch(/Acme/);
    page.restore();
    expect(document.body.innerHTML).toBe(BRAND);
  });

  it('what the page adds later inside it, or adds saying yes, is translated; what it adds beside it, inside the no, is not', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(BRAND, fake.translate, pages);
    await frames.settle();
    const tagline = document.getElementById('tagline')!;
    tagline.append(' and ', Object.assign(document.createElement('b'), { textContent: 'the wind' }));
    const note = Object.assign(document.createElement('p'), { textContent: 'Since 1949' });
    document.getElementById('name')!.after(note);
    const deluxe = document.getElementById('deluxe')!;
    deluxe.append(' with wheels');
    const hours = Object.assign(document.createElement('p'), { textContent: 'Open every day' });
    hours.setAttribute('translate', 'yes');
    document.querySelector('header')!.append(hours);
    const sale = Object.assign(document.createElement('u'), { textContent: 'on sale' });
    sale.setAttribute('translate', 'yes');
    document.querySelector('#buy .notranslate')!.append(' ', sale);
    await frames.settle();
    expect([hours.textContent, sale.textContent]).toEqual(['OPEN EVERY DAY', 'ON SALE']);
    expect(tagline.textContent).toBe('FASTER THAN THE ROAD RUNNER AND THE WIND');
    expect(note.textContent).toBe('Since 1949');
    expect(deluxe.textContent).toBe('DELUXE MODEL WITH WHEELS');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(tagline.textContent).toBe('Faster than the road runner and the wind');
    expect(deluxe.textContent).toBe('deluxe model with wheels');
  });

  it('an SVG title and a select inside it are translated; inside a no they are not', async () => {
    const body =
      '<div translate="no"><svg><title>Brand mark</title></svg><div translate="yes"><svg id="chart"><title>Sales by year</title></svg>' +
      '<select><option>Small size</option></select></div><select id="kept"><option>Rocket size</option></select></div>';
    const fake = fakeTranslator();
    const { frames } = startPage(body, fake.translate, pages);
    await frames.settle();
    expect([...document.querySelectorAll('title')].map((t) => t.textContent)).toEqual(['Brand mark', 'SALES BY YEAR']);
    expect([...document.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['SMALL SIZE', 'Rocket size']);
  });
});

describe("the page's root and editors", () => {
  it("a body that says translate=\"no\" is translated when the user asks, what the page adds later too", async () => {
    document.body.setAttribute('translate', 'no');
    document.body.setAttribute('class', 'notranslate');
    const fake = fakeTranslator();
    const { page, frames } = startPage('<p id="a">The cat sleeps.</p><p translate="no" id="b">Acme</p>', fake.translate, pages);
    await frames.settle();
    const added = Object.assign(document.createElement('p'), { textContent: 'A new paragraph.' });
    document.body.append(added);
    await frames.settle();
    expect([document.getElementById('a')!.textContent, document.getElementById('b')!.textContent, added.textContent]).toEqual([
      'THE CAT SLEEPS.',
      'Acme',
      'A NEW PARAGRAPH.',
    ]);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
  });

  for (const [name, edit] of [
    ['an editable body (a rich-text editor\'s frame)', () => document.body.setAttribute('contenteditable', 'true')],
    ['designMode', () => (document.designMode = 'on')],
  ] as const) {
    it(`${name}: the draft is never translated, nor what the user types later`, async () => {
      edit();
      const fake = fakeTranslator();
      const { page, frames } = startPage('<p id="a">Dear team, the cat sleeps.</p>', fake.translate, pages);
      await frames.settle();
      document.body.append(Object.assign(document.createElement('p'), { textContent: 'Best regards' }));
      await frames.settle();
      expect(document.body.textContent).toBe('Dear team, the cat sleeps.Best regards');
      expect(fake.calls).toHaveLength(0);
      expect(page.status()).toMatchObject({ errors: 0 });
    });
  }

  it("says the page asks at its root not to be translated: Google's meta, or translate=\"no\" or .notranslate on <html> or <body>; nothing deeper", () => {
    const html = document.documentElement;
    document.body.innerHTML = '<main translate="no"><p>Acme</p></main>';
    expect(rootSaysNo(document)).toBe(false);
    for (const [set, unset] of [
      [() => (document.head.innerHTML = '<meta name="Google" content="nositelinkssearchbox, notranslate">'), () => (document.head.innerHTML = '')],
      [() => html.setAttribute('translate', 'NO'), () => html.removeAttribute('translate')],
      [() => document.body.setAttribute('class', 'page notranslate'), () => document.body.removeAttribute('class')],
    ] as const) {
      set();
      expect(rootSaysNo(document)).toBe(true);
      unset();
    }
    document.head.innerHTML = '<meta name="google" content="nositelinkssearchbox"><meta name="robots" content="notranslate">';
    expect(rootSaysNo(document)).toBe(false);
    document.head.innerHTML = '';
  });

  it('an element that becomes an editor after the translation (a comment the user now edits) gets its original back, copies and all; translated again once it is not', async () => {
    const body =
      '<article><div id="c"><p>The cat sleeps.</p><p title="A tip">More <b>words</b></p></div><p id="reply">Reply: <span id="e">my answer</span> sent</p><p id="other">Other text</p></article>';
    for (const mode of ['replace', 'bilingual'] as const) {
      const fake = fakeTranslator();
      const { page, frames } = startPage(body, fake.translate, pages, { mode });
      await frames.settle();
      const c = document.getElementById('c')!;
      const original = '<p>The cat sleeps.</p><p title="A tip">More <b>words</b></p>';
      expect(c.innerHTML, mode).not.toBe(original);
      c.setAttribute('contenteditable', 'true');
      document.getElementById('e')!.setAttribute('contenteditable', '');
      await frames.settle();
      expect(c.innerHTML, mode).toBe(original);
      if (mode === 'replace') {
        expect(document.getElementById('reply')!.textContent).toBe('REPLY: my answer SENT');
        expect(document.getElementById('other')!.textContent).toBe('OTHER TEXT');
      }
      // The user types; the page saves what is in the editor: its own words.
      c.querySelector('p')!.append(' And dreams.');
      await frames.settle();
      expect(c.textContent, mode).toBe('The cat sleeps. And dreams.More words');
      c.removeAttribute('contenteditable');
      await frames.settle();
      if (mode === 'replace') expect(c.textContent).toBe('THE CAT SLEEPS. AND DREAMS.MORE WORDS');
      else expect([...c.querySelectorAll('[data-polyglot-bilingual]')].map((p) => p.textContent)).toEqual(['THE CAT SLEEPS. AND DREAMS.', 'MORE WORDS']);
      expect(page.status(), mode).toMatchObject({ state: 'translated', errors: 0 });
      page.restore();
      expect(document.body.innerHTML, mode).toBe(body.replace('sleeps.', 'sleeps. And dreams.').replace('<span id="e">', '<span id="e" contenteditable="">'));
      pages = [];
    }
  });

  it('an element the page marks translate="no" later gets its original back; translated again when the page takes it back', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<h1 id="name">Rocket skates</h1><p id="buy">Buy the <span translate="no">blue wheels</span> now.</p>', fake.translate, pages);
    await frames.settle();
    const name = document.getElementById('name')!;
    expect(name.textContent).toBe('ROCKET SKATES');
    name.setAttribute('translate', 'no');
    await frames.settle();
    expect(name.textContent).toBe('Rocket skates');
    name.removeAttribute('translate');
    await frames.settle();
    expect(name.textContent).toBe('ROCKET SKATES');
    // A part of a sentence the page no longer keeps: the sentence is sent again with its words.
    const buy = document.getElementById('buy')!;
    expect(buy.textContent).toBe('BUY THE blue wheels NOW.');
    buy.querySelector('span')!.removeAttribute('translate');
    await frames.settle();
    expect(buy.textContent).toBe('BUY THE BLUE WHEELS NOW.');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
  });

  it('an element the page gives the class notranslate later gets its original back, translated again when the class goes; other class changes send nothing', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(
      '<h1 id="name" class="title">Rocket skates</h1><p id="buy">Buy the <span class="brand">blue wheels</span> now.</p><p id="icon"><i class="icon">search</i> Find a shop</p>',
      fake.translate,
      pages,
    );
    await frames.settle();
    const sent = fake.calls.length;
    const name = document.getElementById('name')!;
    expect(name.textContent).toBe('ROCKET SKATES');
    // A hover state, an animation: the page changes classes all the time; nothing is sent again.
    name.classList.add('hover');
    name.classList.remove('hover');
    document.querySelector('#buy span')!.classList.add('shine');
    await frames.settle();
    expect(fake.calls.length).toBe(sent);
    expect(name.textContent).toBe('ROCKET SKATES');
    name.classList.add('notranslate');
    await frames.settle();
    expect(name.textContent).toBe('Rocket skates');
    name.classList.remove('notranslate');
    await frames.settle();
    expect(name.textContent).toBe('ROCKET SKATES');
    // A part of a sentence the page keeps as it is: the sentence is sent again with it as a placeholder.
    const buy = document.getElementById('buy')!;
    buy.querySelector('span')!.className = 'brand shine notranslate';
    await frames.settle();
    expect(buy.textContent).toBe('BUY THE blue wheels NOW.');
    // An icon font's class (its font draws the word as an icon) counts as a no too.
    document.querySelector('#icon i')!.classList.add('material-icons');
    await frames.settle();
    expect(document.getElementById('icon')!.textContent).toBe('search FIND A SHOP');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe(
      '<h1 id="name" class="title">Rocket skates</h1><p id="buy">Buy the <span class="brand shine notranslate">blue wheels</span> now.</p><p id="icon"><i class="icon material-icons">search</i> Find a shop</p>',
    );
  });

  it("an element the page labels with another language later gets its original back, translated again when the label says the page's language; a region's subtag sends nothing", async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(
      '<h1 id="name">Rocket skates</h1><blockquote id="quote"><p>Plus vite que la route</p></blockquote><p id="buy">Buy the <span>blue wheels</span> now.</p>',
      fake.translate,
      pages,
    );
    await frames.settle();
    const text = (id: string) => document.getElementById(id)!.textContent;
    // The page's script guessed the quote's language after the translation (it went as English).
    expect(text('quote')).toBe('PLUS VITE QUE LA ROUTE');
    const quote = document.getElementById('quote')!;
    quote.setAttribute('lang', 'fr');
    await frames.settle();
    expect(text('quote')).toBe('Plus vite que la route');
    // The same language with a region, on another element: nothing is sent again. Nor when a
    // script labels what it reads (our translation) with the target's language.
    const sent = fake.calls.length;
    document.getElementById('name')!.setAttribute('lang', 'en-GB');
    quote.setAttribute('lang', 'fr-CA');
    document.getElementById('buy')!.setAttribute('lang', 'es');
    await frames.settle();
    expect(fake.calls.length).toBe(sent);
    expect([text('name'), text('quote'), text('buy')]).toEqual(['ROCKET SKATES', 'Plus vite que la route', 'BUY THE BLUE WHEELS NOW.']);
    document.getElementById('buy')!.removeAttribute('lang');
    // A part of a sentence labelled stays in its sentence, as it would at the first translation
    // (a phrase in another language goes with its context).
    document.querySelector('#buy span')!.setAttribute('lang', 'de');
    await frames.settle();
    expect(text('buy')).toBe('BUY THE BLUE WHEELS NOW.');
    // The script takes the quote's label back: translated again.
    quote.setAttribute('lang', 'en');
    await frames.settle();
    expect(text('quote')).toBe('PLUS VITE QUE LA ROUTE');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe(
      '<h1 id="name" lang="en-GB">Rocket skates</h1><blockquote id="quote" lang="en"><p>Plus vite que la route</p></blockquote><p id="buy">Buy the <span lang="de">blue wheels</span> now.</p>',
    );
  });

  it("an editor's frame that makes its body editable once its script has run (after the frame was translated) gets the draft back as written", async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<p>Dear team,</p><p>the cat sleeps.</p>', fake.translate, pages);
    await frames.settle();
    expect(document.body.textContent).toBe('DEAR TEAM,THE CAT SLEEPS.');
    document.body.setAttribute('contenteditable', 'true');
    await frames.settle();
    expect(document.body.innerHTML).toBe('<p>Dear team,</p><p>the cat sleeps.</p>');
    document.body.lastElementChild!.append(' Best regards');
    await frames.settle();
    expect(document.body.textContent).toBe('Dear team,the cat sleeps. Best regards');
    expect(page.status()).toMatchObject({ errors: 0 });
  });
});
