/**
 * Hostile pages in real Chromium (issue 7): a 10,000-level DOM, a 1M-character text node, huge
 * attribute values, 2,000 shadow roots, a page that mutates without pause, and a page that
 * overrides DOM prototypes and defines `window.browser`/`window.chrome`. Page translation must
 * finish (or be cancelled) without hanging the page, send a bounded number of requests, write only
 * text, and restore the page exactly. Translation: the marker fake (`word` -> `⟦word⟧`) behind the
 * extension's Apertium provider; requests are counted at the fake.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileApy, type HostileApy } from '../fakes/hostile-apy';
import { useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, type ExtensionBrowser } from './browser';

interface Status {
  state: string;
  done: number;
  total: number;
  errors: number;
}

/** body.innerHTML plus the content of every open shadow root, in document order. */
const SNAPSHOT = `(() => {
  const parts = [document.body.innerHTML];
  for (const el of document.body.querySelectorAll('*')) if (el.shadowRoot) parts.push(el.shadowRoot.innerHTML);
  return parts.join('\\n--shadow--\\n');
})()`;

const settleMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hostile pages in Chromium', () => {
  let browser: ExtensionBrowser;
  let apy: HostileApy;
  let server: PageServer;

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startHostileApy(), startPageServer()]);
    await useApertiumAt(browser, apy.url);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  async function open(path: string, html: string): Promise<Page> {
    server.set(path, html);
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}${path}`);
    // The pages' scripts are inline: done by `load`. (No waitForFunction: Playwright's waiting
    // code runs in the page's world, and one page replaces MutationObserver.)
    expect(await page.evaluate(() => (window as unknown as { __ready?: boolean }).__ready)).toBe(true);
    await evaluateInContentScript(page, browser.id, '1');
    return page;
  }

  /** Starts page translation in the content script; waits up to `ms` for it to settle. */
  const translate = (page: Page, ms = 15_000) =>
    evaluateInContentScript<Status & { wallMs: number }>(
      page,
      browser.id,
      `(async () => {
        const P = globalThis.polyglot.page;
        const t0 = performance.now();
        await globalThis.polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } });
        while (P.status().state === 'translating' && performance.now() - t0 < ${ms}) await new Promise((r) => setTimeout(r, 25));
        return { ...P.status(), wallMs: performance.now() - t0 };
      })()`,
    );
  const restore = (page: Page) => evaluateInContentScript<Status>(page, browser.id, 'globalThis.polyglot.page.restore()');

  // Chromium 156 itself cannot render ~2,500+ nested boxes: its renderer crashes on such a page with
  // no extension at all (seen: 3,000 nested divs crash, 2,000 render). So the 10,000 levels are
  // under display:none (styled, never laid out), next to 2,000 rendered levels.
  it('a 10,000-level deep DOM (hidden) and a 2,000-level one (rendered): translated or kept, no stack overflow, exact restore', async () => {
    const page = await open(
      '/deep.html',
      `<!doctype html><html lang="en"><body><p id="top">Top of the deep page</p><div id="shown"></div><div id="hidden" style="display:none"></div><script>
        const nest = (root, depth, text) => {
          let el = root;
          for (let i = 0; i < depth; i++) { const d = document.createElement(i % 3 ? 'div' : 'section'); el.appendChild(d); el = d; }
          el.appendChild(document.createTextNode(text));
          return el;
        };
        window.__shown = nest(document.getElementById('shown'), 2000, 'Bottom of the shown tree');
        window.__hidden = nest(document.getElementById('hidden'), 10000, 'Bottom of the hidden tree');
        window.__ready = true;
      </script></body></html>`,
    );
    const before = await page.evaluate(SNAPSHOT);
    // Alone ~0.7 s; the e2e tier runs files in parallel on 2 cores, and 2,000 rendered levels are
    // costly for Chromium's style and layout: room to finish (a hang or overflow never does).
    const status = await translate(page, 45_000);
    console.log(`deep page translated in ${Math.round(status.wallMs)} ms`);
    expect(status.state).toBe('translated');
    expect(await page.evaluate(() => document.getElementById('top')!.textContent)).toBe('⟦Top of the deep page⟧');
    // The innermost texts: translated, or (deeper than the engine descends) kept as they were, never lost.
    const bottoms = await page.evaluate(() => {
      const w = window as unknown as { __shown: Element; __hidden: Element };
      return [w.__shown.textContent, w.__hidden.textContent];
    });
    console.log('deep bottoms after translation:', bottoms);
    expect(['⟦Bottom of the shown tree⟧', 'Bottom of the shown tree']).toContain(bottoms[0]);
    expect(['⟦Bottom of the hidden tree⟧', 'Bottom of the hidden tree']).toContain(bottoms[1]);
    await restore(page);
    expect(await page.evaluate(SNAPSHOT)).toBe(before);
    await page.close();
  }, 90_000);

  it('a 1M-character text node and 1M-character attributes: the page stays responsive, cancel and restore are exact', async () => {
    const page = await open(
      '/huge.html',
      `<!doctype html><html lang="en"><body><h1 id="h">A page with huge content</h1><p id="big"></p>
      <img id="img" src="/x.png"><input id="in" placeholder="x"><script>
        const sentence = 'This is a rather long sentence about nothing in particular. ';
        document.getElementById('big').textContent = sentence.repeat(Math.ceil(1_000_000 / sentence.length)).slice(0, 1_000_000);
        document.getElementById('img').alt = 'An image '.repeat(111_112).slice(0, 1_000_000);
        document.getElementById('in').placeholder = 'Type here '.repeat(100_000);
        document.body.title = 'x'.repeat(1_000_000);
        window.__ready = true;
      </script></body></html>`,
    );
    const before = await page.evaluate(SNAPSHOT);
    const sent0 = apy.translates.length;
    apy.latencyMs = 20;
    try {
      await evaluateInContentScript(page, browser.id, `globalThis.polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } }).then(() => 1)`);
      // The page's own thread answers promptly while the content script segments and sends.
      const lags: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = Date.now();
        await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
        lags.push(Date.now() - t0);
        await settleMs(100);
      }
      // A freeze detector, not a speed figure (speed is in npm run bench): segmenting 1M characters
      // in one task would stall the page for many seconds; a busy 2-core CI machine adds ~1 s.
      expect(Math.max(...lags)).toBeLessThan(2500);
      await expect.poll(() => page.evaluate(() => document.getElementById('h')!.textContent), { timeout: 5000 }).toBe('⟦A page with huge content⟧');
      // Requests stay within the limit (<= 1000 characters of text each, markup included, +10% slack).
      const sent = apy.translates.slice(sent0);
      expect(sent.length).toBeGreaterThan(0);
      expect(Math.max(...sent.map((r) => r.q.length))).toBeLessThanOrEqual(1100);
      const status = await evaluateInContentScript<Status>(page, browser.id, 'globalThis.polyglot.page.cancel()');
      expect(['cancelled', 'translated']).toContain(status.state);
    } finally {
      apy.latencyMs = 0;
    }
    await restore(page);
    expect(await page.evaluate(SNAPSHOT)).toBe(before);
    await page.close();
  });

  it('2,000 open shadow roots: every one translated, exact restore', async () => {
    const page = await open(
      '/shadows.html',
      `<!doctype html><html lang="en"><body><p>Light text</p><div id="hosts"></div><script>
        const hosts = document.getElementById('hosts');
        for (let i = 0; i < 2000; i++) {
          const h = document.createElement('x-card');
          const root = h.attachShadow({ mode: 'open' });
          const p = document.createElement('p');
          p.textContent = 'Shadow text number ' + i;
          root.appendChild(p);
          hosts.appendChild(h);
        }
        window.__ready = true;
      </script></body></html>`,
    );
    const before = await page.evaluate(SNAPSHOT);
    const status = await translate(page, 30_000);
    expect(status.state).toBe('translated');
    const marked = await page.evaluate(() => [...document.querySelectorAll('x-card')].filter((h) => h.shadowRoot!.textContent!.startsWith('⟦')).length);
    expect(marked).toBe(2000);
    await restore(page);
    expect(await page.evaluate(SNAPSHOT)).toBe(before);
    await page.close();
  });

  it('a page that mutates without pause: Translate requests per second stay bounded; restore leaves the page its own', async () => {
    const page = await open(
      '/churn.html',
      `<!doctype html><html lang="en"><body><p id="stable">This paragraph does not change</p><div id="feed"></div><p id="clock">Time is now 0</p><script>
        const feed = document.getElementById('feed');
        const clock = document.getElementById('clock').firstChild;
        let n = 0;
        // Every 4 ms: a new line, the clock text patched, and the oldest line removed past 50.
        window.__timer = setInterval(() => {
          n++;
          const p = document.createElement('p');
          p.textContent = 'News item number ' + n + ' arrived';
          feed.appendChild(p);
          if (feed.children.length > 50) feed.firstElementChild.remove();
          clock.data = 'Time is now ' + n;
        }, 4);
        window.__ready = true;
      </script></body></html>`,
    );
    const sent0 = apy.translates.length;
    const t0 = Date.now();
    await evaluateInContentScript(page, browser.id, `globalThis.polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } }).then(() => 1)`);
    await settleMs(3000);
    const sent = apy.translates.slice(sent0);
    const seconds = (Date.now() - t0) / 1000;
    // Per one-second window, never more than one call per frame-batch: 60 frames a second at most
    // (the observer hands over records at most once per frame), measured ~15-25/s.
    const perSecond = new Map<number, number>();
    for (const r of sent) perSecond.set(Math.floor((r.at - t0) / 1000), (perSecond.get(Math.floor((r.at - t0) / 1000)) ?? 0) + 1);
    const peak = Math.max(...perSecond.values());
    console.log(`churn: ${sent.length} requests in ${seconds.toFixed(1)} s, peak ${peak}/s`);
    expect(peak).toBeLessThanOrEqual(60);
    expect(sent.length / seconds).toBeLessThanOrEqual(60);
    // It does translate what arrives.
    expect(await page.evaluate(() => document.getElementById('stable')!.textContent)).toBe('⟦This paragraph does not change⟧');
    // Feed lines were sent as they arrived (each lives only 200 ms in the page, so on a loaded
    // machine its translation may come back after the page removed it: count the requests).
    expect(sent.some((r) => r.q.includes('News item number'))).toBe(true);
    // Stop the page, restore: everything is the page's own text again.
    await page.evaluate(() => clearInterval((window as unknown as { __timer: number }).__timer));
    await settleMs(100);
    await restore(page);
    const after = await page.evaluate(() => ({ stable: document.getElementById('stable')!.textContent, marks: document.body.innerHTML.includes('⟦'), n: document.querySelectorAll('#feed p').length }));
    expect(after).toEqual({ stable: 'This paragraph does not change', marks: false, n: 50 });
    // And after restore no more requests go out, whatever the page does. A request the worker
    // had sent before it had the restore's cancel may still reach the provider: let it land first
    // (one did, 144 for 143, in a CI run of the whole suite).
    await settleMs(200);
    const quiet = apy.translates.length;
    await page.evaluate(() => {
      for (let i = 0; i < 20; i++) document.getElementById('feed')!.appendChild(document.createElement('p')).textContent = 'Late news ' + i;
    });
    await settleMs(300);
    expect(apy.translates.length).toBe(quiet);
    await page.close();
  });

  it('a page that overrides DOM prototypes and defines window.browser / window.chrome: the isolated world is untouched, exact restore', async () => {
    const page = await open(
      '/overrides.html',
      `<!doctype html><html lang="en"><body><h1>Overridden page</h1><p id="p">Hello <a href="/x">dear <b>friend</b></a> here.</p>
      <ul><li>One item</li><li>Two items</li></ul><script>
        window.__hits = {};
        const hit = (k) => { window.__hits[k] = (window.__hits[k] || 0) + 1; };
        for (const [proto, name] of [[Node.prototype, 'appendChild'], [Node.prototype, 'insertBefore'], [Node.prototype, 'removeChild'], [Node.prototype, 'replaceChild'], [Element.prototype, 'setAttribute'], [Element.prototype, 'append'], [Element.prototype, 'remove']]) {
          proto[name] = function () { hit(name); throw new Error('hostile ' + name); };
        }
        for (const [proto, name] of [[Element.prototype, 'innerHTML'], [Node.prototype, 'textContent'], [CharacterData.prototype, 'data'], [Node.prototype, 'nodeValue']]) {
          Object.defineProperty(proto, name, { get() { hit('get ' + name); return 'HOSTILE'; }, set() { hit('set ' + name); throw new Error('hostile ' + name); }, configurable: true });
        }
        window.MutationObserver = function () { hit('MutationObserver'); throw new Error('hostile MO'); };
        document.createTreeWalker = () => { hit('createTreeWalker'); throw new Error('hostile walker'); };
        window.getComputedStyle = () => { hit('getComputedStyle'); throw new Error('hostile style'); };
        window.browser = { runtime: { sendMessage() { hit('browser.sendMessage'); }, connect() { hit('browser.connect'); } } };
        window.chrome = { runtime: { id: 'evil', sendMessage() { hit('chrome.sendMessage'); }, connect() { hit('chrome.connect'); } } };
        window.__ready = true;
      </script></body></html>`,
    );
    // Read the page through the isolated world (the page's getters lie).
    const snap = () => evaluateInContentScript<string>(page, browser.id, 'document.body.innerHTML');
    const before = await snap();
    const status = await translate(page);
    expect(status.state).toBe('translated');
    expect(status.errors).toBe(0);
    const texts = await evaluateInContentScript<string[]>(page, browser.id, `[...document.querySelectorAll('h1, #p, li')].map((e) => e.textContent)`);
    expect(texts).toEqual(['⟦Overridden page⟧', '⟦Hello⟧ ⟦dear⟧ ⟦friend⟧ ⟦here.⟧', '⟦One item⟧', '⟦Two items⟧']);
    await restore(page);
    expect(await snap()).toBe(before);
    // None of the page's traps was ever reached from the content script.
    expect(await page.evaluate(() => (window as unknown as { __hits: Record<string, number> }).__hits)).toEqual({});
    await page.close();
  });
});
