/**
 * Our words the page reshapes without changing them, in Chromium with the built extension and
 * Apertium pointed at the marker fake (`words` -> `⟦words⟧`): a line a script clamps to fit (one
 * that watches it; the real Clamp.js, which takes the line's last nodes out; the real shave, which
 * writes the words again in nodes of its own), words the real mark.js marks (split out of their
 * text and wrapped), texts rangy's class applier highlights (marks around whole texts), and
 * addresses the real linkify-element makes links of. The translation stays
 * as the page shows it, nothing more is sent, and restore puts the original words back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { FIT_PAGE, HIGHLIGHT_SCRIPT, LONG_TEXT, RUN_AND_BLOCK_CARD, highlight, markWord, unmarkAll, LINKIFY_PAGE, MARK_SCRIPT, serveLibraries, unhighlight } from '../fakes/page-libraries';
import { tabDriver, useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import type { Page } from 'playwright-core';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

/**
 * A line the page clamps to 24 characters whenever it changes, as Clamp.js does: the last text's
 * value cut word by word, with an ellipsis. The original fits; the translation does not.
 */
const CLAMP = `<!doctype html><html lang="en"><head><title>A clamped line</title></head><body>
<h2 id="line">A walk in the mountains</h2>
<p id="still">A paragraph that stays as it is.</p>
<script>
  const line = document.getElementById('line');
  window.__cuts = 0;
  const clamp = () => {
    const t = line.lastChild;
    let s = t.data;
    while (s.length > 24 && s.includes(' ')) {
      s = s.slice(0, s.lastIndexOf(' ')).trimEnd();
      t.data = s + '…';
      s = t.data;
    }
  };
  new MutationObserver(() => {
    if (line.textContent.length > 24) window.__cuts++;
    clamp();
  }).observe(line, { subtree: true, characterData: true, childList: true });
</script></body></html>`;

/** A paragraph the real mark.js marks words in (`MARK_SCRIPT`). */
const MARKS = `<!doctype html><html lang="en"><head><title>Marks</title></head><body>
<p id="a">Find the walk in the <b>big walk</b> hills.</p>
<p id="still">A paragraph that stays as it is.</p>
${MARK_SCRIPT}</body></html>`;

const LONG_MARKS = `<!doctype html><html lang="en"><head><title>Marks</title></head><body>
<p id="a">${LONG_TEXT}</p>
<p id="still">A paragraph that stays as it is.</p>
${MARK_SCRIPT}</body></html>`;

/** A paragraph an annotator highlights with rangy's class applier (`HIGHLIGHT_SCRIPT`). */
const HIGHLIGHTS = `<!doctype html><html lang="en"><head><title>Highlights</title></head><body>
<p id="a">Find the walk in the <b>big walk</b> hills.</p>
<p id="still">A paragraph that stays as it is.</p>
${HIGHLIGHT_SCRIPT}</body></html>`;

describe('our words the page reshapes', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let control: Page;
  const tabs = tabDriver(() => browser, () => control);
  const bodyHtml = (page: Page) => page.evaluate(() => document.body.innerHTML.split('<script')[0]!.trim());

  /** The page at `path` translated (in `mode`): its body before, and the requests sent since the translation. */
  async function translated(path: string, mode: 'replace' | 'bilingual' = 'replace') {
    const { page, tabId } = await tabs.open(`${server.origin}${path}`);
    const before = await bodyHtml(page);
    await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode } });
    expect(await tabs.settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const sent = apy.requests;
    return { page, tabId, before, sentSince: () => apy.requests - sent };
  }

  /** The tab reads translated, with no error. */
  const stillTranslated = async (tabId: number) => expect((await tabs.send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ state: 'translated', errors: 0 });

  /** Nothing sent since the translation, the tab still translated; then the tab restored. */
  async function keptThenRestored(tabId: number, sentSince: () => number) {
    expect(sentSince()).toBe(0);
    await stillTranslated(tabId);
    await tabs.send({ type: 'page:restore', data: { tabId } });
  }

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(), startPageServer()]);
    server.set('/clamp.html', CLAMP);
    server.set('/marks.html', MARKS);
    server.set('/long-marks.html', LONG_MARKS);
    server.set('/clamp-fit.html', FIT_PAGE('clamp'));
    server.set('/shave-fit.html', FIT_PAGE('shave'));
    server.set('/clamp-card.html', FIT_PAGE('clamp', RUN_AND_BLOCK_CARD));
    server.set('/linkify.html', LINKIFY_PAGE);
    server.set('/highlights.html', HIGHLIGHTS);
    serveLibraries(server);
    await useApertiumAt(browser, apy.url);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it('a line the page clamps cuts our translation to fit: shown cut, nothing more sent over three seconds, the page translated, and restore puts the whole original back', async () => {
    const { page, tabId, sentSince } = await translated('/clamp.html');
    try {
      await new Promise((r) => setTimeout(r, 3000));
      expect(await page.locator('#line').textContent()).toBe('⟦A walk in the…');
      // Cut once, and not sent again as the page's own words (the previous build sent the cut
      // and wrote its "translation" over it: "⟦⟦A walk in the…⟧").
      expect(await page.evaluate(() => (window as unknown as { __cuts: number }).__cuts)).toBe(1);
      await keptThenRestored(tabId, sentSince);
      // The previous build left the cut translation in the page.
      expect(await page.evaluate(() => document.body.innerHTML.split('<script>')[0]!.trim())).toBe('<h2 id="line">A walk in the mountains</h2>\n<p id="still">A paragraph that stays as it is.</p>');
    } finally {
      await page.close();
    }
  });

  it('words mark.js marks in the translation: marked, nothing sent, the page translated; restore puts the original words back, and the marks taken out then leave the page exact', async () => {
    const { page, tabId, before, sentSince } = await translated('/marks.html');
    try {
      await markWord(page, 'walk');
      await new Promise((r) => setTimeout(r, 1000));
      expect(await page.evaluate(() => document.getElementById('a')!.innerHTML)).toBe('⟦Find the <mark data-markjs="true">walk</mark> in the⟧ <b>⟦big <mark data-markjs="true">walk</mark>⟧</b> ⟦hills.⟧');
      // The previous build sent the paragraph again, its marks emptied: mark.js writes the word
      // into a new mark (`textContent`) and takes the part it split off out.
      expect(sentSince()).toBe(0);
      await stillTranslated(tabId);
      // Taken out and put on another word while translated: still nothing sent.
      await unmarkAll(page);
      await markWord(page, 'hills');
      await new Promise((r) => setTimeout(r, 1000));
      expect(sentSince()).toBe(0);
      await tabs.send({ type: 'page:restore', data: { tabId } });
      // The previous build left "⟦hills.⟧" (and before it, marked words) among the original words.
      expect(await page.evaluate(() => document.getElementById('a')!.textContent)).toBe('Find the walk in the big walk hills.');
      await unmarkAll(page);
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });

  it('a word mark.js marks through a long paragraph sent in pieces: marked, nothing sent, the page translated; restore puts the original words back, and the marks taken out then leave the page exact', async () => {
    const { page, tabId, before, sentSince } = await translated('/long-marks.html');
    try {
      const text = () => page.evaluate(() => document.getElementById('a')!.textContent!);
      const translatedText = await text();
      expect(translatedText).toContain('⟦');
      await markWord(page, 'walk');
      await new Promise((r) => setTimeout(r, 1000));
      expect(await page.evaluate(() => document.querySelectorAll('#a mark').length)).toBe(30);
      expect(await text()).toBe(translatedText);
      // The previous build sent the paragraph again, our words in it as the page's, and restore left them.
      await keptThenRestored(tabId, sentSince);
      expect(await text()).toBe(LONG_TEXT);
      await unmarkAll(page);
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });

  it('a paragraph rangy\'s class applier highlights whole, then unhighlights, then highlights a phrase of: its marks around our texts, nothing sent, the page translated; restore keeps the marks around the original words, and taken away they leave the page exact', async () => {
    const { page, tabId, before, sentSince } = await translated('/highlights.html');
    const a = () => page.evaluate(() => document.getElementById('a')!.innerHTML);
    try {
      await highlight(page, '#a');
      await new Promise((r) => setTimeout(r, 1000));
      expect(await a()).toBe('<mark class="hl">⟦Find the walk in the⟧ </mark><b><mark class="hl">⟦big walk⟧</mark></b><mark class="hl"> ⟦hills.⟧</mark>');
      // The previous build sent the paragraph again, our words in it as the page's own.
      expect(sentSince()).toBe(0);
      await stillTranslated(tabId);
      await unhighlight(page, '#a');
      // A phrase: from "walk" in the first text to the end of "hills" in the last (split there).
      await highlight(page, '#a', 10, 7);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await a()).toBe('⟦Find the <mark class="hl">walk in the⟧ </mark><b><mark class="hl">⟦big walk⟧</mark></b><mark class="hl"> ⟦hills</mark>.⟧');
      await keptThenRestored(tabId, sentSince);
      expect(await page.evaluate(() => document.getElementById('a')!.textContent)).toBe('Find the walk in the big walk hills.');
      await unhighlight(page, '#a');
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });

  it('bilingual: the reader highlights the translation under the paragraph (rangy): the copy keeps the highlight, nothing sent; restore takes the copy out, the page exact', async () => {
    const { page, tabId, before, sentSince } = await translated('/highlights.html', 'bilingual');
    const copy = () => page.evaluate(() => document.querySelector('#a + [data-polyglot-bilingual]')?.innerHTML);
    try {
      expect(await copy()).toBe('⟦Find the walk in the⟧ <b>⟦big walk⟧</b> ⟦hills.⟧');
      await highlight(page, '#a + [data-polyglot-bilingual]', 10, 7);
      await new Promise((r) => setTimeout(r, 1000));
      // The previous build made the copy again at once: the highlight gone, a request sent.
      expect(await copy()).toBe('⟦Find the <mark class="hl">walk in the⟧ </mark><b><mark class="hl">⟦big walk⟧</mark></b><mark class="hl"> ⟦hills</mark>.⟧');
      await keptThenRestored(tabId, sentSince);
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });

  /**
   * The card's words translated (reading `shows`), then fitted to `px` by the page: its markup
   * then, and the requests sent since the translation.
   */
  async function fitted(lib: 'clamp' | 'shave', px: number, path = `/${lib}-fit.html`, shows = '⟦Find the walk in the⟧ <b>⟦big walk⟧</b> ⟦hills of the north.⟧') {
    const tab = await translated(path);
    const card = () => tab.page.evaluate(() => document.getElementById('card')!.innerHTML);
    expect(await card()).toBe(shows);
    await tab.page.evaluate((w) => (window as unknown as { __fit(px: number): void }).__fit(w), px);
    await new Promise((r) => setTimeout(r, 1000));
    return { ...tab, card };
  }

  /** Clamp.js cut the card's line: it shows a start of the line's translation, with its ellipsis. */
  async function lineCut(page: Page) {
    const shown = await page.evaluate(() => document.getElementById('card')!.textContent!);
    expect(shown.endsWith('…')).toBe(true);
    expect('⟦Find the walk in the⟧ ⟦big walk⟧ ⟦hills of the north.⟧'.startsWith(shown.slice(0, -1).trimEnd())).toBe(true);
  }

  it('a card the real Clamp.js fits to one line takes out its last nodes of ours and cuts the one left: shown cut, nothing sent, the page translated; restore puts the original back whole', async () => {
    const { page, tabId, before, card, sentSince } = await fitted('clamp', 170);
    try {
      // Clamp.js took the bold words and the last text out, and cut what was left.
      expect(await card()).not.toContain('<b>');
      await lineCut(page);
      // The previous build sent what was left as the page's own words ("⟦⟦Find the walk in the⟧…⟧"),
      // and restore left it.
      await keptThenRestored(tabId, sentSince);
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });

  it('a card of a run and a paragraph of its own the real Clamp.js fits to one line takes the paragraph out and cuts the run: shown cut, nothing sent, the page translated; restore puts the card back whole', async () => {
    const shows = '⟦Find the walk in the⟧ <b>⟦big walk⟧</b> ⟦hills of the north.⟧<p>⟦Second paragraph of the card.⟧</p>';
    const { page, tabId, before, card, sentSince } = await fitted('clamp', 170, '/clamp-card.html', shows);
    try {
      expect(await card()).not.toContain('<p>');
      await lineCut(page);
      // The previous build sent what was left as the page's own words, and restore left it.
      await keptThenRestored(tabId, sentSince);
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });

  it('a card the real shave fits to one line, and fits again narrower, is written anew in its own nodes from our words: shown cut with the rest hidden, nothing sent, the page translated; restore puts the original back whole', async () => {
    const { page, tabId, before, card, sentSince } = await fitted('shave', 200);
    try {
      const parts = () =>
        page.evaluate(() => {
          const el = document.getElementById('card')!;
          return { shown: el.firstChild!.textContent!, ellipsis: el.querySelector('.js-shave-char')?.textContent, rest: el.querySelector('.js-shave')?.textContent };
        });
      let now = await parts();
      // shave wrote our words again, flattened, cut at a word, the rest in a hidden span of its own.
      expect(now.ellipsis).toBe('…');
      expect(now.shown + now.rest).toBe('⟦Find the walk in the⟧ ⟦big walk⟧ ⟦hills of the north.⟧');
      expect(now.rest!.length).toBeGreaterThan(0);
      // The previous build sent them as the page's own words, and restore left them.
      expect(sentSince()).toBe(0);
      await page.evaluate(() => (window as unknown as { __fit(px: number): void }).__fit(120));
      await new Promise((r) => setTimeout(r, 1000));
      const narrower = await parts();
      expect(narrower.shown.length).toBeLessThan(now.shown.length);
      expect(narrower.shown + narrower.rest).toBe('⟦Find the walk in the⟧ ⟦big walk⟧ ⟦hills of the north.⟧');
      await keptThenRestored(tabId, sentSince);
      // The card's own style attribute is shave's (it sets its height and takes it off again).
      expect(await bodyHtml(page)).toBe(before.replace('<p id="card">', '<p id="card" style="">'));
      now = await parts();
      expect(now.ellipsis).toBeUndefined();
      expect(await card()).toBe('Find the walk in the <b>big walk</b> hills of the north.');
    } finally {
      await page.close();
    }
  });

  it('addresses the real linkify-element makes links of in our text: linked, nothing sent, the page translated; restore puts the original back whole', async () => {
    const { page, tabId, before, sentSince } = await translated('/linkify.html');
    try {
      await page.evaluate(() => (window as unknown as { __linkify(): void }).__linkify());
      await new Promise((r) => setTimeout(r, 1000));
      expect(await page.evaluate(() => document.getElementById('post')!.innerHTML)).toBe('⟦Visit <a href="http://example.com">example.com</a> for⟧ <b>⟦more news about <a href="http://example.org">example.org</a>⟧</b> ⟦today.⟧');
      // The previous build sent the linked paragraph as the page's own words, and restore left them.
      await keptThenRestored(tabId, sentSince);
      expect(await bodyHtml(page)).toBe(before);
    } finally {
      await page.close();
    }
  });
});
