/**
 * chrome.ts in real Chromium: the built extension's worker has Chrome's own `Translator`. Offline
 * (these tests never leave 127.0.0.1) it says "downloadable" and create() never settles, so the
 * real one can only be seen timing out; a stand-in put into the worker shows the whole path from
 * an extension page's fetch('/api/Translate') to the route `chrome.ts`.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

interface FetchResult {
  status: number;
  body: unknown;
}

const pageFetch = (page: Page, url: string): Promise<FetchResult> =>
  page.evaluate(async (u) => {
    const res = await fetch(u);
    return { status: res.status, body: (await res.json()) as unknown };
  }, url);

describe('chrome.ts in the extension worker', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtension();
    page = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(() => browser?.close());

  it('the worker has the Translator API, so GetProviders lists chrome.ts', async () => {
    expect(await browser.worker.evaluate(() => typeof (globalThis as { Translator?: { create?: unknown } }).Translator?.create)).toBe('function');
    const res = await pageFetch(page, '/api/GetProviders');
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty(['chrome.ts']);
  });

  it("the real Translator offline: the download never finishes and Translate times out with 408", async () => {
    const res = await pageFetch(page, '/api/Translate?src=en&trg=de&dat=hello&timeout=2&rid=chrome.ts');
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ dat: [{ rid: 'chrome.ts', err: expect.stringMatching(/^408 /), length: 0 }] });
  });

  it('with a stand-in Translator in the worker, Translate answers through route chrome.ts', async () => {
    await browser.worker.evaluate(() => {
      const calls: string[] = [];
      (globalThis as Record<string, unknown>).translatorCalls = calls;
      (globalThis as Record<string, unknown>).Translator = {
        availability: async () => 'available',
        create: async (o: { sourceLanguage: string; targetLanguage: string }) => ({
          translate: async (text: string) => {
            calls.push(`${o.sourceLanguage}->${o.targetLanguage}:${text}`);
            return text.toUpperCase();
          },
          destroy: () => undefined,
        }),
      };
    });
    const res = await pageFetch(page, '/api/Translate?src=en&trg=de&dat=hello&dat=good%20morning&rid=chrome.ts');
    expect(res).toEqual({ status: 200, body: { dat: [{ rid: 'chrome.ts', text: ['HELLO', 'GOOD MORNING'], length: 17 }] } });
    expect(await browser.worker.evaluate(() => (globalThis as Record<string, unknown>).translatorCalls)).toEqual(['en->de:hello', 'en->de:good morning']);
  });
});
