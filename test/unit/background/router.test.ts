import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { asOnMessageListener, createMessageHandler } from '../../../src/background/router';
import { createSettingsStore } from '../../../src/background/settings';
import type { CallOptions } from '../../../src/core/service-types';
import type { LooseParams, Params } from '../../../src/core/types';
import { CONTENT_SENDER, fakeStorage, OPTIONS_SENDER, OTHER_EXTENSION, PAGE_SENDER, SELF } from './fakes';

const STORED = {
  providers: { 'deepl.ts': { enabled: true, key: 'deepl-secret' } },
  keys: [{ name: 'app', key: 'k-secret-1' }],
};

function setup() {
  const calls: { fn: string; params: Params | LooseParams; options?: CallOptions }[] = [];
  let flushes = 0;
  const service = {
    async call(fn: string, params: Params | LooseParams, options?: CallOptions) {
      calls.push({ fn, params, ...(options ? { options } : {}) });
      return { status: 200, body: { fn } };
    },
    async flush() {
      flushes += 1;
    },
    health() {
      return { 'apertium.ts': { state: 'ok' as const, latency_ms: { p50: 30, p90: 45 }, in_flight: 0, queued: 0, requests: 3, failures: 0 } };
    },
  };
  const storage = fakeStorage({ settings: STORED });
  const settings = createSettingsStore(storage.area, storage.onChanged);
  const listener = createMessageHandler({ service, settings, self: SELF });
  const ask = (message: unknown, sender: Runtime.MessageSender) => listener(message, sender);
  return { calls, flushes: () => flushes, storage, ask };
}

describe('router', () => {
  it('passes api calls from pages and content scripts to the service as trusted, with their origin', async () => {
    const { calls, ask, flushes } = setup();
    const params = { src: 'en', trg: 'es', dat: ['a', 'b'] };
    expect(await ask({ type: 'api', data: { fn: 'Translate', params } }, CONTENT_SENDER)).toEqual({
      data: { status: 200, body: { fn: 'Translate' } },
    });
    await ask({ type: 'api', data: { fn: 'GetProviders', params: {} } }, PAGE_SENDER);
    expect(calls).toEqual([
      { fn: 'Translate', params, options: { trusted: true, origin: 'http://127.0.0.1:8000' } },
      { fn: 'GetProviders', params: {}, options: { trusted: true, origin: SELF.origin } },
    ]);
    expect(flushes()).toBe(2);
  });

  it('does not answer other extensions or anything that is not a protocol message', () => {
    const { calls, ask } = setup();
    expect(ask({ type: 'api', data: { fn: 'GetProviders', params: {} } }, OTHER_EXTENSION)).toBeUndefined();
    expect(ask({ type: 'nope', data: {} }, PAGE_SENDER)).toBeUndefined();
    expect(ask('api', PAGE_SENDER)).toBeUndefined();
    expect(ask({ type: 'api' }, PAGE_SENDER)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('reports provider health to extension pages only', async () => {
    const { ask } = setup();
    expect(await ask({ type: 'health', data: {} }, PAGE_SENDER)).toMatchObject({ data: { 'apertium.ts': { state: 'ok', latency_ms: { p90: 45 } } } });
    expect(await ask({ type: 'health', data: {} }, CONTENT_SENDER)).toMatchObject({ error: { status: 403 } });
  });

  it('answers a malformed api request with 400', async () => {
    const { ask } = setup();
    const reply = await ask({ type: 'api', data: { fn: 3, params: {} } }, PAGE_SENDER);
    expect(reply).toMatchObject({ error: { status: 400 } });
  });

  it('gives settings to extension pages with keys left out, and refuses content scripts', async () => {
    const { ask } = setup();
    const reply = await ask({ type: 'settings:get', data: {} }, PAGE_SENDER);
    expect(JSON.stringify(reply)).not.toContain('secret');
    expect(reply).toMatchObject({ data: { providers: { 'deepl.ts': { enabled: true } }, keys: [{ name: 'app' }] } });
    expect(await ask({ type: 'settings:get', data: {} }, CONTENT_SENDER)).toMatchObject({ error: { status: 403 } });
  });

  it('gives the keys only to the options page', async () => {
    const { ask } = setup();
    const fromPage = await ask({ type: 'settings:get', data: { withSecrets: true } }, PAGE_SENDER);
    expect(JSON.stringify(fromPage)).not.toContain('secret');
    const fromOptions = await ask({ type: 'settings:get', data: { withSecrets: true } }, OPTIONS_SENDER);
    expect(fromOptions).toMatchObject({ data: { providers: { 'deepl.ts': { key: 'deepl-secret' } }, keys: [{ key: 'k-secret-1' }] } });
  });

  it('stores settings only from the options page, and answers a bad document with 400 naming the field', async () => {
    const { ask, storage } = setup();
    expect(await ask({ type: 'settings:set', data: { settings: { interlinguas: ['ca'] } } }, PAGE_SENDER)).toMatchObject({
      error: { status: 403 },
    });
    const bad = await ask({ type: 'settings:set', data: { settings: { limits: { textSize: 0 } } } }, OPTIONS_SENDER);
    expect(bad).toEqual({ data: { status: 400, body: { err: expect.stringContaining('settings.limits.textSize') } } });
    expect(storage.data.get('settings')).toEqual(STORED);
    const good = await ask({ type: 'settings:set', data: { settings: { interlinguas: ['ca'], mine: 1 } } }, OPTIONS_SENDER);
    expect(good).toMatchObject({ data: { status: 200, body: { interlinguas: ['ca'], mine: 1 } } });
    expect(storage.data.get('settings')).toMatchObject({ interlinguas: ['ca'], mine: 1 });
  });
});

describe('asOnMessageListener', () => {
  it('keeps the channel open and replies through sendResponse, or leaves the message alone', async () => {
    const listener = asOnMessageListener((m) => (m === 'mine' ? Promise.resolve({ data: 1 }) : undefined));
    const replies: unknown[] = [];
    expect(listener('mine', PAGE_SENDER, (r) => replies.push(r))).toBe(true);
    expect(listener('other', PAGE_SENDER, (r) => replies.push(r))).toBeUndefined();
    await Promise.resolve();
    expect(replies).toEqual([{ data: 1 }]);
  });
});
