/**
 * E2E harness: Chromium with the built extension (dist/), a tiny page server on 127.0.0.1, and a
 * way into the content script's isolated world. Launch flags are TOOLCHAIN.md's: never a request
 * beyond 127.0.0.1.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Frame, type Page, type Worker } from 'playwright-core';
import { extensionArgs } from '../../scripts/chromium-args';
import { ROOT } from '../support/shared';

/** The Chrome build; E2E_DIST points the tests at another one. */
export const DIST = process.env.E2E_DIST ?? resolve(ROOT, 'dist');

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension id, read from the service worker's URL. */
  id: string;
  worker: Worker;
  /** `chrome-extension://<id>/<path>` */
  extensionUrl(path: string): string;
  /** Origin of the local page server, e.g. `http://127.0.0.1:41234`. */
  pageOrigin: string;
  /** A new tab at `path` of the extension (e.g. the options page). */
  openExtensionPage(path: string): Promise<Page>;
  close(): Promise<void>;
}

export const OPTIONS_PATH = 'src/ui/options/index.html';

/** Every path of the page server answers this page (so content scripts run on it). */
export const TEST_PAGE = '<!doctype html><html lang="en"><title>Test page</title><p id="text">Hello world</p></html>';

function startPageServer(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(TEST_PAGE);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

export interface LaunchOptions {
  /**
   * Extra host-resolver rules before the catch-all, e.g. `MAP remote.test 127.0.0.1`: a fake
   * served on loopback under a name that is not loopback (privacy routing tests).
   */
  hostRules?: string[];
  /**
   * Host permissions the user has granted (in the product: the options page asks when a provider is
   * switched on; a prompt Playwright cannot answer). The test loads a copy of the build whose
   * manifest grants them at install, which is what granting them does.
   */
  grantHosts?: string[];
  /**
   * Chromium's back/forward cache on, as a user's browser has it (Playwright turns it off): a page
   * left and come back to is the same page, its scripts' state and ours kept.
   */
  backForwardCache?: boolean;
}

async function withGrantedHosts(dist: string, hosts: readonly string[], into: string): Promise<string> {
  const copy = join(into, 'extension');
  await cp(dist, copy, { recursive: true });
  const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as { host_permissions?: string[] };
  manifest.host_permissions = [...(manifest.host_permissions ?? []), ...hosts];
  await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest));
  return copy;
}

export async function launchExtension(dist: string = DIST, options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'polyglot-e2e-'));
  if (options.grantHosts?.length) dist = await withGrantedHosts(dist, options.grantHosts, await mkdtemp(join(tmpdir(), 'polyglot-e2e-ext-')));
  const server = await startPageServer();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: false,
    acceptDownloads: true,
    ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    args: [
      '--headless=new',
      ...extensionArgs(dist, options.hostRules),
      // V8 flags for a diagnosis (the bench's garbage collection, say): `E2E_JS_FLAGS=--max-semi-space-size=64`.
      ...(process.env.E2E_JS_FLAGS ? [`--js-flags=${process.env.E2E_JS_FLAGS}`] : []),
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  // A page whose navigation starts while the worker is still activating can miss clients.claim()
  // and stay uncontrolled (no /api fetch route) until reloaded: seen in ~15% of launches.
  await worker.evaluate(async () => {
    const registration = (self as unknown as { registration: { active: { state: string } | null } }).registration;
    while (registration.active?.state !== 'activated') await new Promise((r) => setTimeout(r, 20));
  });
  const { port } = server.address() as AddressInfo;
  const extensionUrl = (path: string) => `chrome-extension://${id}/${path.replace(/^\//, '')}`;
  return {
    context,
    id,
    worker,
    extensionUrl,
    pageOrigin: `http://127.0.0.1:${port}`,
    async openExtensionPage(path) {
      const page = await context.newPage();
      await page.goto(extensionUrl(path));
      return page;
    },
    async close() {
      await context.close();
      await new Promise((done) => server.close(done));
      await rm(profile, { recursive: true, force: true });
    },
  };
}

interface ExecutionContext {
  id: number;
  origin: string;
  name: string;
  auxData?: { type?: string; frameId?: string; isDefault?: boolean };
}

/**
 * Evaluates `expression` in the isolated world of our content script in `page`'s top frame (the
 * DevTools protocol can; page scripts cannot) and returns its value; promises are awaited. Waits
 * until the content script has run (its `polyglot` global exists). The page's `srcdoc` and
 * `about:blank` frames run in its process and have our content script too: their worlds are
 * passed over. Given a frame of another site (a process of its own), in that frame's.
 */
export async function evaluateInContentScript<T>(page: Page | Frame, extensionId: string, expression: string): Promise<T> {
  const session = await ('context' in page ? page.context() : page.page().context()).newCDPSession(page);
  try {
    const contexts: ExecutionContext[] = [];
    session.on('Runtime.executionContextCreated', ({ context }) => contexts.push(context as ExecutionContext));
    await session.send('Runtime.enable');
    const top = (await session.send('Page.getFrameTree')).frameTree.frame.id;
    const deadline = Date.now() + 10_000;
    for (;;) {
      for (const ctx of contexts.filter((c) => c.origin === `chrome-extension://${extensionId}` && c.auxData?.type === 'isolated' && c.auxData.frameId === top)) {
        const ready = await session
          .send('Runtime.evaluate', { expression: 'typeof globalThis.polyglot', contextId: ctx.id, returnByValue: true })
          .catch(() => undefined);
        if (ready?.result.value !== 'object') continue;
        const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
          expression,
          contextId: ctx.id,
          awaitPromise: true,
          returnByValue: true,
        });
        if (exceptionDetails) throw new Error(`in the content script: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        return result.value as T;
      }
      if (Date.now() > deadline) throw new Error(`no content script of ${extensionId} in ${page.url()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** Stops every service worker of the profile, as Chromium does after 30 s idle. */
export async function stopServiceWorkers(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('ServiceWorker.enable');
    await session.send('ServiceWorker.stopAllWorkers');
  } finally {
    await session.detach().catch(() => undefined);
  }
}
