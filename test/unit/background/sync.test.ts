/** Non-secret preferences mirrored to storage.sync; keys, usage, log and handoff never. */
import type { Browser, Storage } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { mirror, reconcile, registerSync, SYNCED_KEYS } from '../../../src/background/sync';
import { fakeEvent } from './fakes';

type OnChanged = (changes: Record<string, Storage.StorageChange>, area: string) => void;

/** storage.local and storage.sync sharing one onChanged, as the browser has it. */
function fakeAreas(local0: Record<string, unknown> = {}, sync0: Record<string, unknown> = {}) {
  const onChanged = fakeEvent<OnChanged>();
  const area = (name: string, initial: Record<string, unknown>) => {
    const data = new Map<string, unknown>(Object.entries(initial));
    let writes = 0;
    return {
      data,
      writes: () => writes,
      async get(keys?: string | string[] | null) {
        const names = typeof keys === 'string' ? [keys] : Array.isArray(keys) ? keys : [...data.keys()];
        return Object.fromEntries(names.filter((k) => data.has(k)).map((k) => [k, structuredClone(data.get(k))]));
      },
      async set(items: Record<string, unknown>) {
        writes += 1;
        const changes: Record<string, Storage.StorageChange> = {};
        for (const [k, v] of Object.entries(items)) {
          changes[k] = { oldValue: data.get(k), newValue: v };
          data.set(k, structuredClone(v));
        }
        // As in the browser: listeners run after the write, asynchronously.
        setTimeout(() => onChanged.emit(changes, name), 0);
      },
    };
  };
  return { local: area('local', local0), sync: area('sync', sync0), onChanged };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
const SECRETS = { settings: { providers: { 'deepl.ts': { enabled: true, key: 'deepl-SECRET-key' } }, keys: [{ name: 'app', key: 'api-SECRET-key' }] } };

describe('preferences sync', () => {
  it('mirrors only the listed ui keys, never settings, usage, the log or the handoff', async () => {
    const { local, sync, onChanged } = fakeAreas();
    const browser = { storage: { local, sync, onChanged }, runtime: { onStartup: fakeEvent(), onInstalled: fakeEvent() } } as unknown as Browser;
    registerSync(browser);
    await local.set({
      ...SECRETS,
      'usage:usage': { keys: { app: { requests: 1, chars: 5 } } },
      'log:entries': [{ at: 1, site: 'https://a.test', providers: ['google.ts'], chars: 3 }],
      'ui:handoff': { text: 'selected private text', at: 1 },
      'ui:popup': { src: 'en', trg: 'es', recent: [['en', 'es']] },
      'ui:routes': { 'en>es': { order: ['libre.ts'], off: [] } },
      'ui:sites': { sites: { 'bank.test': { private: true } }, languages: {} },
    });
    await settle();
    expect([...sync.data.keys()].sort()).toEqual(['ui:popup', 'ui:routes', 'ui:sites']);
    const written = JSON.stringify([...sync.data.entries()]);
    expect(written).not.toMatch(/SECRET|selected private text|log|usage/);
    expect(sync.data.get('ui:sites')).toEqual({ sites: { 'bank.test': { private: true } }, languages: {} });
  });

  it('brings another device\'s change into local once, without echoing it back', async () => {
    const { local, sync, onChanged } = fakeAreas();
    const browser = { storage: { local, sync, onChanged }, runtime: { onStartup: fakeEvent(), onInstalled: fakeEvent() } } as unknown as Browser;
    registerSync(browser);
    await sync.set({ 'ui:bubble': { trg: 'fr' } });
    await settle();
    expect(local.data.get('ui:bubble')).toEqual({ trg: 'fr' });
    expect(sync.writes()).toBe(1);
    expect(local.writes()).toBe(1);
  });

  it('at startup takes what sync holds, and uploads what only local has', async () => {
    const { local, sync } = fakeAreas({ 'ui:popup': { trg: 'de' }, 'ui:routes': { a: 1 }, ...SECRETS }, { 'ui:popup': { trg: 'fr' } });
    await reconcile(local, sync);
    expect(local.data.get('ui:popup')).toEqual({ trg: 'fr' });
    expect(sync.data.get('ui:routes')).toEqual({ a: 1 });
    expect(sync.data.has('settings')).toBe(false);
  });

  it('mirror writes nothing when the other side already has the value', async () => {
    const { sync } = fakeAreas({}, { 'ui:popup': { trg: 'fr' } });
    expect(await mirror({ 'ui:popup': { newValue: { trg: 'fr' } }, settings: { newValue: SECRETS.settings } }, sync)).toEqual([]);
    expect(sync.writes()).toBe(0);
    expect(SYNCED_KEYS).not.toContain('settings');
  });
});
