/**
 * Permissions and CSP of the Chrome build (issue 7): host access beyond loopback is optional and
 * granted per provider origin; without it the worker fails that provider's route with a 403 that
 * says what to do (before any network: the resolver rule makes every non-127 host unreachable
 * anyway, so the err text, not a network error, is what shows the check ran). The extension
 * pages carry an explicit strict CSP and still work under it.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileApy, type HostileApy } from '../fakes/hostile-apy';
import { DIST, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { setSettings } from './ui-helpers';

const CSP = "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

interface TranslateBody {
  dat?: { rid: string; text?: string[]; err?: string }[];
  err?: string;
}

const translate = (page: Page, rid: string) =>
  page.evaluate(async (r) => {
    const res = await fetch(`/api/Translate?src=en&trg=es&dat=Hello%20world&rid=${encodeURIComponent(r)}&min=1&max=1&timeout=5`);
    return { status: res.status, body: (await res.json()) as TranslateBody };
  }, rid);

describe('permissions and CSP (Chrome build)', () => {
  let browser: ExtensionBrowser;
  let apy: HostileApy;
  let options: Page;

  beforeAll(async () => {
    [browser, apy] = await Promise.all([launchExtension(), startHostileApy()]);
    options = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(options, {
      providers: {
        'apertium.ts': { enabled: true, url: apy.url },
        // Their language lists are built in, so they have routes without a request: the
        // translate request itself meets the check.
        'google.ts': { enabled: true },
        'mymemory.ts': { enabled: true, url: 'http://mymemory.example:8080' },
      },
      ranking: ['apertium.ts', 'google.ts', 'mymemory.ts'],
      interlinguas: [],
    });
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close()]);
  });

  it('the built manifest: loopback hosts granted, the rest optional, a strict extension-page CSP', async () => {
    const manifest = JSON.parse(await readFile(resolve(DIST, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['host_permissions']).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
    expect(manifest['optional_host_permissions']).toEqual(['https://*/*', 'http://*/*']);
    expect(manifest['content_security_policy']).toEqual({ extension_pages: CSP });
    expect(manifest).not.toHaveProperty('externally_connectable');
    // What Chromium actually granted.
    // What Chromium granted: the loopback hosts (and `<all_urls>` for the content script's matches,
    // which is no host access for the worker: contains() says no for any other origin).
    const granted = await options.evaluate(async () => {
      const p = (globalThis as unknown as { chrome: { permissions: { getAll(): Promise<{ origins?: string[] }>; contains(q: { origins: string[] }): Promise<boolean> } } }).chrome.permissions;
      return { all: (await p.getAll()).origins ?? [], other: await p.contains({ origins: ['https://translate.googleapis.com/*'] }) };
    });
    expect(granted.all).toEqual(expect.arrayContaining(['http://127.0.0.1/*', 'http://localhost/*']));
    expect(granted.other).toBe(false);
  });

  it("the manifest's words come from _locales: the browser shows the description and each shortcut's name, not a message name", async () => {
    const shown = await browser.worker.evaluate(async () => {
      const c = (globalThis as unknown as { chrome: { runtime: { getManifest(): { description: string } }; commands: { getAll(): Promise<{ name?: string; description?: string }[]> } } }).chrome;
      return { description: c.runtime.getManifest().description, commands: Object.fromEntries((await c.commands.getAll()).filter((x) => x.description).map((x) => [x.name, x.description])) };
    });
    expect(shown).toEqual({
      description: 'Translation through several machine-translation providers, direct and chained, with alternatives.',
      commands: {
        'toggle-page-translation': 'Translate this page, or show the original',
        'translate-selection': 'Translate the selected text',
        'show-alternatives': 'Show other translations of the paragraph at the cursor',
      },
    });
  });

  it('a provider at a non-loopback origin without permission: its route fails with a 403 that says what to do', async () => {
    const google = await translate(options, 'google.ts');
    const err = google.body.dat?.find((d) => d.rid === 'google.ts')?.err ?? google.body.err ?? '';
    expect(err).toMatch(/^403 .*permission to reach https:\/\/translate\.googleapis\.com not granted: enable the provider in the options$/);
    const mymemory = await translate(options, 'mymemory.ts');
    expect(mymemory.body.dat?.find((d) => d.rid === 'mymemory.ts')?.err ?? mymemory.body.err ?? '').toContain('permission to reach http://mymemory.example:8080 not granted');
    // The loopback provider is not affected.
    const local = await translate(options, 'apertium.ts');
    expect(local.status).toBe(200);
    expect(local.body.dat?.[0]?.text?.[0]).toContain('⟦Hello world⟧');
  });

  it('the extension pages run under the CSP: no violation while the options page and popup load', async () => {
    const page = await browser.context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(browser.extensionUrl(OPTIONS_PATH));
    await page.getByRole('heading', { name: 'Providers' }).waitFor();
    await page.goto(browser.extensionUrl('src/ui/popup/index.html'));
    await page.getByLabel('Text to translate').waitFor();
    expect(violations).toEqual([]);
    await page.close();
  });
});
