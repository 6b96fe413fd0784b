/**
 * Where the engine keeps usage counters: storage.local, each key under the `usage` prefix so it can
 * never collide with `settings` (decisions.md: usage is kept across restarts).
 */
import type { Storage } from 'webextension-polyfill';
import { ext } from '../shared/browser';
import type { KeyValueStore } from '../core/storage';

export const USAGE_PREFIX = 'usage:';

export function storageKeyValueStore(
  area: Pick<Storage.StorageArea, 'get' | 'set'> = ext().storage.local,
  prefix: string = USAGE_PREFIX,
): KeyValueStore {
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const name = prefix + key;
      return (await area.get(name))[name] as T | undefined;
    },
    async set(key, value) {
      await area.set({ [prefix + key]: value });
    },
  };
}
