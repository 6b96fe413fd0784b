/**
 * Whole-page translation on real-world pages (../shared/pages, served from 127.0.0.1 with scripts
 * off), through the built extension and the real engine, with an APy-compatible fake that marks
 * text: nearly every visible text is marked, nothing throws, and restore gives back body.innerHTML
 * exactly.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireShared } from '../support/shared';
import { MARK_OPEN, startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { translateAndRestore, useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { launchExtension, type ExtensionBrowser } from './browser';

const PAGES = [
  'readability-001.html',
  'readability-ars-1.html',
  'readability-bbc-1.html',
  'readability-daringfireball-1.html',
  'readability-ebb-org.html',
  'readability-nytimes-1.html',
  'readability-tumblr.html',
  'readability-v8-blog.html',
  'readability-wikipedia.html',
  'trafilatura-en.wikipedia.org.tsne.html',
  'postlight-clinicaltrials.gov.html',
  'postlight-medium.com--another.html',
  'postlight-www.macrumors.com.html',
];

describe('page translation on real pages', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;

  beforeAll(async () => {
    const folder = requireShared('pages');
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(), startPageServer(folder)]);
    await useApertiumAt(browser, apy.url);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  for (const name of PAGES) {
    it(`${name}: >= 99% of visible text translated, restore exact`, async () => {
      const page: Page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(`${server.origin}/${name}`, { waitUntil: 'load' });
        const run = await translateAndRestore(page, browser.id, { src: 'en', trg: 'es', marker: MARK_OPEN });
        const ratio = run.marked / run.total;
        console.log(
          `${name}: ${run.marked}/${run.total} visible texts marked (${(100 * ratio).toFixed(2)}%), ${run.status.done}/${run.status.total} units, ` +
            `${run.calls} calls, ${(run.wallMs / 1000).toFixed(2)} s, restored ${run.restoredIdentical}` +
            (run.misses.length ? `\n  missed: ${JSON.stringify(run.misses)}` : ''),
        );
        expect(run.total).toBeGreaterThan(10);
        expect(ratio).toBeGreaterThanOrEqual(0.99);
        expect(run.status).toMatchObject({ state: 'translated', errors: 0 });
        expect(run.restoredIdentical).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
