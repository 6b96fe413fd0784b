/**
 * The user's moves that announce a trigger wake the background ahead of it. Chromium stops an idle
 * service worker after 30 s; a trigger that then starts it has the worker's start, its scripts and
 * its language lists on the translation's path.
 * - A right-click: the context menu's "Translate this page" or "Translate selection" may follow
 *   (measured: the first paragraph written 381–483 ms after the item with L = 200 ms, against
 *   282–309 ms when the worker was woken and its lists built while the menu was open). A user
 *   reads a menu for longer than that takes.
 * - A held shortcut chord (Alt+Shift, shared/chords.ts): the shortcut's last key may follow. The
 *   page sees the modifiers' keydown; the shortcut's own key goes to the browser. Only the keydown
 *   of a modifier that completes one of the chords counts, not a repeat.
 *
 * One `page:wake` per such move, none within `every` ms of the last (the worker it woke is still
 * running then: each message restarts its idle timer). Only the user's own input counts: a page
 * that dispatches events of its own does not keep the background awake.
 */
import { DEFAULT_CHORDS, heldChord } from '../shared/chords';

export const WAKE_EVERY_MS = 20_000;

const MODIFIER_KEYS = new Set(['Alt', 'Control', 'Meta', 'Shift']);

export interface WakeOptions {
  every?: number;
  now?: () => number;
  /** Which events count; default: the user's own (`isTrusted`). Tests of a DOM without real input pass their own. */
  accept?: (e: Event) => boolean;
  /** The shortcuts' chords in effect, asked at each modifier's keydown (content/index.ts reads them once). */
  chords?: () => readonly string[];
}

/** Listens in the capture phase (a page that stops an event still wakes it); returns the removal. */
export function wakeAhead(
  target: EventTarget,
  wake: () => void,
  { every = WAKE_EVERY_MS, now = () => performance.now(), accept = (e) => e.isTrusted, chords = () => DEFAULT_CHORDS }: WakeOptions = {},
): () => void {
  let last = -Infinity;
  const fire = () => {
    const t = now();
    if (t - last < every) return;
    last = t;
    wake();
  };
  const onMenu = (e: Event) => {
    if (accept(e)) fire();
  };
  const onKey = (e: Event) => {
    const k = e as KeyboardEvent;
    if (!MODIFIER_KEYS.has(k.key) || k.repeat || !accept(e)) return;
    const known = chords();
    const chord = heldChord(k);
    if (chord !== undefined && known.includes(chord)) fire();
  };
  const options = { capture: true, passive: true } as const;
  target.addEventListener('contextmenu', onMenu, options);
  target.addEventListener('keydown', onKey, options);
  return () => {
    target.removeEventListener('contextmenu', onMenu, options);
    target.removeEventListener('keydown', onKey, options);
  };
}
