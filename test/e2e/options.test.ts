/** The options page: settings export and import, through the real worker and storage. */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

const WITH_KEYS = {
  providers: {
    'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' },
    'deepl.ts': { enabled: false, key: 'deepl-e2e-secret' },
  },
  keys: [{ name: 'e2e-app', key: 'k-e2e-secret-1', quota: 5000 }],
  interlinguas: ['en'],
};

/** A protocol message from the page, answered as the wire reply. */
function message(page: Page, msg: unknown): Promise<unknown> {
  return page.evaluate((m) => {
    const { chrome } = globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } };
    return chrome.runtime.sendMessage(m);
  }, msg);
}

/** Waits until the status line matches, then returns its text and role. */
async function statusLine(page: Page, pattern: RegExp): Promise<{ text: string; role: string | null }> {
  await page.waitForFunction(
    ({ source, flags }) => new RegExp(source, flags).test(document.getElementById('message')?.textContent ?? ''),
    { source: pattern.source, flags: pattern.flags },
    { timeout: 5000 },
  );
  const line = page.locator('#message');
  return { text: (await line.textContent()) ?? '', role: await line.getAttribute('role') };
}

async function exportedDocument(page: Page, includeKeys: boolean): Promise<Record<string, unknown>> {
  await page.locator('#include-keys').setChecked(includeKeys);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export settings' }).click()]);
  expect(download.suggestedFilename()).toBe('polyglot-settings.json');
  return JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown>;
}

describe('options page: settings export and import', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtension();
    page = await browser.openExtensionPage(OPTIONS_PATH);
    expect(await message(page, { type: 'settings:set', data: { settings: WITH_KEYS } })).toMatchObject({ data: { status: 200 } });
  });
  afterAll(() => browser?.close());

  it('exports without keys by default, and with them when asked', async () => {
    const without = await exportedDocument(page, false);
    expect(JSON.stringify(without)).not.toContain('secret');
    expect(without).toMatchObject({ providers: { 'deepl.ts': { enabled: false } }, keys: [{ name: 'e2e-app', quota: 5000 }] });
    const withKeys = await exportedDocument(page, true);
    expect(withKeys).toMatchObject(WITH_KEYS);
    expect((await statusLine(page, /keep the file private/)).role).toBe('status');
  });

  it('imports an edited export from a file: changes applied, unknown fields and left-out keys kept', async () => {
    const doc = await exportedDocument(page, false);
    const edited = { ...doc, interlinguas: ['ca', 'en'], myNote: { by: 'e2e' } };
    await page.locator('#import-file').setInputFiles({
      name: 'settings.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(edited)),
    });
    expect((await statusLine(page, /^Settings imported/)).text).toBe(
      'Settings imported. 2 key(s) it left out were kept from the current settings.',
    );
    const stored = await message(page, { type: 'settings:get', data: { withSecrets: true } });
    expect(stored).toMatchObject({
      data: { ...WITH_KEYS, interlinguas: ['ca', 'en'], myNote: { by: 'e2e' } },
    });
  });

  it('refuses a malformed document and shows the message naming the field', async () => {
    const before = await message(page, { type: 'settings:get', data: { withSecrets: true } });
    await page.locator('#import-text').fill(JSON.stringify({ limits: { textSize: 'big' } }));
    await page.getByRole('button', { name: 'Import pasted document' }).click();
    const refused = await statusLine(page, /^Import refused/);
    expect(refused.text).toMatch(/^Import refused: settings\.limits\.textSize: /);
    expect(refused.role).toBe('alert');
    expect(await message(page, { type: 'settings:get', data: { withSecrets: true } })).toEqual(before);

    await page.locator('#import-text').fill('{"providers": ');
    await page.getByRole('button', { name: 'Import pasted document' }).click();
    await statusLine(page, /^Import refused: settings: not a JSON document/);
  });
});
