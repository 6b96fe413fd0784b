/**
 * The UI's own preferences in storage.local, under `ui:` keys so they never meet the engine's
 * `settings` or `usage:` entries. The UI never writes storage.sync itself: the background mirrors
 * a fixed list of these keys there (src/background/sync.ts), so nothing secret can slip in.
 */
import { ext } from '../../shared/browser';

export interface PopupPrefs {
  src?: string;
  trg?: string;
  dom?: string;
  min?: number;
  max?: number;
  timeout?: number;
  recent?: [string, string][];
}

export interface BubblePrefs {
  /** The target the user chose in the bubble; else the browser's language. */
  trg?: string;
}

/** Text handed from the bubble's "open in popup" to the popup. */
export interface Handoff {
  text: string;
  src?: string;
  trg?: string;
  at: number;
}

/** Page translation (the popup's page bar; the background reads it for automatic translations). */
export interface PagePrefs {
  /** The translation under each original block instead of replacing it. */
  bilingual?: boolean;
  /** The ⇄ button a mouse resting on a translated paragraph shows (content/hover.ts); default on. */
  hoverButton?: boolean;
}

export const POPUP_KEY = 'ui:popup';
export const PAGE_KEY = 'ui:page';
export const BUBBLE_KEY = 'ui:bubble';
export const HANDOFF_KEY = 'ui:handoff';
/** Site and language rules (core/sites.ts); the background edits them, content scripts read them on load. */
export const SITES_KEY = 'ui:sites';

export async function load<T>(key: string, fallback: T): Promise<T> {
  try {
    const found = (await ext().storage.local.get(key))[key];
    return (found as T | undefined) ?? fallback;
  } catch {
    return fallback;
  }
}

export async function save(key: string, value: unknown): Promise<void> {
  await ext().storage.local.set({ [key]: value });
}

/** Changes some fields of the object stored at `key`, keeping the others. */
export async function merge<T extends object>(key: string, change: Partial<T>): Promise<void> {
  await save(key, { ...(await load<T>(key, {} as T)), ...change });
}

export async function remove(key: string): Promise<void> {
  await ext().storage.local.remove(key);
}
