/**
 * Which tabs are translated, and whether content scripts ask about their page when they load.
 *
 * A frame that loads after its page was translated (an ad, a widget, a lazy embed) follows the
 * page by asking the background (`page:frame`); asking on every frame's load started the worker on
 * the load of every page with a frame, translated or not (30 of the 63 saved pages have one; most
 * of the web has ads and embeds). And a tab stays translated across its navigations, as in
 * Chrome's own translation: a link followed, or a reload, in a tab the user translated, shows the
 * next page translated too when it is in the same language (`page:loaded`, sites.ts); until the
 * user restores or stops it, or closes the tab.
 *
 * The background keeps the tabs whose top frame reported translating or translated, or which a
 * trigger is on its way to (tabs.ts `trigger`), with what each was translated as (its languages,
 * mode and scope), in storage.session (it outlives the worker, not the browser), and
 * `page:framesAsk` in storage.local, which a content script reads without starting the worker:
 * true while a tab is listed. A tab leaves the list when its top frame reports `original` (a
 * restore) or `cancelled` (a stop), and, checked whenever a frame asks, when it is closed or holds
 * no page of ours any more; a closed tab also a few seconds after each start of the worker
 * (`forgetClosedTabs`). A navigation keeps it listed. A stale `true` costs what every frame's
 * load cost before (it asks; the answer is right). The flag says only whether some tab is
 * translated: no tab, site or language.
 */
import type { Browser } from 'webextension-polyfill';
import { ext } from '../shared/browser';
import { FRAMES_ASK_KEY, type PageMode, type PageScope, type PageStatus } from '../shared/messages';

/** storage.session: those tabs, by id, with what each was last translated as. */
export const TRANSLATED_TABS_KEY = 'page:translatedTabs';

/** What a listed tab was last translated as; empty while a trigger is on its way to it. */
export interface TabTranslation {
  src?: string;
  trg?: string;
  mode?: PageMode;
  scope?: PageScope;
}

type Tabs = Map<number, TabTranslation>;

export interface FrameFlag {
  /** A tab's top frame reported `status`. */
  note(tabId: number, status: Pick<PageStatus, 'state' | 'src' | 'trg' | 'mode' | 'scope'>): Promise<void>;
  /** What the tab was last translated as, while it is listed (a navigation keeps it). */
  translation(tabId: number): Promise<TabTranslation | undefined>;
  /**
   * A trigger is on its way to the tab: lists it, and resolves once frames read the flag `true`
   * (at once when it is known to be), not after the list is written: this is on the trigger's path.
   */
  announce(tabId: number): Promise<void>;
  /**
   * Drops the listed tabs `alive` says are gone (closed, or showing no page of ours), unless one
   * reported since, and sets the flag by what is left.
   */
  prune(alive: (tabId: number) => Promise<boolean>): Promise<void>;
  /** No tab is translated (the browser or the extension has just started). */
  reset(): Promise<void>;
}

type Storage = Pick<Browser['storage'], 'local' | 'session'>;

const listed = (state: PageStatus['state']): boolean => state === 'translating' || state === 'translated';
const MODES: readonly unknown[] = ['replace', 'bilingual'];
const SCOPES: readonly unknown[] = ['page', 'near'];

/** The stored list, keeping only tab ids and the fields a translation has (it may come from another version). */
function storedTabs(v: unknown): Tabs {
  const tabs: Tabs = new Map();
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return tabs;
  for (const [key, t] of Object.entries(v as Record<string, unknown>)) {
    const id = Number(key);
    if (!Number.isSafeInteger(id) || typeof t !== 'object' || t === null) continue;
    tabs.set(id, translationOf(t as Record<string, unknown>));
  }
  return tabs;
}

function translationOf(s: { src?: unknown; trg?: unknown; mode?: unknown; scope?: unknown }): TabTranslation {
  return {
    ...(typeof s.src === 'string' && s.src ? { src: s.src } : {}),
    ...(typeof s.trg === 'string' && s.trg ? { trg: s.trg } : {}),
    ...(MODES.includes(s.mode) ? { mode: s.mode as PageMode } : {}),
    ...(SCOPES.includes(s.scope) ? { scope: s.scope as PageScope } : {}),
  };
}

const same = (a: TabTranslation | undefined, b: TabTranslation | undefined) => JSON.stringify(a) === JSON.stringify(b);
const asStored = (tabs: Tabs) => Object.fromEntries([...tabs].map(([id, t]) => [String(id), t]));

export function frameFlag(storage: Storage = ext().storage): FrameFlag {
  let last: Promise<void> = Promise.resolve();
  /** Reports since the worker started, by tab: a prune keeps a tab that reported while it checked. */
  const reports = new Map<number, number>();
  /**
   * The list and the flag as stored, read once per worker: only this module writes them, so a
   * report that changes nothing (a translating tab's every progress) reads and writes nothing.
   */
  let stored: Promise<{ tabs: Tabs; ask: unknown }> | undefined;
  /** The flag as last read or written (undefined: not known yet, or a write failed). */
  let flag: unknown;
  const read = () =>
    (stored ??= Promise.all([storage.session.get(TRANSLATED_TABS_KEY), storage.local.get(FRAMES_ASK_KEY)]).then(([session, local]) => ({
      tabs: storedTabs(session[TRANSLATED_TABS_KEY]),
      ask: local[FRAMES_ASK_KEY],
    })));

  // One change at a time: several tabs report at once, and each change reads, then writes.
  function change(edit: (tabs: Tabs) => void): Promise<void> {
    const run = last.then(async () => {
      const now = await read();
      const tabs: Tabs = new Map(now.tabs);
      edit(tabs);
      if (tabs.size !== now.tabs.size || [...tabs].some(([id, t]) => !same(now.tabs.get(id), t))) {
        await storage.session.set({ [TRANSLATED_TABS_KEY]: asStored(tabs) });
        now.tabs = tabs;
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

  function note(tabId: number, status: Pick<PageStatus, 'state' | 'src' | 'trg' | 'mode' | 'scope'>): Promise<void> {
    reports.set(tabId, (reports.get(tabId) ?? 0) + 1);
    return change((tabs) => {
      if (!listed(status.state)) tabs.delete(tabId);
      // A trigger's announcement knows no languages yet: what the tab had stays until its report.
      else if (status.trg || !tabs.has(tabId)) tabs.set(tabId, translationOf(status));
    });
  }

  return {
    note,
    async translation(tabId) {
      await last;
      return (await read()).tabs.get(tabId);
    },
    announce(tabId) {
      const known = flag === true;
      void note(tabId, { state: 'translating' }).catch(() => undefined);
      // Setting it `true` is right whatever the list holds now: this tab joins it.
      return known ? Promise.resolve() : storage.local.set({ [FRAMES_ASK_KEY]: true });
    },
    async prune(alive) {
      const listedNow = [...(await read()).tabs.keys()];
      const seen = new Map(listedNow.map((t) => [t, reports.get(t) ?? 0]));
      const checks = await Promise.all(listedNow.map((t) => alive(t).catch(() => false)));
      const gone = listedNow.filter((t, i) => !checks[i] && (reports.get(t) ?? 0) === seen.get(t));
      // Also when none is gone: a flag left `true` with no tab listed is set right here.
      await change((tabs) => gone.forEach((t) => tabs.delete(t)));
    },
    reset: () => change((tabs) => tabs.clear()),
  };
}

/**
 * When a tab's page asks (a frame's `page:frame`, a top frame's `page:loaded`): the listed tabs
 * that are gone leave the list, the flag set by what is left; a tab is there while its top frame
 * answers `status`, the asking one is. Not awaited by the caller.
 */
export function pruneFor(flag: FrameFlag, askingTab: number, status: (tabId: number) => Promise<unknown>): void {
  void flag.prune(async (id) => id === askingTab || (await status(id).then(() => true))).catch(() => undefined);
}

/**
 * Forgets the tabs closed since: the list's (`flag`) and the frame counts' (`progress`). Run a few
 * seconds after each start of the worker, off any trigger's path: a listener for closed tabs would
 * start the worker at every tab the user closes. `tabs.query` gives ids without the `tabs`
 * permission.
 */
export async function forgetClosedTabs(
  tabs: Pick<Browser['tabs'], 'query'>,
  flag: Pick<FrameFlag, 'prune'>,
  progress: { forgetClosed(openTabs: () => Promise<Iterable<number>>): Promise<void> },
): Promise<void> {
  let open: Promise<Set<number>> | undefined;
  const openTabs = () => (open ??= tabs.query({}).then((all) => new Set(all.flatMap((t) => (t.id === undefined ? [] : [t.id])))));
  await Promise.all([flag.prune(async (id) => (await openTabs()).has(id)), progress.forgetClosed(openTabs)]);
}

/** The background's own, on the real storage (made at first use: unit tests import this module without one). */
let shared: FrameFlag | undefined;
export const frames = (): FrameFlag => (shared ??= frameFlag());
