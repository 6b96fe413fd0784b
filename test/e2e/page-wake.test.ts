/**
 * What starts the background from a page, and what does not. A right-click in a page starts the background that Chromium stopped (the context menu's items
 * go there next); a left click does not, nor a contextmenu event the page's script makes. So does
 * holding a shortcut's chord (Alt+Shift, before Alt+Shift+T's last key), as the background last
 * published them; one modifier or another chord does not. Watched through the DevTools protocol's
 * ServiceWorker domain, as chrome://serviceworker-internals shows it.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { CHORDS_KEY } from '../../src/shared/chords';
import { FRAMES_ASK_KEY } from '../../src/shared/messages';
import { SITES_KEY } from '../../src/ui/shared/store';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, stopServiceWorkers, type ExtensionBrowser } from './browser';
import { storageGet, storageSet } from './ui-helpers';

interface Version {
  scriptURL: string;
  runningStatus: 'stopped' | 'starting' | 'running' | 'stopping';
}

describe('a right-click wakes the background', () => {
  let browser: ExtensionBrowser;
  let server: PageServer;
  let page: Page;
  let session: CDPSession;
  let status = '';

  const until = async (want: string, ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end && status !== want; ) await new Promise((r) => setTimeout(r, 20));
    return status;
  };

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchExtension(), startPageServer()]);
    server.set('/wake.html', '<!doctype html><html lang="en"><body><p id="p" style="font-size:40px">A paragraph to click on.</p></body></html>');
    server.set('/framed.html', '<!doctype html><html lang="en"><body><p>A page with a widget.</p><iframe src="/widget.html"></iframe></body></html>');
    server.set('/widget.html', '<!doctype html><html lang="en"><body><p>A widget.</p></body></html>');
    page = await browser.context.newPage();
    await page.goto(`${server.origin}/wake.html`);
    await evaluateInContentScript(page, browser.id, '1');
    session = await browser.context.newCDPSession(page);
    session.on('ServiceWorker.workerVersionUpdated', ({ versions }: { versions: Version[] }) => {
      const ours = versions.find((v) => v.scriptURL.startsWith(`chrome-extension://${browser.id}/`));
      if (ours) status = ours.runningStatus;
    });
    await session.send('ServiceWorker.enable');
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close()]);
  });

  it("starts the stopped worker on a right-click, not on a left click nor on a page's own contextmenu event", async () => {
    await stopServiceWorkers(page);
    expect(await until('stopped', 5000)).toBe('stopped');
    await page.click('#p');
    // A page's script cannot keep the background awake by making the events itself.
    await page.evaluate(() => document.getElementById('p')!.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, button: 2 })));
    await new Promise((r) => setTimeout(r, 1000));
    expect(status).toBe('stopped');
    await page.click('#p', { button: 'right' });
    expect(await until('running', 5000)).toBe('running');
  });

  /** A fresh load of the page (its content script has read no chords yet), then the worker stopped. */
  /**
   * The worker stopped after a store: the write's `storage.onChanged` may reach the worker just
   * after it was stopped, and Chromium starts it again to deliver it (seen once in CI: still
   * running 5 s after the stop). Stopped again then, until it stays stopped.
   */
  const stopAfterStore = async () => {
    for (let i = 0; i < 3; i++) {
      await stopServiceWorkers(page);
      if ((await until('stopped', 5000)) !== 'stopped') continue;
      await new Promise((r) => setTimeout(r, 500));
      if (status === 'stopped') return status;
    }
    return status;
  };

  const stoppedOnFreshPage = async () => {
    await page.reload();
    await evaluateInContentScript(page, browser.id, '1');
    // After a store too (the rebound chords'): stopped again if the write's event restarts it.
    expect(await stopAfterStore()).toBe('stopped');
    await page.click('#p');
  };

  /** Each of `others` pressed and released leaves the worker stopped; holding `chord` starts it. */
  const wakesOnlyOn = async (others: string[][], chord: string[]) => {
    for (const keys of others) {
      for (const k of keys) await page.keyboard.down(k);
      for (const k of [...keys].reverse()) await page.keyboard.up(k);
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(status).toBe('stopped');
    for (const k of chord) await page.keyboard.down(k);
    expect(await until('running', 5000)).toBe('running');
    for (const k of [...chord].reverse()) await page.keyboard.up(k);
  };

  it("starts the stopped worker when the default shortcut's chord is held, not on one modifier or another chord", async () => {
    await stoppedOnFreshPage();
    await wakesOnlyOn([['Alt'], ['Control', 'Shift']], ['Alt', 'Shift']);
  });

  it('follows the chords the background published (a rebound shortcut)', async () => {
    const control = await browser.openExtensionPage(OPTIONS_PATH);
    try {
      // As if the user had rebound the shortcuts to Ctrl+Shift+…; the worker is stopped before its
      // own reading of the shortcuts (5 s after it starts) would write the real ones back.
      await storageSet(control, { [CHORDS_KEY]: ['ctrl+shift'] });
      await stoppedOnFreshPage();
      expect(await storageGet(control, CHORDS_KEY)).toEqual(['ctrl+shift']);
    } finally {
      await control.close();
    }
    // The page reads the chords in effect at its first modifier's keydown; a user's next keys
    // come later than that read (pressed at once by the test, Alt+Shift could still find the
    // manifest's chord).
    await page.keyboard.press('Control');
    await new Promise((r) => setTimeout(r, 500));
    await wakesOnlyOn([['Alt', 'Shift']], ['Control', 'Shift']);
  });

  /** Stores `items` from an extension page, closed after (an options page asks the background things). */
  const store = async (items: Record<string, unknown>) => {
    const control = await browser.openExtensionPage(OPTIONS_PATH);
    try {
      await storageSet(control, items);
    } finally {
      await control.close();
    }
  };
  const setSites = (value: unknown) => store({ [SITES_KEY]: value });


  it('a frame that loads starts it only while some tab is translated', async () => {
    await stopServiceWorkers(page);
    expect(await until('stopped', 5000)).toBe('stopped');
    const framed = await browser.context.newPage();
    try {
      await framed.goto(`${server.origin}/framed.html`);
      await expect.poll(() => framed.frames().length).toBe(2);
      await framed.frames()[1]!.waitForLoadState('load');
      await new Promise((r) => setTimeout(r, 1500));
      expect(status).toBe('stopped');
      // As the background writes it while a tab is translated: the frame asks, and the background,
      // finding no such tab, sets the flag right. (Extension pages, which talk to the background,
      // are closed before it is stopped.)
      await store({ [FRAMES_ASK_KEY]: true });
      expect(await stopAfterStore()).toBe('stopped');
      await framed.reload();
      expect(await until('running', 5000)).toBe('running');
      const control = await browser.openExtensionPage(OPTIONS_PATH);
      await expect.poll(() => storageGet(control, FRAMES_ASK_KEY), { timeout: 5000 }).toBe(false);
      await control.close();
    } finally {
      await framed.close();
    }
  });

  it('a page that loads starts it only when a stored site rule could translate that page', async () => {
    try {
      await setSites({ sites: { 'example.test': { mode: 'always' } }, languages: { de: 'never' } });
      expect(await stopAfterStore()).toBe('stopped');
      // No rule for 127.0.0.1, no language always: the load asks nothing.
      await page.reload();
      await evaluateInContentScript(page, browser.id, '1');
      await new Promise((r) => setTimeout(r, 1500));
      expect(status).toBe('stopped');
      // English pages are always translated, into English: the background is asked, and decides nothing.
      await setSites({ sites: {}, languages: { en: 'always' }, trg: 'en' });
      expect(await stopAfterStore()).toBe('stopped');
      await page.reload();
      expect(await until('running', 5000)).toBe('running');
      expect(await page.locator('#p').textContent()).toBe('A paragraph to click on.');
    } finally {
      await setSites({ sites: {}, languages: {} });
    }
  });
});
