/**
 * Back and forward with Chromium's back/forward cache on, as a user's browser has it (Playwright
 * turns it off): a page left and come back to is the same page, frozen meanwhile, with its
 * translation's state. Chromium closes an extension's ports to a page as it goes into the cache
 * and tells the frozen page nothing, so the calls it had on their way were never answered: the page
 * came back half translated, saying "translating" for ever. In Chromium with the built extension
 * and Apertium pointed at the marker fake (`word` -> `⟦word⟧`).
 */
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';

const PARAGRAPHS = Array.from({ length: 80 }, (_, i) => `<p>Paragraph ${i} of the long page, with words enough to fill it.</p>`).join('');
/** A page that says how it was shown each time (`persisted`: from the cache). */
const PAGE_A = `<!doctype html><html lang="en"><head><title>Page A</title></head><body><a id="go" href="/b.html">Go to the next page</a>${PARAGRAPHS}
<script>addEventListener('pageshow', (e) => { window.__shows = (window.__shows || []).concat(e.persisted); });</script></body></html>`;
const PAGE_B = '<!doctype html><html lang="en"><head><title>Page B</title></head><body><p id="b">The next page.</p></body></html>';

type Shown = { __shows?: boolean[] };

describe('a translated page left and come back to (the back/forward cache)', () => {
  const { send, open, translate, origin, apy, badge } = markerTabs({ '/a.html': PAGE_A, '/b.html': PAGE_B }, { backForwardCache: true });
  /** Waits until the tab's status matches `want` (a page just loaded says "original" until it starts). */
  const reaches = (tabId: number, want: Record<string, unknown>) =>
    expect.poll(async () => (await send({ type: 'page:status', data: { tabId } })).data, { timeout: 10_000, interval: 50 }).toMatchObject(want);

  it('left while its calls are on their way: back from the cache, it goes on and is translated; restore exact', async () => {
    const { page, tabId } = await open(`${origin()}/a.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    apy().latencyMs = 400;
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
      await new Promise((r) => setTimeout(r, 150));
      await Promise.all([page.waitForURL(/b\.html/), page.click('#go')]);
      // The tab translated goes on translating the next page; its status is that page's.
      await reaches(tabId, { state: 'translated', done: 2, total: 2, errors: 0 });
      await page.goBack({ waitUntil: 'commit' });
      await expect.poll(() => page.evaluate(() => (window as unknown as Shown).__shows)).toEqual([false, true]);
      await reaches(tabId, { state: 'translated', done: 82, total: 82, errors: 0 });
      expect(await page.evaluate(() => [...document.querySelectorAll('p')].every((p) => p.textContent!.startsWith('⟦')))).toBe(true);
      await expect.poll(() => badge(tabId)).toBe('✓');
    } finally {
      apy().latencyMs = 0;
    }
    await send({ type: 'page:restore', data: { tabId } });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it("back from the cache to a translated page after the next one was put back: the badge is the page's again", async () => {
    const { page, tabId } = await open(`${origin()}/a.html`);
    await translate(tabId);
    await Promise.all([page.waitForURL(/b\.html/), page.click('#go')]);
    await reaches(tabId, { state: 'translated', done: 2, total: 2 });
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => badge(tabId)).toBe('');
    await page.goBack({ waitUntil: 'commit' });
    await expect.poll(() => page.evaluate(() => (window as unknown as Shown).__shows)).toEqual([false, true]);
    await reaches(tabId, { state: 'translated', done: 82, total: 82, errors: 0 });
    await expect.poll(() => badge(tabId)).toBe('✓');
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => badge(tabId)).toBe('');
    await page.close();
  });
});
