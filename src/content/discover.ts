/**
 * Viewport first: the first pass segments only blocks that meet the viewport (one rect read per
 * block child of a block that does) and leaves every other block subtree for later, with the rank
 * its rect gave it; so the first call leaves within a few ms of the trigger whatever the page's
 * size. The rest is segmented in idle slices of a few ms (nearest screens first, then document
 * order), so answers are written between slices and the page stays responsive; but what is in
 * view (a screen the reader jumped to) in tasks of its own, or in the frame after the jump, each
 * walked as the first pass walks the page: only its blocks that meet the viewport.
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

/** A slice in a task of its own, soon (a MessageChannel's message: no timer's clamping or throttling). */
const inTask: Idle = (cb) => soon(() => cb(URGENT_MS));
/** Such a slice's budget: below a long task's 50 ms, so input and frames have their turn between two. */
const URGENT_MS = 40;

export interface DiscoverDeps {
  segmenter: Segmenter;
  doc: Document;
  idle: Idle;
  /** Runs `cb` in a task soon, for what is in view (tests: by hand). */
  urgent?: Idle;
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

/**
 * Segments the page (what meets the viewport at once, the rest in slices) and returns what runs a
 * slice now if the reader went half a screen or more since what is left was ranked (page.ts, in
 * the frame that follows a jump: the screen they went to is segmented before that frame's layout
 * and paint, and its calls leave in it; a task asked at the scroll waited behind that frame).
 */
export function discover(deps: DiscoverDeps): () => void {
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
  const urgent = deps.urgent ?? inTask;
  const byView = deps.viewport || deps.near ? viewDefer(deps, h) : undefined;
  const end = () => {
    stop.abort();
    deps.done();
  };
  // One slice asked at a time: a slice asked now (`urgent`) takes over from an idle one asked
  // before, which then does nothing when it comes.
  let asked = 0;
  const ask = (now: boolean) => {
    const token = ++asked;
    (now ? urgent : deps.idle)((budget) => {
      if (token === asked) slice(budget, now);
    });
  };
  // What is in view (rank 0: what the first pass left for later, or a screen the reader went to)
  // is segmented in tasks of its own, not idle slices: while a long page's answers are written,
  // its frames left no idle time, and each slice came by its timeout 230-430 ms apart (Chromium
  // runs it behind every frame), 4 ms each; a reader who jumped waited seconds for the screen.
  const inViewNext = () => moved || (i < rest.length && rest[i]!.rank === 0);
  /** `onlyInView`: what is in view, the rest left to an idle slice. */
  const slice = (budget: number, onlyInView: boolean) => {
    if (!deps.alive()) return stop.abort();
    deps.timed(() => {
      if (moved) {
        moved = false;
        rankedAt = globalThis.scrollY;
        rest = reRanked(rest.slice(i), h);
        i = 0;
      }
      const deadline = performance.now() + budget;
      while (i < rest.length && !(onlyInView && rest[i]!.rank !== 0)) {
        const item = rest[i++]!;
        // The page removed it meanwhile (an app's view replaced): nothing there to send.
        if (!item.el.isConnected) continue;
        // In view: only its blocks in view now, as the first pass walks the page (a list of
        // references taller than the screen, jumped into: not from its top).
        const defer = item.rank === 0 ? byView : undefined;
        const walk: Walk = { out: [], later: [], defer: (el, hidden) => (performance.now() > deadline ? item.rank : defer?.(el, hidden)) };
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
    if (i < rest.length) ask(inViewNext());
    else end();
  };
  if (deps.viewport && typeof addEventListener === 'function') {
    addEventListener(
      'scroll',
      () => {
        if (moved || Math.abs(globalThis.scrollY - rankedAt) < h / 2) return;
        moved = true;
        ask(true);
      },
      { passive: true, capture: true, signal: stop.signal },
    );
  }
  if (rest.length) ask(inViewNext());
  else end();
  return () => {
    if (moved && i < rest.length) slice(URGENT_MS, true);
  };
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
  const first: Walk = { out: [], later: [], ...(deps.viewport || deps.near ? { defer: viewDefer(deps, viewportHeight(deps.height)) } : {}) };
  deps.segmenter.document(deps.doc, first);
  deps.found(first.out);
  // Nearest first (stable: document order within a rank): what nesting left for later (rank 0),
  // the next screen, then the rest.
  return first.later.sort((a, b) => a.rank - b.rank);
}

/** Which blocks a walk of what is in view leaves for later: those not in view, with their rank by their rect (or as a test says). */
function viewDefer(deps: DiscoverDeps, h: number): (el: Element, hidden: boolean) => number | undefined {
  return (el, hidden) => {
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
}
