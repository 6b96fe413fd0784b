/**
 * Privacy routing end to end in the worker's code: router + content policy + the real service over
 * fake providers. A private site's text never reaches the non-local provider, not even as failover
 * when the local one fails (that part needs the engine to honour CallOptions.allowProviders).
 */
import type { Runtime, Tabs } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { contentPolicy } from '../../../src/background/content-calls';
import { createProviderLog } from '../../../src/background/provider-log';
import { createMessageHandler } from '../../../src/background/router';
import { createSettingsStore } from '../../../src/background/settings';
import { createSitesStore } from '../../../src/background/sites';
import { createService } from '../../../src/core/service';
import { memoryStore } from '../../../src/core/storage';
import { fakeProvider, type FakeOptions } from '../../fakes/fake-provider';
import { fakeStorage, SELF } from '../background/fakes';

const sender = (url: string) => ({ id: SELF.id, url, origin: new URL(url).origin, tab: { id: 9 } as Tabs.Tab, frameId: 0 }) as Runtime.MessageSender;

function setup(local: FakeOptions = {}) {
  const apertium = fakeProvider({ id: 'apertium.ts', ...local });
  const google = fakeProvider({ id: 'google.ts' });
  const modules = [apertium.module, google.module];
  const storage = fakeStorage({
    settings: {
      providers: { 'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' }, 'google.ts': { enabled: true } },
      ranking: ['google.ts', 'apertium.ts'],
      interlinguas: [],
    },
    'ui:sites': { sites: { 'bank.test': { private: true } }, languages: {} },
  });
  const settings = createSettingsStore(storage.area, storage.onChanged);
  const service = createService({ settings: () => settings.get(), providers: modules, store: memoryStore(), fetch: globalThis.fetch });
  const sites = createSitesStore(() => storage.area);
  const log = createProviderLog(() => storage.area);
  const ask = createMessageHandler({ service, settings, self: SELF, sites, log, contentPolicy: contentPolicy({ service, settings, sites, log, modules }) });
  const translate = (url: string, params: Record<string, unknown> = {}) =>
    ask({ type: 'api', data: { fn: 'Translate', params: { src: 'en', trg: 'es', dat: ['Hello'], min: 1, max: 1, ...params } } }, sender(url)) as Promise<{ data: { status: number; body: { dat: { rid: string }[] } } }>;
  return { apertium: apertium.stats, google: google.stats, translate };
}

describe('privacy routing through the real service', () => {
  it('sends a private site\'s text to the local provider only, although another one ranks first', async () => {
    const { apertium, google, translate } = setup();
    const reply = await translate('https://www.bank.test/a', { max: 2 });
    expect(reply.data.status).toBe(200);
    expect(reply.data.body.dat.map((d) => d.rid)).toEqual(['apertium.ts']);
    expect(apertium.requests).toHaveLength(1);
    expect(google.requests).toHaveLength(0);
  });

  it('uses the top-ranked provider for any other site', async () => {
    const { google, translate } = setup();
    const reply = await translate('https://news.test/a');
    expect(reply.data.body.dat.map((d) => d.rid)).toEqual(['google.ts']);
    expect(google.requests).toHaveLength(1);
  });

  // Needs the engine to honour CallOptions.allowProviders (src/core/service.ts, asked of the lead).
  it('does not fail over to the non-local provider when the local one fails', async () => {
    const { apertium, google, translate } = setup({ failWith: 503 });
    const reply = await translate('https://bank.test/');
    expect(apertium.requests.length).toBeGreaterThan(0);
    expect(google.requests).toHaveLength(0);
    expect(reply.data.status).toBe(503);
  });

  it('fails over as usual for other sites (so the test above can fail)', async () => {
    const { google, translate } = setup({ failWith: 503 });
    const reply = await translate('https://news.test/', { rid: ['apertium.ts'] });
    expect(reply.data.status).toBe(200);
    expect(google.requests).toHaveLength(1);
  });
});
