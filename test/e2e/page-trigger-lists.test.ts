/**
 * A trigger carries the engine's language lists to its tab (background tabs.ts `listsFor`): the
 * content script names the page's languages as the engine lists them without asking the worker for
 * them (a GetLanguages call, a round trip on the translation's path) before it finds its first
 * units. The popup's way (`page:translate` through the worker) and the context menu's
 * (`page:toggle`, into the browser's language), in Chromium with the built extension.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';
import { evaluateInContentScript } from './browser';

const PAGE = '<!doctype html><html lang="en"><title>Shop</title><p id="p">Welcome to the shop by the river.</p></html>';
const FRENCH = '<!doctype html><html lang="fr"><title>Boutique</title><p id="p">Bienvenue dans la boutique au bord de la rivière.</p></html>';

describe("a trigger carries the engine's language lists to its tab", () => {
  const driver = markerTabs({ '/shop.html': PAGE, '/boutique.html': FRENCH }, {}, ['fra-eng']);

  /** From now on, the functions the page's content script calls on the worker (`api` messages). */
  const record = (page: Page) =>
    evaluateInContentScript(
      page,
      driver.browser().id,
      `(() => {
        const runtime = chrome.runtime;
        const send = runtime.sendMessage.bind(runtime);
        globalThis.__apiCalls = [];
        runtime.sendMessage = (m, ...rest) => {
          if (m && m.type === 'api') globalThis.__apiCalls.push(m.data.fn);
          return send(m, ...rest);
        };
      })()`,
    );
  const apiCalls = (page: Page) => evaluateInContentScript<string[]>(page, driver.browser().id, 'globalThis.__apiCalls');

  it("the popup's page:translate: the tab asks nothing before its first units, and the page is translated", async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/shop.html`);
    await record(page);
    await driver.translate(tabId);
    expect(await page.evaluate(() => document.getElementById('p')!.textContent)).toBe('⟦Welcome to the shop by the river.⟧');
    expect(await apiCalls(page)).toEqual([]);
    await page.close();
  });

  it("the context menu's toggle on a French page, into the browser's English: the same", async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/boutique.html`);
    await record(page);
    await driver.browser().worker.evaluate(async (id) => {
      const c = (globalThis as unknown as { chrome: { tabs: { get(id: number): Promise<object> }; contextMenus: { onClicked: { dispatch(info: object, tab: object): void } } } }).chrome;
      c.contextMenus.onClicked.dispatch({ menuItemId: 'toggle-page-translation', frameId: 0, editable: false }, await c.tabs.get(id));
    }, tabId);
    // The menu's event is not answered: the toggle reaches the tab a moment later.
    await expect.poll(async () => ((await driver.send({ type: 'page:status', data: { tabId } })).data as { state: string }).state).not.toBe('original');
    expect(await driver.settle(tabId)).toMatchObject({ state: 'translated', errors: 0, src: 'fr', trg: 'en' });
    expect(await page.evaluate(() => document.getElementById('p')!.textContent)).toBe('⟦Bienvenue dans la boutique au bord de la rivière.⟧');
    expect(await apiCalls(page)).toEqual([]);
    await page.close();
  });
});
