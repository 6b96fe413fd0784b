/**
 * Offline in the real extension (issue 4, "the popup can show cached alternatives offline"): the
 * popup translated a text with two providers; then both become unreachable (every request to them
 * is reset) and the service worker is stopped, as Chromium does after 30 s idle, so a new worker
 * starts with no language lists in RAM. Reopened, the popup still offers the pair and both routes
 * and shows both alternatives from the translation memory (IndexedDB), marked cached, with no
 * translate request; a text the memory does not hold shows each route's failure.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLibre, type FakeLibre } from '../fakes/fake-libre';
import { startFakeLingva } from '../fakes/fake-lingva';
import type { FakeService } from '../fakes/fake-service';
import { launchExtension, OPTIONS_PATH, stopServiceWorkers, type ExtensionBrowser } from './browser';
import { POPUP_PATH, setSettings } from './ui-helpers';

describe('popup offline: cached alternatives after the providers and the worker are gone', () => {
  let browser: ExtensionBrowser;
  let libre: FakeLibre;
  let lingva: FakeService;
  let page: Page;
  const shownRoutes = () => page.locator('.alt-routes code').evaluateAll((els) => els.map((e) => e.getAttribute('title')).sort());
  /** Translate requests (not language lists) the two providers received. */
  const translateRequests = () =>
    libre.requests.filter((r) => r.path === '/translate').length + lingva.requests.filter((r) => r.path.startsWith('/api/v1/') && !r.path.includes('languages')).length;

  const translate = async (text: string) => {
    await page.getByLabel('Search: From').fill('english');
    // The languages may still be coming: the search picks once they are there.
    await expect.poll(() => page.locator('#src-select').inputValue(), { timeout: 15_000 }).toBe('en');
    await page.getByLabel('Search: To').fill('spanish');
    await expect.poll(() => page.locator('#trg-select').inputValue()).toBe('es');
    await expect.poll(() => page.locator('[data-testid="routes"] > li').count(), { timeout: 15_000 }).toBe(2);
    await page.getByLabel('Text to translate').fill(text);
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    // Both fakes upper-case, so their answers share one card listing both routes.
    await expect.poll(() => page.locator('.alt-routes li, .failed li').count(), { timeout: 20_000 }).toBe(2);
    await expect.poll(() => page.locator('.pending').count(), { timeout: 20_000 }).toBe(0);
  };

  beforeAll(async () => {
    [libre, lingva] = await Promise.all([startFakeLibre(), startFakeLingva()]);
    browser = await launchExtension();
    const options = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(options, {
      providers: { 'libre.ts': { enabled: true, url: libre.url }, 'lingva.ts': { enabled: true, url: lingva.url } },
      ranking: ['libre.ts', 'lingva.ts'],
      interlinguas: [],
    });
    await options.close();
    page = await browser.openExtensionPage(POPUP_PATH);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([libre?.close(), lingva?.close()]);
  });

  it('online: both routes answer, nothing is marked cached', async () => {
    await translate('Good morning');
    expect(await shownRoutes()).toEqual(['libre.ts', 'lingva.ts']);
    expect(await page.locator('.alt-text').allTextContents()).toEqual(['GOOD MORNING']);
    expect(await page.locator('.cached').count()).toBe(0);
    expect(translateRequests()).toBe(2);
  });

  it('offline with a new worker: both alternatives come back from the memory, marked cached', async () => {
    for (const path of ['/languages', '/frontend/settings', '/translate']) libre.rule({ path, fault: { type: 'reset' } });
    lingva.rule({ fault: { type: 'reset' } });
    await stopServiceWorkers(page);
    const before = translateRequests();
    const listsBefore = libre.requests.filter((r) => r.path === '/languages').length;
    await page.reload();
    await translate('Good morning');
    expect(await shownRoutes()).toEqual(['libre.ts', 'lingva.ts']);
    expect(await page.locator('.alt-text').allTextContents()).toEqual(['GOOD MORNING']);
    expect(await page.locator('.alt-routes .cached').count()).toBe(2);
    expect(translateRequests()).toBe(before);
    // The new worker asked for the language lists again, and could not have them.
    expect(libre.requests.filter((r) => r.path === '/languages').length).toBeGreaterThan(listsBefore);
  });

  it('offline: a text the memory does not hold shows each route failing, with why', async () => {
    await translate('Good night');
    expect(await page.locator('.alternative').count()).toBe(0);
    const errs = await page.locator('.failed li .err').allTextContents();
    expect(errs).toHaveLength(2);
    for (const err of errs) expect(err).toMatch(/^5\d\d (libre|lingva)\.ts/);
  });
});
