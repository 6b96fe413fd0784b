/**
 * A page the browser prerendered (speculation rules: Google's results, news sites, the address
 * bar) is loaded, and its scripts run, ours too, before the user goes to it, in a document the
 * extension sees as another frame of the tab (not frame 0). Our content script asked the
 * background there whether to translate the page: refused as not the tab's top frame, it never
 * asked again, so the link followed in a translated tab, or on a site always translated, showed the
 * page untranslated. A page is now asked about once it is shown, and a prerendered page the user
 * never goes to sends nothing to a provider. In Chromium with the built extension, the pages
 * unwatched (a page DevTools is attached to prerenders nothing: unwatched-browser.ts) and Apertium
 * pointed at the marker fake (`word` -> `⟦word⟧`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { launchUnwatched, type UnwatchedBrowser } from './unwatched-browser';

/**
 * A page that prerenders `next` and `never` and, once it reads translated, follows the link to
 * `next` as a reader would (its own navigation, which is what takes a prerendered page).
 */
const first = (next: string, never: string) => `<!doctype html><html lang="en"><head><title>The first page</title>
<script type="speculationrules">${JSON.stringify({ prerender: [{ source: 'list', urls: [next, never] }] })}</script></head>
<body><p id="p">The first page has words.</p><a href="${next}">Go on reading</a>
<script>(function wait() { if (document.getElementById('p').textContent.startsWith('⟦')) setTimeout(() => { location.href = ${JSON.stringify(next)}; }, 2000); else setTimeout(wait, 50); })();</script></body></html>`;

/** A page that writes in its URL's fragment whether it was prerendered, then shown (`#shown=true-false`). */
const second = (words: string, frame = '') => `<!doctype html><html lang="en"><head><title>The next page</title></head>
<body><p>${words}</p><p>It has a second paragraph too.</p>${frame}
<script>const seen = [document.prerendering];
document.addEventListener('prerenderingchange', () => { seen.push(document.prerendering); history.replaceState(null, '', '#shown=' + seen.join('-')); });</script></body></html>`;

describe('a page the browser prerendered, then shown', () => {
  let browser: UnwatchedBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  /** Every text sent to the provider. */
  const sent: string[] = [];
  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchUnwatched(), startMarkerApy(0), startPageServer()]);
    apy.failing = (q) => {
      sent.push(q);
      return false;
    };
    server.set('/a.html', first('/b.html', '/never-b.html'));
    server.set('/b.html', second('The next page was prerendered.', '<iframe src="/frame.html"></iframe>'));
    server.set('/frame.html', '<!doctype html><html lang="en"><body><p>A frame in the next page.</p></body></html>');
    server.set('/never-b.html', second('Nobody reads this page.', '<iframe src="/never-frame.html"></iframe>'));
    server.set('/never-frame.html', '<!doctype html><html lang="en"><body><p>Nobody reads this frame.</p></body></html>');
    server.set('/site-a.html', first('/site-b.html', '/never-site-b.html'));
    server.set('/site-b.html', second('Another page of the site.'));
    server.set('/never-site-b.html', second('Nobody reads this one either.'));
    const reply = await browser.send({
      type: 'settings:set',
      data: { settings: { providers: { 'apertium.ts': { enabled: true, url: apy.url } }, ranking: ['apertium.ts'], interlinguas: ['en'], keys: [], limits: { textSize: 1000 } } },
    });
    expect(reply.data).toMatchObject({ status: 200 });
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  const status = async (tabId: number) => (await browser.send({ type: 'page:status', data: { tabId } })).data;
  /** Waits for the tab's page to be `path`, prerendered and then shown. */
  const shown = (tabId: number, path: string) =>
    expect.poll(async () => (await browser.tab(tabId)).url, { timeout: 15_000, interval: 100 }).toBe(`${server.origin}${path}#shown=true-false`);

  it('in a tab the user translated: the link followed to a prerendered page shows it translated; the page not gone to sent nothing', async () => {
    const tabId = await browser.open(`${server.origin}/a.html`);
    await expect.poll(async () => (await browser.send({ type: 'page:status', data: { tabId } })).error, { timeout: 10_000 }).toBeUndefined();
    await browser.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    await shown(tabId, '/b.html');
    // Its frame's paragraph counts in the tab's progress.
    await expect.poll(() => status(tabId)).toMatchObject({ state: 'translated', done: 4, total: 4, errors: 0 });
    expect((await browser.tab(tabId)).title).toBe('⟦The next page⟧');
    await expect.poll(() => browser.badge(tabId)).toBe('✓');
    expect(sent.some((q) => q.includes('The next page was prerendered.'))).toBe(true);
    expect(sent.some((q) => q.includes('A frame in the next page.'))).toBe(true);
    expect(sent.filter((q) => q.includes('Nobody reads'))).toEqual([]);
    await browser.send({ type: 'page:restore', data: { tabId } });
    expect((await browser.tab(tabId)).title).toBe('The next page');
  });

  it('on a site always translated: the prerendered page is translated once shown, and only then', async () => {
    const rules = await browser.send({ type: 'sites:set', data: { sites: { '127.0.0.1': { mode: 'always', trg: 'es' } } } });
    expect(rules.error).toBeUndefined();
    const tabId = await browser.open(`${server.origin}/site-a.html`);
    await shown(tabId, '/site-b.html');
    await expect.poll(() => status(tabId)).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
    expect((await browser.tab(tabId)).title).toBe('⟦The next page⟧');
    expect(sent.some((q) => q.includes('Another page of the site.'))).toBe(true);
    expect(sent.filter((q) => q.includes('Nobody reads'))).toEqual([]);
  });
});
