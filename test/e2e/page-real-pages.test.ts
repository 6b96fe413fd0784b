/**
 * Whole-page translation on every real-world page of ../shared/pages (63, in 12 languages, served
 * from 127.0.0.1 with scripts off), through the built extension and the real engine, with an
 * APy-compatible fake that marks text and reverses every element's content (a translator that
 * reorders each sentence: marker-apy.ts `reverseAndMark`): each page from its own language
 * (`lang`, else detected) into English, English pages into Spanish; nearly every visible text is
 * marked, every element of the page is still there in its own parent, nothing throws, and
 * restore gives back body.innerHTML exactly. Those with scripts of their own again with their
 * scripts running: the same, and no page error they did not have before the translation. A few
 * of them in bilingual mode too: every copy translated, the originals untouched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireShared } from '../support/shared';
import { MARK_CLOSE, MARK_OPEN, startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { bilingualCounts, translateAndRestore, useApertiumAt } from '../fakes/page-e2e';
import { SCRIPTS_ON, startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, type ExtensionBrowser } from './browser';

/** Languages the pages are written in (ISO 639-3, as APy names them): each is translated into English. */
const SOURCES = ['jpn', 'deu', 'pol', 'fra', 'tha', 'por', 'nor', 'nob', 'lav', 'ita', 'fin', 'spa', 'ara', 'zho', 'rus', 'ukr', 'kor', 'nld', 'swe', 'dan', 'ces', 'tur', 'heb', 'hin', 'vie', 'ell', 'hun', 'ron', 'cat'];

// Every page of ../shared/pages (the suite says so and stops when the folder is missing).
const folder = requireShared('pages');
const PAGES = readdirSync(folder).filter((f) => f.endsWith('.html')).sort();
/** The pages with scripts of their own (49 of 63). */
const SCRIPTED = PAGES.filter((f) => /<script\b/i.test(readFileSync(join(folder, f), 'latin1')));
/** Menus, rows of links and buttons, selects, long paragraphs, a page pasted from Google Docs. */
const BILINGUAL = ['postlight-github.com.html', 'postlight-pastebin.com.html', 'postlight-obamawhitehouse.archives.gov.html', 'readability-wikipedia.html', 'trafilatura-correctiv.org.zusage.html', 'trafilatura-proplanta.de.erloesobergrenze.html'];

interface BilingualRun {
  status: { state: string; errors: number; done: number; total: number };
  copies: number;
  /** Copies with a letter and no marked text. */
  unmarked: string[];
  /** Marked texts outside copies, options and SVG titles (which are translated in place). */
  leaked: number;
  same: boolean;
}

describe('page translation on real pages', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(0, SOURCES.map((l) => `${l}-eng`), { reorder: true }), startPageServer(folder)]);
    // The fake answers at once: no need for the budget that protects a real APy.
    await useApertiumAt(browser, apy.url, ['en'], { rps: 500, concurrency: 8 });
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  /**
   * The page at `path` translated from its own language (`lang`, else detected in its text) into
   * English, or Spanish if it is English: nearly every visible text marked, every element of the
   * page still in its own parent, no page error the page did not have before, restore exact.
   * `settleMs`: time left to the page's own scripts after its load, before the trigger.
   */
  const translatesWhole = async (name: string, path: string, settleMs = 0) => {
    const page: Page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
      if (settleMs) await page.waitForTimeout(settleMs);
      const before = new Set(errors);
      const { lang } = await evaluateInContentScript<{ lang: string }>(page, browser.id, `globalThis.polyglot.handle({ type: 'page:status', data: {} })`);
      const run = await translateAndRestore(page, browser.id, { src: lang, trg: lang === 'en' ? 'es' : 'en', marker: MARK_OPEN });
      const ratio = run.marked / run.total;
      console.log(
        `${name}${settleMs ? ' (its scripts on)' : ''} (${lang}): ${run.marked}/${run.total} visible texts marked (${(100 * ratio).toFixed(2)}%), ${run.status.done}/${run.status.total} units, ` +
          `${run.calls} calls, ${(run.wallMs / 1000).toFixed(2)} s, restored ${run.restoredIdentical}` +
          (run.misses.length ? `\n  missed: ${JSON.stringify(run.misses)}` : ''),
      );
      expect(run.total).toBeGreaterThan(10);
      expect(ratio).toBeGreaterThanOrEqual(0.99);
      expect(run.status).toMatchObject({ state: 'translated', errors: 0 });
      // The answers reordered every element's content, never took a tag out of its parent: the
      // page's own elements, each where it was (listeners, state and framework links on them).
      expect({ lost: run.lost, moved: run.moved }).toEqual({ lost: 0, moved: 0 });
      expect(run.restoredIdentical).toBe(true);
      expect(errors.filter((e) => !before.has(e))).toEqual([]);
    } finally {
      await page.close();
    }
  };

  for (const name of PAGES) {
    it(`${name}: >= 99% of visible text translated, restore exact`, () => translatesWhole(name, `/${name}`));
  }

  // The same pages with their own scripts running, as in a reader's browser (those from other
  // hosts cannot load here: most of their scripts fail at load, as the page then shows). A second
  // after the load, what they did is done; what they write (a readability-001 script writes a
  // `<script>` tag as text, its library missing) is translated with the rest, and nothing of
  // ours makes them fail.
  for (const name of SCRIPTED) {
    it(`${name} with its own scripts running: >= 99% of visible text translated, no new page error, restore exact`, () => translatesWhole(name, `${SCRIPTS_ON}${name}`, 1000));
  }

  for (const name of BILINGUAL) {
    it(`${name} in bilingual mode: every copy translated, the originals untouched, restore exact`, async () => {
      const page: Page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(`${server.origin}/${name}`, { waitUntil: 'load' });
        const run = await evaluateInContentScript<BilingualRun>(
          page,
          browser.id,
          `(async (mark) => {
            const P = globalThis.polyglot.page;
            const before = document.body.innerHTML;
            const { lang } = await globalThis.polyglot.handle({ type: 'page:status', data: {} });
            await globalThis.polyglot.handle({ type: 'page:translate', data: { src: lang, trg: lang === 'en' ? 'es' : 'en', mode: 'bilingual' } });
            while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 20));
            const counts = (${bilingualCounts.toString()})(mark);
            const status = P.status();
            P.restore();
            return { status, ...counts, same: document.body.innerHTML === before };
          })(${JSON.stringify(MARK_OPEN)})`,
        );
        console.log(`${name} bilingual: ${run.copies} copies, ${run.status.done}/${run.status.total} units, restored ${run.same}`);
        expect(run.status).toMatchObject({ state: 'translated', errors: 0 });
        expect(run.copies).toBeGreaterThan(10);
        expect(run.unmarked).toEqual([]);
        expect(run.leaked).toBe(0);
        expect(run.same).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it("postlight-www.macrumors.com.html: its icons' SVG titles (their tooltips) translated in place, restore exact", async () => {
    const page: Page = await browser.context.newPage();
    try {
      await page.goto(`${server.origin}/postlight-www.macrumors.com.html`, { waitUntil: 'load' });
      const run = await evaluateInContentScript<{ titles: string[]; after: string[]; state: string; same: boolean }>(
        page,
        browser.id,
        `(async () => {
          const P = globalThis.polyglot.page;
          const before = document.body.innerHTML;
          const titles = () => [...document.querySelectorAll('svg title')].map((t) => t.textContent.trim()).filter((t) => t);
          const original = titles();
          await globalThis.polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } });
          while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 20));
          const after = titles();
          const state = P.status().state;
          P.restore();
          return { titles: original, after, state, same: document.body.innerHTML === before };
        })()`,
      );
      expect(run.titles.length).toBeGreaterThanOrEqual(20);
      expect(run.titles).toContain('Instagram');
      expect(run.state).toBe('translated');
      // Each title now reads as the fake wrote it: its own words, marked.
      expect(run.after).toEqual(run.titles.map((t) => `${MARK_OPEN}${t}${MARK_CLOSE}`));
      expect(run.same).toBe(true);
    } finally {
      await page.close();
    }
  });
});
