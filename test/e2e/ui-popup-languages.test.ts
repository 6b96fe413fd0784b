/**
 * The popup opened while the worker is still asking the providers for their languages (a provider
 * slow to list them, a worker just woken): it says so, and a language search typed meanwhile picks
 * the language once the lists come, as it would have had they been there first. This is what the
 * popup's tests met in one CI run, with APy's list slow on a busy machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLibre, type FakeLibre } from '../fakes/fake-libre';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { POPUP_PATH, setSettings } from './ui-helpers';

describe('popup: languages still coming', () => {
  let browser: ExtensionBrowser;
  let libre: FakeLibre;

  beforeAll(async () => {
    libre = await startFakeLibre({ languages: { en: ['es'], es: ['en'] } });
    // Every language list this provider gives takes 4 s (the worker waits 5 s for one).
    libre.rule({ path: '/languages', fault: { type: 'delay', ms: 4000 } });
    browser = await launchExtension();
    const options = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(options, { providers: { 'libre.ts': { enabled: true, url: libre.url }, 'apertium.ts': { enabled: false }, 'chrome.ts': { enabled: false } }, ranking: ['libre.ts'], interlinguas: [] });
    await options.close();
  });
  afterAll(async () => {
    await browser?.close();
    await libre?.close();
  });

  it('says the languages are loading, and a search typed meanwhile picks its language once they come', async () => {
    const page = await browser.openExtensionPage(POPUP_PATH);
    const loading = page.getByRole('status').filter({ hasText: 'Loading the languages' });
    await expect.poll(() => loading.count()).toBe(1);
    await page.getByLabel('Search: From').fill('english');
    // Still loading: nothing to pick yet.
    expect(await page.locator('#src-select').inputValue()).toBe('auto');
    await expect.poll(() => page.locator('#src-select').inputValue()).toBe('en');
    expect(await loading.count()).toBe(0);
    await page.getByLabel('Search: To').fill('spa');
    await expect.poll(() => page.locator('#trg-select').inputValue()).toBe('es');
    await expect.poll(() => page.locator('[data-testid="routes"] > li').count()).toBe(1);
    expect(libre.requests.filter((r) => r.path === '/languages').length).toBeGreaterThanOrEqual(1);
  });
});
