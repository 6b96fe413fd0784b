/**
 * Chromium with the built extension, where the pages under test are never attached to by DevTools.
 * A page DevTools is attached to prerenders nothing ("PrerenderingDisabledByDevTools", with
 * Playwright or puppeteer alike), so what a user's browser does with speculation rules cannot be
 * seen through browser.ts. Here puppeteer-core attaches only to the extension: its service worker
 * and one options page (the "control" page), from which the tests drive tabs as the popup does
 * (runtime.sendMessage, tabs.create, tabs.query); every other tab runs unwatched, as in a user's
 * browser. What a page shows is read from what it tells its tab (its URL, its title) and from the
 * extension's own messages. the harnesses' flags (scripts/chromium-args.ts): never a request beyond 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { extensionArgs } from '../../scripts/chromium-args';
import { DIST } from './browser';

export interface UnwatchedTab {
  id: number;
  url: string;
  title: string;
}

export interface UnwatchedBrowser {
  browser: Browser;
  /** The extension's options page, the one page besides the worker DevTools is attached to. */
  control: Page;
  /** A protocol message from the control page, answered as the wire reply. */
  send(message: unknown): Promise<{ data?: Record<string, unknown>; error?: unknown }>;
  /** Opens `url` in a new tab, unwatched; its tab id. */
  open(url: string): Promise<number>;
  /** The tab as the browser knows it. */
  tab(id: number): Promise<UnwatchedTab>;
  /** The tab's badge text. */
  badge(id: number): Promise<string>;
  close(): Promise<void>;
}

type Chrome = {
  chrome: {
    runtime: { sendMessage(m: unknown): Promise<{ data?: Record<string, unknown>; error?: unknown }> };
    tabs: { create(p: { url: string }): Promise<{ id: number }>; get(id: number): Promise<UnwatchedTab> };
    action: { getBadgeText(d: { tabId: number }): Promise<string> };
  };
};

export async function launchUnwatched(dist: string = DIST): Promise<UnwatchedBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'polyglot-unwatched-'));
  // Open only while the control page is made: its tab comes without a URL, as every new tab does.
  let attach = false;
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    waitForInitialPage: false,
    userDataDir: profile,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: extensionArgs(dist),
    targetFilter: (t) => attach || t.type() === 'browser' || t.url().startsWith('chrome-extension://'),
  });
  try {
    const worker = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
    // Node's URL gives a chrome-extension: URL no origin ("null").
    const origin = `chrome-extension://${new URL(worker.url()).host}`;
    attach = true;
    const control = await browser.newPage();
    attach = false;
    await control.goto(`${origin}/src/ui/options/index.html`);
    await control.waitForFunction(() => document.readyState === 'complete');
    const send = (message: unknown) => control.evaluate((m) => (globalThis as unknown as Chrome).chrome.runtime.sendMessage(m), message as never);
    return {
      browser,
      control,
      send,
      open: (url) => control.evaluate((u) => (globalThis as unknown as Chrome).chrome.tabs.create({ url: u }).then((t) => t.id), url),
      tab: (id) => control.evaluate((i) => (globalThis as unknown as Chrome).chrome.tabs.get(i).then((t) => ({ id: t.id, url: t.url ?? '', title: t.title ?? '' })), id),
      badge: (id) => control.evaluate((i) => (globalThis as unknown as Chrome).chrome.action.getBadgeText({ tabId: i }), id),
      async close() {
        await browser.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
    throw e;
  }
}
