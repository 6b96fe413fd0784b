/**
 * A glossary entered in the options page is imposed on the real Apertium: "world" becomes the
 * user's term instead of Apertium's "mundo", in the domain the glossary names only.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { message, setSettings } from './ui-helpers';

const translate = (page: Page, dom: string) =>
  message(page, { type: 'api', data: { fn: 'Translate', params: { src: 'en', trg: 'es', dom, dat: 'Hello world' } } }) as Promise<{
    data: { status: number; body: { dat: { text?: string[] }[] } };
  }>;

describe('glossaries in the options page', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtension();
    page = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(page, { providers: { 'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' } }, ranking: ['apertium.ts'], interlinguas: ['en'] });
    await page.reload();
  });
  afterAll(() => browser?.close());

  it('adds a glossary for a domain, saves it, and Translate uses the term there only', async () => {
    expect((await translate(page, 'travel')).data.body.dat[0]!.text).toEqual(['Hola Mundo']);
    await page.getByRole('button', { name: 'Add a glossary' }).click();
    const entry = page.locator('[data-testid="glossaries"] > li').first();
    await entry.getByLabel('Domain').selectOption('travel');
    await entry.getByLabel('Terms').fill('world = planeta Tierra');
    await entry.getByLabel('Terms').blur();
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#message').textContent()).toBe('Settings saved.');
    expect((await translate(page, 'travel')).data.body.dat[0]!.text).toEqual(['Hola planeta Tierra']);
    expect((await translate(page, 'law')).data.body.dat[0]!.text).toEqual(['Hola Mundo']);
  });
});
