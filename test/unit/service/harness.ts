/** Builds a service over fake providers, with settings and a store the test can inspect. */
import { createService } from '../../../src/core/service';
import type { ProviderModule } from '../../../src/core/provider';
import type { Settings } from '../../../src/core/settings/types';
import { memoryStore, type KeyValueStore } from '../../../src/core/storage';
import type { ApiReply, LooseParams } from '../../../src/core/types';

export const KEY = 'test-key-0001';

export function settingsFor(modules: readonly ProviderModule[], extra: Partial<Settings> = {}): Settings {
  return {
    providers: Object.fromEntries(modules.map((m) => [m.id, { enabled: true }])),
    ranking: modules.map((m) => m.id),
    interlinguas: ['en'],
    keys: [{ name: 'tester', key: KEY }],
    limits: { textSize: 1000 },
    ...extra,
  };
}

export function harness(modules: readonly ProviderModule[], extra: Partial<Settings> = {}, store: KeyValueStore = memoryStore()) {
  const settings = settingsFor(modules, extra);
  const service = createService({ settings: async () => settings, providers: modules, store, fetch: globalThis.fetch });
  const call = (fn: string, params: LooseParams, trusted = false): Promise<ApiReply> =>
    service.call(fn, { auth: trusted ? undefined : KEY, ...params }, { trusted });
  return { service, settings, store, call };
}

export const body = <T>(r: ApiReply): T => r.body as T;
