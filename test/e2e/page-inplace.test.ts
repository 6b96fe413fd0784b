/**
 * Bilingual mode and alternatives in place in Chromium, with the built extension: Apertium pointed
 * at the marker fake (`word` -> `⟦word⟧`), and a second route through Catalan (en -> ca -> es, both
 * legs on the same fake, so its text is marked twice).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { ARABIC_PAGE, tabDriver, useApertiumAt } from '../fakes/page-e2e';
import { LONG_TEXT } from '../fakes/page-libraries';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { launchExtension, OPTIONS_PATH, stopServiceWorkers, type ExtensionBrowser } from './browser';
import { hoverButton, piercedBox, piercedText, texts, type DomNode } from './pierced';
import { POPUP_PATH, storageGet, storageSet } from './ui-helpers';

const ARTICLE_OF = (heading: string, link: string, end: string) => `<!doctype html><html lang="en"><head><title>Two routes</title></head><body>
<h1 id="h">${heading}</h1>
<p id="p">Read <a href="#more" id="lnk">${link}</a> ${end}</p>
<ul><li id="li">The first item</li></ul>
<script>window.__links = 0; document.getElementById('lnk').addEventListener('click', (e) => { e.preventDefault(); window.__links++; });</script>
</body></html>`;
const ARTICLE = ARTICLE_OF('A small article', 'the whole story', 'today.');

/** A long paragraph, translated in pieces. */
const LONG_PAGE_OF = (text: string) => `<!doctype html><html lang="en"><head><title>A long paragraph</title></head><body>
<p id="long">${text}</p>
</body></html>`;

/** Texts the worker's memory has not seen in this file's other tests (their calls reach the provider). */
const UNSEEN_LONG = LONG_TEXT.replaceAll('walk', 'climb');

/**
 * A headline with its thumbnail in the same link (laid out inline, as news sites do), an icon
 * sized by a rule that names the paragraph's id (which its bilingual copy does not carry), and an
 * image that does not load.
 */
const PICTURES = `<!doctype html><html lang="en"><head><title>Pictures</title>
<style>#pic > svg { width: 16px; height: 16px; } #pic { font-size: 16px; }</style></head><body>
<p id="pic"><a href="#story"><img id="photo" alt="A harbour" width="154" height="115"
src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='154' height='115'%3E%3Crect width='154' height='115' fill='teal'/%3E%3C/svg%3E">
The harbour at dawn</a>, with its <svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg> lighthouse
<img id="broken" src="/missing.png" alt="a gull" width="60" height="18">.</p>
<div style="height: 8000px"></div>
<p id="far">Far below, a <img id="smile" loading="lazy" src="/smile.svg" alt="smile"> face and a <img id="boat" loading="lazy" src="/boat.svg" alt="a boat"> boat.</p>
</body></html>`;
/** Images served for PICTURES: an emoji-sized one and a photo-sized one. */
const SVG = (w: number, h: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="gold"/></svg>`;

/**
 * Web components whose text is in an open and in a closed shadow root: events reach the document
 * retargeted to their host, and a closed root's inside is not in their composed path either.
 */
const COMPONENT = `<!doctype html><html lang="en"><head><title>Component</title></head><body>
<h1>A page with a component</h1>
<x-quote></x-quote>
<x-closed-quote></x-closed-quote>
<script>customElements.define('x-quote', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p id="inq">A quoted <a href="#q" id="qlink">line</a></p>'; }
});
customElements.define('x-closed-quote', class extends HTMLElement {
  constructor() { super(); const root = this.attachShadow({ mode: 'closed' }); root.innerHTML = '<p id="cq">A closed <a href="#c" id="clink">quote</a></p>'; window.__cq = root; }
});</script>
</body></html>`;

/** Words a page shows from attributes: a field's hint, a button input's label, a broken image's alt text; a script counts the form's submits. */
const FORM_PAGE = `<!doctype html><html lang="en"><head><title>A form</title></head><body>
<form id="f" action="/sent.html"><p id="fp">Look for <input id="q" placeholder="Any product name"> <input id="go" type="submit" value="Search now"></p></form>
<p><img id="logo" src="/missing.png" alt="Our shop logo" width="160" height="40"></p>
<script>window.__sent = 0; document.getElementById('f').addEventListener('submit', (e) => { e.preventDefault(); window.__sent++; });</script>
</body></html>`;

describe('bilingual mode and alternatives in place', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let control: Page;

  const { send, open, settle } = tabDriver(() => browser, () => control);

  /**
   * `path` translated into Spanish while the provider fails the texts `failing` says yes to (for
   * every route the engine tries), then well again; `fix` puts one failed unit right from the
   * chooser: one failure fewer, and restore is exact.
   */
  const fixedFromChooser = async (path: string, failing: (q: string) => boolean, fix: (page: Page) => Promise<void>) => {
    const { page, tabId } = await open(`${server.origin}${path}`);
    const before = await page.evaluate(() => document.body.innerHTML);
    try {
      apy.failing = failing;
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      const status = await settle(tabId);
      apy.failing = undefined;
      expect(status['state']).toBe('translated');
      const errors = Number(status['errors']);
      expect(errors).toBeGreaterThan(0);
      await fix(page);
      expect(await send({ type: 'page:status', data: { tabId } })).toMatchObject({ data: { state: 'translated', errors: errors - 1 } });
      expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
      expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    } finally {
      apy.failing = undefined;
      await page.close();
    }
  };

  /** Alt+click at `selector`'s top left corner: the chooser's text once it shows `until`. */
  const chooserAt = async (page: Page, selector: string, until: string): Promise<string> => {
    await page.click(selector, { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    for (let i = 0; i < 100 && !(await chooserText()).includes(until); i++) await new Promise((r) => setTimeout(r, 50));
    return chooserText();
  };

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(0, ['cat-spa', 'ara-eng']), startPageServer()]);
    server.set('/article.html', ARTICLE);
    server.set('/long.html', LONG_PAGE_OF(LONG_TEXT));
    server.set('/unseen-long.html', LONG_PAGE_OF(UNSEEN_LONG));
    server.set('/unseen-article.html', ARTICLE_OF('A second story', 'the other story', 'tonight.'));
    server.set('/component.html', COMPONENT);
    server.set('/form.html', FORM_PAGE);
    server.set('/pictures.html', PICTURES);
    server.set('/smile.svg', SVG(18, 18), { 'content-type': 'image/svg+xml' });
    server.set('/boat.svg', SVG(200, 150), { 'content-type': 'image/svg+xml' });
    server.set('/arabic.html', ARABIC_PAGE);
    server.set('/README.md', '# Notes\n\n```\nnpm ci\n```\n\nThen open the page.\n', { 'content-type': 'text/plain; charset=utf-8' });
    await useApertiumAt(browser, apy.url, ['ca']);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it('bilingual: a translated copy under each block, the original untouched; one hidden from its chooser and put back; restore gives body.innerHTML back', async () => {
    const { page, tabId } = await open(`${server.origin}/article.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    const reply = await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'bilingual' } });
    expect(reply.data).toMatchObject({ state: 'translating', mode: 'bilingual', scope: 'page' });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const seen = await page.evaluate(() => ({
      p: document.getElementById('p')!.outerHTML,
      copy: document.getElementById('p')!.nextElementSibling!.outerHTML,
      h: document.getElementById('h')!.nextElementSibling!.textContent,
      li: document.getElementById('li')!.innerHTML,
      copies: document.querySelectorAll('[data-polyglot-bilingual]').length,
      lang: document.documentElement.lang,
    }));
    expect(seen.p).toBe('<p id="p">Read <a href="#more" id="lnk">the whole story</a> today.</p>');
    expect(seen.copy).toBe('<p data-polyglot-bilingual="" lang="es">⟦Read⟧ <a href="#more">⟦the whole story⟧</a> ⟦today.⟧</p>');
    expect(seen.h).toBe('⟦A small article⟧');
    expect(seen.li).toBe('The first item<span data-polyglot-bilingual="" lang="es" style="display: block;">⟦The first item⟧</span>');
    expect(seen.copies).toBe(3);
    expect(seen.lang).toBe('en');
    await page.click('#lnk');
    expect(await page.evaluate(() => (window as unknown as { __links: number }).__links)).toBe(1);
    // "Hide this translation" (Alt+click on a copy, here the one inside the list item): that copy
    // goes, the others stay. (The list item: the next test counts the requests of #p's routes.)
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    const until = async (text: string) => {
      for (let i = 0; i < 100 && !(await chooserText()).includes(text); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await page.click('#li > [data-polyglot-bilingual]', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    await until('apertium → ca → apertium|');
    expect(await chooserText()).toMatch(/^apertium \(shown\)\|⟦The first item⟧\|/);
    const hide = (await piercedBox(page, 'polyglot-alternatives', (n) => n.localName === 'button' && texts(n).join('') === 'Hide this translation'))!;
    await page.mouse.click(hide.x + hide.width / 2, hide.y + hide.height / 2);
    const copies = () => page.evaluate(() => [...document.querySelectorAll('[data-polyglot-bilingual]')].map((c) => `${c.previousElementSibling?.id ?? c.parentElement!.id}: ${c.textContent}`));
    expect(await copies()).toEqual(['h: ⟦A small article⟧', 'p: ⟦Read⟧ ⟦the whole story⟧ ⟦today.⟧']);
    expect(await chooserText()).toBe('');
    expect(await page.evaluate(() => document.getElementById('li')!.outerHTML)).toBe('<li id="li">The first item</li>');
    // Alt+click on the original: the chooser says so, and a route's "Use this" puts the copy back.
    await page.click('#li', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    await until('apertium → ca → apertium|⟦⟦');
    expect(await chooserText()).toMatch(/^Translation hidden\|apertium/);
    expect(await chooserText()).not.toContain('Hide this translation');
    const direct = (n: DomNode) => n.localName === 'div' && texts(n)[0] === 'apertium';
    const useDirect = (await piercedBox(page, 'polyglot-alternatives', (n) => n.localName === 'button' && texts(n).join('') === 'Use this', direct))!;
    await page.mouse.click(useDirect.x + useDirect.width / 2, useDirect.y + useDirect.height / 2);
    expect(await chooserText()).toBe('');
    expect(await page.evaluate(() => document.getElementById('li')!.innerHTML)).toBe(seen.li);
    const bad = await send({ type: 'page:translate', data: { tabId, trg: 'es', mode: 'side-by-side' } });
    expect(bad.error).toMatchObject({ status: 400 });
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it("bilingual: a copy repeats an icon at its size on the page, not a headline's thumbnail, and decides on a lazy image once it loads; restore exact", async () => {
    const { page, tabId } = await open(`${server.origin}/pictures.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'bilingual' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const seen = await page.evaluate(() => {
      const copy = document.getElementById('pic')!.nextElementSibling!;
      const icon = copy.querySelector('svg')!.getBoundingClientRect();
      return { text: copy.textContent!.replace(/\s+/g, ' ').trim(), images: copy.querySelectorAll('img').length, icon: [icon.width, icon.height], photos: document.querySelectorAll('#photo').length };
    });
    // Nor the image that did not load (the page shows its alt text; the copy would show an empty frame).
    expect(seen).toEqual({ text: '⟦The harbour at dawn⟧⟦, with its⟧ ⟦lighthouse .⟧', images: 0, icon: [16, 16], photos: 1 });
    // Lazy images far below, not loaded at the trigger: their copies wait; scrolled to, they load,
    // and the emoji-sized one shows in the copy at its size, the photo-sized one stays hidden.
    const far = () =>
      page.evaluate(() => {
        const copy = document.getElementById('far')!.nextElementSibling!;
        return { text: copy.textContent, shown: [...copy.querySelectorAll('img')].filter((i) => i.getBoundingClientRect().height > 0).map((i) => [i.getAttribute('src'), i.getBoundingClientRect().width, i.getBoundingClientRect().height]) };
      });
    expect(await page.evaluate(() => (document.getElementById('smile') as HTMLImageElement).complete)).toBe(false);
    await page.evaluate(() => document.getElementById('far')!.scrollIntoView());
    await expect.poll(far, { timeout: 5000, interval: 100 }).toEqual({ text: '⟦Far below, a⟧  ⟦face and a⟧  ⟦boat.⟧', shown: [['/smile.svg', 18, 18]] });
    // Its decision made at its load, not before: the boat has loaded too.
    await expect.poll(() => page.evaluate(() => (document.getElementById('boat') as HTMLImageElement).naturalWidth), { timeout: 5000, interval: 100 }).toBe(200);
    expect((await far()).shown).toEqual([['/smile.svg', 18, 18]]);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('out of Arabic into English, each paragraph reads left to right (dir=ltr where the page lays it out right to left); restore exact', async () => {
    const { page, tabId } = await open(`${server.origin}/arabic.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'ar', trg: 'en' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const seen = () =>
      page.evaluate(() => ['h', 'p', 'auto', 'css'].map((id) => {
        const el = document.getElementById(id)!;
        return [el.getAttribute('dir'), getComputedStyle(el).direction, el.textContent!.startsWith('⟦')];
      }));
    // dir=auto follows its text by itself (the fake keeps the Arabic words, marked: still right to
    // left here; an English text reads left to right), and CSS said ltr already: nothing set there.
    expect(await seen()).toEqual([['ltr', 'ltr', true], ['ltr', 'ltr', true], ['auto', 'rtl', true], [null, 'ltr', true]]);
    await send({ type: 'page:restore', data: { tabId } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('p')!).direction)).toBe('rtl');
    await page.close();
  });

  it('Alt+click lists the other route, Enter writes it in place, the route becomes the page\'s; restore exact', async () => {
    const { page, tabId } = await open(`${server.origin}/article.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    const linkText = () => page.evaluate(() => document.getElementById('p')!.innerHTML);
    expect(await linkText()).toBe('⟦Read⟧ <a href="#more" id="lnk">⟦the whole story⟧</a> ⟦today.⟧');
    const requests = apy.requests;
    await page.click('#p', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    // The chooser lives in a closed shadow root: read through the DevTools protocol, which pierces it.
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    for (let i = 0; i < 100 && !(await chooserText()).includes('apertium → ca → apertium'); i++) await new Promise((r) => setTimeout(r, 50));
    const text = await chooserText();
    // What the paragraph read before, first: the page shows only its translation.
    expect(text).toContain('Original (English)|Read the whole story today.|Show the original|apertium (shown)|⟦Read⟧ ⟦the whole story⟧ ⟦today.⟧');
    expect(text).toContain('apertium → ca → apertium|⟦⟦Read⟧⟧ ⟦⟦the whole story⟧⟧ ⟦⟦today.⟧⟧');
    // One unit, two legs of one other route.
    expect(apy.requests - requests).toBe(2);
    // Focus is on "Use this" of the first alternative: the keyboard picks it.
    await page.keyboard.press('Enter');
    expect(await linkText()).toBe('⟦⟦Read⟧⟧ <a href="#more" id="lnk">⟦⟦the whole story⟧⟧</a> ⟦⟦today.⟧⟧');
    expect(await chooserText()).toBe('');
    await page.click('#lnk');
    expect(await page.evaluate(() => (window as unknown as { __links: number }).__links)).toBe(1);
    // Again, now "Use this route for the page": later calls put the chain first.
    await page.click('#h', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    for (let i = 0; i < 100 && !(await chooserText()).includes('Use this route'); i++) await new Promise((r) => setTimeout(r, 50));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.getElementById('h')!.textContent)).toBe('⟦⟦A small article⟧⟧');
    expect((await send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ rid: 'apertium.ts,ca,apertium.ts' });
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<p id="late">Added later</p>'));
    await page.waitForFunction(() => document.getElementById('late')!.textContent === '⟦⟦Added later⟧⟧');
    await page.evaluate(() => document.getElementById('late')!.remove());
    // "Show the original" (the chooser's first button): the paragraph reads as it was, in its
    // language, its link still the page's; the rest of the page stays translated.
    await page.click('#p', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    for (let i = 0; i < 100 && !(await chooserText()).includes('Use this route'); i++) await new Promise((r) => setTimeout(r, 50));
    const showOriginal = (await piercedBox(page, 'polyglot-alternatives', 'button'))!;
    await page.mouse.click(showOriginal.x + showOriginal.width / 2, showOriginal.y + showOriginal.height / 2);
    expect(await page.evaluate(() => document.getElementById('p')!.outerHTML)).toBe('<p id="p" lang="en">Read <a href="#more" id="lnk">the whole story</a> today.</p>');
    expect(await chooserText()).toBe('');
    expect(await page.evaluate(() => document.getElementById('h')!.textContent)).toBe('⟦⟦A small article⟧⟧');
    await page.click('#lnk');
    expect(await page.evaluate(() => (window as unknown as { __links: number }).__links)).toBe(2);
    await page.click('#p', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    // Both routes are alternatives now, each shown as it arrives.
    const direct = '|apertium|⟦Read⟧ ⟦the whole story⟧ ⟦today.⟧|Use this|';
    const chain = '|apertium → ca → apertium|⟦⟦Read⟧⟧ ⟦⟦the whole story⟧⟧ ⟦⟦today.⟧⟧|Use this|';
    const both = async () => {
      const text = `${await chooserText()}|`;
      return text.includes(direct) && text.includes(chain);
    };
    for (let i = 0; i < 100 && !(await both()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await chooserText()).toMatch(/^Original \(English\) \(shown\)\|Read the whole story today\.\|apertium/);
    expect(await both()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it("Alt+click on a button input, an empty field and a broken image lists the alternatives of the words each shows (its value, hint, alt text), not the paragraph's; Enter writes one there; the form is not sent; restore exact", async () => {
    const { page, tabId } = await open(`${server.origin}/form.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    const shown = () =>
      page.evaluate(() => {
        const el = (id: string) => document.getElementById(id) as HTMLInputElement & HTMLImageElement;
        return [el('go').value, el('q').placeholder, el('logo').alt, el('fp').textContent];
      });
    expect(await shown()).toEqual(['⟦Search now⟧', '⟦Any product name⟧', '⟦Our shop logo⟧', '⟦Look for⟧  ']);
    const chain = 'apertium → ca → apertium';
    expect(await chooserAt(page, '#go', chain)).toContain(`Original (English)|Search now|Show the original|apertium (shown)|⟦Search now⟧|${chain}|⟦⟦Search now⟧⟧|Use this`);
    await page.keyboard.press('Enter');
    expect(await shown()).toEqual(['⟦⟦Search now⟧⟧', '⟦Any product name⟧', '⟦Our shop logo⟧', '⟦Look for⟧  ']);
    // The Alt+click on the submit button sent nothing.
    expect(await page.evaluate(() => (window as unknown as { __sent: number }).__sent)).toBe(0);
    expect(await chooserAt(page, '#q', chain)).toContain(`Original (English)|Any product name|Show the original|apertium (shown)|⟦Any product name⟧|${chain}|⟦⟦Any product name⟧⟧`);
    await page.keyboard.press('Enter');
    expect(await chooserAt(page, '#logo', chain)).toContain(`Original (English)|Our shop logo|Show the original|apertium (shown)|⟦Our shop logo⟧|${chain}|⟦⟦Our shop logo⟧⟧`);
    await page.keyboard.press('Enter');
    expect(await shown()).toEqual(['⟦⟦Search now⟧⟧', '⟦⟦Any product name⟧⟧', '⟦⟦Our shop logo⟧⟧', '⟦Look for⟧  ']);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('Alt+click on a long paragraph sent in pieces lists the other route\'s translation of all of it, Enter writes it; restore exact', async () => {
    const { page, tabId } = await open(`${server.origin}/long.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    const text = () => page.evaluate(() => document.getElementById('long')!.textContent!);
    // Each piece marked once by the fake.
    const pieces = (await text()).split('⟦').length - 1;
    expect(pieces).toBeGreaterThan(1);
    expect((await text()).replace(/[⟦⟧]/g, '')).toBe(LONG_TEXT);
    await page.click('#long', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    for (let i = 0; i < 100 && !(await chooserText()).includes('apertium → ca → apertium'); i++) await new Promise((r) => setTimeout(r, 50));
    const listed = await chooserText();
    expect(listed).toContain(`Original (English)|${LONG_TEXT}|Show the original|apertium (shown)|`);
    // The chain's answer for every piece, each marked twice.
    const chain = listed.split('apertium → ca → apertium|')[1]!.split('|')[0]!;
    expect(chain.split('⟦⟦').length - 1).toBe(pieces);
    expect(chain.replace(/[⟦⟧]/g, '')).toBe(LONG_TEXT);
    await page.keyboard.press('Enter');
    expect(await text()).toBe(chain);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('a long paragraph one of whose pieces every route failed: Alt+click lists the chain\'s translation of all of it, Enter writes it and the failure is gone; restore exact', () =>
    // The last piece failed, and what shared its call (the document's title).
    fixedFromChooser('/unseen-long.html', (q) => q.includes('Sentence 29 '), async (page) => {
      const text = () => page.evaluate(() => document.getElementById('long')!.textContent!);
      expect(await text()).toMatch(/^⟦Sentence 0 .*Sentence 29 tells of the climb in the hills of the north, where the path goes on\.$/);
      const listed = await chooserAt(page, '#long', 'apertium → ca → apertium');
      expect(listed).toContain(`Original (English)|${UNSEEN_LONG}|Show the original|apertium|Part of this paragraph was not translated|apertium → ca → apertium|`);
      const chain = listed.split('apertium → ca → apertium|')[1]!.split('|')[0]!;
      expect(chain.replace(/[⟦⟧]/g, '')).toBe(UNSEEN_LONG);
      expect(chain.endsWith('⟧⟧')).toBe(true);
      await page.keyboard.press('Enter');
      expect(await text()).toBe(chain);
    }));

  it('a paragraph whose call failed: Alt+click lists every route\'s translation, Enter writes the first into its live nodes, one failure fewer; restore exact', () =>
    fixedFromChooser('/unseen-article.html', (q) => q.includes('the other story'), async (page) => {
      const linkText = () => page.evaluate(() => document.getElementById('p')!.innerHTML);
      expect(await linkText()).toBe('Read <a href="#more" id="lnk">the other story</a> tonight.');
      expect(await chooserAt(page, '#p', 'apertium → ca → apertium|')).toContain('Original (English) (shown)|Read the other story tonight.|apertium|⟦Read⟧ ⟦the other story⟧ ⟦tonight.⟧|Use this|Use this route for the page|apertium → ca → apertium|⟦⟦Read⟧⟧');
      await page.keyboard.press('Enter');
      expect(await linkText()).toBe('⟦Read⟧ <a href="#more" id="lnk">⟦the other story⟧</a> ⟦tonight.⟧');
      await page.click('#lnk');
      expect(await page.evaluate(() => (window as unknown as { __links: number }).__links)).toBe(1);
    }));

  it("Alt+click on a paragraph of a README served as text lists the other route's translation of that paragraph, Enter writes it there, the code as it is; restore exact", async () => {
    const { page, tabId } = await open(`${server.origin}/README.md`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    const text = () => page.evaluate(() => document.querySelector('pre')!.textContent!);
    expect(await text()).toBe('⟦# Notes⟧\n\n```\nnpm ci\n```\n\n⟦Then open the page.⟧\n');
    // Where the last paragraph is on the screen: one <pre> holds them all.
    const at = await page.evaluate(() => {
      const t = [...document.querySelector('pre')!.childNodes].find((n) => n.textContent!.includes('Then open'))!;
      const range = document.createRange();
      range.selectNodeContents(t);
      const r = range.getClientRects()[0]!;
      return { x: r.left + 20, y: r.top + r.height / 2 };
    });
    await page.keyboard.down('Alt');
    await page.mouse.click(at.x, at.y);
    await page.keyboard.up('Alt');
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    for (let i = 0; i < 100 && !(await chooserText()).includes('apertium → ca → apertium'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await chooserText()).toContain('Original (English)|Then open the page.|Show the original|apertium (shown)|⟦Then open the page.⟧|apertium → ca → apertium|⟦⟦Then open the page.⟧⟧|');
    await page.keyboard.press('Enter');
    expect(await text()).toBe('⟦# Notes⟧\n\n```\nnpm ci\n```\n\n⟦⟦Then open the page.⟧⟧\n');
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    // Node for node: the file's one text again.
    expect(await page.evaluate(() => document.querySelector('pre')!.childNodes.length)).toBe(1);
    await page.close();
  });

  it("inside a web component's shadow root, open or closed, Alt+click and the shortcut at the focus open that paragraph's alternatives", async () => {
    const { page, tabId } = await open(`${server.origin}/component.html`);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    expect(await page.evaluate(() => document.querySelector('x-quote')!.shadowRoot!.getElementById('inq')!.textContent)).toBe('⟦A quoted⟧ ⟦line⟧');
    // Playwright's selector pierces the open root; the click's target seen from the document is the host.
    await page.click('#inq', { position: { x: 2, y: 2 }, modifiers: ['Alt'] });
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    const opened = async () => {
      for (let i = 0; i < 100 && !(await chooserText()).includes('apertium → ca → apertium'); i++) await new Promise((r) => setTimeout(r, 50));
      return chooserText();
    };
    expect(await opened()).toContain('Original (English)|A quoted line|Show the original|apertium (shown)|⟦A quoted⟧ ⟦line⟧');
    await page.keyboard.press('Escape');
    expect(await chooserText()).toBe('');
    // The focus on the component's link (the document's activeElement is the host): the shortcut.
    await page.focus('#qlink');
    await showAlternatives(browser, tabId);
    expect(await opened()).toContain('apertium (shown)|⟦A quoted⟧ ⟦line⟧');
    await page.keyboard.press('Escape');
    expect(await chooserText()).toBe('');
    // The focus goes back to the link inside the component.
    expect(await page.evaluate(() => document.querySelector('x-quote')!.shadowRoot!.activeElement?.id)).toBe('qlink');

    // A closed root: the click's point says where inside it; the root's own activeElement, the focus.
    const closedRoot = () => (window as unknown as { __cq: ShadowRoot }).__cq;
    expect(await page.evaluate(`(${closedRoot})().getElementById('cq').textContent`)).toBe('⟦A closed⟧ ⟦quote⟧');
    const box = (await piercedBox(page, 'x-closed-quote', 'p'))!;
    await page.keyboard.down('Alt');
    await page.mouse.click(box.x + 2, box.y + 2);
    await page.keyboard.up('Alt');
    expect(await opened()).toContain('Original (English)|A closed quote|Show the original|apertium (shown)|⟦A closed⟧ ⟦quote⟧');
    await page.keyboard.press('Escape');
    expect(await chooserText()).toBe('');
    await page.evaluate(`(${closedRoot})().getElementById('clink').focus()`);
    await showAlternatives(browser, tabId);
    expect(await opened()).toContain('apertium (shown)|⟦A closed⟧ ⟦quote⟧');
    await page.keyboard.press('Escape');
    expect(await chooserText()).toBe('');
    expect(await page.evaluate(`(${closedRoot})().activeElement?.id`)).toBe('clink');
    // A mouse resting on the closed root's paragraph: the button, by that paragraph.
    await page.mouse.move(1, 1);
    await page.mouse.move(box.x + 4, box.y + box.height / 2, { steps: 3 });
    const button = await hoverButton(page);
    expect(button).toBeDefined();
    expect(button!.y).toBeGreaterThanOrEqual(box.y - 1);
    expect(button!.y).toBeLessThan(box.y + box.height);
    await send({ type: 'page:restore', data: { tabId } });
    await page.close();
  });

  it('the shortcut opens the alternatives of the paragraph holding the focus; Escape gives the focus back', async () => {
    const { page, tabId } = await open(`${server.origin}/article.html`);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    const shortcut = () => showAlternatives(browser, tabId);
    // Nothing translated at the cursor (no focus, no selection inside a unit): nothing opens.
    await shortcut();
    await new Promise((r) => setTimeout(r, 300));
    expect(await chooserText()).toBe('');

    await page.focus('#lnk');
    await shortcut();
    for (let i = 0; i < 100 && !(await chooserText()).includes('apertium → ca → apertium'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await chooserText()).toContain('apertium (shown)|⟦Read⟧ ⟦the whole story⟧ ⟦today.⟧');
    expect(await page.evaluate(() => document.activeElement?.localName)).toBe('polyglot-alternatives');
    await page.keyboard.press('Escape');
    expect(await chooserText()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('lnk');

    // A caret inside a paragraph works the same; Enter picks the other route.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      const text = document.getElementById('li')!.firstChild!;
      getSelection()!.collapse(text, 2);
    });
    await shortcut();
    for (let i = 0; i < 100 && !(await chooserText()).includes('Use this'); i++) await new Promise((r) => setTimeout(r, 50));
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.getElementById('li')!.textContent)).toBe('⟦⟦The first item⟧⟧');
    await page.close();
  });

  it('a mouse resting on a translated paragraph shows a button that opens its alternatives; leaving hides it', async () => {
    const { page, tabId } = await open(`${server.origin}/article.html`);
    await page.mouse.move(1, 1);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    const button = () => piercedBox(page, 'polyglot-hover', 'button');
    const waitFor = async (want: boolean) => {
      for (let i = 0; i < 60 && !!(await button()) !== want; i++) await new Promise((r) => setTimeout(r, 50));
      return button();
    };
    await page.hover('#lnk');
    const box = await waitFor(true);
    expect(box).toBeDefined();
    // By the paragraph's top right, on screen.
    const p = (await page.locator('#p').boundingBox())!;
    expect(box!.y).toBeGreaterThanOrEqual(p.y - 1);
    expect(box!.y).toBeLessThan(p.y + p.height);
    // The pointer goes to it (through the paragraph) and clicks: the chooser, with the other route.
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2, { steps: 4 });
    await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
    const chooserText = () => piercedText(page, 'polyglot-alternatives');
    for (let i = 0; i < 100 && !(await chooserText()).includes('apertium → ca → apertium'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await chooserText()).toContain('apertium (shown)|⟦Read⟧ ⟦the whole story⟧ ⟦today.⟧');
    expect(await button()).toBeUndefined();
    await page.keyboard.press('Escape');
    // Resting on the heading shows it again; moving off every paragraph hides it.
    await page.hover('#h');
    expect(await waitFor(true)).toBeDefined();
    await page.mouse.move(p.x + 10, 650);
    expect(await waitFor(false)).toBeUndefined();
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    await page.hover('#p');
    await new Promise((r) => setTimeout(r, 800));
    expect(await button()).toBeUndefined();

    // Turned off in the options: translated again, a resting mouse shows nothing.
    await control.reload();
    await control.locator('#hover-button').uncheck();
    await expect.poll(() => storageGet(control, 'ui:page')).toEqual({ hoverButton: false });
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle(tabId);
    await page.mouse.move(p.x + 10, 650);
    await page.hover('#lnk');
    await new Promise((r) => setTimeout(r, 900));
    expect(await button()).toBeUndefined();
    await control.locator('#hover-button').check();
    await page.close();
  });

  it('the shortcut leaves a page already in the target language as it is, and says so; a page mislabelled lang="en" is read as what it is', async () => {
    const ui = await browser.worker.evaluate(() => (globalThis as unknown as { chrome: { i18n: { getUILanguage(): string } } }).chrome.i18n.getUILanguage());
    // The shortcut translates into the browser's language: English here.
    expect(ui.split('-')[0]).toBe('en');
    const shortcut = (tabId: number) => browser.worker.evaluate(async (id) => {
      const c = (globalThis as unknown as { chrome: { tabs: { get(id: number): Promise<object> }; commands: { onCommand: { dispatch(command: string, tab: object): void } } } }).chrome;
      c.commands.onCommand.dispatch('toggle-page-translation', await c.tabs.get(id));
    }, tabId);

    const english = await open(`${server.origin}/article.html`);
    const before = await english.page.evaluate(() => document.body.innerHTML);
    const requests = apy.requests;
    await shortcut(english.tabId);
    await expect.poll(() => piercedText(english.page, 'polyglot-progress')).toBe('Already in English');
    expect(await send({ type: 'page:status', data: { tabId: english.tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await english.page.evaluate(() => document.body.innerHTML)).toBe(before);
    expect(apy.requests).toBe(requests);
    // Shown in Spanish, asked for English: its original.
    await send({ type: 'page:translate', data: { tabId: english.tabId, src: 'en', trg: 'es' } });
    expect(await settle(english.tabId)).toMatchObject({ state: 'translated', trg: 'es' });
    expect(await send({ type: 'page:translate', data: { tabId: english.tabId, trg: 'en' } })).toMatchObject({ data: { state: 'original' } });
    expect(await english.page.evaluate(() => document.body.innerHTML)).toBe(before);
    await english.page.close();

    // A template's lang="en" on a page written in Spanish: the browser's detector reads Spanish.
    server.set('/mislabelled.html', `<!doctype html><html lang="en"><head><title>Noticias</title></head><body>
<p id="es">El ayuntamiento de la ciudad aprobó ayer por la tarde un nuevo plan para mejorar el transporte público en todos los barrios, con más autobuses nocturnos y carriles para bicicletas.</p>
<p>Los vecinos celebraron la noticia, aunque algunos comerciantes del centro temen que las obras duren demasiado tiempo y afecten a sus ventas durante las fiestas de Navidad.</p>
</body></html>`);
    const spanish = await open(`${server.origin}/mislabelled.html`);
    await shortcut(spanish.tabId);
    // The shortcut's way to the page is asynchronous: the page starts after the detector has read it.
    await expect.poll(async () => (await send({ type: 'page:status', data: { tabId: spanish.tabId } })).data?.['state']).not.toBe('original');
    expect(await piercedText(spanish.page, 'polyglot-progress')).not.toMatch(/^Already/);
    expect(await settle(spanish.tabId)).toMatchObject({ state: 'translated', src: 'es', trg: 'en', errors: 0 });
    expect(await spanish.page.evaluate(() => document.getElementById('es')!.textContent)).toMatch(/^⟦El ayuntamiento de la ciudad/);
    await spanish.page.close();
  });

  it("the popup's button translates a page from the page's language, not from the popup's source (the text box's)", async () => {
    server.set('/french.html', `<!doctype html><html lang="fr"><head><title>Nouvelles</title></head><body><p id="fr">La mairie a approuvé hier un nouveau plan de transport.</p></body></html>`);
    const { page, tabId } = await open(`${server.origin}/french.html`);
    // The popup's pair as the text box left it: Spanish into English.
    await storageSet(control, { 'ui:popup': { src: 'es', trg: 'en' } });
    const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    await expect.poll(() => popup.locator('#src-select').inputValue()).toBe('es');
    await popup.getByRole('button', { name: 'Translate this page' }).click();
    await expect.poll(async () => (await send({ type: 'page:status', data: { tabId } })).data?.['state']).not.toBe('original');
    expect(await settle(tabId)).toMatchObject({ state: 'translated', src: 'fr', trg: 'en', errors: 0 });
    expect(await page.evaluate(() => document.getElementById('fr')!.textContent)).toBe('⟦La mairie a approuvé hier un nouveau plan de transport.⟧');
    await popup.close();
    await page.close();
  });

  it("the popup's 'Page in' names the language of a page whose lang is wrong; the page keeps it for the shortcut and the popup", async () => {
    // A template's lang="es" on a page written in French, translated into English (not the page's
    // lang, so the browser's detector is not asked: only the user can tell).
    server.set('/wrong-lang.html', `<!doctype html><html lang="es"><head><title>Nouvelles</title></head><body><p id="fr">La mairie a approuvé hier un nouveau plan de transport.</p></body></html>`);
    const { page, tabId } = await open(`${server.origin}/wrong-lang.html`);
    const status = async () => (await send({ type: 'page:status', data: { tabId } })).data as Record<string, unknown>;
    await storageSet(control, { 'ui:popup': { src: 'es', trg: 'en' } });
    const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    const pageLang = popup.locator('#page-lang');
    await expect.poll(() => pageLang.inputValue()).toBe('es');
    await pageLang.selectOption('fr');
    // Named, not yet sent: the button translates.
    expect(await status()).toMatchObject({ state: 'original', lang: 'es' });
    await popup.getByRole('button', { name: 'Translate this page' }).click();
    await expect.poll(async () => (await status())['state']).not.toBe('original');
    expect(await settle(tabId)).toMatchObject({ state: 'translated', src: 'fr', trg: 'en', errors: 0 });
    expect(await page.evaluate(() => document.getElementById('fr')!.textContent)).toBe('⟦La mairie a approuvé hier un nouveau plan de transport.⟧');
    expect(await status()).toMatchObject({ lang: 'fr' });

    // Restored, then the shortcut: still from French, as the user said.
    await send({ type: 'page:restore', data: { tabId } });
    await browser.worker.evaluate(async (id) => {
      const c = (globalThis as unknown as { chrome: { tabs: { get(id: number): Promise<object> }; commands: { onCommand: { dispatch(command: string, tab: object): void } } } }).chrome;
      c.commands.onCommand.dispatch('toggle-page-translation', await c.tabs.get(id));
    }, tabId);
    await expect.poll(async () => (await status())['state']).not.toBe('original');
    expect(await settle(tabId)).toMatchObject({ state: 'translated', src: 'fr', trg: 'en', errors: 0 });

    // The popup opened again shows French; naming Spanish translates the page again from Spanish.
    await popup.reload();
    await expect.poll(() => pageLang.inputValue()).toBe('fr');
    await pageLang.selectOption('es');
    await expect.poll(async () => (await status())['src']).toBe('es');
    expect(await settle(tabId)).toMatchObject({ state: 'translated', src: 'es', trg: 'en', errors: 0 });
    await popup.close();
    await page.close();
  });

  it('a worker stopped while the page translates: the calls it was running are sent again, nothing fails; restore exact', async () => {
    const paragraphs = Array.from({ length: 300 }, (_, i) => `<p>Paragraph number ${i} of a long page.</p>`).join('');
    server.set('/worker-stops.html', `<!doctype html><html lang="en"><head><title>Long</title></head><body>${paragraphs}</body></html>`);
    const { page, tabId } = await open(`${server.origin}/worker-stops.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    const status = async () => (await send({ type: 'page:status', data: { tabId } })).data as { state: string; done: number; total: number };
    apy.latencyMs = 800;
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      await expect.poll(async () => (await status()).done, { timeout: 10_000 }).toBeGreaterThan(0);
      const mid = await status();
      expect(mid.done).toBeLessThan(mid.total);
      // As Chromium does to an idle worker, or on an update: the calls it ran lose their port.
      await stopServiceWorkers(page);
      await expect.poll(async () => (await status()).state, { timeout: 30_000 }).toBe('translated');
      expect(await status()).toMatchObject({ errors: 0 });
      expect(await page.evaluate(() => [...document.querySelectorAll('p')].every((p) => p.textContent!.startsWith('⟦')))).toBe(true);
    } finally {
      apy.latencyMs = 0;
    }
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  /** The popup of the tab, into the page's pair (English to Spanish), has the page button `name`. */
  const popupOffers = async (tabId: number, name: string) => {
    await storageSet(control, { 'ui:popup': { src: 'en', trg: 'es' } });
    const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    await expect.poll(() => popup.getByRole('button', { name }).count()).toBe(1);
    await popup.close();
  };

  it('a page whose text is all marked not to translate is left as it is, and the indicator, the badge and the popup say there was nothing to translate', async () => {
    server.set('/brand.html', `<!doctype html><html lang="en"><body><div translate="no"><h1>Acme Rocket Skates</h1><p class="tagline">Faster than the road runner</p></div><pre>npm install acme</pre></body></html>`);
    const { page, tabId } = await open(`${server.origin}/brand.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    const requests = apy.requests;
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', done: 0, total: 0, errors: 0 });
    await expect.poll(() => piercedText(page, 'polyglot-progress')).toBe('Nothing to translate here');
    const badge = await browser.worker.evaluate(
      (id) => (globalThis as unknown as { chrome: { action: { getBadgeText(d: { tabId: number }): Promise<string> } } }).chrome.action.getBadgeText({ tabId: id }),
      tabId,
    );
    expect(badge).toBe('');
    await storageSet(control, { 'ui:popup': { src: 'en', trg: 'es' } });
    const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    await expect.poll(() => popup.getByText('Nothing on this page to translate').count()).toBe(1);
    await popup.close();
    expect(apy.requests).toBe(requests);
    expect(await page.evaluate(() => [document.body.innerHTML, document.documentElement.lang])).toEqual([before, 'en']);
    await page.close();
  });

  it("parts that failed are sent again by the indicator's Retry (the popup offers it too), not what was written; restore exact", async () => {
    // Each paragraph a call of its own: the two the provider fails on fail alone.
    const paragraphs = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} ${'with some words '.repeat(50)}</p>`).join('');
    server.set('/retry.html', `<!doctype html><html lang="en"><head><title>Retry</title></head><body>${paragraphs}</body></html>`);
    const { page, tabId } = await open(`${server.origin}/retry.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    const marked = () => page.evaluate(() => [...document.querySelectorAll('p')].map((p) => p.textContent!.startsWith('⟦')));
    // Both routes (direct, and through Catalan) fail on them.
    apy.failing = (q) => /Paragraph [24]\b/.test(q);
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 2 });
      expect(await marked()).toEqual([true, true, false, true, false, true]);
      expect(await piercedText(page, 'polyglot-progress')).toMatch(/^Translated · 2 failed: .+\|Retry$/);
      // Printing the page prints the page, not the indicator.
      const indicatorDisplay = () => page.evaluate(() => getComputedStyle(document.querySelector('polyglot-progress')!).display);
      await page.emulateMedia({ media: 'print' });
      expect(await indicatorDisplay()).toBe('none');
      await page.emulateMedia({ media: 'screen' });
      expect(await indicatorDisplay()).not.toBe('none');
      // The popup, into the page's target: its button goes on rather than starting afresh.
      await popupOffers(tabId, 'Retry the 2 failed parts');

      apy.failing = undefined;
      const requests = apy.requests;
      await clickIndicatorButton(page);
      expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
      expect(await marked()).toEqual(Array(6).fill(true));
      // The two paragraphs, once each, on the direct route.
      expect(apy.requests - requests).toBe(2);
      await expect.poll(() => piercedText(page, 'polyglot-progress')).toBe('Translated');
      expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
      expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    } finally {
      apy.failing = undefined;
    }
    await page.close();
  });

  it("a frame's failed parts count in the tab's badge, the indicator and the popup, and the indicator's Retry sends them again too", async () => {
    // The page's own paragraphs and a frame's, each a call of its own; one of each fails.
    const words = 'with some words '.repeat(50);
    const framed = Array.from({ length: 2 }, (_, i) => `<p>Framed ${i} ${words}</p>`).join('');
    // Not the words of the test above: the translation memory has those.
    const paragraphs = Array.from({ length: 3 }, (_, i) => `<p>Section ${i} ${words}</p>`).join('');
    server.set('/framed.html', `<!doctype html><html lang="en"><head><title>Framed</title></head><body>${paragraphs}<iframe srcdoc="${framed}"></iframe></body></html>`);
    const { page, tabId } = await open(`${server.origin}/framed.html`);
    const frame = () => page.frames().find((f) => f !== page.mainFrame())!;
    await expect.poll(() => frame()?.evaluate(() => document.querySelectorAll('p').length)).toBe(2);
    const before = await page.evaluate(() => document.body.innerHTML);
    const marked = async () => [
      ...(await page.evaluate(() => [...document.querySelectorAll('p')].map((p) => p.textContent!.startsWith('⟦')))),
      ...(await frame().evaluate(() => [...document.querySelectorAll('p')].map((p) => p.textContent!.startsWith('⟦')))),
    ];
    const badge = () => browser.worker.evaluate(
      (id) => (globalThis as unknown as { chrome: { action: { getBadgeText(d: { tabId: number }): Promise<string> } } }).chrome.action.getBadgeText({ tabId: id }),
      tabId,
    );
    // Only a part of the frame fails: the top frame's own result is "Translated", with nothing to retry.
    apy.failing = (q) => /Framed 0\b/.test(q);
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      await expect.poll(marked).toEqual([true, true, true, false, true]);
      // The tab's status counts the frame's parts: 6 in all with the title, 1 failed.
      await expect.poll(async () => (await send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ state: 'translated', done: 5, total: 6, errors: 1 });
      await expect.poll(badge).toBe('!');
      // The indicator too (the background tells the top frame its frames' units), with its Retry.
      await expect.poll(() => piercedText(page, 'polyglot-progress')).toMatch(/^Translated · 1 failed: .+\|Retry$/);
      await popupOffers(tabId, 'Retry the 1 failed part');

      apy.failing = undefined;
      const requests = apy.requests;
      await clickIndicatorButton(page);
      await expect.poll(marked).toEqual(Array(5).fill(true));
      await expect.poll(async () => (await send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ state: 'translated', done: 6, total: 6, errors: 0 });
      // The frame's failed part, once: the top frame's Retry reached it through the background.
      expect(apy.requests - requests).toBe(1);
      await expect.poll(() => piercedText(page, 'polyglot-progress')).toBe('Translated');
      await expect.poll(badge).toBe('✓');
      expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original', done: 0, total: 0 } });
      expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    } finally {
      apy.failing = undefined;
    }
    await page.close();
  });

  it("the indicator's Stop stops the page's frames too; the tab reads stopped and the popup goes on from there", async () => {
    // The page's own text is one call; its frame's, some 20 calls, 4 at a time at 1 s each.
    const framed = Array.from({ length: 400 }, (_, i) => `<p>Framed line ${i} of a long frame.</p>`).join('');
    server.set('/long-frame.html', `<!doctype html><html lang="en"><head><title>A frame</title></head><body><p>A short page.</p><iframe srcdoc="${framed}"></iframe></body></html>`);
    const { page, tabId } = await open(`${server.origin}/long-frame.html`);
    const frame = () => page.frames().find((f) => f !== page.mainFrame())!;
    await expect.poll(() => frame()?.evaluate(() => document.querySelectorAll('p').length)).toBe(400);
    const marked = () => frame().evaluate(() => [...document.querySelectorAll('p')].filter((p) => p.textContent!.startsWith('⟦')).length);
    const status = async () => (await send({ type: 'page:status', data: { tabId } })).data as { state: string; done: number; total: number };
    apy.latencyMs = 1000;
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      // The top frame done, its frame not: the indicator still reads translating, with its Stop.
      await expect.poll(() => page.evaluate(() => document.querySelector('p')!.textContent!.startsWith('⟦')), { timeout: 10_000 }).toBe(true);
      await expect.poll(marked, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await piercedText(page, 'polyglot-progress')).toMatch(/^Translating… \d+%\|Stop$/);
      await clickIndicatorButton(page);
      await expect.poll(async () => (await status()).state).toBe('cancelled');
      const [requests, written] = [apy.requests, await marked()];
      expect(written).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 2500));
      expect(apy.requests).toBe(requests);
      expect(await marked()).toBe(written);
      await popupOffers(tabId, 'Resume translating');
    } finally {
      apy.latencyMs = 0;
    }
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await marked()).toBe(0);
    await page.close();
  });

  it("the indicator's Stop and the popup's stop a translation: no request after, what is written stays, restore exact", async () => {
    // Enough calls that the page is still translating when a slow machine has opened the popup:
    // some 30 calls of up to 1000 characters, 4 at a time at the provider, 1 s each.
    const count = 600;
    const paragraphs = Array.from({ length: count }, (_, i) => `<p>Paragraph number ${i} of a long page.</p>`).join('');
    server.set('/long.html', `<!doctype html><html lang="en"><head><title>Long</title></head><body>${paragraphs}</body></html>`);
    const { page, tabId } = await open(`${server.origin}/long.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    const status = async () => (await send({ type: 'page:status', data: { tabId } })).data as { state: string; done: number; total: number; errors: number };
    const marked = () => page.evaluate(() => [...document.querySelectorAll('p')].filter((p) => p.textContent!.startsWith('⟦')).length);
    const badge = () => browser.worker.evaluate(
      (id) => (globalThis as unknown as { chrome: { action: { getBadgeText(d: { tabId: number }): Promise<string> } } }).chrome.action.getBadgeText({ tabId: id }),
      tabId,
    );
    /** Stopped by `stop` once some answers are written: nothing more is asked or written. */
    const stopsAfterSome = async (stop: () => Promise<void>) => {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      await expect.poll(async () => (await status()).done, { timeout: 10_000 }).toBeGreaterThan(0);
      await stop();
      await expect.poll(async () => (await status()).state).toBe('cancelled');
      const stopped = await status();
      expect(stopped.errors).toBe(0);
      expect(stopped.done).toBeLessThan(stopped.total);
      const [requests, written] = [apy.requests, await marked()];
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(count);
      await new Promise((r) => setTimeout(r, 2500));
      expect(apy.requests).toBe(requests);
      expect(await marked()).toBe(written);
      expect(await badge()).toBe('×');
      expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
      expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    };
    apy.latencyMs = 1000;
    try {
      await stopsAfterSome(async () => {
        expect(await piercedText(page, 'polyglot-progress')).toMatch(/^Translating… \d+%\|Stop$/);
        await clickIndicatorButton(page);
      });
      expect(await piercedText(page, 'polyglot-progress')).toBe('');

      // The popup opened while the page translates (as the shortcut or the menu started it).
      await stopsAfterSome(async () => {
        await storageSet(control, { 'ui:popup': { src: 'en', trg: 'es' } });
        const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
        await popup.getByRole('button', { name: 'Stop' }).click();
        await expect.poll(() => popup.locator('.page-status').textContent()).toBe('Page translation stopped');
        // Its button now goes on from where the page stopped (page-resume.test.ts).
        expect(await popup.getByRole('button', { name: 'Resume translating' }).count()).toBe(1);
        await popup.close();
      });
    } finally {
      apy.latencyMs = 0;
    }
    await page.close();
  });
});

/** A trusted click on the in-page indicator's button (its Retry, or its Stop). */
async function clickIndicatorButton(page: Page): Promise<void> {
  const box = await piercedBox(page, 'polyglot-progress', 'button');
  expect(box).toBeDefined();
  await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
}

/** The "show-alternatives" command (Alt+Shift+A) for the tab, as the browser dispatches it. */
function showAlternatives(browser: ExtensionBrowser, tabId: number): Promise<void> {
  return browser.worker.evaluate(async (id) => {
    const c = (globalThis as unknown as { chrome: { tabs: { get(id: number): Promise<object> }; commands: { onCommand: { dispatch(command: string, tab: object): void } } } }).chrome;
    c.commands.onCommand.dispatch('show-alternatives', await c.tabs.get(id));
  }, tabId);
}
