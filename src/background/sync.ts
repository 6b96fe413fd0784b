/**
 * Non-secret preferences follow the user through storage.sync (issue 6): the popup's pair, domain,
 * limits and recent pairs (`ui:popup`), the route order per pair (`ui:routes`), the bubble's target
 * (`ui:bubble`) and the site rules (`ui:sites`). Everything else stays in storage.local: the
 * settings document (provider keys, API keys), usage, the provider log, and the bubble's handoff
 * (selected text). Only the keys listed here are ever written to sync, whole.
 *
 * storage.local stays the one place code reads; this mirror copies a change of a listed key to
 * the other area, and skips a copy that would change nothing, so the two never echo each other.
 * At startup sync wins: it holds what other devices wrote while this one was closed.
 */
import type { Browser, Storage } from 'webextension-polyfill';
import { ext } from '../shared/browser';

export const SYNCED_KEYS: readonly string[] = ['ui:popup', 'ui:routes', 'ui:bubble', 'ui:sites'];

type Area = Pick<Storage.StorageArea, 'get' | 'set'>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Copies the listed keys among `changes` to `to`, where they differ there. */
export async function mirror(changes: Record<string, Storage.StorageChange>, to: Area): Promise<string[]> {
  const keys = Object.keys(changes).filter((k) => SYNCED_KEYS.includes(k) && changes[k]?.newValue !== undefined);
  if (keys.length === 0) return [];
  const there = await to.get(keys);
  const items: Record<string, unknown> = {};
  for (const k of keys) if (!same(there[k], changes[k]!.newValue)) items[k] = changes[k]!.newValue;
  if (Object.keys(items).length > 0) await to.set(items);
  return Object.keys(items);
}

/** Startup: what sync holds replaces local; what only local holds is written to sync. */
export async function reconcile(local: Area, sync: Area): Promise<void> {
  const [l, s] = await Promise.all([local.get([...SYNCED_KEYS]), sync.get([...SYNCED_KEYS])]);
  const toLocal: Record<string, unknown> = {};
  const toSync: Record<string, unknown> = {};
  for (const k of SYNCED_KEYS) {
    if (s[k] !== undefined && !same(s[k], l[k])) toLocal[k] = s[k];
    else if (s[k] === undefined && l[k] !== undefined) toSync[k] = l[k];
  }
  if (Object.keys(toLocal).length > 0) await local.set(toLocal);
  if (Object.keys(toSync).length > 0) await sync.set(toSync);
}

/** Listeners at top level (index.ts). A failed sync write (quota, offline) leaves local as it is. */
export function registerSync(browser: Browser = ext(), warn: (m: string) => void = (m) => console.warn(m)): void {
  const { local, sync } = browser.storage;
  if (!sync) return;
  const report = (e: unknown) => warn(`preferences not synced: ${e instanceof Error ? e.message : String(e)}`);
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local') mirror(changes, sync).catch(report);
    else if (area === 'sync') mirror(changes, local).catch(report);
  });
  browser.runtime.onStartup?.addListener(() => void reconcile(local, sync).catch(report));
  browser.runtime.onInstalled.addListener(() => void reconcile(local, sync).catch(report));
}
