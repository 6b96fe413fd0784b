/**
 * A page that keeps changing a place while translated (a clock ticking ten times a second), in
 * Chromium with the built extension and Apertium pointed at the marker fake: its first changes are
 * translated at once, then it waits instead of costing a request a tick; once it stops, what it
 * shows last is translated, the in-page indicator not brought back; restore gives the page its own
 * last words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARK_OPEN, startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { tabDriver, useApertiumAt } from '../fakes/page-e2e';
import { serveLibraries } from '../fakes/page-libraries';
import { startPageServer, type PageServer } from '../fakes/page-server';
import type { Page } from 'playwright-core';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

const TICKER = `<!doctype html><html lang="en"><head><title>A live page</title></head><body>
<p id="clock">Updated no times yet</p>
<p id="still">A paragraph that stays as it is.</p>
<script>
  let n = 0;
  const clock = document.getElementById('clock');
  window.__start = () => { window.__timer = setInterval(() => { clock.textContent = 'Updated ' + (++n) + ' times'; }, 100); };
  window.__stop = () => { clearInterval(window.__timer); return n; };
</script></body></html>`;

/**
 * A component that renders its line again whenever its nodes change (a widget that keeps its own
 * text): each translation written there is put back at once. `__renders` counts them.
 */
const KEEPER = `<!doctype html><html lang="en"><head><title>A cart</title></head><body>
<p id="cart">Your cart is empty</p>
<p id="still">A paragraph that stays as it is.</p>
<script>
  const cart = document.getElementById('cart');
  window.__renders = 0;
  new MutationObserver(() => {
    if (cart.textContent === 'Your cart is empty') return;
    window.__renders++;
    cart.textContent = 'Your cart is empty';
  }).observe(cart, { subtree: true, characterData: true, childList: true });
</script></body></html>`;

/**
 * A landing page's heading with a word the real typewriter-effect library types and erases in a
 * loop (`Typewriter__wrapper`, and a blinking `Typewriter__cursor`): the page never stops changing
 * the sentence.
 */
const TYPEWRITER = `<!doctype html><html lang="en"><head><title>Boats</title></head><body>
<h1 id="hero">We make <span id="word"></span> for the north.</h1>
<p id="still">A paragraph that stays as it is.</p>
<script src="/lib/typewriter.js"></script>
<script>new Typewriter('#word', { strings: ['fast boats', 'warm coats', 'small maps'], autoStart: true, loop: true, delay: 40, deleteSpeed: 20 });</script>
</body></html>`;

describe('a place the page keeps changing', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let control: Page;
  const tabs = tabDriver(() => browser, () => control);

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(), startPageServer()]);
    server.set('/ticker.html', TICKER);
    server.set('/keeper.html', KEEPER);
    server.set('/typewriter.html', TYPEWRITER);
    serveLibraries(server);
    await useApertiumAt(browser, apy.url);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it('a clock ticking ten times a second for three seconds costs three requests, not thirty; its last words are translated once it stops', async () => {
    const { page, tabId } = await tabs.open(`${server.origin}/ticker.html`);
    await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    expect(await tabs.settle(tabId)).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
    const before = apy.requests;
    const texts: string[] = [];
    apy.failing = (q) => {
      texts.push(q.replace(/<[^>]*>/g, ''));
      return false;
    };
    try {
      await page.evaluate(() => (window as unknown as { __start(): void }).__start());
      await new Promise((r) => setTimeout(r, 3000));
      const ticks = await page.evaluate(() => (window as unknown as { __stop(): number }).__stop());
      expect(ticks).toBeGreaterThanOrEqual(25);
      // Its first three changes at once; the rest waits for the clock to stop, or for 5 s after
      // the third (the previous build sent every tick).
      expect(apy.requests - before).toBe(3);
      expect(texts).toEqual(['Updated 1 times', 'Updated 2 times', 'Updated 3 times']);
      // The tab reads as translated: the waiting change is not counted as work left.
      expect((await tabs.send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ state: 'translated', errors: 0 });
      await page.waitForFunction((mark) => document.getElementById('clock')!.textContent!.startsWith(mark), MARK_OPEN, { timeout: 5000 });
      expect(await page.locator('#clock').textContent()).toBe(`⟦Updated ${ticks} times⟧`);
      expect(texts.at(-1)).toBe(`Updated ${ticks} times`);
      expect(apy.requests - before).toBe(4);
      // The in-page indicator did not come back for it (it left 2.5 s after the page was translated).
      expect(await page.evaluate(() => document.querySelector('polyglot-progress') === null)).toBe(true);
      await tabs.send({ type: 'page:restore', data: { tabId } });
      expect(await page.evaluate(() => document.body.innerHTML.split('<script>')[0]!.trim())).toBe(
        `<p id="clock">Updated ${ticks} times</p>\n<p id="still">A paragraph that stays as it is.</p>`,
      );
    } finally {
      apy.failing = undefined;
      await page.close();
    }
  });

  it('a component that puts its own text back as soon as a translation is written there: left as it shows it after four tries, no flicker; the rest translated; restore exact', async () => {
    const { page, tabId } = await tabs.open(`${server.origin}/keeper.html`);
    try {
      await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      await tabs.settle(tabId);
      // Six seconds: the previous build wrote it again every 1.5 s or so, each put back at once.
      await new Promise((r) => setTimeout(r, 6000));
      // The first translation, two more, and one when the line has been still for 1.5 s, each put
      // back right after it was written (the previous build: 7 in these 6 s, and on).
      expect(await page.evaluate(() => (window as unknown as { __renders: number }).__renders)).toBe(4);
      expect(await page.locator('#cart').textContent()).toBe('Your cart is empty');
      expect(await page.locator('#still').textContent()).toBe('⟦A paragraph that stays as it is.⟧');
      expect((await tabs.send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ state: 'translated', errors: 0 });
      await tabs.send({ type: 'page:restore', data: { tabId } });
      expect(await page.evaluate(() => document.body.innerHTML.split('<script>')[0]!.trim())).toBe('<p id="cart">Your cart is empty</p>\n<p id="still">A paragraph that stays as it is.</p>');
    } finally {
      await page.close();
    }
  });

  it('a word a script types and erases in a heading (typewriter-effect): kept as the page writes it, the heading translated around it, not undone at each letter; restore gives the heading back with the page\'s word', async () => {
    const { page, tabId } = await tabs.open(`${server.origin}/typewriter.html`);
    try {
      await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      await tabs.settle(tabId);
      const before = apy.requests;
      // Six seconds of typing (a word typed, paused on, erased: about 2 s), read every 100 ms:
      // after its first changes, the heading's own words read translated at every reading of the
      // last three seconds (the previous build showed them in English between its tries, 5 to
      // 60 s apart).
      const readings: string[] = [];
      for (let i = 0; i < 60; i++) {
        readings.push(await page.evaluate(() => document.getElementById('hero')!.innerHTML));
        await new Promise((r) => setTimeout(r, 100));
      }
      const late = readings.slice(30);
      expect(late.filter((html) => !(html.startsWith('⟦We make⟧ <span id="word">') && html.endsWith('</span> ⟦for the north.⟧')))).toEqual([]);
      // The typed word is the page's, as it writes it, letter by letter.
      expect(new Set(late.map((html) => /<span class="Typewriter__wrapper">([^<]*)</.exec(html)?.[1])).size).toBeGreaterThan(3);
      expect(apy.requests - before).toBeLessThanOrEqual(4);
      expect(await page.locator('#still').textContent()).toBe('⟦A paragraph that stays as it is.⟧');
      await tabs.send({ type: 'page:restore', data: { tabId } });
      const hero = await page.evaluate(() => document.getElementById('hero')!.innerHTML);
      expect(hero).toMatch(/^We make <span id="word"><span class="Typewriter__wrapper">[a-z ]*<\/span><span class="Typewriter__cursor">\|<\/span><\/span> for the north\.$/);
    } finally {
      await page.close();
    }
  });
});
