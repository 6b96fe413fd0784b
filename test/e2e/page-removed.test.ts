/**
 * Pages that remove what was translated, in Chromium with the built extension: an app that replaces
 * its view while the long one is still being translated sends nothing more of the old view, and a
 * live feed that drops its old messages lets them go (the browser collects them) while the page
 * stays translated. Driven as the popup does (page:* messages from an extension page).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARK_OPEN, startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { tabDriver, useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';

/**
 * An app's view, replaced by `__navigate()` with the document's title, as a router does: 120 paragraphs of about half a call each (~60 calls,
 * 240 nodes: the removal is walked), or 1 500 short items (~25 to a call, 3 000 nodes: more than a
 * removal's walk visits, so the units go by the sweep when the page is idle).
 */
const VIEWS = {
  walked: { paragraphs: 120, perCall: 2, html: (i: number) => `<p>Old paragraph ${i}: ${'a sentence of the long article that fills the page. '.repeat(8)}</p>` },
  swept: { paragraphs: 1500, perCall: 25, html: (i: number) => `<p>Old paragraph ${i} of a long list.</p>` },
};
const router = (view: keyof typeof VIEWS) => `<!doctype html><html lang="en"><head><title>An app</title></head><body>
<main id="view">${Array.from({ length: VIEWS[view].paragraphs }, (_, i) => VIEWS[view].html(i)).join('')}</main>
<script>
  window.__navigate = () => { document.getElementById('view').innerHTML = '<h1>The next view</h1><p>Its only paragraph.</p>'; document.title = 'The next view'; };
</script></body></html>`;

const FEED = `<!doctype html><html lang="en"><head><title>A live chat</title></head><body>
<ul id="feed"></ul>
<script>
  // A chat that keeps its last 20 messages on the page; a weak reference to each one it drops.
  const feed = document.getElementById('feed');
  const dropped = [];
  let n = 0;
  window.__post = (count) => {
    for (let i = 0; i < count; i++) {
      const li = document.createElement('li');
      li.innerHTML = 'Message number ' + (++n) + ' from <b>someone</b> in the live chat';
      feed.append(li);
    }
    while (feed.children.length > 20) {
      const old = feed.firstElementChild;
      dropped.push(new WeakRef(old));
      old.remove();
    }
  };
  window.__dropped = () => dropped.length;
  window.__alive = () => dropped.filter((r) => r.deref() !== undefined).length;
</script></body></html>`;

/** A table a script updates the old way: taken out, changed, put back, all in one task. */
const TABLE = `<!doctype html><html lang="en"><head><title>A table</title></head><body>
<table id="t"><tbody>${Array.from({ length: 10 }, (_, i) => `<tr><td>Row ${i} of the table</td></tr>`).join('')}</tbody></table>
<script>
  window.__update = () => {
    const body = document.querySelector('#t tbody');
    body.remove();
    body.querySelector('td').firstChild.data = 'Changed while out of the page';
    document.getElementById('t').append(body);
  };
</script></body></html>`;

/**
 * Tabs whose panel holds 1 500 items (3 000 nodes: more than a removal's walk visits, so its units
 * wait for the sweep when the page is idle). `__refresh(ms)` takes the panel out, changes an item
 * in a later task (its data refreshed: `text`) and puts the panel back `ms` later.
 */
const TABS = `<!doctype html><html lang="en"><head><title>Tabs</title></head><body>
<main id="tabs"><section id="panel">${Array.from({ length: 1500 }, (_, i) => `<p>Item ${i} of the list</p>`).join('')}</section></main>
<script>
  window.__refresh = (ms, text) => new Promise((done) => {
    const panel = document.getElementById('panel');
    panel.remove();
    setTimeout(() => {
      panel.children[3].firstChild.data = text;
      setTimeout(() => { document.getElementById('tabs').append(panel); done(); }, ms);
    }, 0);
  });
</script></body></html>`;

describe('content the page removes while translated', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let control: Page;
  const tabs = tabDriver(() => browser, () => control);

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(), startPageServer()]);
    server.set('/walked.html', router('walked'));
    server.set('/swept.html', router('swept'));
    server.set('/feed.html', FEED);
    server.set('/table.html', TABLE);
    server.set('/tabs.html', TABS);
    await useApertiumAt(browser, apy.url);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it.each(['walked', 'swept'] as const)('an app that replaces its view mid-translation (%s): nothing more of the old view is sent, the new view is translated and counted', async (view) => {
    const { paragraphs, perCall } = VIEWS[view];
    const { page, tabId } = await tabs.open(`${server.origin}/${view}.html`);
    let old = 0;
    let oldAfter = 0;
    let switched = false;
    apy.failing = (q) => {
      const n = (q.match(/Old paragraph/g) ?? []).length;
      old += n;
      if (switched) oldAfter += n;
      return false;
    };
    apy.latencyMs = 300;
    try {
      await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      await page.waitForFunction((mark) => document.getElementById('view')!.textContent!.includes(mark), MARK_OPEN);
      await page.evaluate(() => (window as unknown as { __navigate(): void }).__navigate());
      switched = true;
      await tabs.settle(tabId);
      // The title (the new view's), the heading and the paragraph (a swept view leaves the counts
      // when the page is idle: under CI's load that took over the poll's default second once).
      await expect.poll(async () => (await tabs.send({ type: 'page:status', data: { tabId } })).data, { timeout: 5000 }).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
      expect(await page.evaluate(() => document.getElementById('view')!.innerHTML)).toBe('<h1>⟦The next view⟧</h1><p>⟦Its only paragraph.⟧</p>');
      expect(await page.title()).toBe('⟦The next view⟧');
      // What was in flight at the switch (6 calls, 4 of them at the provider) may still reach it
      // until the page's next frame cancels them; the rest of the old view never goes (the
      // previous build sent 105 of the 120 paragraphs after the switch).
      expect(oldAfter).toBeLessThanOrEqual(8 * perCall);
      expect(old).toBeLessThan(paragraphs / 4);
      await tabs.send({ type: 'page:restore', data: { tabId } });
      expect(await page.evaluate(() => document.getElementById('view')!.innerHTML)).toBe('<h1>The next view</h1><p>Its only paragraph.</p>');
      expect(await page.title()).toBe('The next view');
    } finally {
      apy.failing = undefined;
      apy.latencyMs = 0;
      await page.close();
    }
  });

  it('a live chat that drops its old messages: each is translated as it comes, the dropped ones are collected, the counts are the page\'s', async () => {
    const { page, tabId } = await tabs.open(`${server.origin}/feed.html`);
    await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await tabs.settle(tabId);
    for (let round = 0; round < 12; round++) {
      await page.evaluate(() => (window as unknown as { __post(n: number): void }).__post(10));
      await page.waitForFunction((mark) => [...document.querySelectorAll('#feed li')].every((li) => li.textContent!.startsWith(mark)), MARK_OPEN);
    }
    expect(await tabs.settle(tabId)).toMatchObject({ state: 'translated', done: 21, total: 21, errors: 0 });
    const cdp = await page.context().newCDPSession(page);
    for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
    const seen = await page.evaluate(() => {
      const w = window as unknown as { __dropped(): number; __alive(): number };
      return { dropped: w.__dropped(), alive: w.__alive() };
    });
    expect(seen).toEqual({ dropped: 100, alive: 0 });
    // Still followed: a new message is translated, and restore gives the page its own words.
    await page.evaluate(() => (window as unknown as { __post(n: number): void }).__post(1));
    await page.waitForFunction((mark) => document.querySelector('#feed li:last-child')!.textContent!.startsWith(mark), MARK_OPEN);
    await tabs.send({ type: 'page:restore', data: { tabId } });
    expect(await page.evaluate(() => document.querySelector('#feed li:last-child')!.innerHTML)).toBe('Message number 121 from <b>someone</b> in the live chat');
    await page.close();
  });

  it('a table taken out, changed and put back in one task (as scripts update tables): the change is translated, restore keeps it', async () => {
    const { page, tabId } = await tabs.open(`${server.origin}/table.html`);
    await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    await tabs.settle(tabId);
    const cells = () => page.evaluate(() => [...document.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent));
    expect(await cells()).toEqual(['⟦Row 0 of the table⟧', '⟦Row 1 of the table⟧']);
    // The browser reports a change made out of the page until its records are delivered.
    await page.evaluate(() => (window as unknown as { __update(): void }).__update());
    await expect.poll(cells).toEqual(['⟦Changed while out of the page⟧', '⟦Row 1 of the table⟧']);
    await tabs.send({ type: 'page:restore', data: { tabId } });
    expect(await cells()).toEqual(['Changed while out of the page', 'Row 1 of the table']);
    await page.close();
  });

  it.each([0, 300])('a panel too large to walk, changed while out of the page and put back %i ms later: the change is translated, nothing else sent again; restore keeps it', async (ms) => {
    const refreshed = `Refreshed ${ms} while out of the page`;
    const { page, tabId } = await tabs.open(`${server.origin}/tabs.html`);
    await tabs.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    expect(await tabs.settle(tabId)).toMatchObject({ state: 'translated', done: 1501, errors: 0 });
    const items = () => page.evaluate(() => [2, 3, 4].map((i) => document.getElementById('panel')!.children[i]!.textContent));
    expect(await items()).toEqual(['⟦Item 2 of the list⟧', '⟦Item 3 of the list⟧', '⟦Item 4 of the list⟧']);
    const sent: string[] = [];
    apy.failing = (q) => {
      sent.push(...(q.match(/Item \d+|Refreshed \d+/g) ?? []));
      return false;
    };
    try {
      // Text no earlier test sent: the worker's memory would answer it without a call.
      await page.evaluate(([wait, text]) => (window as unknown as { __refresh(ms: number, text: string): Promise<void> }).__refresh(wait, text), [ms, refreshed] as const);
      await expect.poll(items).toEqual(['⟦Item 2 of the list⟧', `⟦${refreshed}⟧`, '⟦Item 4 of the list⟧']);
      expect(await tabs.settle(tabId)).toMatchObject({ state: 'translated', done: 1501, total: 1501, errors: 0 });
      expect(sent).toEqual([`Refreshed ${ms}`]);
    } finally {
      apy.failing = undefined;
    }
    await tabs.send({ type: 'page:restore', data: { tabId } });
    expect(await items()).toEqual(['Item 2 of the list', refreshed, 'Item 4 of the list']);
    await page.close();
  });
});
