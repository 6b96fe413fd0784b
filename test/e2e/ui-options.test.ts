/**
 * The options page: a provider's key and URL set in its fields, "test connection" against a fake
 * LibreTranslate (good key: its translation; wrong key: the err), ranking by keyboard, saving, an
 * API key with usage, and export/re-import of the settings document.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLibre, type FakeLibre } from '../fakes/fake-libre';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { message, setSettings } from './ui-helpers';

const GOOD_KEY = 'libre-e2e-key-1';

const stored = async (page: Page) => ((await message(page, { type: 'settings:get', data: { withSecrets: true } })) as { data: Record<string, unknown> }).data;
const rowIds = (page: Page) => page.locator('[data-testid="providers"] > li').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

describe('options page', () => {
  let browser: ExtensionBrowser;
  let libre: FakeLibre;
  let page: Page;

  beforeAll(async () => {
    libre = await startFakeLibre({ keys: [GOOD_KEY], keyRequired: true });
    browser = await launchExtension();
    page = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(page, {
      providers: { 'apertium.ts': { enabled: false } },
      ranking: ['apertium.ts'],
      interlinguas: ['en'],
      keys: [{ name: 'notes-app', key: 'notes-app-key-123', quota: 1000 }],
    });
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.reload();
  });
  afterAll(async () => {
    await browser?.close();
    await libre?.close();
  });

  it('sets a provider key and URL and tests the connection against a fake', async () => {
    const row = page.locator('[data-id="libre.ts"]');
    await row.getByRole('checkbox').check();
    await row.locator('summary').click();
    await row.getByLabel('URL').fill(libre.url);
    await row.getByLabel('Key').fill('wrong-key-000');
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => row.locator('.test-result').textContent(), { timeout: 10_000 }).toMatch(/^✗ 403 libre\.ts/);

    await row.getByLabel('Key').fill(GOOD_KEY);
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => row.locator('.test-result').textContent(), { timeout: 10_000 }).toBe('✓ HELLO WORLD');
    const sent = libre.requests.filter((r) => r.path === '/translate').at(-1)?.body as { api_key?: string; q?: unknown };
    expect(sent).toMatchObject({ api_key: GOOD_KEY });
    // Testing saved what is on screen.
    expect(await stored(page)).toMatchObject({ providers: { 'libre.ts': { enabled: true, url: libre.url, key: GOOD_KEY } } });
  });

  it('ranks providers by keyboard, edits interlinguas and the text limit, and saves', async () => {
    await page.getByRole('button', { name: /^Move LibreTranslate.* up$/ }).first().focus();
    for (let i = 0; i < 12 && (await rowIds(page))[0] !== 'libre.ts'; i++) {
      await page.getByRole('button', { name: /^Move LibreTranslate.* up$/ }).click();
    }
    expect((await rowIds(page))[0]).toBe('libre.ts');
    await page.getByLabel('Interlinguas (codes, preferred first)').fill('ca, es');
    await page.getByLabel('Text size limit (characters per request)').fill('2500');
    await page.getByLabel('Text size limit (characters per request)').blur();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#message').textContent()).toBe('Settings saved.');
    const doc = await stored(page);
    expect((doc.ranking as string[])[0]).toBe('libre.ts');
    expect(doc).toMatchObject({ interlinguas: ['ca', 'es'], limits: { textSize: 2500 } });
  });

  it('shows the usage of an API key and refuses a bad document with the field named', async () => {
    await expect.poll(() => page.locator('.usage[data-key="notes-app"]').textContent()).toBe('0 requests, 0 characters (0% of quota)');
    await page.getByLabel('Quota (characters)').fill('-5');
    await page.getByLabel('Quota (characters)').blur();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Not saved: settings\.keys\[0\]\.quota/);
    expect(await page.locator('#message').getAttribute('role')).toBe('alert');
    await page.getByLabel('Quota (characters)').fill('1000');
    await page.getByLabel('Quota (characters)').blur();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#message').textContent()).toBe('Settings saved.');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: 'docs/screenshots/options.png' });
  });

  it('exports without keys and re-imports: the keys are kept from the current settings', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export settings' }).click()]);
    const text = await readFile(await download.path(), 'utf8');
    expect(text).not.toContain(GOOD_KEY);
    const doc = JSON.parse(text) as { interlinguas: string[] };
    await page.locator('#import-file').setInputFiles({ name: 's.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...doc, interlinguas: ['es'] })) });
    await expect.poll(() => page.locator('#message').textContent()).toBe('Settings imported. 2 key(s) it left out were kept from the current settings.');
    expect(await stored(page)).toMatchObject({ interlinguas: ['es'], providers: { 'libre.ts': { key: GOOD_KEY } }, keys: [{ name: 'notes-app', key: 'notes-app-key-123' }] });
    // The form shows the imported document.
    await expect.poll(() => page.getByLabel('Interlinguas (codes, preferred first)').inputValue()).toBe('es');
  });
});
