/** The /api/... fetch route of the service worker, from an extension page, on the real engine and APy. */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, OPTIONS_PATH, stopServiceWorkers, type ExtensionBrowser } from './browser';

interface FetchResult {
  status: number;
  allow: string | null;
  contentType: string | null;
  body: unknown;
}

/** fetch() inside the page, reported as plain data. */
function pageFetch(page: Page, url: string, init?: { method: string; form?: Record<string, string> }): Promise<FetchResult> {
  return page.evaluate(
    async ({ url, init }) => {
      const res = await fetch(url, init ? { method: init.method, ...(init.form ? { body: new URLSearchParams(init.form) } : {}) } : undefined);
      return { status: res.status, allow: res.headers.get('allow'), contentType: res.headers.get('content-type'), body: await res.json() };
    },
    { url, init },
  );
}

describe('the /api fetch route (extension page)', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtension();
    page = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(() => browser?.close());

  it('GET /api/Translate answers real Spanish from Apertium', async () => {
    const res = await pageFetch(page, '/api/Translate?src=en&trg=es&dat=Hello%20world');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(res.body).toEqual({ dat: [{ rid: 'apertium.ts', text: [expect.stringMatching(/^Hola mundo$/i)], length: 11 }] });
  });

  it('POST with a form body gives the same', async () => {
    const res = await pageFetch(page, '/api/Translate', { method: 'POST', form: { src: 'en', trg: 'es', dat: 'Hello world' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dat: [{ rid: 'apertium.ts', text: [expect.stringMatching(/^Hola mundo$/i)] }] });
  });

  it('GetProviders lists Apertium without any auth (the built-in key)', async () => {
    const res = await pageFetch(page, '/api/GetProviders');
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty(['apertium.ts']);
  });

  it('an unknown function is 404 and PUT is 405 with Allow', async () => {
    const nope = await pageFetch(page, '/api/Nope');
    expect(nope.status).toBe(404);
    expect(nope.body).toEqual({ err: expect.any(String) });
    const put = await pageFetch(page, '/api/GetProviders', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.allow).toBe('GET, POST');
    expect(put.body).toEqual({ err: expect.any(String) });
  });

  it('still answers after the worker was stopped (nothing lives only in its memory)', async () => {
    await stopServiceWorkers(page);
    const res = await pageFetch(page, '/api/Translate?src=en&trg=es&dat=Good%20morning');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dat: [{ rid: 'apertium.ts', text: [expect.stringMatching(/^Buenos días$/i)] }] });
  });
});
