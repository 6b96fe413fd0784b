import { describe, expect, it } from 'vitest';
import { createSettingsStore, SETTINGS_KEY } from '../../../src/background/settings';
import { storageKeyValueStore } from '../../../src/background/usage-store';
import { ApiError } from '../../../src/core/errors';
import { DEFAULT_SETTINGS } from '../../../src/core/settings/defaults';
import { fakeStorage } from './fakes';

describe('settings store', () => {
  it('gives the defaults on a fresh install (nothing stored)', async () => {
    const { area, onChanged } = fakeStorage();
    const store = createSettingsStore(area, onChanged);
    expect(await store.get()).toEqual(DEFAULT_SETTINGS);
    expect((await store.get()).providers['apertium.ts']?.url).toBe('http://127.0.0.1:2737');
  });

  it('reads storage once, and again after the document changed in storage', async () => {
    const storage = fakeStorage({ [SETTINGS_KEY]: { interlinguas: ['ca'], custom: 1 } });
    const store = createSettingsStore(storage.area, storage.onChanged);
    expect((await store.get()).interlinguas).toEqual(['ca']);
    await store.get();
    expect(storage.reads()).toBe(1);
    // Another context (or a previous life of this worker) writes storage directly.
    await storage.area.set({ [SETTINGS_KEY]: { interlinguas: ['es'] } });
    expect((await store.get()).interlinguas).toEqual(['es']);
    expect(storage.reads()).toBe(2);
  });

  it('ignores changes of other keys', async () => {
    const storage = fakeStorage();
    const store = createSettingsStore(storage.area, storage.onChanged);
    await store.get();
    await storage.area.set({ 'usage:x': 1 });
    await store.get();
    expect(storage.reads()).toBe(1);
  });

  it('validates before storing and keeps unknown fields', async () => {
    const storage = fakeStorage();
    const store = createSettingsStore(storage.area, storage.onChanged);
    const saved = await store.set({ interlinguas: ['eng'], mine: { x: 1 } });
    expect(saved.interlinguas).toEqual(['en']);
    expect(saved['mine']).toEqual({ x: 1 });
    expect(storage.data.get(SETTINGS_KEY)).toEqual(saved);
    await expect(store.set({ keys: [{ name: 'a', key: 'short' }] })).rejects.toThrow(/settings\.keys\[0\]\.key/);
    expect(storage.data.get(SETTINGS_KEY)).toEqual(saved);
  });

  it('reports a stored document that no longer validates as a 500, not as the caller\'s 400', async () => {
    const storage = fakeStorage({ [SETTINGS_KEY]: { ranking: 'not a list' } });
    const store = createSettingsStore(storage.area, storage.onChanged);
    const error = await store.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).message).toContain('settings.ranking');
  });
});

describe('usage store over storage.local', () => {
  it('prefixes every key with usage: and survives a new instance (a restarted worker)', async () => {
    const storage = fakeStorage();
    await storageKeyValueStore(storage.area).set('counters', { extension: { chars: 5 } });
    expect([...storage.data.keys()]).toEqual(['usage:counters']);
    expect(await storageKeyValueStore(storage.area).get('counters')).toEqual({ extension: { chars: 5 } });
    expect(await storageKeyValueStore(storage.area).get('missing')).toBeUndefined();
  });
});
