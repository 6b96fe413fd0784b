/**
 * Real frameworks' apps (Preact, which our own UI is built with, also inside a web component's
 * open shadow root; React; Vue; Lit, in a LitElement's shadow root; Svelte 5) keep working while
 * their page is translated by a provider that reorders a sentence's tags, and restore gives exactly
 * what the app would show had it never been translated. The oracle is a twin tab of the same app,
 * never translated, clicked the same way: while translated, the app shows every word the twin
 * shows, each in its translation (in bilingual mode, its own nodes are the twin's and the copies
 * beside them hold its words translated); after restore, its markup is the twin's. They place
 * a new node differently: React, Vue and Svelte before the node of what comes next (Vue and Svelte
 * also keep an empty comment where a part is not shown), Preact before the next sibling of the
 * node before; Lit keeps each part by the comment before it, and writes a changed text into the
 * node right after that comment. Apps of their own test what frameworks take out by walking from
 * one node to another: Vue's fragments (also in a page Vue's server rendered and the page
 * hydrated), and Lit's nested templates and Svelte's blocks of several nodes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';
import { bundle } from '../fakes/bundle';
import { compile } from 'svelte/compiler';
import { createSSRApp, h, reactive, type Component } from 'vue';
import { renderToString } from 'vue/server-renderer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARK_CLOSE, MARK_OPEN, markText } from '../fakes/marker-apy';
import { startHostileApy, type HostileApy } from '../fakes/hostile-apy';
import { useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

/**
 * The app, one view for the three: `el(tag, props, ...children)` makes an element, `s` is the
 * state, `set` changes part of it. A count, a part shown from three on, a word that changes with
 * the count, a link whose words change and a part shown at none, in one sentence; a word that
 * changes between two tags the translation swaps (in Lit and Svelte, two words that take turns,
 * each a part of its own, taken out by its walk); a keyed list; a block shown after a paragraph;
 * a field's placeholder.
 */
const VIEW = `
const INIT = { n: 1, items: ['Apples', 'Bread', 'Cheese'], open: false, basket: false };
function view(el, s, set) {
  const { n, items, open, basket } = s;
  return el('main', null,
    el('h2', null, 'Your shopping cart'),
    el('p', { id: 'summary' }, 'You have ', el('b', null, n === 0 ? 'nothing' : String(n)), n > 2 && el('span', null, ' (a lot)'), n === 1 ? ' item in ' : ' items in ', el('a', { href: '#cart' }, basket ? 'the basket' : 'your cart'), n === 0 && el('em', null, ' sadly'), ' today.'),
    el('p', null, 'Send ', el('a', { href: '#1' }, 'the first'), basket ? ' or ' : ' and ', el('b', null, 'the second'), ' to ', el('i', null, basket ? 'a friend' : 'the shop'), '.'),
    open && el('p', null, 'The details are ', el('i', null, 'here'), ' now.'),
    el('input', { id: 'search', placeholder: n > 2 ? 'Search many things' : 'Search few things' }),
    el('button', { id: 'more', onClick: () => set({ n: n + 1 }) }, 'Add one more'),
    el('button', { id: 'less', onClick: () => set({ n: Math.max(0, n - 1) }) }, 'Take one away'),
    el('button', { id: 'reverse', onClick: () => set({ items: [...items].reverse() }) }, 'Reverse the list'),
    el('button', { id: 'dates', onClick: () => set({ items: items.includes('Dates') ? items.filter((x) => x !== 'Dates') : [...items, 'Dates'] }) }, items.includes('Dates') ? 'Remove dates' : 'Add dates'),
    el('button', { id: 'details', onClick: () => set({ open: !open }) }, open ? 'Hide the details' : 'Show the details'),
    el('button', { id: 'basket', onClick: () => set({ basket: !basket }) }, 'Switch the words'),
    el('ul', null, items.map((t) => el('li', { key: t }, 'Buy ', el('em', null, t), ' at the market', t === 'Bread' && basket ? el('b', null, ' fresh') : null))),
    el('p', null, n > 2 ? 'That is many items' : 'That is few items'),
  );
}`;

const page = (head: string, script: string) => `<!doctype html><html lang="en"><head><title>Shopping</title>${head}</head><body><div id="root"></div><script>window.__root = document.getElementById('root');</script>${script}</body></html>`;

/** Vue's fragments app, `(h, reactive) => its root component`: for the page, and for the server's render of it. */
const VUE_FRAGMENTS = `(h, reactive) => {
  const Price = { props: ['n'], setup: (p) => () => [h('b', null, String(p.n)), ' euros at ', h('a', { href: '#shop' }, 'the shop')] };
  return { setup() {
    const s = reactive({ tags: ['apples', 'bread', 'cheese'], shown: true, n: 3 });
    return () => h('main', null, [
      h('p', { id: 'tags' }, ['Tagged ', h('b', null, 'today'), ': ', s.shown ? s.tags.flatMap((t, i) => [i ? ', ' : '', h('a', { key: t, href: '#' + t }, t)]) : null, ' in the shop.']),
      h('p', { id: 'price' }, ['It costs ', s.shown ? h(Price, { n: s.n }) : null, ' with ', h('i', null, 'the tax'), '.']),
      h('p', { id: 'sold' }, ['Sold ', h('b', null, 'today'), ': ', s.shown ? [h('a', { href: '#apples' }, 'apples'), ' and ', h('em', null, 'bread')] : null]),
      h('input', { id: 'search', placeholder: 'Search the shop' }),
      h('button', { id: 'shown', onClick: () => { s.shown = !s.shown; } }, 'Show or hide'),
      h('button', { id: 'reverse', onClick: () => { s.tags = [...s.tags].reverse(); } }, 'Reverse the tags'),
      h('button', { id: 'more', onClick: () => { s.n++; s.tags = [...s.tags, 'dates ' + s.n]; } }, 'Add one more'),
    ]);
  } };
}`;

const PREACT_MAP = '<script type="importmap">{"imports":{"preact":"/preact.mjs","preact/hooks":"/hooks.mjs"}}</script>';
const PREACT_APP = `
import { h, render } from 'preact';
import { useState } from 'preact/hooks';
${VIEW}
function App() {
  const [s, setS] = useState(INIT);
  return view((t, p, ...k) => h(t, p, ...k), s, (patch) => setS({ ...s, ...patch }));
}`;

/**
 * Each framework's page: the view mounted in `window.__root` (#root); `window.__rendered` once it
 * is shown. `preact-shadow`: the Preact app in a web component's open shadow root, as component
 * libraries render.
 */
const APPS = {
  preact: page(
    PREACT_MAP,
    `<script type="module">${PREACT_APP}
render(h(App), document.getElementById('root'));
window.__rendered = true;
</script>`,
  ),
  'preact-shadow': page(
    PREACT_MAP,
    `<script type="module">${PREACT_APP}
document.getElementById('root').remove();
customElements.define('x-shop', class extends HTMLElement {
  connectedCallback() {
    const root = Object.assign(document.createElement('div'), { id: 'root' });
    this.attachShadow({ mode: 'open' }).append(root);
    render(h(App), root);
    window.__root = root;
    window.__rendered = true;
  }
});
document.body.append(document.createElement('x-shop'));
</script>`,
  ),
  // React has no browser build of its own: bundled by esbuild in beforeAll (REACT_SOURCE).
  react: page('', '<script src="/react-app.js"></script>'),
  // Lit and Svelte: bundled by esbuild in beforeAll too (LIT_SOURCE, SVELTE_COMPONENT).
  lit: page('', '<script src="/lit-app.js"></script>'),
  svelte: page('', '<script src="/svelte-app.js"></script>'),
  // Lit's nested templates of several nodes in a sentence (LIT_NESTED_SOURCE).
  'lit-nested': page('', '<script src="/lit-nested-app.js"></script>'),
  // Svelte's blocks of several nodes in a sentence (SVELTE_NESTED_COMPONENT).
  'svelte-nested': page('', '<script src="/svelte-nested-app.js"></script>'),
  vue: page(
    '',
    `<script type="module">
import { createApp, h, reactive } from '/vue.mjs';
${VIEW}
createApp({ setup() { const s = reactive({ ...INIT }); return () => view((t, p, ...k) => h(t, p, k), s, (patch) => Object.assign(s, patch)); } }).mount('#root');
window.__rendered = true;
</script>`,
  ),
  // Vue keeps a fragment (a list, a component with two roots) between two empty Text nodes, and
  // takes it out by walking from the first to the second.
  'vue-fragments': page('', `<script type="module">
import { createApp, h, reactive } from '/vue.mjs';
createApp((${VUE_FRAGMENTS})(h, reactive)).mount('#root');
window.__rendered = true;
</script>`),
  // The same app rendered by Vue's server and hydrated in the page (as Nuxt does): its fragments'
  // ends are the server's comments `<!--[-->` and `<!--]-->`. Its markup is set in beforeAll.
  'vue-hydrated': page('', `<script type="module">
import { createSSRApp, h, reactive } from '/vue.mjs';
createSSRApp((${VUE_FRAGMENTS})(h, reactive)).mount('#root');
window.__rendered = true;
</script>`),
};

const REACT_SOURCE = `
import { createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
${VIEW}
function App() {
  const [s, setS] = useState(INIT);
  useEffect(() => { window.__rendered = true; }, []);
  return view((t, p, ...k) => h(t, p, ...k), s, (patch) => setS({ ...s, ...patch }));
}
createRoot(document.getElementById('root')).render(h(App));
`;

/**
 * The view in Lit's templates, in a LitElement's shadow root (as Lit renders). Lit writes a
 * changed text into the node right after its part's marker comment, and puts a part's new nodes
 * before the node that ended the part when the template was cloned.
 */
const LIT_SOURCE = `
import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
const INIT = { n: 1, items: ['Apples', 'Bread', 'Cheese'], open: false, basket: false };
class Shop extends LitElement {
  static properties = { s: { state: true } };
  constructor() { super(); this.s = INIT; }
  set(patch) { this.s = { ...this.s, ...patch }; }
  firstUpdated() { window.__root = this.renderRoot.querySelector('#root'); window.__rendered = true; }
  render() {
    const { n, items, open, basket } = this.s;
    return html\`<div id="root"><main><h2>Your shopping cart</h2>\
<p id="summary">You have <b>\${n === 0 ? 'nothing' : String(n)}</b>\${n > 2 ? html\`<span> (a lot)</span>\` : nothing}\${n === 1 ? ' item in ' : ' items in '}<a href="#cart">\${basket ? 'the basket' : 'your cart'}</a>\${n === 0 ? html\`<em> sadly</em>\` : nothing} today.</p>\
<p>Send <a href="#1">the first</a>\${basket ? nothing : ' and '}\${basket ? ' or ' : nothing}<b>the second</b> to <i>\${basket ? 'a friend' : 'the shop'}</i>.</p>\
\${open ? html\`<p>The details are <i>here</i> now.</p>\` : nothing}\
<input id="search" placeholder=\${n > 2 ? 'Search many things' : 'Search few things'}>\
<button id="more" @click=\${() => this.set({ n: n + 1 })}>Add one more</button>\
<button id="less" @click=\${() => this.set({ n: Math.max(0, n - 1) })}>Take one away</button>\
<button id="reverse" @click=\${() => this.set({ items: [...items].reverse() })}>Reverse the list</button>\
<button id="dates" @click=\${() => this.set({ items: items.includes('Dates') ? items.filter((x) => x !== 'Dates') : [...items, 'Dates'] })}>\${items.includes('Dates') ? 'Remove dates' : 'Add dates'}</button>\
<button id="details" @click=\${() => this.set({ open: !open })}>\${open ? 'Hide the details' : 'Show the details'}</button>\
<button id="basket" @click=\${() => this.set({ basket: !basket })}>Switch the words</button>\
<ul>\${repeat(items, (t) => t, (t) => html\`<li>Buy <em>\${t}</em> at the market\${t === 'Bread' && basket ? html\`<b> fresh</b>\` : nothing}</li>\`)}</ul>\
<p>\${n > 2 ? 'That is many items' : 'That is few items'}</p></main></div>\`;
  }
}
customElements.define('x-shop', Shop);
document.getElementById('root').remove();
document.body.append(document.createElement('x-shop'));
`;

/**
 * Lit's parts that show several nodes: a nested template in a sentence (`html\`<b>2</b> new
 * <i>unread</i>\``), its part from its marker comment to the node that followed it in the outer
 * template (the text before the link). Lit takes the part out by walking from the comment to that
 * node, and puts the new template's nodes before it.
 */
const LIT_NESTED_SOURCE = `
import { LitElement, html } from 'lit';
class Inbox extends LitElement {
  static properties = { n: { state: true }, on: { state: true } };
  constructor() { super(); this.n = 2; this.on = true; }
  firstUpdated() { window.__root = this.renderRoot.querySelector('#root'); window.__rendered = true; }
  render() {
    const { n, on } = this;
    return html\`<div id="root"><main>\
<p id="count">You have \${n > 1 ? html\`<b>\${n}</b> new <i>unread</i>\` : html\`<i>one</i> old\`} <a href="#inbox">messages</a> today.</p>\
<p id="flag">Send \${on ? html\`the <b>red</b> box\` : html\`a <b>blue</b> bag\`} to <a href="#shop">the shop</a> now.</p>\
<p id="inside">Send \${on ? html\`<b>red</b> boxes to <a href="#shop">the shop</a>\` : html\`<b>blue</b> bags to <a href="#home">home</a>\`} now.</p>\
<div id="blocks">\${on ? html\`<p>The red box</p><p>is ready</p> and <b>waits</b>\` : html\`<p>The blue bag</p><p>is gone</p> and <b>left</b>\`} for <a href="#shop">the shop</a> now.</div>\
<input id="search" placeholder="Search the inbox">\
<button id="more" @click=\${() => (this.n = n + 1)}>Add one more</button>\
<button id="less" @click=\${() => (this.n = Math.max(1, n - 1))}>Take one away</button>\
<button id="flip" @click=\${() => (this.on = !on)}>Switch the box</button>\
</main></div>\`;
  }
}
customElements.define('x-inbox', Inbox);
document.getElementById('root').remove();
document.body.append(document.createElement('x-inbox'));
`;

/**
 * The view as a Svelte 5 component (compiled in beforeAll; a space that starts an element's text is
 * written as an expression, as Svelte drops it otherwise). Svelte keeps the nodes it made and
 * writes a changed text into its own node; a block that comes and goes sits before an empty comment.
 */
const SVELTE_COMPONENT = `
<script>
  const INIT = { n: 1, items: ['Apples', 'Bread', 'Cheese'], open: false, basket: false };
  let s = $state({ ...INIT });
  const set = (patch) => Object.assign(s, patch);
</script>
<main><h2>Your shopping cart</h2>
<p id="summary">You have <b>{s.n === 0 ? 'nothing' : String(s.n)}</b>{#if s.n > 2}<span>{' (a lot)'}</span>{/if}{s.n === 1 ? ' item in ' : ' items in '}<a href="#cart">{s.basket ? 'the basket' : 'your cart'}</a>{#if s.n === 0}<em>{' sadly'}</em>{/if} today.</p>
<p>Send <a href="#1">the first</a>{#if !s.basket}{' and '}{/if}{#if s.basket}{' or '}{/if}<b>the second</b> to <i>{s.basket ? 'a friend' : 'the shop'}</i>.</p>
{#if s.open}<p>The details are <i>here</i> now.</p>{/if}
<input id="search" placeholder={s.n > 2 ? 'Search many things' : 'Search few things'}>
<button id="more" onclick={() => set({ n: s.n + 1 })}>Add one more</button>
<button id="less" onclick={() => set({ n: Math.max(0, s.n - 1) })}>Take one away</button>
<button id="reverse" onclick={() => set({ items: [...s.items].reverse() })}>Reverse the list</button>
<button id="dates" onclick={() => set({ items: s.items.includes('Dates') ? s.items.filter((x) => x !== 'Dates') : [...s.items, 'Dates'] })}>{s.items.includes('Dates') ? 'Remove dates' : 'Add dates'}</button>
<button id="details" onclick={() => set({ open: !s.open })}>{s.open ? 'Hide the details' : 'Show the details'}</button>
<button id="basket" onclick={() => set({ basket: !s.basket })}>Switch the words</button>
<ul>{#each s.items as t (t)}<li>Buy <em>{t}</em> at the market{#if t === 'Bread' && s.basket}<b>{' fresh'}</b>{/if}</li>{/each}</ul>
<p>{s.n > 2 ? 'That is many items' : 'That is few items'}</p></main>
`;
/**
 * The same sentences as LIT_NESTED_SOURCE's in Svelte 5: each block of several nodes sits before
 * an empty comment, and Svelte takes it out by walking from its first node to its last.
 */
const SVELTE_NESTED_COMPONENT = `
<script>
  let s = $state({ n: 2, on: true });
  const set = (patch) => Object.assign(s, patch);
</script>
<main>
<p id="count">You have {#if s.n > 1}<b>{s.n}</b>{' new '}<i>unread</i>{:else}<i>one</i>{' old'}{/if}{' '}<a href="#inbox">messages</a> today.</p>
<p id="flag">Send {#if s.on}{'the '}<b>red</b>{' box'}{:else}{'a '}<b>blue</b>{' bag'}{/if} to <a href="#shop">the shop</a> now.</p>
<p id="inside">Send {#if s.on}<b>red</b>{' boxes to '}<a href="#shop">the shop</a>{:else}<b>blue</b>{' bags to '}<a href="#home">home</a>{/if} now.</p>
<div id="blocks">{#if s.on}<p>The red box</p><p>is ready</p>{' and '}<b>waits</b>{:else}<p>The blue bag</p><p>is gone</p>{' and '}<b>left</b>{/if} for <a href="#shop">the shop</a> now.</div>
<input id="search" placeholder="Search the inbox">
<button id="more" onclick={() => set({ n: s.n + 1 })}>Add one more</button>
<button id="less" onclick={() => set({ n: Math.max(1, s.n - 1) })}>Take one away</button>
<button id="flip" onclick={() => set({ on: !s.on })}>Switch the box</button>
</main>
`;
const SVELTE_ENTRY = `
import { mount } from 'svelte';
import App from 'app.svelte';
mount(App, { target: document.getElementById('root') });
window.__rendered = true;
`;

type Send = (m: unknown) => Promise<{ data?: unknown; error?: unknown }>;

/**
 * A translation that puts a sentence's link before its bold count ("you have your cart item in 1"),
 * and its emphasis last, with no text after it ("… today. sadly"); every text marked.
 */
function reorder(q: string): string {
  return markText(
    q.replace(/(<p i=\d+>)(.*?)(<\/p>)/gs, (_m, open: string, body: string, close: string) => {
      const b = /<b i=\d+>[^<]*<\/b>/.exec(body)?.[0];
      const a = /<a i=\d+>[^<]*<\/a>/.exec(body)?.[0];
      const swapped = a && b ? body.replace(b, '\u0000').replace(a, b).replace('\u0000', a) : body;
      const em = /<em i=\d+>[^<]*<\/em>/.exec(swapped)?.[0];
      return open + (em ? swapped.replace(em, '') + em : swapped) + close;
    }),
  );
}

describe('apps of real frameworks in a translated page', () => {
  let browser: ExtensionBrowser;
  let apy: HostileApy;
  let server: PageServer;
  let control: Page;
  const errors: string[] = [];

  const send = (message: unknown) =>
    control.evaluate((m) => (globalThis as unknown as { chrome: { runtime: { sendMessage: Send } } }).chrome.runtime.sendMessage(m), message);

  const open = async (app: keyof typeof APPS) => {
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(`${app}: ${e.message}`));
    await page.goto(`${server.origin}/${app}.html`);
    await page.waitForFunction(() => (window as unknown as { __rendered?: boolean }).__rendered === true);
    return page;
  };

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startHostileApy(), startPageServer()]);
    const js = { 'content-type': 'text/javascript' };
    const require = createRequire(import.meta.url);
    server.set('/preact.mjs', readFileSync(require.resolve('preact'), 'utf8'), js);
    server.set('/hooks.mjs', readFileSync(require.resolve('preact/hooks'), 'utf8'), js);
    server.set('/vue.mjs', readFileSync(require.resolve('vue/dist/vue.runtime.esm-browser.prod.js'), 'utf8'), js);
    // A Svelte component, compiled for the browser, imported by the entry as 'app.svelte'.
    const svelte = (component: string): Plugin => ({
      name: 'app.svelte',
      setup(b) {
        b.onResolve({ filter: /^app\.svelte$/ }, () => ({ path: 'app.svelte', namespace: 'app' }));
        b.onLoad({ filter: /.*/, namespace: 'app' }, () => ({ contents: compile(component, { generate: 'client', name: 'App' }).js.code, resolveDir: process.cwd(), loader: 'js' }));
      },
    });
    server.set('/react-app.js', await bundle(REACT_SOURCE), js);
    server.set('/lit-app.js', await bundle(LIT_SOURCE), js);
    server.set('/svelte-app.js', await bundle(SVELTE_ENTRY, [svelte(SVELTE_COMPONENT)]), js);
    server.set('/svelte-nested-app.js', await bundle(SVELTE_ENTRY, [svelte(SVELTE_NESTED_COMPONENT)]), js);
    server.set('/lit-nested-app.js', await bundle(LIT_NESTED_SOURCE), js);
    for (const [app, html] of Object.entries(APPS)) server.set(`/${app}.html`, html);
    // Vue's server renders the fragments app into the page that hydrates it.
    const ssr = await renderToString(createSSRApp((new Function(`return ${VUE_FRAGMENTS}`)() as (...a: unknown[]) => Component)(h, reactive)));
    server.set('/vue-hydrated.html', APPS['vue-hydrated'].replace('<div id="root"></div>', `<div id="root">${ssr}</div>`));
    apy.reply = ({ q }) => reorder(q);
    await useApertiumAt(browser, apy.url);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  /** The app in a tab to translate, its tab id, and its twin never translated. */
  const pair = async (app: keyof typeof APPS) => {
    const tabs = () =>
      control.evaluate(async (url) => {
        const all = await (globalThis as unknown as { chrome: { tabs: { query(q: unknown): Promise<{ id: number }[]> } } }).chrome.tabs.query({ url });
        return all.map((t) => t.id);
      }, `${server.origin}/${app}.html`);
    // The new tab's id (a test that failed before its end leaves its tabs open).
    const had = await tabs();
    const page = await open(app);
    await evaluateInContentScript(page, browser.id, '1');
    const tabId = (await tabs()).find((id) => !had.includes(id))!;
    const twin = await open(app);
    const status = async () => ((await send({ type: 'page:status', data: { tabId } })) as { data: { state: string; errors: number } }).data;
    // Each tab is brought to the front to be clicked, as a reader clicks the tab they see: in a
    // tab behind another, Chromium runs no animation frame, and Playwright's wait for a button to
    // stand still took 1-2 s a click. The other tab follows its app's change from behind (our
    // content script's frame falls back to a timer there).
    const click = async (ids: string[], check?: () => Promise<void>) => {
      for (const id of ids) {
        for (const tab of [page, twin]) {
          await tab.bringToFront();
          await tab.click(`#${id}`);
        }
        await check?.();
      }
    };
    /** Translated with no error, restored to the twin's markup, and still the twin's after `clicks` made in both. */
    const restore = async (clicks: string[]) => {
      // The last click's change may still be in flight (a number changed in a sentence: its words
      // are the original's again until the new translation comes).
      await expect.poll(status, { timeout: 10_000 }).toMatchObject({ state: 'translated', errors: 0 });
      await send({ type: 'page:restore', data: { tabId } });
      await expect.poll(async () => (await status()).state).toBe('original');
      expect(await root(page)).toBe(await root(twin));
      await click(clicks);
      expect(await root(page)).toBe(await root(twin));
    };
    return { page, twin, tabId, status, click, restore };
  };

  /** The app's markup; Lit's marker comments name a number each page load draws, left out. */
  const root = async (p: Page) => (await p.locator('#root').innerHTML()).replace(/lit\$\d+\$/g, 'lit$');
  /** The sentence's markup without comments (Vue's and Svelte's where a part is not shown, Lit's markers). */
  const summary = (p: Page) => p.locator('#summary').evaluate((el) => el.innerHTML.replace(/<!--.*?-->/g, ''));

  /**
   * The app's texts with letters: those left unmarked, and every word with the marks taken off,
   * sorted; in bilingual mode, the words of the app's own nodes and those of the copies apart.
   */
  const read = (p: Page) =>
    p.evaluate(
      ({ open, close }) => {
        const root = (window as unknown as { __root: Element }).__root;
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
        return { unmarked, words: words.sort(), copied: copied.sort(), placeholder: (root.querySelector('#search') as HTMLInputElement).placeholder };
      },
      { open: MARK_OPEN, close: MARK_CLOSE },
    );

  describe.each(['preact', 'preact-shadow', 'react', 'vue', 'lit', 'svelte'] as const)('%s', (app) => {
    it('follows what the app renders after each click (parts added to and taken from a reordered sentence, words changed, a keyed list grown, reversed and shrunk, a block shown), and restores to what the app would show', async () => {
      const { page, twin, tabId, status, click, restore } = await pair(app);
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
      // The provider's order: the link before the count. Vue, Lit and Svelte keep comments in the
      // sentence (a part not shown; Lit's every part), and the text " item in " there ends at the link
      // (Lit's and Svelte's walk from the part's comment stops at it): the sentence keeps its order,
      // its texts in the translation's order between its elements.
      const keepsOrder = app === 'vue' || app === 'lit' || app === 'svelte';
      expect(await summary(page)).toBe(
        keepsOrder
          ? `${MARK_OPEN}You have${MARK_CLOSE} <b>1</b> ${MARK_OPEN}item in${MARK_CLOSE} <a href="#cart">${MARK_OPEN}your cart${MARK_CLOSE}</a> ${MARK_OPEN}today.${MARK_CLOSE}`
          : `${MARK_OPEN}You have${MARK_CLOSE} <a href="#cart">${MARK_OPEN}your cart${MARK_CLOSE}</a> ${MARK_OPEN}item in${MARK_CLOSE} <b>1</b> ${MARK_OPEN}today.${MARK_CLOSE}`,
      );

      await click(['more', 'more'], sameAsTwin);
      // At three the app put its new part right after the count, which the translation had moved
      // after the link: the sentence was read again as the app has it ("You have <b></b><span> (a
      // lot)</span> items in <a>your cart</a> today."), and its translation put the link first. (Read
      // with the part after the link, it would show "… items in <b>3</b><span> (a lot)</span> today.")
      // The second and third apps' answers come from the translation memory: the same sentence.
      // (Vue, Lit and Svelte: in the sentence's own order, as above.)
      expect(await summary(page)).toBe(
        keepsOrder
          ? `${MARK_OPEN}You have${MARK_CLOSE} <b>3</b><span> ${MARK_OPEN}(a lot)${MARK_CLOSE}</span> ${MARK_OPEN}items in${MARK_CLOSE} <a href="#cart">${MARK_OPEN}your cart${MARK_CLOSE}</a> ${MARK_OPEN}today.${MARK_CLOSE}`
          : `${MARK_OPEN}You have${MARK_CLOSE} <a href="#cart">${MARK_OPEN}your cart${MARK_CLOSE}</a><span> ${MARK_OPEN}(a lot)${MARK_CLOSE}</span> ${MARK_OPEN}items in${MARK_CLOSE} <b>3</b> ${MARK_OPEN}today.${MARK_CLOSE}`,
      );
      // Words changed in links and between them, a keyed list grown, reversed and shrunk, the count
      // down to none (a part added after the moved link, which the translation puts last), a block
      // shown, and the count up again (that part taken out: Lit and Svelte take it out by walking
      // from its start to the node that followed it).
      await click(['basket', 'dates', 'reverse', 'less', 'less', 'less', 'dates', 'details'], sameAsTwin);
      expect(await summary(page)).toMatch(/<em>[^<]*sadly[^<]*<\/em>$/);
      await click(['more'], sameAsTwin);

      // The app goes on as if nothing had happened.
      await restore(['more', 'details', 'reverse', 'basket']);
      expect(await summary(page)).toBe('You have <b>2</b> items in <a href="#cart">your cart</a> today.');
      expect(errors.filter((e) => e.startsWith(`${app}:`))).toEqual([]);
      await page.close();
      await twin.close();
    }, 120_000);

    it("bilingual: the app's own nodes stay the twin's after each click, each copy under its original with what it shows (a block the app adds after one goes below its copy; a list item's one copy stays last), and restore leaves the twin's markup", async () => {
      const { page, twin, tabId, status, click, restore } = await pair(app);
      /** The app's nodes (the copies and the placeholder's marks taken off) are the twin's, and the copies hold every word of them, translated. */
      const sameAsTwin = async () => {
        const own = () =>
          page.evaluate(() => {
            const r = (window as unknown as { __root: Element }).__root.cloneNode(true) as Element;
            for (const c of r.querySelectorAll('[data-polyglot-bilingual]')) c.remove();
            // A placeholder has no copy: it is translated in place.
            const field = r.querySelector('input')!;
            field.placeholder = field.placeholder.replace(/[⟦⟧]/g, '');
            return r.innerHTML.replace(/lit\$\d+\$/g, 'lit$');
          });
        await expect.poll(own, { timeout: 10_000 }).toBe(await root(twin));
        await expect.poll(async () => (await read(page)).copied, { timeout: 10_000 }).toEqual((await read(twin)).words);
        // Each block's copy (a clone of the block) is right under it, holding its words.
        const misplaced = await page.evaluate(() => {
          const words = (el: Element) => (el.textContent ?? '').split(/[^\p{L}\d]+/u).filter(Boolean).sort().join(' ');
          return [...(window as unknown as { __root: Element }).__root.querySelectorAll('[data-polyglot-bilingual]')]
            .filter((c) => c.previousElementSibling?.localName === c.localName)
            .filter((c) => words(c) !== words(c.previousElementSibling!))
            .map((c) => c.textContent);
        });
        expect(misplaced).toEqual([]);
        // A list item's copy is inside it, last, one for all of its words (React appends a new part after it).
        const items = await page.evaluate(() =>
          [...(window as unknown as { __root: Element }).__root.querySelectorAll('li')].map((li) => `${li.querySelectorAll(':scope > [data-polyglot-bilingual]').length} ${li.lastElementChild?.hasAttribute('data-polyglot-bilingual')}`),
        );
        expect(new Set(items)).toEqual(new Set(['1 true']));
      };
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'bilingual' } });
      await expect.poll(async () => (await status()).state, { timeout: 10_000 }).toBe('translated');
      await sameAsTwin();
      await click(['more', 'more', 'dates', 'reverse', 'basket', 'less', 'details'], sameAsTwin);
      await restore(['reverse', 'dates', 'more']);
      expect(errors.filter((e) => e.startsWith(`${app}:`))).toEqual([]);
      await page.close();
      await twin.close();
    }, 120_000);
  });

  /**
   * The app and its twin, the app translated: every text of it marked, its words the twin's
   * (`sameAsTwin`, asked again after clicks), and a sentence's elements in the order they stand (`tags`).
   */
  const translatedPair = async (app: keyof typeof APPS) => {
    const made = await pair(app);
    const { page, twin, tabId, status } = made;
    const sameAsTwin = async () => {
      await expect.poll(async () => (await read(page)).unmarked, { timeout: 10_000 }).toEqual([]);
      expect((await read(page)).words).toEqual((await read(twin)).words);
    };
    const tags = (id: string) => page.locator(`#${id}`).evaluate((p) => [...p.children].map((c) => c.localName));
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await expect.poll(async () => (await status()).state, { timeout: 10_000 }).toBe('translated');
    await sameAsTwin();
    return { ...made, sameAsTwin, tags };
  };

  it.each(['vue-fragments', 'vue-hydrated'] as const)("%s: Vue's fragments in a reordered sentence (a keyed list, a component with two roots) are taken out and put back whole: the translation moves no node across their ends", async (app) => {
    const { page, twin, click, restore, sameAsTwin, tags } = await translatedPair(app);
    // The provider puts the first link before the bold word: in the list and in the last sentence,
    // across the fragment's start, so that sentence keeps its own order; in the price, both inside
    // the component's fragment, so the translation's order stands where the ends are empty Text
    // nodes. Hydrated, they are the server's comments, and a fragment between them keeps its own
    // order too. (On the previous build the hydrated page had the bold word "today" put between
    // the last sentence's comments: hiding the fragment took it out too.)
    expect(await tags('tags')).toEqual(['b', 'a', 'a', 'a']);
    expect(await tags('price')).toEqual(app === 'vue-hydrated' ? ['b', 'a', 'i'] : ['a', 'b', 'i']);
    expect(await tags('sold')).toEqual(['b', 'a', 'em']);
    await click(['reverse', 'more', 'shown', 'shown', 'more', 'reverse'], sameAsTwin);
    await restore(['shown', 'more', 'shown']);
    expect(errors.filter((e) => e.startsWith(`${app}:`))).toEqual([]);
    await page.close();
    await twin.close();
  }, 120_000);

  it.each(['lit-nested', 'svelte-nested'] as const)("%s: a framework's parts of several nodes in a reordered sentence (a nested template, a block) are taken out and put back whole: the translation moves no node into or out of one", async (app) => {
    const { page, twin, click, restore, sameAsTwin, tags } = await translatedPair(app);
    // The provider puts the link before the bold word, across the part's end (the text before the
    // link): each sentence keeps its own order, its texts in the translation's between its elements.
    expect(await tags('count')).toEqual(['b', 'i', 'a']);
    expect(await tags('flag')).toEqual(['b', 'a']);
    expect(await tags('inside')).toEqual(['b', 'a']);
    // A nested template of two blocks and a sentence (Lit's part starts two blocks before the sentence).
    expect(await tags('blocks')).toEqual(['p', 'p', 'b', 'a']);
    await click(['less', 'flip', 'more', 'more', 'flip', 'less'], sameAsTwin);
    await restore(['flip', 'less', 'more']);
    expect(errors.filter((e) => e.startsWith(`${app}:`))).toEqual([]);
    await page.close();
    await twin.close();
  }, 120_000);
});
