/**
 * Headings an animation library split into an element per letter or a block per line, in Firefox
 * ESR with the Firefox build and the real Apertium APy: each reads as its sentence does in
 * Spanish, the libraries' elements kept, and restore is exact. What tells a split word and split
 * lines runs on Gecko's layout here (Chromium's: page-apertium.test.ts). So does what a page's
 * style draws again of a text from a `data-*` copy of it (drawn-copies.ts), read through Gecko's
 * CSSOM: its own sheet, and one from another origin, which the page cannot read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveLibraries } from '../fakes/page-libraries';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { APY_URL } from '../support/apy-setup';
import { buildFirefox, launchFirefox, type FirefoxExtension } from './firefox-browser';

interface Wire<T> {
  data?: T;
}
interface PageStatus {
  state: string;
  done: number;
  total: number;
  errors: number;
}

const SENTENCE = 'Welcome to our beautiful garden and its flowers';
/** A mask around each line, as GSAP SplitText's `mask: 'lines'` puts. */
const MASK = `document.querySelectorAll('h1 .line').forEach((l) => { const m = document.createElement('div'); m.className = 'mask'; m.style.overflow = 'hidden'; l.before(m); m.append(l); });`;
/** Each library as a page uses it, and what it makes of the heading. */
const SPLITS: Record<string, string> = {
  // With its own style, which draws each letter again from its `data-char`.
  'Splitting.js letters': `<link rel="stylesheet" href="/lib/splitting.css"><script src="/lib/splitting.js"></script><script>Splitting({ target: 'h1', by: 'chars' });</script>`,
  'SplitType letters': `<script src="/lib/split-type.js"></script><script>new SplitType('h1', { types: 'chars' });</script>`,
  'Lettering.js letters': `<script src="/lib/jquery.js"></script><script src="/lib/lettering.js"></script><script>jQuery('h1').lettering();</script>`,
  'SplitType lines': `<script src="/lib/split-type.js"></script><script>new SplitType('h1', { types: 'lines' });</script>`,
  'SplitType lines in masks': `<script src="/lib/split-type.js"></script><script>new SplitType('h1', { types: 'lines' }); ${MASK}</script>`,
  'SplitType lines, words and letters': `<script src="/lib/split-type.js"></script><script>new SplitType('h1', { types: 'lines, words, chars' });</script>`,
  'anime.js lines in masks': `<script src="/lib/anime.js"></script><script>anime.splitText('h1', { lines: { class: 'line', wrap: 'clip' }, words: { class: 'word' } });</script>`,
};

let ff: FirefoxExtension;
let server: PageServer;
beforeAll(async () => {
  await buildFirefox();
  [ff, server] = await Promise.all([launchFirefox(), startPageServer()]);
  serveLibraries(server);
  const reply = await ff.message<Wire<{ status: number }>>({
    type: 'settings:set',
    data: { settings: { providers: { 'apertium.ts': { enabled: true, url: APY_URL } }, ranking: ['apertium.ts'], interlinguas: [] } },
  });
  expect(reply.data?.status).toBe(200);
});
afterAll(async () => {
  await Promise.all([ff?.close(), server?.close()]);
});

describe('Firefox: a heading split for an animation, with the real Apertium', () => {
  it('reads as its sentence does in Spanish, split into letters or lines, the elements kept; restore exact', async () => {
    // What Apertium makes of the sentence as plain text.
    const plain = await fetch(`${APY_URL}/translate?langpair=eng|spa&q=${encodeURIComponent(SENTENCE)}`).then((r) => r.json() as Promise<{ responseData: { translatedText: string } }>);
    const spanish = plain.responseData.translatedText;
    expect(spanish).toMatch(/jard[ií]n/);
    for (const [name, script] of Object.entries(SPLITS)) {
      // Narrow enough for the sentence to take two lines or more.
      server.set('/split.html', `<!doctype html><html lang="en"><head><title>Garden</title><style>h1 { width: 420px; font: 32px/1.2 sans-serif }</style></head><body><h1>${SENTENCE}</h1><p>The black cat sleeps on the table.</p>${script}</body></html>`);
      const page = await ff.openPage(`${server.origin}/split.html`);
      try {
        const tabId = await ff.tabId(page.url());
        const elements = () => page.evaluate(() => document.querySelectorAll('h1 *').length);
        const before = await page.evaluate(() => document.body.innerHTML);
        const count = await elements();
        expect(count, name).toBeGreaterThanOrEqual(2);
        await ff.message({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
        await expect.poll(async () => (await ff.message<Wire<PageStatus>>({ type: 'page:status', data: { tabId } })).data?.state, { timeout: 30_000 }).toBe('translated');
        expect((await ff.message<Wire<PageStatus>>({ type: 'page:status', data: { tabId } })).data, name).toMatchObject({ errors: 0 });
        // anime.js keeps the whole sentence for screen readers before its lines: the lines read as it does.
        const heading = await page.evaluate(() => [...document.querySelectorAll('h1 .line')].map((l) => l.textContent).join(' ') || document.querySelector('h1')!.textContent!);
        expect(heading.replace(/\s+/g, ' ').trim(), name).toBe(spanish);
        expect(await elements(), name).toBe(count);
        // Splitting.js's copy of each letter, which its style draws, is the letter shown.
        expect(await page.evaluate(() => [...document.querySelectorAll('h1 [data-char]')].filter((c) => c.getAttribute('data-char') !== c.textContent).length), name).toBe(0);
        await ff.message({ type: 'page:restore', data: { tabId } });
        expect(await page.evaluate(() => document.body.innerHTML), name).toBe(before);
      } finally {
        await page.close();
      }
    }
  });
});

describe("Firefox: what the page's style draws again of a text, with the real Apertium", () => {
  it("a glitch heading's layers read as the heading does, from the page's sheet and from another origin's; a copy nothing draws stays; restore exact", async () => {
    const cdn = await startPageServer();
    try {
      const GLITCH = '.glitch { position: relative } .glitch::before, .glitch::after { content: attr(data-text); position: absolute; left: 2px; top: 0 }';
      cdn.set('/site.css', GLITCH, { 'content-type': 'text/css' });
      const body = '<h1 class="glitch" data-text="The black cat">The black cat</h1><p data-text="The red house">The red house</p>';
      server.set('/drawn.html', `<!doctype html><html lang="en"><head><title>Garden</title><style>${GLITCH}</style></head><body>${body}</body></html>`);
      server.set('/drawn-cdn.html', `<!doctype html><html lang="en"><head><title>Garden</title><link rel="stylesheet" href="${cdn.origin}/site.css"></head><body>${body}</body></html>`);
      for (const path of ['/drawn.html', '/drawn-cdn.html']) {
        const page = await ff.openPage(`${server.origin}${path}`);
        try {
          const tabId = await ff.tabId(page.url());
          const before = await page.evaluate(() => document.body.innerHTML);
          await ff.message({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
          await expect.poll(async () => (await ff.message<Wire<PageStatus>>({ type: 'page:status', data: { tabId } })).data?.state, { timeout: 30_000 }).toBe('translated');
          const seen = await page.evaluate(() => {
            const h1 = document.querySelector('h1')!;
            const p = document.querySelector('p')!;
            let sheet = 'readable';
            try {
              void document.styleSheets[0]!.cssRules;
            } catch {
              sheet = 'unreadable';
            }
            // Gecko computes `content` as it is written, `attr(data-text)`, not as the text it draws.
            return { sheet, h1: [h1.textContent, h1.getAttribute('data-text'), getComputedStyle(h1, '::before').content, getComputedStyle(h1, '::after').content], p: [p.textContent, p.getAttribute('data-text')] };
          });
          expect(seen.sheet, path).toBe(path === '/drawn.html' ? 'readable' : 'unreadable');
          expect(seen.h1[0], path).toMatch(/gato/);
          // Both layers draw the heading's copy, which is the Spanish heading, not "The black cat".
          expect(seen.h1.slice(1), path).toEqual([seen.h1[0], 'attr(data-text)', 'attr(data-text)']);
          expect(seen.p, path).toEqual([expect.stringMatching(/casa/), 'The red house']);
          await ff.message({ type: 'page:restore', data: { tabId } });
          expect(await page.evaluate(() => document.body.innerHTML), path).toBe(before);
        } finally {
          await page.close();
        }
      }
    } finally {
      await cdn.close();
    }
  });
});
