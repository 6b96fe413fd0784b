/**
 * Content the page removes while translated takes its units with it: those not written yet are
 * dropped before they are sent (a call left carrying none of the page's units is cancelled), those
 * written are set aside with their nodes (aside.ts), kept only as long as the page keeps the nodes,
 * and back translated if the page puts them back. Also `retire`, how any unit the page changed goes.
 */
import type { Job } from './jobs';
import { Aside } from './aside';
import { PageChoices } from './choices';
import { idleSlice } from './discover';
import { realClock } from './lively';
import { pageShadow } from './shadow';
import type { Unit } from './segment';
import { unitNodes, unitOnPage, unitShape } from './units';

/** What a unit set aside read (its undo log's texts and attributes), and what it held (`unitShape`). */
interface Reading {
  values: readonly (string | null)[];
  shape: number;
}

export abstract class PageRemovals extends PageChoices {
  /** An element's shadow root, open or closed: the segmenter's, the watch's and `defined`'s. */
  protected readonly shadowOf = this.deps.shadow ?? pageShadow;
  /** Written units whose nodes the page removed (`sweep`), with what they read then. */
  protected readonly aside = new Aside<Job, Reading>();
  /** Hosts of the shadow roots walked: where units set aside may be inside a root. */
  protected readonly rootHosts = new WeakSet<Element>();
  /**
   * The texts our writes left empty in units set aside. What the page changes out of the page is
   * told by the values then (`adoptChanged`), but a page that empties one of these writes no new
   * value: restore gave the text its words back (found by the dynamic property test, seeds 7021
   * and 9021). Watched, they are few (a run's Text nodes its translation did not need).
   */
  private emptiedWatch: MutationObserver | null = null;
  /**
   * Nodes removed whose units wait for the sweep: watched out of the page until it (observe.ts
   * `release`), so a change the page makes there meanwhile is followed as one in the page is.
   */
  private readonly outForSweep = new Set<Node>();
  /** When the last sweep ran, and the next one if it waits. */
  private swept = -Infinity;
  /** Set while a sweep waits: cancels its timer (nothing once it fired). */
  private sweepWaits: (() => void) | undefined;
  private readonly sweepClock = this.deps.clock ?? realClock;

  /** The page is translating or translated, or stopped with what was written still followed for restore. */
  protected following(): boolean {
    return this.state === 'translating' || this.state === 'translated' || this.state === 'cancelled';
  }

  /**
   * Nodes the page removed: the units in them go with them (`leave`), found by walking what was
   * removed when it is small (a feed's old item), else by a sweep of every unit when the page is
   * idle (an app's whole view: watched out of the page until then). The units of calls in flight
   * are looked at at once.
   */
  protected leftPage(removed: readonly Node[]): void {
    this.dropFromCalls();
    const found = new Set<Job>();
    let budget = this.deps.walkRemoved ?? WALK_REMOVED;
    for (const n of removed) {
      if (!n.isConnected) budget = this.owners.everyWithin(n, found, this.walkedRoot, budget);
      if (budget >= 0) continue;
      for (const r of removed) if (!r.isConnected) this.outForSweep.add(r);
      return this.sweepSoon();
    }
    const gone: Job[] = [];
    for (const j of found) if (!unitOnPage(j.origin ?? j.unit)) gone.push(j);
    if (gone.length) this.leave(gone);
  }

  /** The shadow root of a host whose root was walked (units may be in it), else null. */
  private readonly walkedRoot = (el: Element): ShadowRoot | null => (this.rootHosts.has(el) ? this.shadowOf(el) : null);

  /**
   * Units of calls in flight that left the page: dropped (their answers not written); then a call
   * left carrying none of the page's units is cancelled, its slot free.
   */
  private dropFromCalls(): void {
    let dropped = false;
    for (const [req, { call }] of this.inflight) {
      for (const j of call.jobs.values()) {
        if (j.req !== req || j.state !== 'sent' || unitOnPage(j.origin ?? j.unit)) continue;
        this.retire(j);
        dropped = true;
      }
    }
    if (!dropped) return;
    // After every drop: the pieces of a long text, retired together, may be in another call.
    for (const [req, { ac, call }] of this.inflight) {
      let live = false;
      for (const j of call.jobs.values()) if (j.req === req && j.state === 'sent') live = true;
      if (live) continue;
      this.inflight.delete(req);
      ac.abort(new DOMException('what the call carried left the page', 'AbortError'));
    }
  }

  /**
   * The page removed nodes: a sweep for the units that went with them when the page is idle (after
   * its own work on what it shows now), at most every `SWEEP_MS` (a sweep looks at every unit:
   * 11 000 on the largest saved page, 40–60 ms when the page removed them all).
   */
  private sweepSoon(): void {
    if (this.sweepWaits) return;
    const wait = Math.max(0, this.swept + SWEEP_MS - this.sweepClock.now());
    this.sweepWaits = this.sweepClock.after(wait, () => (this.deps.idle ?? idleSlice)(this.sweepNow));
  }

  private readonly sweepNow = () => {
    if (!this.sweepWaits) return;
    this.sweepWaits = undefined;
    this.sweep();
  };

  /**
   * Restore of what was written into nodes the page removed and still keeps (a view it may put
   * back). What the page changed in them since (out of the page, unseen) is what it keeps: read
   * before any is undone (the pieces of a long text share their node).
   */
  protected undoAside(): void {
    this.takeEmptied();
    this.emptiedWatch?.disconnect();
    this.emptiedWatch = null;
    const aside = this.aside.jobs((j) => j.state === 'aside');
    for (const j of aside) this.adoptUnseen(j);
    for (let i = aside.length - 1; i >= 0; i--) aside[i]!.log?.undo();
    this.aside.clear();
  }

  /** A sweep waiting is not wanted (restore). */
  protected noSweep(): void {
    this.sweepWaits?.();
    this.sweepWaits = undefined;
    this.outForSweep.clear();
  }

  /** The removed nodes watched out of the page that no sweep waits for are let go (after each batch). */
  protected releaseOut(): void {
    this.observer?.release((n) => this.outForSweep.has(n));
  }

  /** Every unit whose nodes are out of the page now (not moved: gone when swept) leaves (`leave`). */
  private sweep(): void {
    this.swept = this.sweepClock.now();
    if (!this.following()) return;
    // The nodes it sets aside are watched no more: what the units read now tells a change since.
    // A change before, not handed over yet, retires a unit set aside (`retire`).
    this.outForSweep.clear();
    this.releaseOut();
    this.timed('follow', () => {
      const gone: Job[] = [];
      const off = (j: Job) => !unitOnPage(j.origin ?? j.unit);
      for (const j of this.merged) if (off(j)) gone.push(j);
      for (const j of this.queue?.jobs() ?? []) if (off(j)) gone.push(j);
      for (const j of this.retries.failures()) if (j.state === 'error' && off(j)) gone.push(j);
      if (gone.length) this.observer!.whilePaused(() => this.leave(gone));
    });
    this.report();
    this.pump();
  }

  /**
   * Units whose nodes the page removed. One written is set aside with its nodes (aside.ts): no
   * longer counted, held only while the page holds its nodes, undone by restore, back if the page
   * puts them back (`putBack`). Any other is dropped: not sent (packing skips one the page removed
   * before it was found here too), not counted, not retried, its answer not written.
   */
  private leave(jobs: readonly Job[]): void {
    let setAside = false;
    let dropped = false;
    for (const job of jobs) {
      if (job.state === 'retired' || job.state === 'aside') continue;
      const group = this.owners.siblings(job);
      // A bilingual copy goes with its original (restore would have nothing to undo in it).
      if (!job.copy && group.every((j) => j.state === 'done')) {
        for (const j of group) j.state = 'aside';
        setAside = true;
      } else {
        this.retire(job);
        dropped = true;
      }
    }
    if (setAside) {
      const kept: Job[] = [];
      for (const j of this.merged) {
        if (j.state !== 'aside') kept.push(j);
        else {
          this.aside.add(j, unitNodes(j.unit), { values: j.log?.reading() ?? [], shape: unitShape(j.unit) });
          for (const t of j.log?.emptied() ?? []) (this.emptiedWatch ??= new MutationObserver((r) => this.adoptEmptied(r))).observe(t, { characterData: true });
          this.done--;
          this.total--;
        }
      }
      this.merged = kept;
    }
    if (dropped) {
      this.retries.prune();
      if (this.copies.length) this.copies = this.copies.filter((c) => c.isConnected);
    }
  }

  /** Adds to `out` the jobs of every node and attribute in `el`'s subtree, the walked shadow roots in it included. */
  protected jobsWithin(el: Element, out: Set<Job>): Set<Job> {
    this.owners.everyWithin(el, out, this.walkedRoot);
    return out;
  }

  /**
   * Units set aside whose nodes the page put back under `root` (a tab panel shown again): counted
   * and followed again, as written; those the page changed while out of the page (where no change
   * is seen) are `touched`, to be translated again, the page's values kept for restore.
   */
  protected putBack(root: Node, touched: Set<Job>): void {
    this.takeEmptied();
    const found = new Set<Job>();
    this.owners.everyWithin(root, found, this.walkedRoot);
    const back = new Set<Job>();
    for (const j of found) if (j.state === 'aside') for (const s of this.owners.siblings(j)) back.add(s);
    if (back.size === 0) return;
    let reshaped = false;
    // In the order they were written: restore undoes the pieces of a long text newest first.
    for (const j of this.aside.jobs((j) => back.has(j) && j.state === 'aside')) {
      j.state = 'done';
      this.done++;
      this.total++;
      this.merged.push(j);
      const then = this.aside.readingOf(j);
      // Its texts and attributes, and the nodes and words it holds (the page may have added some).
      const changed = j.log?.adoptChanged(then?.values ?? []);
      if (changed || unitShape(j.unit) !== then?.shape) {
        touched.add(j);
        reshaped = true;
      }
    }
    // What the walk read of its elements may be out of date too (one says no now).
    if (reshaped) this.segmenter?.forgetWithin(root);
  }

  /** What the page changed, unseen, in a unit set aside since it was set aside: its values are the ones to restore. */
  private adoptUnseen(j: Job): void {
    j.log?.adoptChanged(this.aside.readingOf(j)?.values ?? []);
  }

  /** Texts the page set while out of the page, in units set aside: their values are the ones to restore. */
  private adoptEmptied(records: readonly MutationRecord[]): void {
    for (const r of records) {
      const job = this.owners.of(r.target);
      if (job?.state !== 'aside') continue;
      for (const j of this.owners.siblings(job)) j.log?.adopt(r.target as Text);
    }
  }

  private takeEmptied(): void {
    if (this.emptiedWatch) this.adoptEmptied(this.emptiedWatch.takeRecords());
  }

  /** A unit the page changed: its write undone, its answer (if any comes) dropped. */
  protected retire(job: Job): void {
    if (job.state === 'retired') return;
    // Attribute values that followed a retired job still need their translation: queued again.
    const orphans: Unit[] = [];
    // The pieces of a long text go together, as do the jobs writing into one bilingual copy.
    const together = new Set(this.owners.siblings(job));
    if (job.copy) for (const j of this.copyJobs.get(job.copy) ?? []) together.add(j);
    // Newest write first: each piece of a long text logged the text as the pieces before it left it.
    const group = [...together];
    if (group.length > 1) {
      // Pieces set aside together are in the order they were set aside, not among those written.
      const order = job.state === 'aside' ? this.aside.jobs((j) => together.has(j)) : this.merged;
      group.sort((a, b) => order.indexOf(b) - order.indexOf(a));
    }
    for (const j of group) {
      if (j.state === 'retired') continue;
      // Set aside, out of the page and no longer counted: what the page changed there is kept.
      const counted = j.state !== 'aside';
      if (!counted) this.adoptUnseen(j);
      if (j.state === 'done' || !counted) {
        // What the page laid out anew of its words (fitted.ts) stays as the page has it: only
        // restore (or the reader's choice of the original) puts the unit's own nodes back there.
        j.log?.unfit();
        j.log?.undo();
        j.log = null;
      }
      if (j.state === 'done') {
        this.done--;
        this.merged = this.merged.filter((m) => m !== j);
      }
      if (j.state === 'error') this.errors--;
      if (j.state === 'queued') this.queuedSize -= j.size;
      this.queue?.delete(j);
      j.state = 'retired';
      if (counted) this.total--;
      this.owners.disown(j);
      if (j.origin) this.owners.disown(j, j.origin);
      j.copy?.el.remove();
      for (const f of j.followers ?? []) {
        if (f.state !== 'waiting') continue;
        f.state = 'retired';
        this.total--;
        this.owners.disown(f);
        orphans.push(f.unit);
      }
      this.leaders.settled(j);
    }
    if (this.state !== 'cancelled') for (const u of orphans) this.enqueue(u);
  }
}

/** The least time between two sweeps. */
const SWEEP_MS = 500;
/** The most nodes a removal's walk visits before a sweep does it (~1 ms). */
const WALK_REMOVED = 2000;
