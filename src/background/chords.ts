/**
 * Publishes the chords of the shortcuts in effect (shared/chords.ts) for content scripts, which
 * wake the background when the user holds one (content/wake.ts). The user may rebind a shortcut in
 * the browser's settings, and Chromium says nothing when they do; so the background reads them
 * each time it starts, a while after (never on a trigger's path), and writes them only when they
 * changed. A page reads them once, so a new binding counts from the next page on.
 */
import type { Browser } from 'webextension-polyfill';
import { CHORDS_KEY, chordsOf } from '../shared/chords';

/** After the event that started the worker has been handled; the worker lives ≥ 30 s anyway. */
export const PUBLISH_AFTER_MS = 5_000;

type Deps = { commands?: Pick<Browser['commands'], 'getAll'>; storage: { local: Pick<Browser['storage']['local'], 'get' | 'set'> } };

/** Writes the chords under CHORDS_KEY if they differ from what is there; returns them. */
export async function publishChords(browser: Deps): Promise<string[]> {
  if (!browser.commands) return [];
  const chords = chordsOf((await browser.commands.getAll()).map((c) => c.shortcut));
  const stored = (await browser.storage.local.get(CHORDS_KEY))[CHORDS_KEY];
  if (JSON.stringify(stored) !== JSON.stringify(chords)) await browser.storage.local.set({ [CHORDS_KEY]: chords });
  return chords;
}
