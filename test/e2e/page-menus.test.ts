/**
 * A menu that renders its submenu when the mouse rests on an item, and takes it away when it
 * leaves (a site's navigation), translated in Chromium with the built extension and Apertium
 * pointed at the marker fake: the item's label stays as written while its submenu comes and goes
 * (edge-blocks.ts). Before, each hover undid the label to English and sent it again. The same
 * menu in Vue, which keeps an empty comment where the submenu is not shown.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<nav><ul><li id="item"><a href="#products">Our garden products</a></li><li><a href="#about">About the shop</a></li></ul></nav>
<p>Welcome to the shop by the river.</p>
<script>
const item = document.getElementById('item');
item.addEventListener('mouseenter', () => item.insertAdjacentHTML('beforeend', '<ul class="sub"><li><a href="#tools">Garden tools for sale</a></li></ul>'));
item.addEventListener('mouseleave', () => item.querySelector('.sub')?.remove());
</script></body></html>`;

/** The menu in Vue (its runtime, render functions): `null` where the submenu is not shown is an empty comment. */
const VUE_PAGE = `<!doctype html><html lang="en"><head><title>Shop</title></head><body><nav id="root"></nav>
<p>Welcome to the shop by the river.</p>
<script type="module">
import { createApp, h, ref } from '/vue.mjs';
createApp({
  setup() {
    const open = ref(false);
    return () => h('ul', [
      h('li', { id: 'item', onMouseenter: () => (open.value = true), onMouseleave: () => (open.value = false) }, [
        h('a', { href: '#products' }, 'Our garden products'),
        open.value ? h('ul', { class: 'sub' }, [h('li', [h('a', { href: '#tools' }, 'Garden tools for the summer')])]) : null,
      ]),
      h('li', [h('a', { href: '#about' }, 'About the shop')]),
    ]);
  },
}).mount('#root');
window.mounted = true;
</script></body></html>`;

/**
 * The mouse rests on the item and leaves it, three times: each time the submenu's translation shows
 * at `sub` (its text, or its bilingual copy), then the submenu goes; a late write has 300 ms more to
 * show itself, if there were one.
 */
async function hoverThrice(page: Page, name: string, sub: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await page.hover('#item > a');
    await expect.poll(() => page.evaluate((s) => document.querySelector(s)?.textContent ?? null, sub)).toBe(name === 'shop' ? '⟦Garden tools for sale⟧' : '⟦Garden tools for the summer⟧');
    await page.mouse.move(600, 500);
    await expect.poll(() => page.evaluate(() => document.querySelector('#item .sub'))).toBeNull();
  }
  await page.waitForTimeout(300);
}

describe('a menu that renders its submenu on hover', () => {
  const { open, send, translate, requests, origin } = markerTabs({
    '/shop.html': PAGE,
    '/vue-shop.html': VUE_PAGE,
    '/vue.mjs': [readFileSync(require.resolve('vue/dist/vue.runtime.esm-browser.prod.js'), 'utf8'), { 'content-type': 'text/javascript' }],
  });

  it.each(['shop', 'vue-shop'])("%s: its item's label is never written again while the submenu comes and goes; the submenu is translated each time; restore exact", async (name) => {
    const { page, tabId } = await open(`${origin()}/${name}.html`);
    await expect.poll(() => page.evaluate(() => document.querySelector('#item > a') !== null)).toBe(true);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const before = await page.evaluate(() => document.body.innerHTML);
    await translate(tabId);
    const label = () => page.evaluate(() => document.querySelector('#item > a')!.textContent);
    expect(await label()).toBe('⟦Our garden products⟧');
    // Every write to the label from now on, as the page's own observer sees them.
    await page.evaluate(() => {
      const w = window as unknown as { labelWrites: string[] };
      w.labelWrites = [];
      new MutationObserver((records) => w.labelWrites.push(...records.map((r) => r.target.textContent ?? ''))).observe(document.querySelector('#item > a')!, { subtree: true, characterData: true, childList: true });
    });
    const sent = requests();
    await hoverThrice(page, name, '#item .sub');
    expect(await page.evaluate(() => (window as unknown as { labelWrites: string[] }).labelWrites)).toEqual([]);
    expect(await label()).toBe('⟦Our garden products⟧');
    // The submenu's words once (the engine keeps the answer for the next hovers), the label never.
    expect(requests() - sent).toBe(1);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each(['shop', 'vue-shop'])("%s in bilingual mode: the label's copy is the same element, never written again, while the submenu comes and goes; restore exact", async (name) => {
    const { page, tabId } = await open(`${origin()}/${name}.html`);
    await expect.poll(() => page.evaluate(() => document.querySelector('#item > a') !== null)).toBe(true);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const before = await page.evaluate(() => document.body.innerHTML);
    await translate(tabId, 'bilingual');
    // The label's copy (in the item, after its content), marked, and every write to it as the page's own observer sees them.
    const copy = () => page.evaluate(() => {
      const c = document.querySelector('#item > [data-polyglot-bilingual]');
      return c ? { text: c.textContent, same: (c as unknown as { seen?: boolean }).seen === true } : null;
    });
    expect(await copy()).toEqual({ text: '⟦Our garden products⟧', same: false });
    await page.evaluate(() => {
      const w = window as unknown as { copyWrites: string[] };
      w.copyWrites = [];
      const c = document.querySelector('#item > [data-polyglot-bilingual]')!;
      (c as unknown as { seen: boolean }).seen = true;
      new MutationObserver((records) => w.copyWrites.push(...records.map((r) => r.target.textContent ?? ''))).observe(c, { subtree: true, characterData: true, childList: true });
    });
    const sent = requests();
    await hoverThrice(page, name, '#item .sub [data-polyglot-bilingual]');
    expect(await page.evaluate(() => (window as unknown as { copyWrites: string[] }).copyWrites)).toEqual([]);
    expect(await copy()).toEqual({ text: '⟦Our garden products⟧', same: true });
    expect(await page.evaluate(() => document.querySelector('#item > a')!.textContent)).toBe('Our garden products');
    // The submenu's words at most (the engine's memory may have them from the test above).
    expect(requests() - sent).toBeLessThanOrEqual(1);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    expect(errors).toEqual([]);
    await page.close();
  });
});
