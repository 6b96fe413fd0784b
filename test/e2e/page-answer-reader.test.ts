/**
 * The answer reader (src/content/answer.ts, over core/html/simple.ts) against Chromium's own HTML parser: every answer the
 * reader takes without the parser must read exactly as DOMParser's tree of it does (happy-dom's
 * parser differs from the spec in places, so the DOM test alone would not prove it).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { transformWithOxc } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMarkup, ownMarkup } from '../fakes/answer-markup';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { launchExtension, type ExtensionBrowser } from './browser';

describe('answer reader in Chromium', () => {
  let browser: ExtensionBrowser;
  let server: PageServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchExtension(), startPageServer()]);
    server.set('/blank.html', '<!doctype html><html><body></body></html>');
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close()]);
  });

  it('reads what it takes exactly as the HTML parser does', async () => {
    // The reader is answer.ts over core/html/simple.ts: both, as one script (imports dropped).
    const parts = await Promise.all(
      ['../../src/core/html/simple.ts', '../../src/content/answer.ts'].map(async (path) => {
        const source = readFileSync(new URL(path, import.meta.url), 'utf8');
        return (await transformWithOxc(source, path, { lang: 'ts' })).code;
      }),
    );
    const js = parts.join('\n').replace(/^import .*$/gm, '').replace(/^export /gm, '');
    const cases = [...fc.sample(ownMarkup, { numRuns: 500, seed: 5 }), ...fc.sample(answerMarkup, { numRuns: 4000, seed: 5 })];
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/blank.html`);
    const result = await page.evaluate(
      ({ code, list }) => {
        const lib = new Function(`${code}; return { readOwn, readParsed, parseOffPage };`)() as {
          readOwn(m: string): Map<number, unknown> | null;
          readParsed(f: DocumentFragment): Map<number, unknown>;
          parseOffPage(m: string): DocumentFragment;
        };
        let own = 0;
        const wrong: string[] = [];
        for (const m of list) {
          const mine = lib.readOwn(m);
          if (mine === null) continue;
          own++;
          if (JSON.stringify([...mine]) !== JSON.stringify([...lib.readParsed(lib.parseOffPage(m))])) wrong.push(m);
        }
        return { own, wrong };
      },
      { code: js, list: cases },
    );
    await page.close();
    expect(result.wrong).toEqual([]);
    // Every one of our own answers, and a good share of the mixed ones, never reached the parser.
    expect(result.own).toBeGreaterThan(900);
  });
});
