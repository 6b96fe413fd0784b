/** Shared steps of the ui-* e2e tests: settings and storage through an extension page. */
import type { Page } from 'playwright-core';

interface ChromeLike {
  runtime: { sendMessage(m: unknown): Promise<unknown> };
  storage: { local: { get(k: string): Promise<Record<string, unknown>>; set(v: Record<string, unknown>): Promise<void> } };
}

/** A protocol message from an extension page, answered as the wire reply. */
export function message(page: Page, msg: unknown): Promise<unknown> {
  return page.evaluate((m) => (globalThis as unknown as { chrome: ChromeLike }).chrome.runtime.sendMessage(m), msg);
}

export async function setSettings(page: Page, settings: unknown): Promise<void> {
  const reply = (await message(page, { type: 'settings:set', data: { settings } })) as { data?: { status: number; body: unknown } };
  if (reply.data?.status !== 200) throw new Error(`settings refused: ${JSON.stringify(reply)}`);
}

export function storageGet<T>(page: Page, key: string): Promise<T | undefined> {
  return page.evaluate(async (k) => (await (globalThis as unknown as { chrome: ChromeLike }).chrome.storage.local.get(k))[k], key) as Promise<T | undefined>;
}

export function storageSet(page: Page, value: Record<string, unknown>): Promise<void> {
  return page.evaluate((v) => (globalThis as unknown as { chrome: ChromeLike }).chrome.storage.local.set(v), value);
}

export const POPUP_PATH = 'src/ui/popup/index.html';
