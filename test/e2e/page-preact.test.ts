/**
 * A real framework's app (Preact, the library our own UI is built with) keeps working while its page
 * is translated by a provider that reorders a sentence's tags, and restore gives exactly what the app
 * would show had it never been translated. The oracle is a twin tab of the same app, never
 * translated, clicked the same way: while translated, the app shows every word the twin shows, each
 * in its translation (in bilingual mode, its own nodes are the twin's and the copies beside them
 * hold its words translated); after restore, its markup is the twin's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARK_CLOSE, MARK_OPEN, markText } from '../fakes/marker-apy';
import { startHostileApy, type HostileApy } from '../fakes/hostile-apy';
import { useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

const APP = `<!doctype html><html lang="en"><head><title>Shopping</title>
<script type="importmap">{"imports":{"preact":"/preact.mjs","preact/hooks":"/hooks.mjs"}}</script></head><body>
<div id="root"></div>
<script type="module">
import { h, render } from 'preact';
import { useState } from 'preact/hooks';
function Cart() {
  const [n, setN] = useState(1);
  const [items, setItems] = useState(['Apples', 'Bread', 'Cheese']);
  const [open, setOpen] = useState(false);
  const [basket, setBasket] = useState(false);
  return h('main', null,
    h('h2', null, 'Your shopping cart'),
    // A count, a part shown from three on, a word that changes with the count, a link whose words
    // change, and a part shown at none, in one sentence.
    h('p', { id: 'summary' }, 'You have ', h('b', null, n === 0 ? 'nothing' : String(n)), n > 2 && h('span', null, ' (a lot)'), n === 1 ? ' item in ' : ' items in ', h('a', { href: '#cart' }, basket ? 'the basket' : 'your cart'), n === 0 && h('em', null, ' sadly'), ' today.'),
    h('p', null, 'Send ', h('a', { href: '#1' }, 'the first'), basket ? ' or ' : ' and ', h('b', null, 'the second'), ' to ', h('i', null, basket ? 'a friend' : 'the shop'), '.'),
    open && h('p', null, 'The details are ', h('i', null, 'here'), ' now.'),
    h('input', { id: 'search', placeholder: n > 2 ? 'Search many things' : 'Search few things' }),
    h('button', { id: 'more', onClick: () => setN(n + 1) }, 'Add one more'),
    h('button', { id: 'less', onClick: () => setN(Math.max(0, n - 1)) }, 'Take one away'),
    h('button', { id: 'reverse', onClick: () => setItems([...items].reverse()) }, 'Reverse the list'),
    h('button', { id: 'dates', onClick: () => setItems(items.includes('Dates') ? items.filter((x) => x !== 'Dates') : [...items, 'Dates']) }, items.includes('Dates') ? 'Remove dates' : 'Add dates'),
    h('button', { id: 'details', onClick: () => setOpen(!open) }, open ? 'Hide the details' : 'Show the details'),
    h('button', { id: 'basket', onClick: () => setBasket(!basket) }, 'Switch the words'),
    h('ul', null, items.map((t) => h('li', { key: t }, 'Buy ', h('em', null, t), ' at the market', t === 'Bread' && basket ? h('b', null, ' fresh') : null))),
    h('p', null, n > 2 ? 'That is many items' : 'That is few items'),
  );
}
render(h(Cart), document.getElementById('root'));
window.__rendered = true;
</script></body></html>`;

type Send = (m: unknown) => Promise<{ data?: unknown; error?: unknown }>;

/** A translation that puts a sentence's link before its bold count ("you have your cart item in 1"), every text marked. */
function reorder(q: string): string {
  return markText(
    q.replace(/(<p i=\d+>)(.*?)(<\/p>)/gs, (_m, open: string, body: string, close: string) => {
      const b = /<b i=\d+>[^<]*<\/b>/.exec(body)?.[0];
      const a = /<a i=\d+>[^<]*<\/a>/.exec(body)?.[0];
      return open + (a && b ? body.replace(b, '\u0000').replace(a, b).replace('\u0000', a) : body) + close;
    }),
  );
}

describe('a Preact app in a translated page', () => {
  let browser: ExtensionBrowser;
  let apy: HostileApy;
  let server: PageServer;
  let control: Page;
  const errors: string[] = [];

  const send = (message: unknown) =>
    control.evaluate((m) => (globalThis as unknown as { chrome: { runtime: { sendMessage: Send } } }).chrome.runtime.sendMessage(m), message);

  const open = async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}/app.html`);
    await page.waitForFunction(() => (window as unknown as { __rendered?: boolean }).__rendered === true);
    return page;
  };

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startHostileApy(), startPageServer()]);
    const js = { 'content-type': 'text/javascript' };
    const require = createRequire(import.meta.url);
    server.set('/preact.mjs', readFileSync(require.resolve('preact'), 'utf8'), js);
    server.set('/hooks.mjs', readFileSync(require.resolve('preact/hooks'), 'utf8'), js);
    server.set('/app.html', APP);
    apy.reply = ({ q }) => reorder(q);
    await useApertiumAt(browser, apy.url);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  /** The app in a tab to translate, its tab id, and its twin never translated. */
  const pair = async () => {
    const page = await open();
    await evaluateInContentScript(page, browser.id, '1');
    const tabId = await control.evaluate(async (url) => {
      const tabs = await (globalThis as unknown as { chrome: { tabs: { query(q: unknown): Promise<{ id: number }[]> } } }).chrome.tabs.query({ url });
      return tabs[0]!.id;
    }, `${server.origin}/app.html`);
    const twin = await open();
    const status = async () => ((await send({ type: 'page:status', data: { tabId } })) as { data: { state: string; errors: number } }).data;
    const click = async (ids: string[], check?: () => Promise<void>) => {
      for (const id of ids) {
        await page.click(`#${id}`);
        await twin.click(`#${id}`);
        await check?.();
      }
    };
    return { page, twin, tabId, status, click };
  };

  const root = (p: Page) => p.locator('#root').innerHTML();

  /**
   * The app's texts with letters: those left unmarked, and every word with the marks taken off,
   * sorted; in bilingual mode, the words of the app's own nodes and those of the copies apart.
   */
  const read = (p: Page) =>
    p.evaluate(
      ({ open, close }) => {
        const root = document.getElementById('root')!;
        const unmarked: string[] = [];
        const words: string[] = [];
        const copied: string[] = [];
        const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = w.nextNode() as Text | null; n; n = w.nextNode() as Text | null) {
          const outside = n.data.replace(new RegExp(`${open}[^${close}]*${close}`, 'g'), '');
          if (/\p{L}/u.test(outside)) unmarked.push(n.data);
          const list = n.parentElement!.closest('[data-polyglot-bilingual]') ? copied : words;
          list.push(...n.data.replaceAll(open, ' ').replaceAll(close, ' ').split(/[\s()]+/).filter(Boolean));
        }
        return { unmarked, words: words.sort(), copied: copied.sort(), placeholder: (document.getElementById('search') as HTMLInputElement).placeholder };
      },
      { open: MARK_OPEN, close: MARK_CLOSE },
    );

  it('follows what the app renders after each click (parts added to and taken from a reordered sentence, words changed, a keyed list grown, reversed and shrunk, a block shown), and restores to what the app would show', async () => {
    const { page, twin, tabId, status, click } = await pair();
    /** The translated app shows what the twin shows, every text translated (a field's placeholder too). */
    const sameAsTwin = async () => {
      await expect.poll(async () => (await read(page)).unmarked, { timeout: 10_000 }).toEqual([]);
      const [mine, twins] = [await read(page), await read(twin)];
      expect(mine.words).toEqual(twins.words);
      expect(mine.placeholder).toBe(`${MARK_OPEN}${twins.placeholder}${MARK_CLOSE}`);
    };

    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await expect.poll(async () => (await status()).state, { timeout: 10_000 }).toBe('translated');
    await sameAsTwin();
    // The provider's order: the link before the count.
    expect(await page.locator('#summary').innerHTML()).toBe(`${MARK_OPEN}You have${MARK_CLOSE} <a href="#cart">${MARK_OPEN}your cart${MARK_CLOSE}</a> ${MARK_OPEN}item in${MARK_CLOSE} <b>1</b> ${MARK_OPEN}today.${MARK_CLOSE}`);

    await click(['more', 'more'], sameAsTwin);
    // At three the app put its new part right after the count, which the translation had moved
    // after the link: the sentence was sent again as the app has it, and came back reordered.
    expect(apy.translates.some(({ q }) => /You have <b i=\d+><\/b><span i=\d+> \(a lot\)<\/span> items in <a i=\d+>your cart<\/a> today\./.test(q))).toBe(true);
    expect(await page.locator('#summary').innerHTML()).toBe(
      `${MARK_OPEN}You have${MARK_CLOSE} <a href="#cart">${MARK_OPEN}your cart${MARK_CLOSE}</a><span> ${MARK_OPEN}(a lot)${MARK_CLOSE}</span> ${MARK_OPEN}items in${MARK_CLOSE} <b>3</b> ${MARK_OPEN}today.${MARK_CLOSE}`,
    );
    // Words changed in links and between them, a keyed list grown, reversed and shrunk, the count
    // down to none (a part added after the moved link), a block shown.
    await click(['basket', 'dates', 'reverse', 'less', 'less', 'less', 'dates', 'details'], sameAsTwin);
    expect(await status()).toMatchObject({ state: 'translated', errors: 0 });

    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(async () => (await status()).state).toBe('original');
    expect(await root(page)).toBe(await root(twin));
    // The app goes on as if nothing had happened.
    await click(['more', 'details', 'reverse', 'basket']);
    expect(await root(page)).toBe(await root(twin));
    expect(await root(page)).toContain('You have <b>1</b> item in <a href="#cart">your cart</a> today.');
    expect(errors).toEqual([]);
    await page.close();
    await twin.close();
  }, 120_000);

  it("bilingual: the app's own nodes stay the twin's after each click, each copy under its original (a block the app adds after one goes below its copy) with what it shows, and restore leaves the twin's markup", async () => {
    const { page, twin, tabId, status, click } = await pair();
    /** The app's nodes (the copies and the placeholder's marks taken off) are the twin's, and the copies hold every word of them, translated. */
    const sameAsTwin = async () => {
      const own = () =>
        page.evaluate(() => {
          const r = document.getElementById('root')!.cloneNode(true) as Element;
          for (const c of r.querySelectorAll('[data-polyglot-bilingual]')) c.remove();
          // A placeholder has no copy: it is translated in place.
          const field = r.querySelector('input')!;
          field.placeholder = field.placeholder.replace(/[⟦⟧]/g, '');
          return r.innerHTML;
        });
      await expect.poll(own, { timeout: 10_000 }).toBe(await root(twin));
      await expect.poll(async () => (await read(page)).copied, { timeout: 10_000 }).toEqual((await read(twin)).words);
      // Each block's copy (a clone of the block) is right under it, holding its words.
      const misplaced = await page.evaluate(() => {
        const words = (el: Element) => (el.textContent ?? '').split(/[^\p{L}\d]+/u).filter(Boolean).sort().join(' ');
        return [...document.querySelectorAll('#root [data-polyglot-bilingual]')]
          .filter((c) => c.previousElementSibling?.localName === c.localName)
          .filter((c) => words(c) !== words(c.previousElementSibling!))
          .map((c) => c.textContent);
      });
      expect(misplaced).toEqual([]);
    };
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'bilingual' } });
    await expect.poll(async () => (await status()).state, { timeout: 10_000 }).toBe('translated');
    await sameAsTwin();
    await click(['more', 'more', 'dates', 'reverse', 'basket', 'less', 'details'], sameAsTwin);
    expect(await status()).toMatchObject({ state: 'translated', errors: 0 });
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(async () => (await status()).state).toBe('original');
    expect(await root(page)).toBe(await root(twin));
    await click(['reverse', 'dates', 'more']);
    expect(await root(page)).toBe(await root(twin));
    expect(errors).toEqual([]);
    await page.close();
    await twin.close();
  }, 120_000);
});
