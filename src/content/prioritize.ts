/**
 * Which units go next: those in the viewport, then those within a screen of it, then the rest of the
 * page in document order, so Ctrl+F, printing and saving see it all translated. A value the page
 * does not show (a tooltip, what a screen reader says) goes with what is near when its element is
 * in view: the reader sees the texts there first. A scroll re-ranks what is queued (one rect read
 * per queued element, at most once per frame); every fourth call is served from the far end first
 * so the background never starves behind endless new visible content, except while what a scroll
 * brought into view is still waiting: the reader is looking at it.
 *
 * No IntersectionObserver: observing an element leaves observer data on it for its lifetime
 * (measured: ~70 bytes per unit after restore), and the queue is ranked only when a call is packed.
 */
import { UNSHOWN_ATTRIBUTES } from './attributes';
import { unitElement, type Unit } from './units';

export type Bucket = 0 | 1 | 2;

/** Jobs of a bucket tried past the first that does not fit in a call (`take`). */
const LOOKAHEAD = 16;

export interface Ranked {
  unit: Unit;
  /** Discovery order, roughly document order. */
  seq: number;
}

export interface PrioritizerOptions {
  /** The viewport's height; injectable for tests. */
  viewportHeight?: () => number;
  /** Set false where nothing scrolls (tests): no re-ranking. */
  observe?: boolean;
  /** Serve the far bucket too (false: "near the viewport only", far jobs wait until scrolled near). */
  far?: boolean;
  /**
   * A unit's element that is not hidden by its style and has no box: a shadow root of its parent
   * may not show it (follow.ts `unshown`).
   */
  noBox?: (el: Element) => void;
}

/**
 * Each bucket is an array in `seq` order read from a head index; a job taken, deleted or moved to
 * another bucket stays in its old array until the head passes it (`where` says which entries are
 * live). Not a Set: a Set emptied from its front keeps its deleted entries as holes until it shrinks
 * to a quarter, and each call's iteration started over them (measured: `take` was ~37 ms of DOM
 * time per translation of aows-nba, 11 000 jobs).
 */
export class Prioritizer<J extends Ranked> {
  private readonly buckets: J[][] = [[], [], []];
  /** Where each bucket's live entries start. */
  private readonly head = [0, 0, 0];
  /** Live jobs in each bucket. */
  private readonly counts = [0, 0, 0];
  private readonly last = [-1, -1, -1];
  private readonly unsorted = [false, false, false];
  private readonly where = new Map<J, Bucket>();
  /** The element each visible job is ranked by, for re-ranking on scroll. */
  private readonly at = new Map<J, Element>();
  private readonly stop = new AbortController();
  private readonly layout: boolean;
  private calls = 0;
  private rerank = false;
  /** A scroll re-ranked the queue and what it brought into view is not all taken yet. */
  private scrolled = false;
  /** Jobs queued since the last call, ranked near by the subtree they were found in. */
  private readonly fresh: J[] = [];
  private readonly height: () => number;
  private readonly far: boolean;
  private readonly noBox: ((el: Element) => void) | undefined;

  constructor(opts: PrioritizerOptions = {}) {
    this.height = () => viewportHeight(opts.viewportHeight);
    this.layout = opts.observe !== false;
    this.far = opts.far !== false;
    this.noBox = opts.noBox;
    if (this.layout && typeof addEventListener === 'function') {
      addEventListener('scroll', () => (this.rerank = this.scrolled = true), { passive: true, capture: true, signal: this.stop.signal });
    }
  }

  get size(): number {
    return this.where.size;
  }

  /** Jobs in the viewport (re-ranked after a scroll). */
  get inView(): number {
    this.settle();
    return this.counts[0]!;
  }

  /** Jobs that may be served now: all of them, or only the near ones (re-ranked after a scroll). */
  get ready(): number {
    if (this.far) return this.where.size;
    this.settle();
    return this.counts[0]! + this.counts[1]!;
  }

  /**
   * Queues a job; `bucket` when the caller knows it (then `at` is what a scroll re-ranks it by). A
   * job ranked near by a subtree is ranked again, alone, before the next call (`fresh`): that
   * subtree may be taller than a screen.
   */
  add(job: J, bucket?: Bucket, at?: Element | null): void {
    const el = at ?? unitElement(job.unit);
    const b = bucket ?? (job.unit.hidden || !el ? 2 : this.rankBox(el, at ? undefined : textOf(job.unit)));
    this.put(job, b);
    if (el && this.layout && !job.unit.hidden) {
      this.at.set(job, el);
      if (at && b < 2) this.fresh.push(job);
    }
  }

  /** `el`'s bucket by its rect now (`text`'s, for a piece of it); one with no box is reported (`noBox`). */
  private rankBox(el: Element, text?: Text): Bucket {
    const r = text ? textRect(text) : el.getBoundingClientRect();
    // Where nothing is laid out (tests without a viewport) every box is empty.
    if (this.layout && !text && r.width === 0 && r.height === 0) this.noBox?.(el);
    return rankOf(r, this.height());
  }

  /** The jobs queued now (in no particular order). */
  jobs(): J[] {
    return [...this.where.keys()];
  }

  delete(job: J): void {
    const b = this.where.get(job);
    if (b === undefined) return;
    this.counts[b]!--;
    this.where.delete(job);
    this.at.delete(job);
  }

  /**
   * Jobs for one call, best first, as long as `accept` takes them (it returns false when a job does
   * not fit in the call; it is told each job's bucket). The first job is always taken. Past the
   * first that does not fit, the next few of the same bucket are tried (`LOOKAHEAD`): a short unit
   * fills the room a long one left, so calls go out fuller and fewer; the one that did not fit is
   * first in the next call.
   */
  take(accept: (job: J, bucket: Bucket) => boolean): J[] {
    this.settle();
    // What a scroll brought into view goes first until it has all gone: the far turn waits.
    if (this.scrolled && this.counts[0] === 0) this.scrolled = false;
    const order: Bucket[] = !this.far ? [0, 1] : !this.scrolled && ++this.calls % 4 === 0 ? [2, 1, 0] : [0, 1, 2];
    const taken: J[] = [];
    for (const b of order) {
      if (this.unsorted[b]) this.sort(b);
      const list = this.buckets[b]!;
      let i = this.head[b]!;
      // The first job left in the bucket (one that did not fit), and the jobs tried past it.
      let left = -1;
      let tried = 0;
      for (; i < list.length; i++) {
        const job = list[i]!;
        if (this.where.get(job) !== b) continue;
        if (left >= 0 && ++tried > LOOKAHEAD) break;
        if (!accept(job, b)) {
          if (left < 0) left = i;
          continue;
        }
        taken.push(job);
        this.delete(job);
      }
      this.passed(b, left >= 0 ? left : i);
      if (left >= 0) return taken;
    }
    return taken;
  }

  clear(): void {
    for (const b of [0, 1, 2] as const) this.passed(b, this.buckets[b]!.length);
    this.where.clear();
    this.at.clear();
    this.fresh.length = 0;
    this.stop.abort();
  }

  /** The live entries of bucket `b`, once each, in `seq` order. */
  private sort(b: Bucket): void {
    const live = new Set<J>();
    const list = this.buckets[b]!;
    for (let i = this.head[b]!; i < list.length; i++) if (this.where.get(list[i]!) === b) live.add(list[i]!);
    const jobs = [...live].sort((x, y) => x.seq - y.seq);
    this.buckets[b] = jobs;
    this.head[b] = 0;
    this.unsorted[b] = false;
    this.last[b] = jobs.at(-1)?.seq ?? -1;
  }

  /** Bucket `b` is read up to `i`: what is before goes (all of it, once the end is reached). */
  private passed(b: Bucket, i: number): void {
    const list = this.buckets[b]!;
    if (i >= list.length) {
      list.length = 0;
      this.head[b] = 0;
      this.last[b] = -1;
    } else if (i > 1024 && i * 2 > list.length) {
      list.splice(0, i);
      this.head[b] = 0;
    } else this.head[b] = i;
  }

  /** Queues `job` in bucket `rank`; a tooltip or what only a screen reader says, in view, with what is near. */
  private put(job: J, rank: Bucket): void {
    const u = job.unit;
    const b: Bucket = rank === 0 && u.kind === 'attr' && UNSHOWN_ATTRIBUTES.has(u.name) ? 1 : rank;
    const old = this.where.get(job);
    if (old === b) return;
    if (old !== undefined) this.counts[old]!--;
    this.counts[b]!++;
    this.buckets[b]!.push(job);
    this.where.set(job, b);
    if (job.seq < this.last[b]!) this.unsorted[b] = true;
    else this.last[b] = job.seq;
  }

  /** Ranks again what a scroll or a job found near asks to, before the queue is read. */
  private settle(): void {
    if (this.rerank) this.reRank();
    else if (this.fresh.length) this.rank(this.fresh);
    this.fresh.length = 0;
  }

  /**
   * All reads, no writes: one layout at most. A job found in a subtree left for later is ranked by
   * that subtree, one read for all its jobs; but where the subtree is taller than a screen and
   * near (a long table, an article's body, a list of references), each of its jobs is ranked by its
   * own element (one read per element): else a reader who jumps to the end of a long table waits
   * for every row above. Every one of them, not a search outward from the viewport: document
   * order need not follow the page down (columns, a grid, a reversed flex box).
   */
  private reRank(): void {
    this.rerank = false;
    this.rank(this.at.keys());
  }

  /** Ranks `jobs` (queued and laid out) as `reRank` says. */
  private rank(jobs: Iterable<J>): void {
    const h = this.height();
    // The element a job is ranked by; -1: taller than a screen and near, its jobs ranked by their own.
    const by = new Map<Element, Bucket | -1>();
    const own = new Map<Node | null, Bucket>();
    for (const job of jobs) {
      const el = this.at.get(job);
      if (!el) continue;
      let b = by.get(el);
      if (b === undefined) {
        const r = el.getBoundingClientRect();
        const near = rankOf(r, h);
        b = near < 2 && r.height > h ? -1 : near;
        by.set(el, b);
      }
      if (b === -1) {
        const mine = textOf(job.unit) ?? unitElement(job.unit);
        b = own.get(mine);
        if (b === undefined) own.set(mine, (b = !mine ? 2 : rankOf(mine instanceof Text ? textRect(mine) : mine.getBoundingClientRect(), h)));
      }
      this.put(job, b);
    }
  }
}

/**
 * The text a piece is of (a long text sent in pieces): it is ranked by where that text is, not its
 * element, which may be far taller (a text file's `<pre>` holds all its paragraphs: ranked by it,
 * every paragraph of a book was in view, so every answer was written at once, each frame laying
 * the whole book out again).
 */
function textOf(unit: Ranked['unit']): Text | undefined {
  return unit.kind === 'piece' ? unit.group.text : undefined;
}

/** A text's box. */
function textRect(t: Text): DOMRect {
  const range = t.ownerDocument.createRange();
  range.selectNodeContents(t);
  return range.getBoundingClientRect();
}

/** The viewport's height: `given` (tests), else the window's. */
export function viewportHeight(given?: () => number): number {
  return given?.() ?? (globalThis.innerHeight || 800);
}

/** 0: in the viewport, 1: within a screen of it, 2: further, or not laid out. */
export function rankOf(r: DOMRect, h: number): Bucket {
  if (r.width === 0 && r.height === 0) return 2;
  if (r.bottom >= 0 && r.top <= h) return 0;
  if (r.bottom >= -h && r.top <= 2 * h) return 1;
  return 2;
}
