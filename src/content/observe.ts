/**
 * One MutationObserver for the page: the document (body, head/title) and every open shadow root
 * found. Changes are handed over in batches, at most one per frame; our own writes happen while it
 * is paused, so it never reports them (pause first hands over what the page did before).
 */
import { ATTRIBUTE_NAMES } from './attributes';
import { classSaysNo } from './tags';

/**
 * Attributes that say whether an element's content is translated (tags.ts `inspect`), watched
 * too. Of `class`, which pages change all the time (hover states, animations), only a change that
 * adds or takes away `notranslate` (or an icon font's class) is handed over (`says`). Of `lang`,
 * follow.ts keeps only a change that makes the element another language than the page's, or no
 * longer (`fr` for an English page, not `en-GB`); the `lang` our writes set is never seen: we
 * write with the observer paused.
 */
export const SAYS_ATTRIBUTES: ReadonlySet<string> = new Set(['contenteditable', 'translate', 'class', 'lang']);

const OPTIONS: MutationObserverInit = {
  childList: true,
  subtree: true,
  characterData: true,
  attributes: true,
  attributeOldValue: true,
  attributeFilter: [...ATTRIBUTE_NAMES, ...SAYS_ATTRIBUTES],
};

/** Not a class change that leaves the element's word on translation as it was: dropped before it costs a frame. */
function says(r: MutationRecord): boolean {
  return r.attributeName !== 'class' || classSaysNo(r.oldValue) !== classSaysNo((r.target as Element).getAttribute('class'));
}

/** Schedules a callback for the next frame; `framed` says it runs in an animation frame. */
export type Frame = (cb: (framed?: boolean) => void) => void;

/** Runs `cb` once, at the next frame or after 25 ms, whichever is first (rAF stops in hidden tabs). */
export const nextFrame: Frame = (cb) => {
  let done = false;
  const run = (framed: boolean) => {
    if (done) return;
    done = true;
    cb(framed);
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => run(true));
  setTimeout(() => run(false), 25);
};

export class PageObserver {
  private readonly mo: MutationObserver;
  private readonly roots = new Set<Node>();
  private pending: MutationRecord[] = [];
  private scheduled = false;
  private paused = 0;
  private stopped = false;

  constructor(
    private readonly onBatch: (records: MutationRecord[]) => void,
    private readonly frame: Frame = nextFrame,
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
  }

  stop(): void {
    this.stopped = true;
    this.mo.disconnect();
    this.roots.clear();
    this.pending = [];
  }

  private queue(all: MutationRecord[]): void {
    if (all.length === 0 || this.stopped) return;
    const records = all.filter(says);
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
