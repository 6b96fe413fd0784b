/**
 * A page's translation followed where it was not asked directly, in Chromium with the built
 * extension and Apertium pointed at the marker fake (`word` -> `⟦word⟧`): a frame that loads after
 * its page was translated, the next pages of a tab the user translated, a tab's frames counted
 * across a worker Chromium stopped, and a site's own bilingual choice made in the popup.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarkerApy, type MarkerApy } from '../fakes/marker-apy';
import { tabDriver, useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { launchExtension, OPTIONS_PATH, stopServiceWorkers, type ExtensionBrowser } from './browser';
import { POPUP_PATH, storageGet } from './ui-helpers';

const HOST = `<!doctype html><html lang="en"><head><title>Host</title></head><body>
<p id="p">The page around the frame.</p>
</body></html>`;
const FRAME = `<!doctype html><html lang="en"><head><title>Widget</title></head><body><p id="w">A widget loaded later.</p></body></html>`;
/**
 * Frames with no address of their own: a `srcdoc` (how webmail and comment widgets show a
 * message), the same sandboxed (an opaque origin), and an `about:blank` frame the page writes.
 */
const EMBEDS = `<!doctype html><html lang="en"><head><title>Embeds</title></head><body>
<p id="p">The page around the embeds.</p>
<iframe id="doc" srcdoc="<p id=w>A message shown in a frame.</p>"></iframe>
<iframe id="boxed" sandbox srcdoc="<p id=w>A message in a sandbox.</p>"></iframe>
<iframe id="blank"></iframe>
<script>const d = document.getElementById('blank').contentDocument; d.body.innerHTML = '<p id=w>Written by the page.</p>';</script>
</body></html>`;
const SPANISH_FRAME = `<!doctype html><html lang="es"><head><title>Ya</title></head><body><p id="w">Ya está en español.</p></body></html>`;

describe('translation followed by later frames and by the site\'s own mode', () => {
  let browser: ExtensionBrowser;
  let apy: MarkerApy;
  let server: PageServer;
  let control: Page;

  const { send, open, settle } = tabDriver(() => browser, () => control);
  const addFrame = async (page: Page, path: string): Promise<Frame> => {
    await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      document.body.append(f);
    }, path);
    await expect.poll(() => page.frames().length).toBe(2);
    const frame = page.frames()[1]!;
    await frame.waitForLoadState('load');
    return frame;
  };

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(0), startPageServer()]);
    server.set('/host.html', HOST);
    server.set('/frame.html', FRAME);
    server.set('/es-frame.html', SPANISH_FRAME);
    server.set('/embeds.html', EMBEDS);
    await useApertiumAt(browser, apy.url);
    control = await browser.openExtensionPage(OPTIONS_PATH);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it('translates a frame added after the page was translated, and restores it with the page', async () => {
    const { page, tabId } = await open(`${server.origin}/host.html`);
    // A frame that loads before any translation stays as it is.
    const early = await addFrame(page, '/frame.html');
    await new Promise((r) => setTimeout(r, 300));
    expect(await early.locator('#w').textContent()).toBe('A widget loaded later.');
    await page.evaluate(() => document.querySelector('iframe')!.remove());
    await expect.poll(() => page.frames().length).toBe(1);

    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    expect(await page.locator('#p').textContent()).toBe('⟦The page around the frame.⟧');

    const frame = await addFrame(page, '/frame.html');
    await expect.poll(() => frame.locator('#w').textContent(), { timeout: 10_000 }).toBe('⟦A widget loaded later.⟧');
    // Relabelled at the frame after what is in view is written, or with the last write.
    await expect.poll(() => frame.evaluate(() => document.documentElement.lang), { timeout: 5000 }).toBe('es');

    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => frame.locator('#w').textContent()).toBe('A widget loaded later.');
    expect(await page.locator('#p').textContent()).toBe('The page around the frame.');
    await page.close();
  });

  it('translates frames with no address of their own (srcdoc, sandboxed, about:blank), at the trigger and later; restore exact', async () => {
    const { page, tabId } = await open(`${server.origin}/embeds.html`);
    const texts = () => Promise.all(['doc', 'boxed', 'blank'].map((id) => page.frameLocator(`#${id}`).locator('#w').textContent()));
    const before = await Promise.all(page.frames().map((f) => f.evaluate(() => document.body.innerHTML)));
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    await expect.poll(texts, { timeout: 10_000 }).toEqual(['⟦A message shown in a frame.⟧', '⟦A message in a sandbox.⟧', '⟦Written by the page.⟧']);
    // One the page adds now follows the page.
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('iframe'), { id: 'late', srcdoc: '<p id=w>A message opened later.</p>' })));
    await expect.poll(() => page.frameLocator('#late').locator('#w').textContent(), { timeout: 10_000 }).toBe('⟦A message opened later.⟧');
    await page.evaluate(() => document.getElementById('late')!.remove());
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(texts).toEqual(['A message shown in a frame.', 'A message in a sandbox.', 'Written by the page.']);
    expect(await Promise.all(page.frames().map((f) => f.evaluate(() => document.body.innerHTML)))).toEqual(before);
    await page.close();
  });

  it("leaves a rich-text editor's frame (an editable body) and what the page says no to as they are, gives a paragraph made editable (or labelled another language) its own words back, and translates what says translate=\"yes\" inside a no", async () => {
    server.set(
      '/compose.html',
      '<!doctype html><html lang="en"><body><div translate="no"><h1 id="brand">Acme Mail</h1><p id="tag" translate="yes">Mail for the whole family</p></div>' +
        '<iframe id="editor" srcdoc="<body contenteditable=true><p id=w>Dear team, the cat sleeps.</p></body>"></iframe><p id="p">Write your message below.</p></body></html>',
    );
    const { page, tabId } = await open(`${server.origin}/compose.html`);
    await expect.poll(() => page.frames().length).toBe(2);
    const draft = () => page.frameLocator('#editor').locator('body').innerHTML();
    const before = await draft();
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    expect(await Promise.all(['#brand', '#tag', '#p'].map((id) => page.locator(id).textContent()))).toEqual([
      'Acme Mail',
      '⟦Mail for the whole family⟧',
      '⟦Write your message below.⟧',
    ]);
    // The user goes on typing: nothing of the draft is sent or changed.
    await page.frameLocator('#editor').locator('#w').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Best regards');
    await new Promise((r) => setTimeout(r, 500));
    expect(await draft()).toBe(before.replace('sleeps.', 'sleeps. Best regards'));
    // A translated paragraph the page makes editable (the user edits it) shows its own words again.
    await page.evaluate(() => document.getElementById('p')!.setAttribute('contenteditable', 'true'));
    await expect.poll(() => page.locator('#p').textContent()).toBe('Write your message below.');
    // The page gives the tagline the class notranslate, then takes it back: its own words, then ours.
    await page.evaluate(() => document.getElementById('tag')!.classList.add('notranslate'));
    await expect.poll(() => page.locator('#tag').textContent()).toBe('Mail for the whole family');
    await page.evaluate(() => document.getElementById('tag')!.classList.remove('notranslate'));
    await expect.poll(() => page.locator('#tag').textContent()).toBe('⟦Mail for the whole family⟧');
    // The page's script labels the tagline French (a language it guessed), then English again.
    await page.evaluate(() => document.getElementById('tag')!.setAttribute('lang', 'fr'));
    await expect.poll(() => page.locator('#tag').textContent()).toBe('Mail for the whole family');
    await page.evaluate(() => document.getElementById('tag')!.setAttribute('lang', 'en'));
    await expect.poll(() => page.locator('#tag').textContent()).toBe('⟦Mail for the whole family⟧');
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.locator('#tag').textContent()).toBe('Mail for the whole family');
    await page.close();
  });

  it('leaves a later frame alone when it is already in the target language', async () => {
    const { page, tabId } = await open(`${server.origin}/host.html`);
    const before = apy.requests;
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    await settle(tabId);
    const sent = apy.requests - before;
    const frame = await addFrame(page, '/es-frame.html');
    await new Promise((r) => setTimeout(r, 500));
    expect(await frame.locator('#w').textContent()).toBe('Ya está en español.');
    expect(apy.requests - before).toBe(sent);
    await page.close();
  });

  it('goes on translating a tab the user translated: links followed to pages in the same language, a reload; not after a restore', async () => {
    const at = (name: string, lang: string, text: string, next: string) =>
      server.set(`/${name}.html`, `<!doctype html><html lang="${lang}"><head><title>${name}</title></head><body><p id="p">${text}</p><a id="next" href="/${next}.html">next</a></body></html>`);
    at('first', 'en', 'The first page.', 'second');
    at('second', 'en', 'The second page.', 'french');
    at('french', 'fr', 'Une page en français.', 'third');
    at('third', 'en', 'The third page.', 'first');
    const { page, tabId } = await open(`${server.origin}/first.html`);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'bilingual' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const follow = async (path: string) => {
      await page.click('#next');
      await page.waitForURL(`${server.origin}${path}`);
    };

    // The next page, in English too: translated as the first was shown (bilingual), with no trigger.
    await follow('/second.html');
    await expect.poll(() => page.locator('#p + [data-polyglot-bilingual]').textContent(), { timeout: 10_000 }).toBe('⟦The second page.⟧');
    expect(await settle(tabId)).toMatchObject({ state: 'translated', src: 'en', trg: 'es', mode: 'bilingual', errors: 0 });
    // A page in another language is left as it is; the tab stays translated for the next English page.
    const requests = apy.requests;
    await follow('/french.html');
    await new Promise((r) => setTimeout(r, 800));
    expect(await page.locator('#p').textContent()).toBe('Une page en français.');
    expect(await page.locator('[data-polyglot-bilingual]').count()).toBe(0);
    expect(apy.requests).toBe(requests);
    await follow('/third.html');
    await expect.poll(() => page.locator('#p + [data-polyglot-bilingual]').textContent(), { timeout: 10_000 }).toBe('⟦The third page.⟧');
    // A reload too.
    await page.reload();
    await expect.poll(() => page.locator('#p + [data-polyglot-bilingual]').textContent(), { timeout: 10_000 }).toBe('⟦The third page.⟧');

    // Restored: the tab is the user's again, its next page stays as it is.
    await settle(tabId);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    await follow('/first.html');
    await new Promise((r) => setTimeout(r, 800));
    expect(await page.locator('#p').textContent()).toBe('The first page.');
    expect(await send({ type: 'page:status', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    await page.close();
  });

  it("a worker stopped after the page was translated (Chromium stops it 30 s idle) still counts the frames' parts, a failure included", async () => {
    server.set('/failing-frame.html', `<!doctype html><html lang="en"><head><title>Failing</title></head><body><p id="p">The page around a failing frame.</p>
<iframe srcdoc="<p>A frame part the provider refuses.</p>"></iframe></body></html>`);
    const { page, tabId } = await open(`${server.origin}/failing-frame.html`);
    apy.failing = (q) => q.includes('refuses');
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      // The title and the paragraph, and the frame's part, failed.
      const counted = { state: 'translated', done: 2, total: 3, errors: 1 };
      await expect.poll(async () => (await send({ type: 'page:status', data: { tabId } })).data).toMatchObject(counted);
      await stopServiceWorkers(page);
      // The frame reports nothing more; the next worker reads what the last one knew (the previous
      // build answered done 2, total 2, errors 0: no Retry in the popup).
      expect((await send({ type: 'page:status', data: { tabId } })).data).toMatchObject(counted);
    } finally {
      apy.failing = undefined;
    }
    await send({ type: 'page:restore', data: { tabId } });
    await page.close();
  });

  it('forgets a closed tab a few seconds after the worker next starts, not an open one', async () => {
    const session = () =>
      control.evaluate(async () => {
        const chrome = (globalThis as unknown as { chrome: { storage: { session: { get(k: string[]): Promise<Record<string, unknown>> } } } }).chrome;
        const v = await chrome.storage.session.get(['page:frameCounts', 'page:translatedTabs']);
        return { counts: Object.keys((v['page:frameCounts'] as { tops?: object } | undefined)?.tops ?? {}), listed: Object.keys((v['page:translatedTabs'] as object | undefined) ?? {}) };
      });
    const kept = await open(`${server.origin}/host.html`);
    const closed = await open(`${server.origin}/host.html`);
    for (const { tabId } of [kept, closed]) {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
      expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    }
    const ids = [String(kept.tabId), String(closed.tabId)];
    await expect.poll(session).toMatchObject({ counts: expect.arrayContaining(ids), listed: expect.arrayContaining(ids) });
    await closed.page.close();
    await stopServiceWorkers(kept.page);
    // The next start (any message) forgets it 5 s later; the open tab is still counted and listed.
    await send({ type: 'page:status', data: { tabId: kept.tabId } });
    // Only these two tabs are looked at: a tab an earlier test left translated (one that failed
    // before its restore) is listed too, and is not this test's failure.
    const mine = async () => {
      const { counts, listed } = await session();
      return { counts: counts.filter((id) => ids.includes(id)), listed: listed.filter((id) => ids.includes(id)) };
    };
    await expect.poll(mine, { timeout: 15_000 }).toEqual({ counts: [String(kept.tabId)], listed: [String(kept.tabId)] });
    expect((await send({ type: 'page:status', data: { tabId: kept.tabId } })).data).toMatchObject({ state: 'translated' });
    await send({ type: 'page:restore', data: { tabId: kept.tabId } });
    await kept.page.close();
  });

  it('remembers bilingual per site from the popup, and uses it where no mode is named', async () => {
    const { page, tabId } = await open(`${server.origin}/host.html`);
    const popup = await browser.openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    await expect.poll(() => popup.locator('label.page-bilingual').textContent()).toContain('on this site');
    await popup.locator('#page-bilingual').check();
    await expect.poll(() => storageGet(popup, 'ui:sites')).toMatchObject({ sites: { '127.0.0.1': { bilingual: true } } });
    // The "This site" panel edits the same rule: its change keeps the bilingual choice.
    await popup.locator('#site-private').check();
    await expect.poll(() => storageGet(popup, 'ui:sites')).toMatchObject({ sites: { '127.0.0.1': { bilingual: true, private: true } } });
    // The general default is untouched: another site is still translated in place.
    expect(await storageGet(popup, 'ui:page')).toBeUndefined();

    const reply = await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } });
    expect(reply.data).toMatchObject({ mode: 'bilingual' });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    expect(await page.locator('#p').textContent()).toBe('The page around the frame.');
    expect(await page.locator('#p + [data-polyglot-bilingual]').textContent()).toBe('⟦The page around the frame.⟧');

    // Unchecked: the site's own choice is now "in place", shown again at once.
    await popup.reload();
    await expect.poll(() => popup.locator('#page-bilingual').isChecked()).toBe(true);
    await popup.locator('#page-bilingual').uncheck();
    await expect.poll(() => storageGet(popup, 'ui:sites')).toMatchObject({ sites: { '127.0.0.1': { bilingual: false, private: true } } });
    await send({ type: 'page:restore', data: { tabId } });
    expect((await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es' } })).data).toMatchObject({ mode: 'replace' });
    await settle(tabId);
    expect(await page.locator('#p').textContent()).toBe('⟦The page around the frame.⟧');
    expect(await page.locator('[data-polyglot-bilingual]').count()).toBe(0);
    await popup.close();
    await page.close();

    // The options page lists the site's choice, and sets the general default.
    const options = await browser.openExtensionPage(OPTIONS_PATH);
    await expect.poll(() => options.locator('[id="shown-127.0.0.1"]').inputValue()).toBe('replace');
    await options.locator('[id="shown-127.0.0.1"]').selectOption('');
    await options.locator('#bilingual-default').check();
    await expect.poll(() => storageGet(options, 'ui:page')).toEqual({ bilingual: true });
    await expect.poll(() => storageGet(options, 'ui:sites')).toMatchObject({ sites: { '127.0.0.1': { private: true } } });
    expect(((await storageGet<{ sites: Record<string, object> }>(options, 'ui:sites'))!.sites['127.0.0.1'])).toEqual({ private: true });
    await options.close();
  });
});
