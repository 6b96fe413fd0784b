/**
 * The demo: Chromium with the built extension (dist/) on a local English page, translated in
 * place into Spanish by Apertium running on this machine (offline). With a display it opens a
 * window and stays until you close it or press Ctrl+C; without one it runs headless, saves a
 * screenshot before and after, and exits.
 */
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { extensionArgs } from './chromium-args';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');
const headless = !process.env.DISPLAY || process.env.DEMO_HEADLESS === '1';

const html = await readFile(resolve(ROOT, 'scripts/demo/page.html'));
const server = createServer((req, res) => {
  if (req.url === '/' || req.url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  } else {
    res.writeHead(404).end();
  }
});
await new Promise<void>((r) => server.listen(Number(process.env.DEMO_PORT ?? 0), '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const profile = await mkdtemp(join(tmpdir(), 'polyglot-demo-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: false,
  viewport: { width: 1100, height: 900 },
  args: [
    ...(headless ? ['--headless=new'] : []),
    // Offline: nothing but this machine is reachable, so only the local Apertium translates.
    ...extensionArgs(DIST),
  ],
});
const cleanup = async () => {
  await context.close().catch(() => undefined);
  server.close();
  await rm(profile, { recursive: true, force: true });
};
process.on('SIGINT', () => void cleanup().then(() => process.exit(0)));

const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
const id = new URL(worker.url()).host;
const page = context.pages()[0] ?? (await context.newPage());
await page.goto(`${origin}/`);
if (headless) await page.screenshot({ path: resolve(ROOT, 'artifacts/demo-before.png') });

// What the popup's "Translate this page" button does: a message from an extension page.
const control = await context.newPage();
await control.goto(`chrome-extension://${id}/src/ui/options/index.html`);
interface ChromeApi {
  tabs: { query(q: { url: string }): Promise<{ id?: number }[]> };
  runtime: { sendMessage(m: unknown): Promise<unknown> };
}
const status = await control.evaluate(async (url) => {
  const { chrome } = globalThis as unknown as { chrome: ChromeApi };
  const [tab] = await chrome.tabs.query({ url: `${url}/*` });
  if (!tab?.id) throw new Error('demo page tab not found');
  return chrome.runtime.sendMessage({ type: 'page:translate', data: { tabId: tab.id, src: 'en', trg: 'es' } });
}, origin);
await control.close();
await page.bringToFront();
await page.waitForFunction(() => document.documentElement.lang === 'es', undefined, { timeout: 30_000 }).catch(() => undefined);
await page.waitForTimeout(1500);
console.log(`extension ${id}: page translation`, JSON.stringify(status));
console.log('heading now reads:', await page.textContent('h1'));

if (headless) {
  await page.screenshot({ path: resolve(ROOT, 'artifacts/demo-after.png') });
  console.log('no display: screenshots in artifacts/demo-before.png and artifacts/demo-after.png');
  await cleanup();
} else {
  console.log('Chromium is open on the demo page. Alt+Shift+T shows the original; close the window or press Ctrl+C to stop.');
  context.on('close', () => void cleanup().then(() => process.exit(0)));
}
