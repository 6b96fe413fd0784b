/**
 * Whole-page translation on every real-world page of ../shared/pages (63, in 12 languages, served
 * from 127.0.0.1 with scripts off), through the built extension and the real engine, with an
 * APy-compatible fake that marks text: each page from its own language (`lang`, else detected)
 * into English, English pages into Spanish; nearly every visible text is marked, nothing throws,
 * and restore gives back body.innerHTML exactly.
 */
import { readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireShared } from '../support/shared';
import { MARK_OPEN, startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { translateAndRestore, useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, type ExtensionBrowser } from './browser';

/** Languages the pages are written in (ISO 639-3, as APy names them): each is translated into English. */
const SOURCES = ['jpn', 'deu', 'pol', 'fra', 'tha', 'por', 'nor', 'nob', 'lav', 'ita', 'fin', 'spa', 'ara', 'zho', 'rus', 'ukr', 'kor', 'nld', 'swe', 'dan', 'ces', 'tur', 'heb', 'hin', 'vie', 'ell', 'hun', 'ron', 'cat'];

// Every page of ../shared/pages (the suite says so and stops when the folder is missing).
const folder = requireShared('pages');
const PAGES = readdirSync(folder).filter((f) => f.endsWith('.html')).sort();

describe('page translation on real pages', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(0, SOURCES.map((l) => `${l}-eng`)), startPageServer(folder)]);
    // The fake answers at once: no need for the budget that protects a real APy.
    await useApertiumAt(browser, apy.url, ['en'], { rps: 500, concurrency: 8 });
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
        // The page's language as the content script finds it (`lang`, else detected in its text).
        const { lang } = await evaluateInContentScript<{ lang: string }>(page, browser.id, `globalThis.polyglot.handle({ type: 'page:status', data: {} })`);
        const run = await translateAndRestore(page, browser.id, { src: lang, trg: lang === 'en' ? 'es' : 'en', marker: MARK_OPEN });
        const ratio = run.marked / run.total;
        console.log(
          `${name} (${lang}): ${run.marked}/${run.total} visible texts marked (${(100 * ratio).toFixed(2)}%), ${run.status.done}/${run.status.total} units, ` +
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
