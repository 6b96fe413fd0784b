/**
 * Page-translation e2e helpers: point the extension's Apertium provider at a fake (settings:set
 * from the options page, the only sender allowed to), and translate/measure/restore a tab from
 * inside the content script's isolated world.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser, type LaunchOptions } from '../e2e/browser';
import { LONE_LETTER } from '../../src/core/html/text';
import { startMarkerApy, type MarkerApy } from './marker-apy';
import { startPageServer, type PageServer } from './page-server';
import { piercedBox, piercedText } from '../e2e/pierced';

/**
 * `rate`: the provider's rate budget (`{rps, concurrency}`), for a fake that answers faster than
 * a real APy (Apertium's default is 20 requests/s, 4 at once).
 */
export async function useApertiumAt(browser: ExtensionBrowser, url: string, interlinguas: readonly string[] = ['en'], rate?: { rps?: number; concurrency?: number }): Promise<void> {
  const options = await browser.openExtensionPage(OPTIONS_PATH);
  const reply = await options.evaluate(
    ({ u, via, r }) =>
      (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({
        type: 'settings:set',
        data: { settings: { providers: { 'apertium.ts': { enabled: true, url: u, ...(r ? { rate: r } : {}) } }, ranking: ['apertium.ts'], interlinguas: via, keys: [], limits: { textSize: 1000 } } },
      }),
    { u: url, via: [...interlinguas], r: rate ?? null },
  );
  await options.close();
  if (!(reply as { data?: { status?: number } }).data || (reply as { data: { status: number } }).data.status !== 200) {
    throw new Error(`settings:set failed: ${JSON.stringify(reply)}`);
  }
}

export interface PageRun {
  total: number;
  marked: number;
  misses: string[];
  status: { state: string; done: number; total: number; errors: number; error?: string };
  calls: number;
  wallMs: number;
  restoredIdentical: boolean;
  bodyChars: number;
  /** The page's elements that were out of the page, or in another parent, once translated. */
  lost: number;
  moved: number;
}

/** Translates the tab's page (content script world) and waits until done: its status then. */
export function translatePage(page: Page, extensionId: string, src: string, trg: string): Promise<{ state: string; done: number; total: number; errors: number }> {
  return evaluateInContentScript(
    page,
    extensionId,
    `(async () => {
      const P = globalThis.polyglot.page;
      await globalThis.polyglot.handle({ type: 'page:translate', data: { src: ${JSON.stringify(src)}, trg: ${JSON.stringify(trg)} } });
      while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 20));
      return P.status();
    })()`,
  );
}

/**
 * Translates the tab's page (content script world), waits until done, counts visible text nodes
 * with letters that carry `marker`, restores, and compares body.innerHTML with the original.
 */
/**
 * Run in the page (a function given to `evaluate`, or its source in a content script's): the
 * bilingual copies, those with a letter and no `mark` (not translated), and the marked texts
 * outside copies, options and SVG titles (which are translated in place).
 */
export function bilingualCounts(mark: string): { copies: number; unmarked: string[]; leaked: number } {
  const copies = [...document.querySelectorAll('[data-polyglot-bilingual]')];
  const unmarked = copies.filter((c) => /\p{L}/u.test(c.textContent ?? '') && !(c.textContent ?? '').includes(mark)).map((c) => (c.textContent ?? '').trim().slice(0, 60));
  let leaked = 0;
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) if ((n as Text).data.includes(mark) && !n.parentElement!.closest('[data-polyglot-bilingual], option, svg title')) leaked++;
  return { copies: copies.length, unmarked, leaked };
}

/** What `notePage` keeps on the page's global (its world's: the content script's in Chromium). */
interface PageNotes {
  __parents: Map<Element, Node | null>;
  __langs: Map<Element, string | null>;
}

/**
 * Run in the page before it is translated: every element's parent, for `keptPlaces`, and the
 * page's own lang attributes as they were (the translation relabels those that said the page's
 * language), for `visibleTexts`.
 */
export function notePage(): void {
  const g = globalThis as unknown as PageNotes;
  g.__parents = new Map([...document.body.getElementsByTagName('*')].map((e) => [e, e.parentNode]));
  g.__langs = new Map([...document.body.querySelectorAll('[lang]')].map((e) => [e, e.getAttribute('lang')]));
}

/**
 * Run in the page once translated: the visible texts with a letter that are the page's to
 * translate (not in code, forms' lists, SVG, what the page says not to translate, an editor, a
 * ruby's readings, a formula, nor
 * words the page labelled with another language than `src`, nor a letter alone: chunk.ts
 * `isLoneLetter`), how many carry `mark`, and the first of those that do not.
 * `loneLetter`: LONE_LETTER's source.
 */
export function visibleTexts([mark, loneLetter, src]: [string, string, string]): { total: number; marked: number; misses: string[] } {
  const SKIP =
    'script,style,noscript,template,textarea,code,kbd,samp,var,pre,listing,svg,math,select,[translate="no" i],.notranslate,[contenteditable]:not([contenteditable="false" i]),' +
    // A ruby's readings, formulas typeset as HTML, code editors and terminals (tags.ts).
    'rt,rp,rtc,.katex,[class^="MathJax"],[class*=" MathJax"],[role="code" i],.ace_editor,.CodeMirror,.monaco-editor,.xterm';
  const lone = new RegExp(loneLetter, 'u');
  const langs = (globalThis as unknown as PageNotes).__langs;
  let total = 0;
  let marked = 0;
  const misses: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    if (!/\p{L}/u.test(n.data) || lone.test(n.data)) continue;
    const el = n.parentElement;
    if (!el || el.closest(SKIP) || !el.checkVisibility()) continue;
    let said: string | null | undefined;
    for (let e: Element | null = el; e && e !== document.body && said === undefined; e = e.parentElement) said = langs.get(e);
    if (typeof said === 'string' && said.split('-')[0]!.toLowerCase() !== src) continue;
    total++;
    if (n.data.includes(mark)) marked++;
    else if (misses.length < 12) misses.push(n.data.trim().slice(0, 80));
  }
  return { total, marked, misses };
}

/** Run in the page once translated: the elements `notePage` saw that are out of the page, or in another parent. */
export function keptPlaces(): { lost: number; moved: number } {
  let lost = 0;
  let moved = 0;
  for (const [e, parent] of (globalThis as unknown as PageNotes).__parents) {
    if (!e.isConnected) lost++;
    else if (e.parentNode !== parent) moved++;
  }
  return { lost, moved };
}

export function translateAndRestore(page: Page, extensionId: string, opts: { src: string; trg: string; marker: string; restore?: boolean }): Promise<PageRun> {
  return evaluateInContentScript<PageRun>(
    page,
    extensionId,
    `(async (o) => {
      const P = globalThis.polyglot.page;
      const before = document.body.innerHTML;
      (${notePage.toString()})();
      const calls0 = P.calls;
      const t0 = performance.now();
      await globalThis.polyglot.handle({ type: 'page:translate', data: { src: o.src, trg: o.trg } });
      while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 20));
      const wallMs = performance.now() - t0;
      const { total, marked, misses } = (${visibleTexts.toString()})([o.marker, ${JSON.stringify(LONE_LETTER.source)}, o.src]);
      const status = P.status();
      const calls = P.calls - calls0;
      const { lost, moved } = (${keptPlaces.toString()})();
      let restoredIdentical = false;
      if (o.restore !== false) {
        P.restore();
        restoredIdentical = document.body.innerHTML === before;
      }
      return { total, marked, misses, status, calls, wallMs, restoredIdentical, bodyChars: before.length, lost, moved };
    })(${JSON.stringify(opts)})`,
  );
}

type Send = (m: unknown) => Promise<{ data?: Record<string, unknown>; error?: unknown }>;

/**
 * Driving tabs from an extension page (`control`) as the popup does: protocol messages, a tab
 * opened at a URL and its id, and waiting until its page is no longer translating.
 */
export function tabDriver(browser: () => ExtensionBrowser, control: () => Page) {
  let opened = 0;
  const send = (message: unknown) =>
    control().evaluate((m) => (globalThis as unknown as { chrome: { runtime: { sendMessage: Send } } }).chrome.runtime.sendMessage(m), message);
  return {
    send,
    /** A new tab at `url`, its content script ready; a query of its own, so the tab is found by URL even when an earlier test left one open. */
    async open(url: string): Promise<{ page: Page; tabId: number }> {
      const page = await browser().context.newPage();
      await page.goto(`${url}${url.includes('?') ? '&' : '?'}tab=${++opened}`);
      await evaluateInContentScript(page, browser().id, '1');
      const tabId = await control().evaluate(async (u) => {
        const tabs = await (globalThis as unknown as { chrome: { tabs: { query(q: unknown): Promise<{ id: number; url: string }[]> } } }).chrome.tabs.query({});
        return tabs.find((t) => t.url === u)!.id;
      }, page.url());
      return { page, tabId };
    },
    async settle(tabId: number): Promise<Record<string, unknown>> {
      for (let i = 0; i < 200; i++) {
        const s = (await send({ type: 'page:status', data: { tabId } })).data!;
        if (s['state'] !== 'translating') return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('never translated');
    },
  };
}

/**
 * One test file's Chromium with the built extension (`launch`: its options), Apertium pointed at the
 * marker fake and a page server holding `pages` (a path's HTML, or its body and headers), launched before its tests and
 * closed after them; `tabDriver`'s helpers on an options page, the server's origin, the fake (and
 * the count of requests it has answered), and a tab's badge. `pairs`: APy pairs the fake lists
 * beside its own (`zho_Hant-zho_Hans`); `interlinguas`: the settings' (`ca` with `cat-spa` gives
 * en → es a second route).
 */
export function markerTabs(pages: Record<string, string | readonly [string, Record<string, string>]>, launch: LaunchOptions = {}, pairs: readonly string[] = [], interlinguas: readonly string[] = ['en']) {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let control: Page;
  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(undefined, launch), startMarkerApy(0, pairs), startPageServer()]);
    for (const [path, page] of Object.entries(pages)) {
      if (typeof page === 'string') server.set(path, page);
      else server.set(path, page[0], page[1]);
    }
    await useApertiumAt(browser, apy.url, interlinguas);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });
  const driver = tabDriver(() => browser, () => control);
  return {
    ...driver,
    /** Translates the tab en → es in `mode`, and expects it translated without an error. */
    async translate(tabId: number, mode: 'replace' | 'bilingual' = 'replace'): Promise<void> {
      await driver.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode } });
      expect(await driver.settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    },
    origin: () => server.origin,
    /** The page server, for what a test makes once it runs (a bundle). */
    server: () => server,
    /** The browser, and the options page the messages go from (storage is set there too). */
    browser: () => browser,
    control: () => control,
    requests: () => apy.requests,
    apy: () => apy,
    /**
     * Translates the tab en → es at 1 s a call and, while it translates, presses the indicator's
     * Stop as a user does, where the browser's hit test finds the indicator (not a dialog's
     * backdrop over it): the tab reads stopped.
     */
    async stopByIndicator(page: Page, tabId: number): Promise<void> {
      const state = async () => ((await driver.send({ type: 'page:status', data: { tabId } })).data as { state: string }).state;
      apy.latencyMs = 1000;
      try {
        await driver.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
        await expect.poll(() => piercedText(page, 'polyglot-progress'), { timeout: 10_000 }).toMatch(/^Translating… \d+%\|Stop$/);
        const stop = (await piercedBox(page, 'polyglot-progress', 'button'))!;
        const x = stop.x + stop.width / 2;
        const y = stop.y + stop.height / 2;
        expect(await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.localName, [x, y])).toBe('polyglot-progress');
        await page.mouse.click(x, y);
        await expect.poll(state).toBe('cancelled');
      } finally {
        apy.latencyMs = 0;
      }
    },
    /** The context menu's "Translate selection" in the tab, as the browser dispatches it. */
    translateSelection: (tabId: number) =>
      browser.worker.evaluate(async (id) => {
        const c = (globalThis as unknown as { chrome: { tabs: { get(id: number): Promise<{ url: string }> }; contextMenus: { onClicked: { dispatch(info: object, tab: object): void } } } }).chrome;
        const tab = await c.tabs.get(id);
        c.contextMenus.onClicked.dispatch({ menuItemId: 'translate-selection', selectionText: 'x', frameId: 0, editable: false, pageUrl: tab.url }, tab);
      }, tabId),
    /** The tab's badge text. */
    badge: (tabId: number) =>
      browser.worker.evaluate((id) => (globalThis as unknown as { chrome: { action: { getBadgeText(d: { tabId: number }): Promise<string> } } }).chrome.action.getBadgeText({ tabId: id }), tabId),
  };
}

/** A page in Arabic, laid out right to left by its `dir`, by `dir=auto` and by CSS (ids h, p, auto, css). */
export const ARABIC_PAGE = `<!doctype html><html lang="ar" dir="rtl"><head><title>صفحة</title></head><body>
<h1 id="h">عنوان الصفحة</h1>
<p id="p">فقرة <b>قصيرة</b> هنا.</p>
<p id="auto" dir="auto">سطر آخر.</p>
<p id="css" style="direction: ltr">نص أخير.</p>
</body></html>`;
