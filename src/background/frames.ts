/**
 * Whether a frame asks about its page when it loads. A frame that loads after its page was
 * translated (an ad, a widget, a lazy embed) follows the page by asking the background
 * (`page:frame`); asking on every frame's load started the worker on the load of every page with a
 * frame, translated or not (30 of the 63 saved pages have one; most of the web has ads and embeds).
 *
 * The background keeps the tabs whose top frame reported translating or translated, or which a
 * trigger is on its way to (tabs.ts `trigger`), in
 * storage.session (it outlives the worker, not the browser), and `page:framesAsk` in
 * storage.local, which a content script reads without starting the worker: true while a tab is
 * listed. A tab leaves the list when its top frame reports another state and, checked whenever a
 * frame asks, when it is closed or its page is no longer translated (a navigation, a reload). A
 * stale `true` costs what every frame's load cost before (the frame asks; the answer is right).
 * The flag says only whether some tab is translated: no tab, site or language.
 */
import type { Browser } from 'webextension-polyfill';
import { ext } from '../shared/browser';
import { FRAMES_ASK_KEY, type PageStatus } from '../shared/messages';

/** storage.session: those tabs' ids. */
export const TRANSLATED_TABS_KEY = 'page:translatedTabs';

export interface FrameFlag {
  /** A tab's top frame reported `state`. */
  note(tabId: number, state: PageStatus['state']): Promise<void>;
  /**
   * A trigger is on its way to the tab: lists it, and resolves once frames read the flag `true`
   * (at once when it is known to be), not after the list is written: this is on the trigger's path.
   */
  announce(tabId: number): Promise<void>;
  /**
   * Drops the listed tabs `translated` says are not (closed, navigated, reloaded), unless one
   * reported since, and sets the flag by what is left.
   */
  prune(translated: (tabId: number) => Promise<boolean>): Promise<void>;
  /** No tab is translated (the browser or the extension has just started). */
  reset(): Promise<void>;
}

type Storage = Pick<Browser['storage'], 'local' | 'session'>;

const listed = (state: PageStatus['state']): boolean => state === 'translating' || state === 'translated';
const tabIds = (v: unknown): number[] => (Array.isArray(v) ? v.filter((t): t is number => Number.isSafeInteger(t)) : []);

export function frameFlag(storage: Storage = ext().storage): FrameFlag {
  let last: Promise<void> = Promise.resolve();
  /** Reports since the worker started, by tab: a prune keeps a tab that reported while it checked. */
  const reports = new Map<number, number>();
  /**
   * The list and the flag as stored, read once per worker: only this module writes them, so a
   * report that changes nothing (a translating tab's every progress) reads and writes nothing.
   */
  let stored: Promise<{ tabs: number[]; ask: unknown }> | undefined;
  /** The flag as last read or written (undefined: not known yet, or a write failed). */
  let flag: unknown;
  const read = () =>
    (stored ??= Promise.all([storage.session.get(TRANSLATED_TABS_KEY), storage.local.get(FRAMES_ASK_KEY)]).then(([session, local]) => ({
      tabs: tabIds(session[TRANSLATED_TABS_KEY]),
      ask: local[FRAMES_ASK_KEY],
    })));

  // One change at a time: several tabs report at once, and each change reads, then writes.
  function change(edit: (tabs: Set<number>) => void): Promise<void> {
    const run = last.then(async () => {
      const now = await read();
      const tabs = new Set(now.tabs);
      edit(tabs);
      if (tabs.size !== now.tabs.length || now.tabs.some((t) => !tabs.has(t))) {
        await storage.session.set({ [TRANSLATED_TABS_KEY]: [...tabs] });
        now.tabs = [...tabs];
      }
      const ask = tabs.size > 0;
      if (now.ask !== ask) {
        flag = undefined;
        await storage.local.set({ [FRAMES_ASK_KEY]: ask });
        now.ask = ask;
      }
      flag = now.ask;
    });
    last = run.catch(() => {
      // A failed read or write is read again next time.
      stored = undefined;
      flag = undefined;
    });
    return run;
  }

  function note(tabId: number, state: PageStatus['state']): Promise<void> {
    reports.set(tabId, (reports.get(tabId) ?? 0) + 1);
    return change((tabs) => void (listed(state) ? tabs.add(tabId) : tabs.delete(tabId)));
  }

  return {
    note,
    announce(tabId) {
      const known = flag === true;
      void note(tabId, 'translating').catch(() => undefined);
      // Setting it `true` is right whatever the list holds now: this tab joins it.
      return known ? Promise.resolve() : storage.local.set({ [FRAMES_ASK_KEY]: true });
    },
    async prune(translated) {
      const listedNow = [...(await read()).tabs];
      const seen = new Map(listedNow.map((t) => [t, reports.get(t) ?? 0]));
      const checks = await Promise.all(listedNow.map((t) => translated(t).catch(() => false)));
      const gone = listedNow.filter((t, i) => !checks[i] && (reports.get(t) ?? 0) === seen.get(t));
      // Also when none is gone: a flag left `true` with no tab listed is set right here.
      await change((tabs) => gone.forEach((t) => tabs.delete(t)));
    },
    reset: () => change((tabs) => tabs.clear()),
  };
}

/** The background's own, on the real storage (made at first use: unit tests import this module without one). */
let shared: FrameFlag | undefined;
export const frames = (): FrameFlag => (shared ??= frameFlag());
