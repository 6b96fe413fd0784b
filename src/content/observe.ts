/**
 * One MutationObserver for the page: the document (body, head/title) and every open shadow root
 * found. Changes are handed over in batches, at most one per frame; our own writes happen while it
 * is paused, so it never reports them (pause first hands over what the page did before).
 */
import { ATTRIBUTE_NAMES } from './attributes';
import { classSaysNo, ourLabel, primary, saysOtherLanguage } from './tags';

/**
 * Attributes that say whether an element's content is translated (tags.ts `inspect`), watched
 * too, with their old values: of `class`, which pages change all the time (hover states,
 * animations), and of `lang`, only a change that says something new is handed over
 * (`saysSomething`, the observer's `keeps`). The `lang` our writes set is never seen: we write with the
 * observer paused.
 */
export const SAYS_ATTRIBUTES: ReadonlySet<string> = new Set(['contenteditable', 'translate', 'class', 'lang']);

/**
 * Whether a mutation record may change what is translated from `src` to `trg` (the observer's
 * `keeps`: the others cost no frame). Not a class change that neither adds nor takes away
 * `notranslate` (or an icon font's class): pages change classes all the time. Not a `lang` change
 * that leaves the element the page's language (a region: `en-GB`) or another one still (tags.ts
 * `saysOtherLanguage`), nor one to the target's: a script that labels text by what it reads (our
 * translation) would otherwise get the original back, label it the page's language, and so on.
 * Kept: one that takes away the label our translation wrote (the page saying its language again
 * on `<html>`, as React Helmet does at each update: writes.ts `relabelAgain`).
 */
export function saysSomething(r: MutationRecord, src: string, trg: string): boolean {
  if (r.attributeName !== 'class' && r.attributeName !== 'lang') return true;
  const el = r.target as Element;
  const now = el.getAttribute(r.attributeName);
  if (r.attributeName === 'class') return classSaysNo(r.oldValue) !== classSaysNo(now);
  if (now !== null && primary(now) === primary(trg)) return false;
  // The page took away the label our translation wrote (writes.ts `relabelAgain`).
  if (ourLabel(el, r.oldValue)) return true;
  const lang = primary(src);
  return saysOtherLanguage(el, r.oldValue, lang) !== saysOtherLanguage(el, now, lang);
}

const OPTIONS: MutationObserverInit = {
  childList: true,
  subtree: true,
  characterData: true,
  // A text's value before the page changed it: whether the page cut or split our words (ours.ts).
  characterDataOldValue: true,
  attributes: true,
  attributeOldValue: true,
  attributeFilter: [...ATTRIBUTE_NAMES, ...SAYS_ATTRIBUTES],
};

/** Schedules a callback for the next frame; `framed` says it runs in an animation frame. */
export type Frame = (cb: (framed?: boolean) => void) => void;

/** Callbacks waiting for the next task (`soon`), and the port that posts it. */
let tasks: (() => void)[] = [];
let port: MessagePort | null = null;

/**
 * Runs `cb` in a task of its own, soon: a message on a channel of ours, which browsers do not
 * throttle in a hidden tab as they do its timers (to one a second).
 */
export function soon(cb: () => void): void {
  if (!port) {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const run = tasks;
      tasks = [];
      for (const f of run) f();
    };
    port = channel.port2;
  }
  tasks.push(cb);
  if (tasks.length === 1) port.postMessage(0);
}

/** A hidden tab (nothing rendered, its timers and idle callbacks throttled), where `soon` can run. */
export const hiddenTab = (): boolean => globalThis.document?.visibilityState === 'hidden' && typeof MessageChannel === 'function';

/**
 * Runs `cb` once, at the next frame or after 25 ms, whichever is first (rAF stops in hidden tabs).
 * In a hidden tab, where nothing is rendered, in the next task: its timers wait a second each
 * (a page of 600 paragraphs translated in a background tab took 7.2 s in Firefox, 1.5 s in front).
 */
export const nextFrame: Frame = (cb) => {
  if (hiddenTab()) {
    soon(() => cb(false));
    return;
  }
  let done = false;
  const run = (framed: boolean) => {
    if (done) return;
    done = true;
    cb(framed);
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => run(true));
  setTimeout(() => run(false), 25);
};

/**
 * Runs `cb` in a task after the next frame is painted: `frame`'s callback in an animation frame,
 * then a task (a frame's style, layout and paint follow its animation frame callbacks). Where the
 * callback came from `frame`'s timer instead (no frame within 25 ms: a busy page, a hidden tab), one
 * more `frame` first, so that what was written before the call is painted before `cb` runs.
 */
export function afterPaint(frame: Frame, cb: () => void): void {
  frame((framed) => (framed ? soon(cb) : frame(() => soon(cb))));
}

export class PageObserver {
  private readonly mo: MutationObserver;
  private readonly roots = new Set<Node>();
  /**
   * Nodes the page removed, watched out of the page from the callback that told of their removal
   * (the browser's own watch of a removed node ends there) until `release` lets them go: what the
   * page changes in a view it took out and may put back is seen, not only what it read when it
   * left (removals.ts).
   */
  private readonly out = new Set<Node>();
  private pending: MutationRecord[] = [];
  private scheduled = false;
  private paused = 0;
  private stopped = false;

  /** `keeps`: whether a record may change what is translated; the others are dropped before they cost a frame. */
  constructor(
    private readonly onBatch: (records: MutationRecord[]) => void,
    private readonly frame: Frame = nextFrame,
    private readonly keeps: (r: MutationRecord) => boolean = () => true,
  ) {
    this.mo = new MutationObserver((records) => this.queue(records));
  }

  observe(root: Node): void {
    if (this.stopped || this.roots.has(root)) return;
    this.roots.add(root);
    if (this.paused === 0) this.mo.observe(root, OPTIONS);
  }

  /** Runs `write` with the observer disconnected; what the page did before is still delivered. */
  whilePaused<T>(write: () => T): T {
    this.pause();
    try {
      return write();
    } finally {
      this.resume();
    }
  }

  pause(): void {
    if (this.paused++ > 0 || this.stopped) return;
    this.queue(this.mo.takeRecords());
    this.mo.disconnect();
  }

  resume(): void {
    if (--this.paused > 0 || this.stopped) return;
    for (const r of this.roots) if (r.isConnected || r.nodeType === 9) this.mo.observe(r, OPTIONS);
    for (const n of this.out) this.mo.observe(n, OPTIONS);
  }

  /**
   * Stops watching the removed nodes `keep` does not accept, and those back in the page (watched
   * there with it). Every record the page made before is handed over as usual.
   */
  release(keep: (n: Node) => boolean): void {
    if (this.out.size === 0) return;
    this.whilePaused(() => {
      for (const n of this.out) if (n.isConnected || !keep(n)) this.out.delete(n);
    });
  }

  stop(): void {
    this.stopped = true;
    this.mo.disconnect();
    this.roots.clear();
    this.out.clear();
    this.pending = [];
  }

  private queue(all: MutationRecord[]): void {
    if (all.length === 0 || this.stopped) return;
    const records = all.filter(this.keeps);
    for (const r of records) {
      for (const n of r.removedNodes) {
        if (n.isConnected || this.out.has(n)) continue;
        this.out.add(n);
        if (this.paused === 0) this.mo.observe(n, OPTIONS);
      }
    }
    if (records.length === 0) return;
    this.pending.push(...records);
    if (this.scheduled) return;
    this.scheduled = true;
    this.frame(() => {
      this.scheduled = false;
      const batch = this.pending;
      this.pending = [];
      if (batch.length && !this.stopped) this.onBatch(batch);
    });
  }
}
