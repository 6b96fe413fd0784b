/**
 * Viewport first: the first pass segments only blocks that meet the viewport (one rect read per
 * block child of a block that does) and leaves every other block subtree for later, with the rank
 * its rect gave it; so the first call leaves within a few ms of the trigger whatever the page's
 * size. The rest is segmented in idle slices of a few ms (nearest screens first, then document
 * order), so answers are written between slices and the page stays responsive.
 */
import { hiddenTab, soon } from './observe';
import { rankOf, viewportHeight, type Bucket } from './prioritize';
import type { Later, Segmenter, Unit, Walk } from './segment';

/** Runs `cb` when the page is idle, with the ms it may use. */
export type Idle = (cb: (budgetMs: number) => void) => void;

export const idleSlice: Idle = (cb) => {
  // A hidden tab: nobody waits for its frames, and its idle callbacks and timers are throttled.
  if (hiddenTab()) soon(() => cb(12));
  else if (typeof requestIdleCallback === 'function') requestIdleCallback((d) => cb(Math.max(4, Math.min(d.timeRemaining(), 12))), { timeout: 50 });
  else setTimeout(() => cb(8), 0);
};

export interface DiscoverDeps {
  segmenter: Segmenter;
  doc: Document;
  idle: Idle;
  /** Which blocks to leave for later: by rect (the default), or as a test says. */
  near?: ((el: Element) => boolean) | undefined;
  /** The viewport's height (tests). */
  height?: () => number;
  /** Rank blocks by the viewport at all (false: segment the whole page at once). */
  viewport: boolean;
  /** Units found; `bucket` and `at` for a subtree left for later (else rank each by its rect). */
  found(units: Unit[], bucket?: Bucket, at?: Element): void;
  /** Still wanted (false once restored or cancelled). */
  alive(): boolean;
  done(): void;
  /** Runs a slice of work, its time counted for the bench. */
  timed(fn: () => void): void;
  /** A block not hidden by its style with no box: a shadow root of its parent may not show it. */
  noBox?: (el: Element) => void;
}

export function discover(deps: DiscoverDeps): void {
  let rest: Later[] = [];
  deps.timed(() => (rest = firstScreen(deps)));
  let i = 0;
  // A scroll of half a screen or more while the page is segmented: what is left is ranked again
  // by where it is now, so the screen the reader went to is segmented (and so queued) next. Not
  // at each scroll event: the browser's own small ones (scroll anchoring, as our writes change
  // heights above the viewport) came every frame, and each re-rank read every subtree's rect.
  const stop = new AbortController();
  const h = viewportHeight(deps.height);
  let rankedAt = globalThis.scrollY ?? 0;
  let moved = false;
  if (deps.viewport && typeof addEventListener === 'function') {
    addEventListener('scroll', () => (moved ||= Math.abs(globalThis.scrollY - rankedAt) >= h / 2), { passive: true, capture: true, signal: stop.signal });
  }
  const end = () => {
    stop.abort();
    deps.done();
  };
  const slice = (budget: number) => {
    if (!deps.alive()) return stop.abort();
    deps.timed(() => {
      if (moved) {
        moved = false;
        rankedAt = globalThis.scrollY;
        rest = reRanked(rest.slice(i), h);
        i = 0;
      }
      const deadline = performance.now() + budget;
      while (i < rest.length) {
        const item = rest[i++]!;
        // The page removed it meanwhile (an app's view replaced): nothing there to send.
        if (!item.el.isConnected) continue;
        const walk: Walk = { out: [], later: [], defer: () => (performance.now() > deadline ? item.rank : undefined) };
        deps.segmenter.resume(item, walk);
        deps.found(walk.out, item.rank as Bucket, item.el);
        // A subtree cut short by the deadline: its remaining blocks come next, in document order;
        // a near one's, each by where it is (a long list of references in view: the items on
        // screen first, not the list from its top), before what is left of the same rank.
        if (walk.later.length && item.rank < 2) {
          rest = reRanked(walk.later, h).concat(rest.slice(i)).sort(byRank);
          i = 0;
        } else if (walk.later.length) rest.splice(i, 0, ...walk.later);
        if (performance.now() > deadline) break;
      }
      if (i > 4096) {
        rest.splice(0, i);
        i = 0;
      }
    });
    if (i < rest.length) deps.idle(slice);
    else end();
  };
  if (rest.length) deps.idle(slice);
  else end();
}

/** Nearest first; stable, so document order within a rank. */
const byRank = (a: Later, b: Later): number => a.rank - b.rank;

/** `rest` by the rank each subtree's rect gives now, nearest first (document order within a rank); all reads. */
function reRanked(rest: Later[], h: number): Later[] {
  for (const item of rest) if (!item.hidden) item.rank = rankOf(item.el.getBoundingClientRect(), h);
  return rest.sort(byRank);
}

/** The first pass: blocks that meet the viewport; the rest left for later, nearest screens first. */
function firstScreen(deps: DiscoverDeps): Later[] {
  const h = viewportHeight(deps.height);
  const defer = (el: Element, hidden: boolean): number | undefined => {
    if (hidden) return 2;
    if (deps.near) return deps.near(el) ? undefined : 2;
    const r = el.getBoundingClientRect();
    // A box of no size (display:contents, a zero-height wrapper of positioned content) says nothing
    // of where it is; it may say its parent's shadow root does not show it.
    if (r.width === 0 && r.height === 0) {
      deps.noBox?.(el);
      return undefined;
    }
    const b = rankOf(r, h);
    return b === 0 ? undefined : b;
  };
  const first: Walk = { out: [], later: [], ...(deps.viewport || deps.near ? { defer } : {}) };
  deps.segmenter.document(deps.doc, first);
  deps.found(first.out);
  // Nearest first (stable: document order within a rank): what nesting left for later (rank 0),
  // the next screen, then the rest.
  return first.later.sort((a, b) => a.rank - b.rank);
}
