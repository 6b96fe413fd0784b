/**
 * Privacy routing: which providers are local, and what the background does to a private site's
 * calls (src/background/content-calls.ts) before the engine sees them.
 */
import type { Runtime, Tabs } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { prepareContentCall } from '../../../src/background/content-calls';
import { createProviderLog } from '../../../src/background/provider-log';
import { createSettingsStore } from '../../../src/background/settings';
import { createSitesStore } from '../../../src/background/sites';
import { isLocalProvider, isLoopbackUrl, localOnly, routeProviders } from '../../../src/core/privacy';
import { withDefaults } from '../../../src/core/settings/defaults';
import type { CallOptions } from '../../../src/core/service-types';
import type { LooseParams } from '../../../src/core/types';
import { PROVIDERS } from '../../../src/providers/index';
import { fakeStorage } from '../background/fakes';

describe('local providers', () => {
  it('knows loopback URLs', () => {
    for (const url of ['http://127.0.0.1:2737', 'http://127.1.2.3/', 'http://localhost:5000', 'http://llm.localhost', 'http://[::1]:8080']) expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ['https://api.deepl.com', 'http://127.0.0.1.example.com', 'http://10.0.0.1', 'not a url', 'http://localhost.evil.com']) expect(isLoopbackUrl(url), url).toBe(false);
  });

  it('counts on-device Chrome and providers at a loopback URL (their own or the default) as local', () => {
    const settings = withDefaults({
      providers: {
        'apertium.ts': { enabled: true },
        'libre.ts': { enabled: true, url: 'http://localhost:5000' },
        'llm.ts': { enabled: true, key: 'k' },
        'google.ts': { enabled: true },
        'remote.ts': { enabled: true, url: 'https://translate.example' },
      },
    });
    const local = (id: string) => isLocalProvider(id, settings, PROVIDERS);
    expect(['apertium.ts', 'libre.ts', 'chrome.ts'].filter(local)).toEqual(['apertium.ts', 'libre.ts', 'chrome.ts']);
    expect(['llm.ts', 'google.ts', 'remote.ts', 'deepl.ts', 'nope.ts'].some(local)).toBe(false);
    expect(localOnly(withDefaults({ providers: { 'apertium.ts': { url: 'https://apy.example' } } }), PROVIDERS)('apertium.ts')).toBe(false);
    expect(routeProviders('google.ts,en,apertium.ts')).toEqual(['google.ts', 'apertium.ts']);
  });
});

const SENDER = { id: 'ext', url: 'https://www.bank.test/account', origin: 'https://www.bank.test', tab: { id: 4 } as Tabs.Tab, frameId: 0 } as Runtime.MessageSender;

function setup(routes: string[], sites: unknown = { sites: { 'bank.test': { private: true } }, languages: {} }) {
  const storage = fakeStorage({
    'ui:sites': sites,
    'log:on': true,
    settings: { providers: { 'apertium.ts': { enabled: true }, 'google.ts': { enabled: true }, 'deepl.ts': { enabled: true, key: 'secret-deepl' } } },
  });
  const calls: { fn: string; params: LooseParams; options?: CallOptions }[] = [];
  const service = {
    async call(fn: string, params: LooseParams, options?: CallOptions) {
      calls.push({ fn, params, ...(options ? { options } : {}) });
      return { status: 200, body: routes };
    },
  };
  const deps = {
    service,
    settings: createSettingsStore(storage.area, storage.onChanged),
    sites: createSitesStore(() => storage.area),
    log: createProviderLog(() => storage.area),
    now: () => 1000,
  };
  return { deps, calls, storage };
}

describe('a private site\'s calls', () => {
  const routes = ['google.ts', 'apertium.ts', 'google.ts,en,apertium.ts', 'apertium.ts,en,apertium.ts'];

  it('get only the local routes as rid, and allowProviders for failover', async () => {
    const { deps } = setup(routes);
    const prepared = await prepareContentCall('Translate', { src: 'fr', trg: 'es', dat: ['Bonjour'] }, SENDER, deps);
    expect(prepared.refuse).toBeUndefined();
    expect(prepared.params['rid']).toEqual(['apertium.ts', 'apertium.ts,en,apertium.ts']);
    const allow = prepared.options.allowProviders!;
    expect([allow('apertium.ts'), allow('chrome.ts'), allow('google.ts'), allow('deepl.ts')]).toEqual([true, true, false, false]);
  });

  it('keep the caller\'s own local rids, in its order, and drop its others', async () => {
    const { deps } = setup(routes);
    const prepared = await prepareContentCall('Translate', { src: 'fr', trg: 'es', dat: ['x'], rid: ['google.ts', 'apertium.ts,en,apertium.ts'] }, SENDER, deps);
    expect(prepared.params['rid']).toEqual(['apertium.ts,en,apertium.ts']);
  });

  it('are refused with 403 when no route is local, before any provider sees the text', async () => {
    const { deps, calls } = setup(['google.ts', 'deepl.ts']);
    const prepared = await prepareContentCall('Translate', { src: 'fr', trg: 'es', dat: ['x'] }, SENDER, deps);
    expect(prepared.refuse).toMatchObject({ status: 403, body: { err: expect.stringContaining('private') } });
    expect(calls.map((c) => c.fn)).toEqual(['GetRoutes']);
  });

  it('of a private top page apply to its third-party frames too', async () => {
    const { deps } = setup(routes);
    const frame = { ...SENDER, url: 'https://widgets.test/w', origin: 'https://widgets.test', tab: { id: 4, url: 'https://bank.test/' } as Tabs.Tab, frameId: 3 };
    expect((await prepareContentCall('Translate', { src: 'fr', trg: 'es', dat: ['x'] }, frame, deps)).options.allowProviders).toBeDefined();
  });

  it('of other sites pass through untouched', async () => {
    const { deps, calls } = setup(routes);
    const open = { ...SENDER, url: 'https://news.test/', origin: 'https://news.test' };
    const params = { src: 'fr', trg: 'es', dat: ['x'] };
    const prepared = await prepareContentCall('Translate', params, open, deps);
    expect(prepared).toMatchObject({ params, options: {} });
    expect(calls).toEqual([]);
  });
});

describe('the provider log', () => {
  it('records site, providers and characters of each Translate, never the text', async () => {
    const { deps, storage } = setup(['google.ts']);
    const prepared = await prepareContentCall('Translate', { src: 'fr', trg: 'es', dat: ['Bonjour', 'à tous'] }, { ...SENDER, url: 'https://news.test/a', origin: 'https://news.test' } as Runtime.MessageSender, deps);
    prepared.done({ status: 200, body: { dat: [{ rid: 'google.ts', text: ['Hola', 'a todos'], length: 13 }, { rid: 'deepl.ts,en,apertium.ts', err: '503 down', length: 0 }] } });
    await deps.log.entries();
    expect(storage.data.get('log:entries')).toEqual([{ at: 1000, site: 'https://news.test', providers: ['apertium.ts', 'deepl.ts', 'google.ts'], chars: 13 }]);
    expect(JSON.stringify(storage.data.get('log:entries'))).not.toMatch(/Bonjour|Hola/);
  });
});
