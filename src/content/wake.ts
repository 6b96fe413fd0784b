/**
 * A right-click wakes the background ahead of the context menu's "Translate this page" or
 * "Translate selection". Chromium stops an idle service worker after 30 s; a menu item that then
 * starts it has the worker's start, its scripts and its language lists on the translation's path
 * (measured: the first paragraph written 381–483 ms after the trigger with L = 200 ms, against
 * 282–309 ms when the worker was woken and its lists built while the menu was open). A user
 * reads a menu for longer than that takes.
 *
 * One `page:wake` per right-click, none within `every` ms of the last (the worker it woke is still
 * running then: each message restarts its idle timer). Only the user's right-click counts: a page
 * that dispatches `contextmenu` events of its own does not keep the background awake.
 */
export const WAKE_EVERY_MS = 20_000;

export interface WakeOptions {
  every?: number;
  now?: () => number;
  /** Which events count; default: the user's own (`isTrusted`). Tests of a DOM without real input pass their own. */
  accept?: (e: Event) => boolean;
}

export function wakeOnContextMenu(target: EventTarget, wake: () => void, { every = WAKE_EVERY_MS, now = () => performance.now(), accept = (e) => e.isTrusted }: WakeOptions = {}): () => void {
  let last = -Infinity;
  const listener = (e: Event) => {
    if (!accept(e)) return;
    const t = now();
    if (t - last < every) return;
    last = t;
    wake();
  };
  const options = { capture: true, passive: true } as const;
  target.addEventListener('contextmenu', listener, options);
  return () => target.removeEventListener('contextmenu', listener, options);
}
