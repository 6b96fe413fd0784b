/**
 * Viewport first: the first pass segments only blocks that meet the viewport (one rect read per
 * block child of a block that does) and leaves every other block subtree for later, with the rank
 * its rect gave it; so the first call leaves within a few ms of the trigger whatever the page's
 * size. The rest is segmented in idle slices of a few ms (nearest screens first, then document
 * order), so answers are written between slices and the page stays responsive.
 */
import { rankOf, type Bucket } from './prioritize';
import type { Later, Segmenter, Unit, Walk } from './segment';

/** Runs `cb` when the page is idle, with the ms it may use. */
export type Idle = (cb: (budgetMs: number) => void) => void;

export const idleSlice: Idle = (cb) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback((d) => cb(Math.max(4, Math.min(d.timeRemaining(), 12))), { timeout: 50 });
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
}

export function discover(deps: DiscoverDeps): void {
  let rest: Later[] = [];
  deps.timed(() => (rest = firstScreen(deps)));
  let i = 0;
  const slice = (budget: number) => {
    if (!deps.alive()) return;
    deps.timed(() => {
      const deadline = performance.now() + budget;
      while (i < rest.length) {
        const item = rest[i++]!;
        // The page removed it meanwhile (an app's view replaced): nothing there to send.
        if (!item.el.isConnected) continue;
        const walk: Walk = { out: [], later: [], defer: () => (performance.now() > deadline ? item.rank : undefined) };
        deps.segmenter.resume(item, walk);
        deps.found(walk.out, item.rank as Bucket, item.el);
        // A subtree cut short by the deadline: its remaining blocks come next, in document order.
        if (walk.later.length) rest.splice(i, 0, ...walk.later);
        if (performance.now() > deadline) break;
      }
      if (i > 4096) {
        rest.splice(0, i);
        i = 0;
      }
    });
    if (i < rest.length) deps.idle(slice);
    else deps.done();
  };
  if (rest.length) deps.idle(slice);
  else deps.done();
}

/** The first pass: blocks that meet the viewport; the rest left for later, nearest screens first. */
function firstScreen(deps: DiscoverDeps): Later[] {
  const h = deps.height?.() ?? (globalThis.innerHeight || 800);
  const defer = (el: Element, hidden: boolean): number | undefined => {
    if (hidden) return 2;
    if (deps.near) return deps.near(el) ? undefined : 2;
    const r = el.getBoundingClientRect();
    // A box of no size (display:contents, a zero-height wrapper of positioned content) says nothing.
    if (r.width === 0 && r.height === 0) return undefined;
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
