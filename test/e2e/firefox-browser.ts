/**
 * E2E harness for Firefox ESR: puppeteer-core over WebDriver BiDi, the offline prefs of
 * TOOLCHAIN.md (nothing leaves 127.0.0.1), and the Firefox build (dist-firefox/) installed as a
 * temporary add-on with BiDi `webExtension.install`.
 *
 * Two things BiDi cannot do, and how the harness does them instead:
 * - Navigate to `moz-extension://` pages ("not allowed in this context"). The add-on is installed
 *   from a copy of dist-firefox whose manifest lists one more background script, HOOK below, that
 *   opens the options page in a tab; from that page (the "control" page) the tests reach the
 *   extension as its own pages do: runtime.sendMessage, tabs.create, tabs.query, storage.
 * - Click a context-menu item or press an extension shortcut (both belong to the browser's UI). The
 *   hook runs before the real background and records the listeners that it adds to
 *   contextMenus.onClicked and commands.onCommand; `menuClick`/`command` call those very listeners
 *   with what Firefox would pass. Everything else is the shipped build, unchanged.
 * Content scripts' sandboxes are not BiDi realms, so tests observe pages from the page's own world;
 * BiDi serializes closed shadow roots too, which is how the bubble's text is read.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Browser as WebExtension } from 'webextension-polyfill';
import { ROOT } from '../support/shared';

export const FIREFOX = process.env.FIREFOX_BIN ?? '/usr/bin/firefox-esr';
export const DIST_FIREFOX = resolve(ROOT, 'dist-firefox');
export const OPTIONS_PATH = 'src/ui/options/index.html';
export const POPUP_PATH = 'src/ui/popup/index.html';

const run = promisify(execFile);

/** Builds dist-firefox/ (1-2 s); the e2e globalSetup builds only the Chrome dist/. */
export async function buildFirefox(): Promise<void> {
  if (process.env.E2E_NO_BUILD === '1') return;
  await run('npx', ['vite', 'build', '--mode', 'firefox', '--logLevel', 'warn'], { cwd: ROOT });
}

/** Prefs that keep Firefox on loopback: every name resolves to 127.0.0.1 and goes to a dead proxy. */
export const OFFLINE_PREFS: Record<string, string | number | boolean> = {
  'network.dns.forceResolve': '127.0.0.1',
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.ssl': '127.0.0.1',
  'network.proxy.ssl_port': 9,
  'network.proxy.socks': '127.0.0.1',
  'network.proxy.socks_port': 9,
  'network.proxy.no_proxies_on': '127.0.0.1,localhost',
  'network.proxy.allow_hijacking_localhost': false,
  'app.update.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'extensions.update.enabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'datareporting.policy.dataSubmissionEnabled': false,
};

const HOOK_FILE = 'e2e-hook.js';

/** Test-only background script (see the header). Plain JS: it is copied next to the build as is. */
const HOOK = `
const seen = { menu: [], command: [] };
const record = (event, key) => {
  const add = event.addListener.bind(event);
  event.addListener = (fn) => { seen[key].push(fn); add(fn); };
};
record(browser.contextMenus.onClicked, 'menu');
record(browser.commands.onCommand, 'command');
browser.runtime.onMessage.addListener((m) => {
  if (m?.type === 'e2e:menu-click') { for (const fn of seen.menu) fn(m.info, m.tab); return Promise.resolve(seen.menu.length); }
  if (m?.type === 'e2e:command') { for (const fn of seen.command) fn(m.command, m.tab); return Promise.resolve(seen.command.length); }
  return undefined;
});
browser.tabs.create({ url: browser.runtime.getURL(${JSON.stringify(OPTIONS_PATH)}) });
`;

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}

interface TreeContext {
  context: string;
  url: string;
  children: TreeContext[] | null;
}

export interface FirefoxExtension {
  browser: Browser;
  /** The options page, opened by the hook: the tests' way into the extension. */
  control: Page;
  /** `moz-extension://<uuid>` */
  origin: string;
  /** Opens an extension page in a new tab (from the extension) and returns it once loaded. */
  openExtensionPage(path: string): Promise<Page>;
  /** A new tab at `url`, loaded. */
  openPage(url: string): Promise<Page>;
  /** The id of the tab showing `url` (tabs.query({url}) finds nothing for a URL with a port). */
  tabId(url: string): Promise<number>;
  /** A protocol message from the control page (the options page), answered as the wire reply. */
  message<T = unknown>(msg: unknown): Promise<T>;
  /** Calls the add-on's contextMenus.onClicked listeners as a click on the item would. */
  menuClick(info: Record<string, unknown>, tabUrl: string): Promise<void>;
  /** Calls the add-on's commands.onCommand listeners as the shortcut would. */
  command(name: string, tabUrl: string): Promise<void>;
  /** Evaluates `fn` on the closed shadow root of the first `selector` in `page` (undefined if none). */
  inShadow<T>(page: Page, selector: string, fn: string): Promise<T | undefined>;
  close(): Promise<void>;
}

/** The WebExtension API in an extension page, for code that runs there (evaluate callbacks). */
export type InPage = { browser: WebExtension };

async function findPage(browser: Browser, test: (href: string) => boolean, skip: ReadonlySet<Page> = new Set(), timeoutMs = 10_000): Promise<Page> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const page of await browser.pages()) {
      if (skip.has(page)) continue;
      // page.url() stays at about:blank for moz-extension:// tabs (puppeteer misses their
      // navigation events); the document itself knows where it is.
      const href = await page.evaluate(() => location.href).catch(() => '');
      if (test(href)) return page;
    }
    if (Date.now() > deadline) throw new Error('no such tab in Firefox');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function launchFirefox(dist: string = DIST_FIREFOX): Promise<FirefoxExtension> {
  const work = await mkdtemp(join(tmpdir(), 'polyglot-firefox-'));
  const addon = join(work, 'addon');
  await cp(dist, addon, { recursive: true });
  const manifest = JSON.parse(await readFile(join(addon, 'manifest.json'), 'utf8')) as { background: { scripts: string[] } };
  // First: it must see the real background's addListener calls.
  manifest.background.scripts.unshift(HOOK_FILE);
  await writeFile(join(addon, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(join(addon, HOOK_FILE), HOOK);

  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    protocol: 'webDriverBiDi',
    userDataDir: join(work, 'profile'),
    extraPrefsFirefox: OFFLINE_PREFS,
  });
  try {
    await browser.installExtension(addon);
    const control = await findPage(browser, (href) => href.startsWith('moz-extension://'));
    await control.waitForFunction(() => document.readyState === 'complete');
    const origin = await control.evaluate(() => location.origin);
    const connection = (browser as unknown as { connection: BidiConnection }).connection;

    const tabId = async (url: string): Promise<number> => {
      const id = await control.evaluate(async (u) => {
        const tabs = await (globalThis as unknown as InPage).browser.tabs.query({});
        return tabs.find((t) => t.url === u)?.id;
      }, url);
      if (id === undefined) throw new Error(`no tab at ${url}`);
      return id;
    };
    const message = <T>(msg: unknown) => control.evaluate((m) => (globalThis as unknown as InPage).browser.runtime.sendMessage(m), msg as never) as Promise<T>;

    return {
      browser,
      control,
      origin,
      async openExtensionPage(path) {
        const url = `${origin}/${path.replace(/^\//, '')}`;
        // A page already open at the same path is not the new one.
        const before = new Set(await browser.pages());
        await control.evaluate((u) => (globalThis as unknown as InPage).browser.tabs.create({ url: u, active: true }).then(() => undefined), url);
        const page = await findPage(browser, (href) => href === url, before);
        await page.waitForFunction(() => document.readyState === 'complete');
        return page;
      },
      async openPage(url) {
        const page = await browser.newPage();
        await page.goto(url, { waitUntil: 'load' });
        // Firefox injects content scripts at document_idle, which can come after `load`: a menu
        // click or a shortcut sent before the script listens is lost (seen once in CI, on a busy
        // machine). The page is ready when its content script answers the background.
        const id = await tabId(url);
        for (const end = Date.now() + 10_000; ; ) {
          const reply = await message<{ data?: unknown }>({ type: 'page:status', data: { tabId: id } });
          if (reply?.data) break;
          if (Date.now() > end) throw new Error(`no content script in ${url}: ${JSON.stringify(reply)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        return page;
      },
      tabId,
      message,
      async menuClick(info, tabUrl) {
        const id = await tabId(tabUrl);
        await control.evaluate((i, t) => (globalThis as unknown as InPage).browser.runtime.sendMessage({ type: 'e2e:menu-click', info: i, tab: t }), info as never, { id, url: tabUrl } as never);
      },
      async command(name, tabUrl) {
        const id = await tabId(tabUrl);
        await control.evaluate((c, t) => (globalThis as unknown as InPage).browser.runtime.sendMessage({ type: 'e2e:command', command: c, tab: t }), name, { id, url: tabUrl } as never);
      },
      async inShadow<T>(page: Page, selector: string, fn: string) {
        const { contexts } = (await connection.send('browsingContext.getTree', {})).result as { contexts: TreeContext[] };
        const context = contexts.find((c) => c.url === page.url())?.context;
        if (!context) throw new Error(`no browsing context at ${page.url()}`);
        const found = (await connection.send('script.evaluate', {
          expression: `document.querySelector(${JSON.stringify(selector)})`,
          target: { context },
          awaitPromise: false,
          serializationOptions: { maxDomDepth: 0, includeShadowTree: 'all' },
        })).result as { type: string; result?: { type: string; value?: { shadowRoot?: { sharedId: string } | null } } };
        const shadowId = found.result?.value?.shadowRoot?.sharedId;
        if (!shadowId) return undefined;
        const reply = (await connection.send('script.callFunction', {
          functionDeclaration: `function () { return JSON.stringify((${fn})(this)); }`,
          this: { sharedId: shadowId },
          target: { context },
          awaitPromise: true,
        })).result as { type: string; result?: { value?: string }; exceptionDetails?: { text: string } };
        if (reply.type !== 'success') throw new Error(`in the shadow root: ${reply.exceptionDetails?.text ?? 'failed'}`);
        return reply.result?.value === undefined ? undefined : (JSON.parse(reply.result.value) as T);
      },
      async close() {
        await browser.close().catch(() => undefined);
        await rm(work, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser.close().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}
