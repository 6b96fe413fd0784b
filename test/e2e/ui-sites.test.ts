/**
 * Site rules applied when a page loads, privacy routing, the provider log and what reaches
 * storage.sync, in Chromium with the built extension. Providers: the marker APy as Apertium
 * (local: 127.0.0.1, marks `⟦text⟧`) and a LibreTranslate fake reached as `remote.test` (not
 * local, marks `⟪text⟫`), ranked first so that only privacy routing keeps text from it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { startRemoteLibre, type RemoteLibre } from '../fakes/remote-libre';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { message, POPUP_PATH, setSettings, storageGet } from './ui-helpers';

type Reply<T> = { data: T };

interface Chrome {
  tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> };
  storage: { sync: { get(k: null): Promise<Record<string, unknown>> } };
}


describe('sites: rules on load, privacy routing, provider log, sync', () => {
  let browser: ExtensionBrowser;
  let marker: MarkerApy;
  let remote: RemoteLibre;
  let options: Page;

  const sites = (patch: unknown) => message(options, { type: 'sites:set', data: patch });
  const open = async (path: string) => {
    const page = await browser.context.newPage();
    await page.goto(`${browser.pageOrigin}${path}`);
    return page;
  };
  const text = (page: Page) => page.locator('#text').textContent();

  beforeAll(async () => {
    marker = await startMarkerApy();
    remote = await startRemoteLibre();
    browser = await launchExtension(undefined, { hostRules: ['MAP remote.test 127.0.0.1'], grantHosts: ['http://remote.test/*'] });
    options = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(options, {
      providers: { 'apertium.ts': { enabled: true, url: marker.url }, 'libre.ts': { enabled: true, url: remote.url, key: 'libre-SECRET-key-1' } },
      ranking: ['libre.ts', 'apertium.ts'],
      interlinguas: [],
      keys: [{ name: 'app', key: 'api-SECRET-key-12345' }],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await marker?.close();
    await remote?.close();
  });

  // The page says the target's language at the frame after what is in view is written (or with
  // its last write), not with its first text: each `lang` below is waited for.
  it('translates an always site when its page loads, and leaves a never site alone', async () => {
    await sites({ sites: { '127.0.0.1': { mode: 'always', trg: 'es' } } });
    const page = await open('/always');
    await expect.poll(() => text(page), { timeout: 10_000 }).toBe('⟪Hello world⟫');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 5000 }).toBe('es');

    await sites({ sites: { '127.0.0.1': { mode: 'never' } }, languages: { en: 'always' } });
    const never = await open('/never');
    // What the content script's report on load was answered (asked again, same sender and page).
    const decision = await evaluateInContentScript(never, browser.id, `chrome.runtime.sendMessage({ type: 'page:loaded', data: { lang: 'en' } })`);
    expect(decision).toEqual({ data: { action: 'none', why: 'site-never' } });
    expect(await text(never)).toBe('Hello world');
  });

  it('translates pages in an always language on a site without a rule', async () => {
    await sites({ sites: { '127.0.0.1': null }, languages: { en: 'always' }, trg: 'fr' });
    const page = await open('/language');
    await expect.poll(() => text(page), { timeout: 10_000 }).toBe('⟪Hello world⟫');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 5000 }).toBe('fr');
    await sites({ languages: { en: null }, trg: null });
  });

  it("passes by, for a language's always, a page that asks at its root not to be translated; a site's always translates it", async () => {
    const asksNo = '<!doctype html><html lang="en"><head><meta name="google" content="notranslate"><title>Test page</title></head><p id="text">Hello world</p></html>';
    await browser.context.route('**/asks-no', (route) => route.fulfill({ contentType: 'text/html', body: asksNo }));
    await sites({ sites: { '127.0.0.1': null }, languages: { en: 'always' }, trg: 'fr' });
    const page = await open('/asks-no');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await text(page)).toBe('Hello world');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await sites({ sites: { '127.0.0.1': { mode: 'always', trg: 'es' } }, languages: { en: null }, trg: null });
    const chosen = await open('/asks-no');
    await expect.poll(() => text(chosen), { timeout: 10_000 }).toBe('⟪Hello world⟫');
    await sites({ sites: { '127.0.0.1': null } });
    await browser.context.unroute('**/asks-no');
  });

  it("asks again when a single-page app shows a new page of its own, unless the user restored it", async () => {
    await sites({ sites: { '127.0.0.1': null }, languages: { fr: 'always' }, trg: 'es' });
    const page = await open('/app');
    // The app's router: a new address, and the new page's text and language.
    const navigate = (path: string, text: string) => page.evaluate(([p, t]) => {
      history.pushState({}, '', p);
      document.documentElement.lang = 'fr';
      document.getElementById('text')!.textContent = t;
    }, [path, text] as const);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await text(page)).toBe('Hello world');
    await navigate('/app/fr', 'Bonjour le monde');
    await expect.poll(() => text(page), { timeout: 10_000 }).toBe('⟪Bonjour le monde⟫');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 5000 }).toBe('es');

    // Restored by the user: the app's next page is left as it is.
    const tabId = await browser.worker.evaluate(async (url) => (await (globalThis as unknown as { chrome: Chrome }).chrome.tabs.query({})).find((t) => t.url === url)?.id, page.url());
    await message(options, { type: 'page:restore', data: { tabId } });
    await expect.poll(() => text(page)).toBe('Bonjour le monde');
    await navigate('/app/fr/2', 'Bonsoir le monde');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await text(page)).toBe('Bonsoir le monde');
    await sites({ languages: { fr: null }, trg: null });
  });

  it('sends a private site\'s text to local providers only: page translation and min=max=3 alike', async () => {
    const before = remote.texts.length;
    await sites({ sites: { '127.0.0.1': { mode: 'always', trg: 'es', private: true } } });
    const page = await open('/private');
    await expect.poll(() => text(page), { timeout: 10_000 }).toBe('⟦Hello world⟧');
    const reply = await evaluateInContentScript<{ status: number; body: { dat: { rid: string }[] } }>(page, browser.id,
      `globalThis.polyglot.callApi('Translate', { src: 'en', trg: 'es', dat: ['Good morning'], min: 3, max: 3 })`);
    expect(reply.status).toBe(200);
    expect(reply.body.dat.map((d) => d.rid)).toEqual(['apertium.ts']);
    expect(remote.texts.length).toBe(before);
    // The same call from a site that is not private reaches the remote provider (so this test can fail).
    await sites({ sites: { '127.0.0.1': { mode: 'never' } } });
    const open2 = await evaluateInContentScript<{ body: { dat: { rid: string }[] } }>(page, browser.id,
      `globalThis.polyglot.callApi('Translate', { src: 'en', trg: 'es', dat: ['Good evening'], min: 2, max: 2 })`);
    expect(open2.body.dat.map((d) => d.rid).sort()).toEqual(['apertium.ts', 'libre.ts']);
    expect(remote.texts.length).toBe(before + 1);
  });

  it('logs site, providers and characters when the log is on, never the text; the options page shows and clears it', async () => {
    expect(await message(options, { type: 'log:get', data: {} })).toMatchObject({ data: { on: false } });
    await message(options, { type: 'log:set', data: { on: true } });
    await message(options, { type: 'log:clear', data: {} });
    await sites({ sites: { '127.0.0.1': { mode: 'always', trg: 'es' } } });
    const page = await open('/logged');
    await expect.poll(() => text(page), { timeout: 10_000 }).toBe('⟪Hello world⟫');
    const log = (await message(options, { type: 'log:get', data: {} })) as Reply<{ on: boolean; entries: { site: string; providers: string[]; chars: number }[] }>;
    expect(log.data.on).toBe(true);
    expect(log.data.entries.length).toBeGreaterThanOrEqual(1);
    expect(log.data.entries[0]).toMatchObject({ site: browser.pageOrigin, providers: ['libre.ts'] });
    expect(log.data.entries.reduce((n, e) => n + e.chars, 0)).toBeGreaterThan(0);
    expect(JSON.stringify(log.data)).not.toMatch(/Hello/);

    await options.reload();
    await expect.poll(() => options.locator('[data-testid="provider-log"] tbody tr').count()).toBeGreaterThanOrEqual(1);
    expect(await options.locator('[data-testid="provider-log"] tbody tr').first().textContent()).toContain('libre.ts');
    expect(await options.locator('[data-testid="site-rules"] tr[data-site="127.0.0.1"]').count()).toBe(1);
    await options.locator('section[aria-labelledby="sites-title"]').screenshot({ path: 'docs/screenshots/options-sites.png' });
    await options.locator('#log-clear').click();
    await expect.poll(() => options.locator('[data-testid="provider-log"]').count()).toBe(0);
    expect(await message(options, { type: 'log:get', data: {} })).toMatchObject({ data: { entries: [] } });
  });

  it('shows and edits the current site\'s rule in the popup, with provider health beside each route', async () => {
    const page = await open('/popup');
    const tabId = await browser.worker.evaluate(async (url) => (await (globalThis as unknown as { chrome: Chrome }).chrome.tabs.query({})).find((t) => t.url === url)?.id, page.url());
    const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    await popup.setViewportSize({ width: 460, height: 900 });
    await expect.poll(() => popup.locator('.site-panel summary').textContent()).toBe('This site: 127.0.0.1');
    expect(await popup.locator('#site-mode').inputValue()).toBe('always');
    await popup.locator('#site-mode').selectOption('never');
    await popup.locator('#site-private').check();
    await expect.poll(() => popup.locator('label:has(#lang-always)').textContent()).toContain('English');
    await popup.locator('#lang-always').check();
    await expect.poll(() => storageGet(popup, 'ui:sites')).toMatchObject({ sites: { '127.0.0.1': { mode: 'never', private: true } }, languages: { en: 'always' } });
    // A pair named (the source is detected from the text by default): its routes show at once.
    await popup.locator('#src-select').selectOption('en');
    await popup.getByLabel('Domain').selectOption({ label: 'Technology' });
    await expect.poll(() => popup.locator('[data-id="apertium.ts"] .health').getAttribute('data-state'), { timeout: 10_000 }).toBe('ok');
    expect(await popup.locator('[data-id="libre.ts"] .health').textContent()).toBe('ok');
    await popup.locator('main').screenshot({ path: 'docs/screenshots/popup-site.png' });
  });

  it('mirrors preferences to storage.sync, never a key', async () => {
    await expect.poll(async () => Object.keys(await options.evaluate(() => (globalThis as unknown as { chrome: Chrome }).chrome.storage.sync.get(null))).sort())
      .toEqual(expect.arrayContaining(['ui:popup', 'ui:sites']));
    const synced = await options.evaluate(() => (globalThis as unknown as { chrome: Chrome }).chrome.storage.sync.get(null));
    expect(Object.keys(synced).every((k) => ['ui:popup', 'ui:routes', 'ui:bubble', 'ui:sites'].includes(k))).toBe(true);
    expect(synced['ui:sites']).toMatchObject({ sites: { '127.0.0.1': { private: true } } });
    expect(JSON.stringify(synced)).not.toMatch(/SECRET|Hello/);
    // The keys are there in storage.local (so the assertion above can fail).
    expect(JSON.stringify(await storageGet(options, 'settings'))).toContain('libre-SECRET-key-1');
  });
});
