/**
 * Which units go next: those in the viewport, then those within a screen of it, then the rest of the
 * page in document order, so Ctrl+F, printing and saving see it all translated. An
 * IntersectionObserver re-ranks as the user scrolls; every fourth call is served from the far end
 * first so the background never starves behind endless new visible content.
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
  /** Set false where there is no layout (tests), to rank by order alone. */
  observe?: boolean;
}

export class Prioritizer<J extends Ranked> {
  private readonly buckets: Set<J>[] = [new Set(), new Set(), new Set()];
  private readonly where = new Map<J, Bucket>();
  private readonly byEl = new Map<Element, Set<J>>();
  private readonly io: IntersectionObserver | null;
  private calls = 0;
  private readonly height: () => number;

  constructor(opts: PrioritizerOptions = {}) {
    this.height = opts.viewportHeight ?? (() => globalThis.innerHeight || 800);
    this.io =
      opts.observe !== false && typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => this.onIntersect(entries), { rootMargin: '100% 0px' })
        : null;
  }

  get size(): number {
    return this.where.size;
  }

  add(job: J): void {
    const el = unitElement(job.unit);
    const b = job.unit.hidden || !el ? 2 : this.rank(el.getBoundingClientRect());
    this.put(job, b);
    if (el && this.io && !job.unit.hidden) {
      let set = this.byEl.get(el);
      if (!set) {
        this.byEl.set(el, (set = new Set()));
        this.io.observe(el);
      }
      set.add(job);
    }
  }

  delete(job: J): void {
    const b = this.where.get(job);
    if (b === undefined) return;
    this.buckets[b]!.delete(job);
    this.where.delete(job);
    const el = unitElement(job.unit);
    const set = el ? this.byEl.get(el) : undefined;
    if (el && set) {
      set.delete(job);
      if (set.size === 0) {
        this.byEl.delete(el);
        this.io?.unobserve(el);
      }
    }
  }

  /**
   * Jobs for one call, best first, as long as `accept` takes them (it returns false when the call is
   * full). The first job is always taken.
   */
  take(accept: (job: J) => boolean): J[] {
    const order: Bucket[] = ++this.calls % 4 === 0 ? [2, 1, 0] : [0, 1, 2];
    const taken: J[] = [];
    for (const b of order) {
      for (const job of [...this.buckets[b]!].sort((x, y) => x.seq - y.seq)) {
        if (!accept(job)) return taken;
        taken.push(job);
        this.delete(job);
      }
    }
    return taken;
  }

  clear(): void {
    for (const b of this.buckets) b.clear();
    this.where.clear();
    this.byEl.clear();
    this.io?.disconnect();
  }

  private rank(r: DOMRect): Bucket {
    if (r.width === 0 && r.height === 0) return 2;
    const h = this.height();
    if (r.bottom >= 0 && r.top <= h) return 0;
    if (r.bottom >= -h && r.top <= 2 * h) return 1;
    return 2;
  }

  private put(job: J, b: Bucket): void {
    const old = this.where.get(job);
    if (old === b) return;
    if (old !== undefined) this.buckets[old]!.delete(job);
    this.buckets[b]!.add(job);
    this.where.set(job, b);
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const e of entries) {
      const set = this.byEl.get(e.target);
      if (!set) continue;
      const b = e.isIntersecting ? this.rank(e.boundingClientRect) : 2;
      for (const job of set) if (this.where.has(job)) this.put(job, b);
    }
  }
}
