/**
 * The content script reaches the engine by message; a web page reaches nothing. The page server
 * is 127.0.0.1, where the manifest puts the content script.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInContentScript, launchExtension, type ExtensionBrowser } from './browser';

describe('content script and web page', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtension();
    page = await browser.context.newPage();
    await page.goto(`${browser.pageOrigin}/article.html`);
  });
  afterAll(() => browser?.close());

  it('the content script gets the translation by message', async () => {
    const reply = await evaluateInContentScript(
      page,
      browser.id,
      `polyglot.callApi('Translate', { src: 'en', trg: 'es', dat: ['Hello world'] })`,
    );
    expect(reply).toEqual({ status: 200, body: { dat: [{ rid: 'apertium.ts', text: [expect.stringMatching(/^Hola mundo$/i)], length: 11 }] } });
  });

  it('the content script gets interface errors as replies, like HTTP', async () => {
    const reply = await evaluateInContentScript(page, browser.id, `polyglot.callApi('Translate', { src: 'en', trg: 'en', dat: ['x'] })`);
    expect(reply).toEqual({ status: 400, body: { err: expect.any(String) } });
  });

  it('the content script can stream a Translate too', async () => {
    const result = await evaluateInContentScript<{ items: unknown[]; reply: unknown }>(
      page,
      browser.id,
      `(async () => {
        const items = [];
        const reply = await polyglot.translateStream({ src: 'en', trg: 'es', dat: ['Hello world'] }, (item) => items.push(item));
        return { items, reply };
      })()`,
    );
    const item = { rid: 'apertium.ts', text: [expect.stringMatching(/^Hola mundo$/i)], length: 11 };
    expect(result).toEqual({ items: [item], reply: { status: 200, body: { dat: [item] } } });
  });

  it('the content script may not read or write settings', async () => {
    const replies = await evaluateInContentScript(
      page,
      browser.id,
      `Promise.all([
        chrome.runtime.sendMessage({ type: 'settings:get', data: { withSecrets: true } }),
        chrome.runtime.sendMessage({ type: 'settings:set', data: { settings: {} } }),
      ])`,
    );
    expect(replies).toEqual([
      { error: { status: 403, message: expect.any(String) } },
      { error: { status: 403, message: expect.any(String) } },
    ]);
  });

  it('a page script sees neither the engine nor a way to message the extension', async () => {
    const seen = await page.evaluate(async (id) => {
      const w = window as unknown as { polyglot?: unknown; chrome?: { runtime?: { sendMessage?: unknown } } };
      let sendResult: string;
      try {
        const send = w.chrome?.runtime?.sendMessage as ((id: string, m: unknown) => Promise<unknown>) | undefined;
        if (!send) sendResult = 'no sendMessage';
        else sendResult = `answered ${JSON.stringify(await send(id, { type: 'api', data: { fn: 'GetProviders', params: {} } }))}`;
      } catch (e) {
        sendResult = `threw ${String(e)}`;
      }
      return { polyglot: typeof w.polyglot, sendResult };
    }, browser.id);
    expect(seen.polyglot).toBe('undefined');
    expect(seen.sendResult).not.toMatch(/^answered/);
  });

  it('a page cannot fetch the extension\'s /api', async () => {
    const result = await page.evaluate(async (id) => {
      try {
        const res = await fetch(`chrome-extension://${id}/api/GetProviders`);
        return `status ${res.status}: ${await res.text()}`;
      } catch (e) {
        return `failed: ${String(e)}`;
      }
    }, browser.id);
    expect(result).toMatch(/^failed/);
  });
});
