/**
 * Which units go next: those in the viewport, then those within a screen of it, then the rest of the
 * page in document order, so Ctrl+F, printing and saving see it all translated. A scroll re-ranks
 * what is queued (one rect read per queued element, at most once per frame); every fourth call is
 * served from the far end first so the background never starves behind endless new visible content.
 *
 * No IntersectionObserver: observing an element leaves observer data on it for its lifetime
 * (measured: ~70 bytes per unit after restore), and the queue is ranked only when a call is packed.
 */
import { unitElement, type Unit } from './segment';

export type Bucket = 0 | 1 | 2;

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
}

export class Prioritizer<J extends Ranked> {
  private readonly buckets: Set<J>[] = [new Set(), new Set(), new Set()];
  private readonly last = [-1, -1, -1];
  private readonly unsorted = [false, false, false];
  private readonly where = new Map<J, Bucket>();
  /** The element each visible job is ranked by, for re-ranking on scroll. */
  private readonly at = new Map<J, Element>();
  private readonly stop = new AbortController();
  private readonly layout: boolean;
  private calls = 0;
  private rerank = false;
  private readonly height: () => number;
  private readonly far: boolean;

  constructor(opts: PrioritizerOptions = {}) {
    this.height = opts.viewportHeight ?? (() => globalThis.innerHeight || 800);
    this.layout = opts.observe !== false;
    this.far = opts.far !== false;
    if (this.layout && typeof addEventListener === 'function') {
      addEventListener('scroll', () => (this.rerank = true), { passive: true, capture: true, signal: this.stop.signal });
    }
  }

  get size(): number {
    return this.where.size;
  }

  /** Jobs that may be served now: all of them, or only the near ones (re-ranked after a scroll). */
  get ready(): number {
    if (this.far) return this.where.size;
    if (this.rerank) this.reRank();
    return this.buckets[0]!.size + this.buckets[1]!.size;
  }

  /** Queues a job; `bucket` when the caller knows it (then `at` is what a scroll re-ranks it by). */
  add(job: J, bucket?: Bucket, at?: Element | null): void {
    const el = at ?? unitElement(job.unit);
    const b = bucket ?? (job.unit.hidden || !el ? 2 : rankOf(el.getBoundingClientRect(), this.height()));
    this.put(job, b);
    if (el && this.layout && !job.unit.hidden) this.at.set(job, el);
  }

  delete(job: J): void {
    const b = this.where.get(job);
    if (b === undefined) return;
    this.buckets[b]!.delete(job);
    this.where.delete(job);
    this.at.delete(job);
  }

  /**
   * Jobs for one call, best first, as long as `accept` takes them (it returns false when the call is
   * full; it is told each job's bucket). The first job is always taken.
   */
  take(accept: (job: J, bucket: Bucket) => boolean): J[] {
    if (this.rerank) this.reRank();
    const order: Bucket[] = !this.far ? [0, 1] : ++this.calls % 4 === 0 ? [2, 1, 0] : [0, 1, 2];
    const taken: J[] = [];
    for (const b of order) {
      if (this.unsorted[b]) this.sort(b);
      for (const job of this.buckets[b]!) {
        if (!accept(job, b)) return taken;
        taken.push(job);
        this.delete(job);
      }
    }
    return taken;
  }

  clear(): void {
    for (const b of this.buckets) b.clear();
    this.where.clear();
    this.at.clear();
    this.stop.abort();
  }

  private sort(b: Bucket): void {
    const jobs = [...this.buckets[b]!].sort((x, y) => x.seq - y.seq);
    this.buckets[b] = new Set(jobs);
    this.unsorted[b] = false;
    this.last[b] = jobs.at(-1)?.seq ?? -1;
  }

  private put(job: J, b: Bucket): void {
    const old = this.where.get(job);
    if (old === b) return;
    if (old !== undefined) this.buckets[old]!.delete(job);
    this.buckets[b]!.add(job);
    this.where.set(job, b);
    if (job.seq < this.last[b]!) this.unsorted[b] = true;
    else this.last[b] = job.seq;
  }

  /** All reads, no writes: one layout at most. */
  private reRank(): void {
    this.rerank = false;
    const h = this.height();
    const seen = new Map<Element, Bucket>();
    for (const [job, el] of this.at) {
      let b = seen.get(el);
      if (b === undefined) seen.set(el, (b = rankOf(el.getBoundingClientRect(), h)));
      this.put(job, b);
    }
  }
}

/** 0: in the viewport, 1: within a screen of it, 2: further, or not laid out. */
export function rankOf(r: DOMRect, h: number): Bucket {
  if (r.width === 0 && r.height === 0) return 2;
  if (r.bottom >= 0 && r.top <= h) return 0;
  if (r.bottom >= -h && r.top <= 2 * h) return 1;
  return 2;
}
