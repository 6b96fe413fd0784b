/**
 * The settings document in storage.local under `settings` (decisions.md: never storage.sync, it
 * holds keys). Module state is only a cache: the worker may die between two calls, and another
 * context may write storage directly, so storage.onChanged drops the cache.
 */
import type { Storage } from 'webextension-polyfill';
import { ext } from '../shared/browser';
import { ApiError } from '../core/errors';
import { DEFAULT_SETTINGS } from '../core/settings/defaults';
import type { Settings } from '../core/settings/types';
import { validateSettings } from '../core/settings/validate';

export const SETTINGS_KEY = 'settings';

export interface SettingsStore {
  get(): Promise<Settings>;
  /** Validates and stores; throws ApiError 400 naming the field of a malformed document. */
  set(doc: unknown): Promise<Settings>;
}

export function createSettingsStore(
  area: Pick<Storage.StorageArea, 'get' | 'set'> = ext().storage.local,
  onChanged: Storage.Static['onChanged'] = ext().storage.onChanged,
): SettingsStore {
  let cache: Promise<Settings> | undefined;

  onChanged.addListener((changes, areaName) => {
    if (areaName === 'local' && SETTINGS_KEY in changes) cache = undefined;
  });

  async function load(): Promise<Settings> {
    const stored = (await area.get(SETTINGS_KEY))[SETTINGS_KEY];
    // No settings at all is a fresh install: the defaults (local APy) make it work at once.
    if (stored === undefined) return DEFAULT_SETTINGS;
    try {
      return validateSettings(stored);
    } catch (e) {
      // Only reachable if something bypassed set(): the engine cannot run, but it is not the
      // caller's request that is bad, so this must not look like a 400 of the interface.
      throw new ApiError(500, `stored settings are invalid (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  return {
    get() {
      if (!cache) {
        const loading = load();
        cache = loading;
        // A failed read is not cached: the next call tries storage again.
        loading.catch(() => {
          if (cache === loading) cache = undefined;
        });
      }
      return cache;
    },
    async set(doc) {
      const settings = validateSettings(doc);
      await area.set({ [SETTINGS_KEY]: settings });
      cache = Promise.resolve(settings);
      return settings;
    },
  };
}
