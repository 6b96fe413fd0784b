/**
 * A page with scripts: click listeners inside translated paragraphs and a small React-like app that
 * owns its nodes (keeps references to its Text nodes and updates them in place) keep working after
 * translate and after restore. Driven the way the popup will: page:* messages from an extension
 * page to the background, forwarded to the tab; progress comes back as the tab's badge.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARK_OPEN, startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

const APP = `<!doctype html><html lang="en"><head><title>App page</title></head><body>
<p id="para">Click <button id="btn">this button</button> to count: <span id="count">no clicks yet</span>.</p>
<p id="link-para">A <a href="#x" id="lnk">simple link</a> inside the text.</p>
<div id="app"></div>
<x-greeting></x-greeting>
<section><x-late-card><b>Slotted words</b></x-late-card></section>
<div id="widget-now"></div>
<section id="widget-over"><p class="loading">Loading the widget</p></section>
<section id="widget-plain"><p>Please wait while it loads</p></section>
<style>x-stars { display: inline-block }</style>
<aside><div id="widget-later"></div><p>Rated <x-stars></x-stars> by readers</p></aside>
<select id="sel"><optgroup label="Warm colours"><option value="r" label="Red colour">R</option><option value="o" selected>Orange</option></optgroup></select>
<script>
  // A web component with a closed shadow root: page scripts outside it cannot reach its text.
  customElements.define('x-greeting', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'closed' });
      root.innerHTML = '<p>Hello from a closed component</p><button>Press this</button>';
      root.querySelector('button').addEventListener('click', () => { window.__pressed = (window.__pressed || 0) + 1; });
      window.__closed = root;
    }
  });
  // One whose definition comes later (a module loaded late): closed root, part rendered at once,
  // part a moment after.
  window.__defineLate = () => customElements.define('x-late-card', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'closed' });
      root.innerHTML = '<h3>Defined at last</h3><slot></slot>';
      setTimeout(() => root.append(Object.assign(document.createElement('p'), { textContent: 'Rendered a moment later' })), 50);
      window.__late = root;
    }
  });
  // A widget's script renders into an empty mount point, in a closed root: one at load, one later.
  const widget = (host, text) => { const root = host.attachShadow({ mode: 'closed' }); root.innerHTML = '<p>' + text + '</p>'; return root; };
  window.__widgetNow = widget(document.getElementById('widget-now'), 'Hello from a mounted widget');
  // One whose root covers the host's own content (its loading text, which the root does not show).
  window.__widgetOver = widget(document.getElementById('widget-over'), 'Hello over the loading text');
  // The same over a plain paragraph, whose display its tag gives (no style is read for it).
  window.__widgetPlain = widget(document.getElementById('widget-plain'), 'Hello over a plain paragraph');
  window.__renderWidget = () => (window.__widgetLater = widget(document.getElementById('widget-later'), 'Rendered after the translation'));
  // A component defined at once that attaches its root only when asked (an event after its upgrade).
  customElements.define('x-stars', class extends HTMLElement {
    show() { const root = this.attachShadow({ mode: 'closed' }); root.textContent = 'four stars'; window.__stars = root; }
  });
  window.__clicks = 0; window.__links = 0;
  document.getElementById('btn').addEventListener('click', () => { window.__clicks++; });
  document.getElementById('lnk').addEventListener('click', (e) => { e.preventDefault(); window.__links++; });
  // A framework in miniature: it creates its nodes, keeps them, and patches their data in place.
  const app = document.getElementById('app');
  const state = { n: 0 };
  const h = document.createElement('h2'); const title = document.createTextNode('Shopping list'); h.append(title);
  const p = document.createElement('p'); const label = document.createTextNode(''); p.append(label);
  const add = document.createElement('button'); add.id = 'add'; add.append(document.createTextNode('Add an item'));
  const ul = document.createElement('ul');
  app.append(h, p, add, ul);
  function render() {
    // Its head manager says the page's language at each update, as React Helmet does where it differs.
    if (document.documentElement.getAttribute('lang') !== 'en') document.documentElement.setAttribute('lang', 'en');
    label.data = state.n === 1 ? 'You have one item' : 'You have ' + state.n + ' items';
    while (ul.children.length < state.n) {
      const li = document.createElement('li');
      li.append(document.createTextNode('Item number ' + (ul.children.length + 1)));
      ul.append(li);
    }
  }
  add.addEventListener('click', () => { state.n++; render(); });
  render();
  window.__app = { label, p };
</script></body></html>`;

type Send = (m: unknown) => Promise<{ data?: unknown; error?: unknown }>;

describe('page translation keeps a live page working', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let page: Page;
  let control: Page;
  let tabId: number;

  const send = (message: unknown) =>
    control.evaluate((m) => (globalThis as unknown as { chrome: { runtime: { sendMessage: Send } } }).chrome.runtime.sendMessage(m), message);
  const status = async () => ((await send({ type: 'page:status', data: { tabId } })) as { data: { state: string; done: number; total: number } }).data;
  const settle = async (want: string) => {
    for (let i = 0; i < 200; i++) {
      const s = await status();
      if (s.state === want) return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never ${want}: ${JSON.stringify(await status())}`);
  };
  const badge = () =>
    control.evaluate(
      (id) => (globalThis as unknown as { chrome: { action: { getBadgeText(d: { tabId: number }): Promise<string> } } }).chrome.action.getBadgeText({ tabId: id }),
      tabId,
    );

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(), startPageServer()]);
    server.set('/app.html', APP);
    await useApertiumAt(browser, apy.url);
    page = await browser.context.newPage();
    await page.goto(`${server.origin}/app.html`);
    await evaluateInContentScript(page, browser.id, '1');
    control = await browser.openExtensionPage(OPTIONS_PATH);
    // The page in front, as a reader has the tab they click: behind the options tab, Chromium runs
    // no animation frame there, and each click waited 1-2 s for its button to stand still.
    await page.bringToFront();
    tabId = await control.evaluate(async (url) => {
      const tabs = await (globalThis as unknown as { chrome: { tabs: { query(q: unknown): Promise<{ id: number; url: string }[]> } } }).chrome.tabs.query({});
      return tabs.find((t) => t.url === url)!.id;
    }, `${server.origin}/app.html`);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it('translates through page:translate, keeps listeners and framework nodes, follows the framework, restores', async () => {
    const original = await page.evaluate(() => document.getElementById('para')!.outerHTML + document.getElementById('link-para')!.outerHTML);
    const reply = await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    expect(reply).toMatchObject({ data: { state: 'translating', trg: 'es' } });
    const done = await settle('translated');
    expect(done.done).toBe(done.total);
    expect(await badge()).toBe('✓');

    const seen = await page.evaluate(() => {
      const w = window as unknown as { __app: { label: Text; p: HTMLElement } };
      return {
        para: document.getElementById('para')!.textContent,
        title: document.title,
        label: w.__app.label.data,
        labelInPlace: w.__app.label.parentNode === w.__app.p,
        lang: document.documentElement.lang,
      };
    });
    expect(seen.para).toContain(MARK_OPEN);
    expect(seen.title).toContain(MARK_OPEN);
    expect(seen.label).toBe(`${MARK_OPEN}You have 0 items${'⟧'}`);
    expect(seen.labelInPlace).toBe(true);
    expect(seen.lang).toBe('es');

    await page.click('#btn');
    await page.click('#lnk');
    expect(await page.evaluate(() => [(window as unknown as { __clicks: number }).__clicks, (window as unknown as { __links: number }).__links])).toEqual([1, 1]);

    // The framework patches its own nodes; the page follows in the target language. Its head
    // manager's `lang` takes nothing else back to the original: the paragraph stays translated.
    await page.evaluate(() => {
      const para = document.getElementById('para')!;
      const w = window as unknown as { __shown: string[] };
      w.__shown = [];
      new MutationObserver(() => w.__shown.push(para.textContent!)).observe(para, { subtree: true, childList: true, characterData: true });
    });
    await page.click('#add');
    await page.waitForFunction(() => {
      const w = window as unknown as { __app: { label: Text } };
      const li = document.querySelector('#app li');
      return w.__app.label.data.includes('⟦You have one item') && li?.textContent?.includes('⟦Item number 1');
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown.filter((t) => !t.includes('⟦')))).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    const restored = await send({ type: 'page:restore', data: { tabId } });
    expect(restored).toMatchObject({ data: { state: 'original', done: 0 } });
    const after = await page.evaluate(() => ({
      html: document.getElementById('para')!.outerHTML + document.getElementById('link-para')!.outerHTML,
      label: (window as unknown as { __app: { label: Text } }).__app.label.data,
      li: document.querySelector('#app li')!.textContent,
      title: document.title,
      lang: document.documentElement.lang,
    }));
    expect(after).toEqual({ html: original, label: 'You have one item', li: 'Item number 1', title: 'App page', lang: 'en' });
    expect(await badge()).toBe('');
    await page.click('#btn');
    await page.click('#add');
    expect(await page.evaluate(() => [(window as unknown as { __clicks: number }).__clicks, (window as unknown as { __app: { label: Text } }).__app.label.data])).toEqual([
      2,
      'You have 2 items',
    ]);
  });

  // Before the tests below: they translate the page again, and the memory would answer its calls at once.
  it('page:cancel stops at once; page messages are refused from a content script', async () => {
    apy.latencyMs = 400;
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      const cancelled = await send({ type: 'page:cancel', data: { tabId } });
      expect(cancelled).toMatchObject({ data: { state: 'cancelled' } });
      const refused = await evaluateInContentScript(page, browser.id, `chrome.runtime.sendMessage({ type: 'page:translate', data: { trg: 'es' } })`);
      expect(refused).toEqual({ error: { status: 403, message: expect.any(String) } });
      await send({ type: 'page:restore', data: { tabId } });
    } finally {
      apy.latencyMs = 0;
    }
  });

  it("a web component's closed shadow root is translated in place (Chrome's chrome.dom), keeps its listener, and is restored", async () => {
    const closed = () => page.evaluate(() => (window as unknown as { __closed: ShadowRoot }).__closed.innerHTML);
    const original = await closed();
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle('translated');
    expect(await closed()).toBe('<p>⟦Hello from a closed component⟧</p><button>⟦Press this⟧</button>');
    const press = () => page.evaluate(() => {
      (window as unknown as { __closed: ShadowRoot }).__closed.querySelector('button')!.click();
      return (window as unknown as { __pressed: number }).__pressed;
    });
    expect(await press()).toBe(1);
    // One the page adds while translated (its constructor keeps the new root as __closed).
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('x-greeting'), { id: 'late' })));
    await page.waitForFunction(() => (window as unknown as { __closed: ShadowRoot }).__closed.innerHTML.includes('⟦Hello'));
    expect(await closed()).toBe('<p>⟦Hello from a closed component⟧</p><button>⟦Press this⟧</button>');
    await send({ type: 'page:restore', data: { tabId } });
    expect(await closed()).toBe(original);
    expect(await press()).toBe(2);
    await page.evaluate(() => document.getElementById('late')!.remove());
  });

  it("a select's group and option labels are translated, its value and selection kept; restore exact", async () => {
    const read = () =>
      page.evaluate(() => {
        const sel = document.getElementById('sel') as HTMLSelectElement;
        return { group: sel.querySelector('optgroup')!.label, labels: [...sel.options].map((o) => o.label), value: sel.value, index: sel.selectedIndex, html: sel.outerHTML };
      });
    const before = await read();
    expect(before).toMatchObject({ group: 'Warm colours', labels: ['Red colour', 'Orange'], value: 'o', index: 1 });
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle('translated');
    expect(await read()).toMatchObject({ group: '⟦Warm colours⟧', labels: ['⟦Red colour⟧', '⟦Orange⟧'], value: 'o', index: 1 });
    await send({ type: 'page:restore', data: { tabId } });
    expect(await read()).toEqual(before);
  });

  it('a web component defined after the page was translated has its closed root translated (the page world says when), and restored', async () => {
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle('translated');
    const slotted = () => page.evaluate(() => document.querySelector('x-late-card')!.innerHTML);
    expect(await slotted()).toBe('<b>⟦Slotted words⟧</b>');
    await page.evaluate(() => (window as unknown as { __defineLate(): void }).__defineLate());
    const late = () => page.evaluate(() => (window as unknown as { __late: ShadowRoot }).__late.innerHTML);
    await page.waitForFunction(() => (window as unknown as { __late: ShadowRoot }).__late.innerHTML.includes('⟦Rendered'), undefined, { timeout: 5000 }).catch(() => undefined);
    expect(await late()).toBe('<h3>⟦Defined at last⟧</h3><slot></slot><p>⟦Rendered a moment later⟧</p>');
    expect(await slotted()).toBe('<b>⟦Slotted words⟧</b>');
    expect(await settle('translated')).toMatchObject({ errors: 0 });
    await send({ type: 'page:restore', data: { tabId } });
    expect(await late()).toBe('<h3>Defined at last</h3><slot></slot><p>Rendered a moment later</p>');
    expect(await slotted()).toBe('<b>Slotted words</b>');
  });

  it('a closed root in an empty mount point, or over content of its host\'s own (styled or plain), is translated; roots attached after the translation (a widget rendered, a defined component showing) are found and translated; restore exact', async () => {
    const html = () =>
      page.evaluate(() => {
        const w = window as unknown as Record<string, ShadowRoot | undefined>;
        return { now: w.__widgetNow!.innerHTML, over: w.__widgetOver!.innerHTML, plain: w.__widgetPlain!.innerHTML, later: w.__widgetLater?.innerHTML, stars: w.__stars?.innerHTML, body: document.body.innerHTML };
      });
    const before = (await html()).body;
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await settle('translated');
    expect((await html()).now).toBe('<p>⟦Hello from a mounted widget⟧</p>');
    // Chrome computes no style for the loading text the root hides: that says the section has a root.
    expect((await html()).over).toBe('<p>⟦Hello over the loading text⟧</p>');
    // Nor does it lay out a plain paragraph the root hides: in the first screen, its empty box says so.
    expect((await html()).plain).toBe('<p>⟦Hello over a plain paragraph⟧</p>');
    await page.evaluate(() => {
      (window as unknown as { __renderWidget(): void }).__renderWidget();
      (document.querySelector('x-stars') as HTMLElement & { show(): void }).show();
    });
    await page.waitForFunction(() => {
      const w = window as unknown as Record<string, ShadowRoot>;
      return w.__widgetLater!.innerHTML.includes('⟦') && w.__stars!.innerHTML.includes('⟦');
    }, undefined, { timeout: 5000 }).catch(() => undefined);
    const translated = await html();
    expect(translated.later).toBe('<p>⟦Rendered after the translation⟧</p>');
    expect(translated.stars).toBe('⟦four stars⟧');
    expect(await settle('translated')).toMatchObject({ errors: 0 });
    await send({ type: 'page:restore', data: { tabId } });
    const restored = await html();
    expect(restored).toMatchObject({ now: '<p>Hello from a mounted widget</p>', over: '<p>Hello over the loading text</p>', plain: '<p>Hello over a plain paragraph</p>', later: '<p>Rendered after the translation</p>', stars: 'four stars', body: before });
  });
});
