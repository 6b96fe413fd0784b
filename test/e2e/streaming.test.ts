/**
 * Streaming Translate over the `translate` port, from an extension page: each route's tr_obj as it
 * settles, then the whole reply. Two routes: Apertium direct and Apertium chained through Catalan.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, OPTIONS_PATH, stopServiceWorkers, type ExtensionBrowser } from './browser';

interface ChromeLike {
  runtime: {
    sendMessage(m: unknown): Promise<unknown>;
    connect(info: { name: string }): {
      postMessage(m: unknown): void;
      disconnect(): void;
      onMessage: { addListener(l: (m: { type: string }) => void): void };
      onDisconnect: { addListener(l: () => void): void };
    };
  };
}

function message(page: Page, msg: unknown): Promise<unknown> {
  return page.evaluate((m) => (globalThis as unknown as { chrome: ChromeLike }).chrome.runtime.sendMessage(m), msg);
}

/** Everything the worker posts on one `translate` port, in order, until done or error. */
function stream(page: Page, params: Record<string, unknown>): Promise<{ type: string; [k: string]: unknown }[]> {
  return page.evaluate(
    (p) =>
      new Promise<{ type: string }[]>((resolve) => {
        const { chrome } = globalThis as unknown as { chrome: ChromeLike };
        const port = chrome.runtime.connect({ name: 'translate' });
        const events: { type: string }[] = [];
        port.onMessage.addListener((m) => {
          events.push(m);
          if (m.type === 'done' || m.type === 'error') {
            port.disconnect();
            resolve(events);
          }
        });
        port.onDisconnect.addListener(() => resolve(events));
        port.postMessage({ params: p });
      }),
    params,
  ) as Promise<{ type: string; [k: string]: unknown }[]>;
}

const CHAINED = 'apertium.ts,ca,apertium.ts';

describe('streaming Translate over the translate port', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtension();
    page = await browser.openExtensionPage(OPTIONS_PATH);
    const set = await message(page, { type: 'settings:set', data: { settings: { providers: { 'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' } }, interlinguas: ['ca'] } } });
    expect(set).toMatchObject({ data: { status: 200, body: { interlinguas: ['ca'] } } });
  });
  afterAll(() => browser?.close());

  it('the new interlingua gives a second route, also after the worker was stopped', async () => {
    const routes = { type: 'api', data: { fn: 'GetRoutes', params: { src: 'en', trg: 'es' } } };
    expect(await message(page, routes)).toEqual({ data: { status: 200, body: ['apertium.ts', CHAINED] } });
    await stopServiceWorkers(page);
    expect(await message(page, routes)).toEqual({ data: { status: 200, body: ['apertium.ts', CHAINED] } });
  });

  it('min=max=2 delivers two result items, then done with both routes', async () => {
    const events = await stream(page, { src: 'en', trg: 'es', dat: ['Hello world'], min: 2, max: 2 });
    expect(events.map((e) => e.type)).toEqual(['result', 'result', 'done']);
    const items = events.slice(0, 2).map((e) => e['item'] as { rid: string; text: string[] });
    expect(items.map((i) => i.rid).sort()).toEqual(['apertium.ts', CHAINED]);
    for (const item of items) expect(item.text).toEqual([expect.stringMatching(/^Hola mundo$/i)]);
    const done = events[2] as unknown as { reply: { status: number; body: { dat: { rid: string }[] } } };
    expect(done.reply.status).toBe(200);
    // The reply lists the routes in route-list order, whatever order they settled in.
    expect(done.reply.body.dat.map((d) => d.rid)).toEqual(['apertium.ts', CHAINED]);
  });

  it('a bad request ends the stream with done carrying the 400, like HTTP', async () => {
    const events = await stream(page, { src: 'en', trg: 'es', dat: ['x'], min: 3, max: 2 });
    expect(events).toEqual([{ type: 'done', reply: { status: 400, body: { err: expect.any(String) } } }]);
  });
});
