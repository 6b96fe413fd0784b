/**
 * A tab's page translation counted over all its frames. Every frame of a tab translates its own
 * document (an embedded article, a comments widget), but only the top frame answers the popup and
 * shows the indicator: a frame whose parts failed left the tab's badge at ✓ and the popup with no
 * "Retry". So each frame reports its progress too (`page:progress`), and the tab's badge, the
 * status the popup reads (`page:status`) and the top frame's indicator (`page:frames`) add the
 * frames' units to the top frame's.
 *
 * Kept in storage.session too (`sessionCounts`: it outlives the worker, not the browser): Chromium
 * stops the worker after 30 s idle, and a translated tab's frames report nothing more, so the
 * popup opened later counted the top frame's parts only (no "Retry" for a frame's failures). A
 * worker started reads them back before it uses them (`ready`). A tab's frames are forgotten
 * when its top frame shows the original (a restore). When the top starts a translation afresh
 * (`startsAfresh`: a page loaded in a translated tab, another target), what is known of its frames
 * may be of a page that is gone, or already of this translation (a frame's report can arrive before
 * its top's): each is counted again only once it is confirmed, by its own next report or by its
 * answer when asked (`unconfirmed`, `confirm`: a frame that is gone does not answer). A closed tab
 * is forgotten a few seconds after the next start of the worker (`forgetClosed`, frames.ts
 * `forgetClosedTabs`): a listener for closed tabs would start the worker at every tab closed.
 */
import type { Browser } from 'webextension-polyfill';
import { ext } from '../shared/browser';
import { isPageStatus, startsAfresh, withFrames, type FrameCounts, type PageStatus } from '../shared/messages';

/** storage.session: each tab's top frame's last report and its frames' (`FrameProgress`). */
export const FRAME_COUNTS_KEY = 'page:frameCounts';

/** Where the counts outlive the worker. */
export interface CountsStore {
  load(): Promise<unknown>;
  save(value: unknown): Promise<void>;
}

export function sessionCounts(storage: Pick<Browser['storage'], 'session'> = ext().storage): CountsStore {
  return {
    load: () => storage.session.get(FRAME_COUNTS_KEY).then((v) => v[FRAME_COUNTS_KEY]),
    save: (value) => storage.session.set({ [FRAME_COUNTS_KEY]: value }),
  };
}

/** As stored: tab ids, and frame ids within a tab, as keys. */
interface Stored {
  tops: Record<string, PageStatus>;
  frames: Record<string, Record<string, Entry>>;
}

type Counts = Pick<PageStatus, 'state' | 'done' | 'total' | 'errors' | 'error'>;

interface Entry extends Counts {
  /** False from its top's start afresh until the frame reports or answers. */
  confirmed: boolean;
}

/** No frame's units. */
const NONE: Readonly<FrameCounts> = { done: 0, total: 0, errors: 0, translating: false, stopped: false };
/** What a top frame knows of its frames before it is told anything. */
const NONE_TOLD = JSON.stringify(NONE);

export class FrameProgress {
  /** By tab: its top frame's last report. */
  private readonly tops = new Map<number, PageStatus>();
  /** By tab, by frame id: each frame's last report, while it is not the original. */
  private readonly frames = new Map<number, Map<number, Entry>>();
  /** By tab: the sum its top frame was last told (`news`). */
  private readonly told = new Map<number, string>();
  /** Tabs whose frames' units are to be shown (`soon`). */
  private readonly telling = new Set<number>();
  private loaded: Promise<void> | undefined;
  private saving = false;

  constructor(private readonly store?: CountsStore) {}

  /** What an earlier worker knew, read back once (what this one learnt since is newer). */
  ready(): Promise<void> {
    return (this.loaded ??= this.store ? this.store.load().then((v) => this.merge(v), () => undefined) : Promise.resolve());
  }

  /**
   * The tab's top frame reported `status`. At a start afresh, the frames known until then are the
   * ones to ask (`confirm` each with its answer).
   */
  top(tabId: number, status: PageStatus): number[] {
    const afresh = startsAfresh(this.tops.get(tabId)?.state, status);
    // The top frame forgets what it was told by the same rule (content/reporter.ts).
    this.changed();
    if (status.state === 'original') {
      this.tops.delete(tabId);
      this.frames.delete(tabId);
      this.told.delete(tabId);
      return [];
    }
    this.tops.set(tabId, status);
    if (!afresh) return [];
    this.told.delete(tabId);
    const frames = this.frames.get(tabId);
    if (!frames) return [];
    for (const f of frames.values()) f.confirmed = false;
    return [...frames.keys()];
  }

  /** A frame (not the top) of the tab reported `status`, or answered with it when asked (`confirm`). */
  frame(tabId: number, frameId: number, status: Counts): void {
    this.changed();
    let frames = this.frames.get(tabId);
    if (status.state === 'original') {
      frames?.delete(frameId);
      return;
    }
    if (!frames) this.frames.set(tabId, (frames = new Map()));
    const { state, done, total, errors, error } = status;
    frames.set(frameId, { state, done, total, errors, ...(error ? { error } : {}), confirmed: true });
  }

  /** What a frame asked at its top's start afresh answered: its status, or nothing (it is gone). */
  confirm(tabId: number, frameId: number, status: Counts | undefined): void {
    const f = this.frames.get(tabId)?.get(frameId);
    // A report since it was asked is newer than the answer.
    if (!f || f.confirmed) return;
    if (status) this.frame(tabId, frameId, status);
    else {
      this.frames.get(tabId)!.delete(frameId);
      this.changed();
    }
  }

  /**
   * Forgets the tabs that are closed: `openTabs` gives the ids of the browser's open tabs. Only tabs
   * known before it was asked can go (a closed tab reports nothing, and tab ids are not reused in a
   * session), so a tab opened and reporting meanwhile stays.
   */
  async forgetClosed(openTabs: () => Promise<Iterable<number>>): Promise<void> {
    await this.ready();
    const known = new Set([...this.tops.keys(), ...this.frames.keys(), ...this.told.keys()]);
    if (!known.size) return;
    const open = new Set(await openTabs());
    let forgot = false;
    for (const tab of known) {
      if (open.has(tab)) continue;
      this.tops.delete(tab);
      this.frames.delete(tab);
      this.told.delete(tab);
      forgot = true;
    }
    if (forgot) this.changed();
  }

  /** Frames are asked to go on (`page:retry`): those with failures are counted again from their next report. */
  retrying(tabId: number): void {
    const frames = this.frames.get(tabId);
    if (frames) for (const [id, f] of frames) if (f.errors > 0) frames.delete(id);
    this.changed();
  }

  /** The units of the tab's confirmed frames, added up; undefined while none is known. */
  sum(tabId: number): FrameCounts | undefined {
    const frames = this.frames.get(tabId);
    if (!frames?.size) return undefined;
    let sum: FrameCounts | undefined;
    for (const f of frames.values()) {
      if (!f.confirmed) continue;
      sum ??= { ...NONE };
      sum.done += f.done;
      sum.total += f.total;
      sum.errors += f.errors;
      if (f.error && sum.error === undefined) sum.error = f.error;
      if (f.state === 'translating') sum.translating = true;
      if (f.state === 'cancelled') sum.stopped = true;
    }
    return sum;
  }

  /**
   * The frames' sum for the tab's top frame, when it is not what it was last told (then recorded
   * as told); undefined when it is. Told even when the top has not reported since the worker
   * started: a top frame that counted a frame translating must hear that it is done.
   */
  news(tabId: number): FrameCounts | undefined {
    const sum = this.sum(tabId) ?? { ...NONE };
    const key = JSON.stringify(sum);
    if ((this.told.get(tabId) ?? NONE_TOLD) === key) return undefined;
    this.told.set(tabId, key);
    return sum;
  }

  /**
   * Runs `show` for the tab `ms` from now, unless one is waiting already: frames that report
   * together are shown once, with what is known when it runs.
   */
  soon(tabId: number, ms: number, show: () => void): void {
    if (this.telling.has(tabId)) return;
    this.telling.add(tabId);
    setTimeout(() => {
      this.telling.delete(tabId);
      show();
    }, ms);
  }

  /** The tab's status as its top's last report says, with its frames' (undefined: no report from the top since the worker started). */
  last(tabId: number): PageStatus | undefined {
    const top = this.tops.get(tabId);
    return top && this.of(tabId, top);
  }

  /** `top` (what the tab's top frame says) with the units of the tab's frames added (shared/messages.ts `withFrames`). */
  of(tabId: number, top: PageStatus): PageStatus {
    return withFrames(top, this.sum(tabId));
  }

  /** Saved once per turn of the event loop, however many reports came in it. */
  private changed(): void {
    if (!this.store || this.saving) return;
    this.saving = true;
    queueMicrotask(() => {
      this.saving = false;
      void this.store!.save(this.stored()).catch(() => undefined);
    });
  }

  private stored(): Stored {
    const frames: Stored['frames'] = {};
    for (const [tab, byFrame] of this.frames) frames[tab] = Object.fromEntries(byFrame);
    return { tops: Object.fromEntries(this.tops), frames };
  }

  /** Adds what was stored, where this worker has learnt nothing yet; anything malformed is left out. */
  private merge(v: unknown): void {
    if (typeof v !== 'object' || v === null) return;
    const { tops, frames } = v as Partial<Record<keyof Stored, unknown>>;
    for (const [key, top] of entries(tops)) {
      const tab = Number(key);
      if (Number.isSafeInteger(tab) && isPageStatus(top) && !this.tops.has(tab)) this.tops.set(tab, top);
    }
    for (const [key, byFrame] of entries(frames)) {
      const tab = Number(key);
      if (!Number.isSafeInteger(tab) || this.frames.has(tab)) continue;
      const known = new Map<number, Entry>();
      for (const [id, f] of entries(byFrame)) {
        if (!isPageStatus(f) || typeof (f as Partial<Entry>).confirmed !== 'boolean') continue;
        const { state, done, total, errors, error, confirmed } = f as Entry;
        known.set(Number(id), { state, done, total, errors, ...(error ? { error } : {}), confirmed });
      }
      if (known.size) this.frames.set(tab, known);
    }
  }
}

function entries(v: unknown): [string, unknown][] {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v) : [];
}
