/**
 * A right-click in a page starts the background that Chromium stopped (the context menu's items
 * go there next); a left click does not, nor a contextmenu event the page's script makes. Watched through the DevTools protocol's ServiceWorker
 * domain, as chrome://serviceworker-internals shows it.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, stopServiceWorkers, type ExtensionBrowser } from './browser';

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
});
