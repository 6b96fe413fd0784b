/**
 * Following the page's own changes while it is translated: text and attributes it changes are
 * translated again (the write undone first, so restore keeps the page's values), content it adds is
 * segmented and queued, content it removes takes its units with it (set aside while the page keeps
 * the nodes, dropped before they are sent), and shadow roots defined or attached later are walked.
 */
import type { Job } from './jobs';
import { Aside } from './aside';
import { PageChoices } from './choices';
import { idleSlice } from './discover';
import type { LateRoots } from './late-roots';
import { pageShadow } from './shadow';
import type { Unit } from './segment';
import { unitNodes, unitOnPage } from './units';
import type { Definitions } from './upgrades';

export class PageFollow extends PageChoices {
  /** Custom elements the walk met before their definition (upgrades.ts); until restore. */
  protected definitions: Definitions | null = null;
  /** An element's shadow root, open or closed: the segmenter's, the watch's and `defined`'s. */
  protected readonly shadowOf = this.deps.shadow ?? pageShadow;
  /** Elements the walk met with no shadow root that may get one later (late-roots.ts); until restore. */
  protected lateRoots: LateRoots | null = null;
  /** Written units whose nodes the page removed (`sweep`). */
  protected readonly aside = new Aside<Job>();
  /** Hosts of the shadow roots walked: where units set aside may be inside a root. */
  protected readonly rootHosts = new WeakSet<Element>();
  /** When the last sweep ran, and the next one if it waits. */
  private swept = -Infinity;
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;

  protected onMutations(records: MutationRecord[]): void {
    // Cancelled: nothing more is translated, but what the page changes in what was is still
    // followed, so restore keeps the page's own values.
    if (!this.following()) return;
    this.timed('follow', () => this.followChanges(records));
  }

  /** The page is translating or translated, or stopped with what was written still followed for restore. */
  private following(): boolean {
    return this.state === 'translating' || this.state === 'translated' || this.state === 'cancelled';
  }

  private followChanges(records: MutationRecord[]): void {
    const touched = new Set<Job>();
    const roots = new Set<Node>();
    const attrs: [Element, string][] = [];
    const changedAttrs: [Element, string][] = [];
    const removed: Node[] = [];
    for (const r of records) {
      if (r.type === 'characterData') {
        const job = this.owners.of(r.target);
        if (job) {
          // Every piece of a long text keeps the text as it was: the page's value is the one now.
          for (const j of this.owners.siblings(job)) j.log?.adopt(r.target as Text);
          touched.add(job);
        } else roots.add(r.target);
      } else if (r.type === 'attributes' && r.target instanceof Element && r.attributeName) {
        attrs.push([r.target, r.attributeName]);
      } else if (r.type === 'childList') {
        const inUnit = this.owners.of(r.target);
        if (inUnit) touched.add(inUnit);
        for (const n of [r.previousSibling, r.nextSibling]) {
          const j = n ? this.owners.of(n) : undefined;
          if (j) touched.add(j);
        }
        for (const n of r.addedNodes) roots.add(n);
        for (const n of r.removedNodes) removed.push(n);
      }
    }
    if (this.aside.any) for (const root of roots) if (root.isConnected) this.putBack(root, touched);
    const observer = this.observer!;
    observer.whilePaused(() => {
      for (const [el, name] of attrs) {
        const job = this.owners.attr(el, name);
        if (job) {
          job.log?.adoptAttr(el, name);
          this.retire(job);
        }
        if (el.getAttribute(name) !== null) {
          // What the segmenter read of its attributes is out of date. Read at the element itself:
          // one inside a translated unit (a link's title) is not segmented again with its text.
          this.segmenter?.forgetElement(el);
          changedAttrs.push([el, name]);
        }
      }
      for (const job of touched) {
        this.retire(job);
        const u = job.origin ?? job.unit;
        if (u.kind !== 'range') roots.add(u.kind === 'piece' ? u.group.text : u.el);
        else {
          // Every node still in place: the change may have cut the run in two (a block added into
          // one of its links), and the part after the cut is a unit of its own now.
          const size = roots.size;
          for (const n of u.nodes) if (n.parentNode === u.parent) roots.add(n);
          if (roots.size === size) roots.add(u.parent);
        }
      }
      if (removed.length) this.leftPage(removed);
    });
    if (this.state === 'cancelled') {
      this.report();
      return;
    }
    const seg = this.segmenter!;
    const fresh: Unit[] = [];
    for (const [el, name] of changedAttrs) {
      if (!el.isConnected) continue;
      for (const u of seg.attributes(el)) if (u.kind === 'attr' && u.name === name && !this.owners.taken(u)) fresh.push(u);
    }
    // Nodes of runs found already: a run is looked for once, from whichever of its nodes comes first.
    const covered = new Set<Node>();
    for (const root of roots) {
      if (!root.isConnected || covered.has(root) || this.owners.of(root)) continue;
      const around: Node[] = [];
      let units = seg.around(root, [], around);
      // A node added beside a translated run joins it, as does a link that lost the block it held,
      // or a long text that became short: the translations of what the run holds (at any depth:
      // units cut out of its links, pieces of its texts) go, and the whole run is translated again
      // (found here, not only from the record's siblings, which a batch may not name). A node in
      // no unit of its run (a separator now cutting it in parts) takes the whole run with it.
      const joined = new Set<Job>();
      const run = units.find((u) => u.kind === 'range' && u.nodes.some((n) => n === root || n.contains(root)));
      for (const n of run?.kind === 'range' ? run.nodes : around) this.owners.within(n, joined);
      if (joined.size) {
        observer.whilePaused(() => joined.forEach((j) => this.retire(j)));
        units = seg.around(root);
      }
      for (const u of units) {
        if (this.owners.taken(u)) continue;
        fresh.push(u);
        if (u.kind === 'range') for (const n of u.nodes) covered.add(n);
      }
    }
    const seen = new Set<Node>();
    const seenAttrs = new Map<Element, string[]>();
    for (const u of fresh) {
      // The same run, or the same attribute, found from two of its nodes: one job (two would each
      // keep an original, and restore would put back the older).
      if (u.kind === 'attr') {
        let names = seenAttrs.get(u.el);
        if (!names) seenAttrs.set(u.el, (names = []));
        else if (names.includes(u.name)) continue;
        names.push(u.name);
      } else {
        const key = u.kind === 'range' ? u.nodes[0]! : u.group.text;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      this.enqueue(u);
    }
    this.carryOn(fresh.length > 0);
  }

  /**
   * Nodes the page removed: the units in them go with them (`leave`), found by walking what was
   * removed when it is small (a feed's old item), else by a sweep of every unit when the page is
   * idle (an app's whole view). The units of calls in flight are looked at at once.
   */
  private leftPage(removed: readonly Node[]): void {
    this.dropFromCalls();
    const found = new Set<Job>();
    let budget = WALK_REMOVED;
    for (const n of removed) {
      if (!n.isConnected) budget = this.owners.everyWithin(n, found, this.walkedRoot, budget);
      if (budget < 0) return this.sweepSoon();
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
    if (this.sweepTimer !== undefined) return;
    const wait = Math.max(0, this.swept + SWEEP_MS - performance.now());
    this.sweepTimer = setTimeout(() => (this.deps.idle ?? idleSlice)(this.sweepNow), wait);
  }

  private readonly sweepNow = () => {
    if (this.sweepTimer === undefined) return;
    this.sweepTimer = undefined;
    this.sweep();
  };

  /**
   * Restore of what was written into nodes the page removed and still keeps (a view it may put
   * back). What the page changed in them since (out of the page, unseen) is what it keeps: read
   * before any is undone (the pieces of a long text share their node).
   */
  protected undoAside(): void {
    const aside = this.aside.jobs((j) => j.state === 'aside');
    for (const j of aside) j.log?.adoptChanged(this.aside.readingOf(j));
    for (let i = aside.length - 1; i >= 0; i--) aside[i]!.log?.undo();
    this.aside.clear();
  }

  /** A sweep waiting is not wanted (restore). */
  protected noSweep(): void {
    clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** Every unit whose nodes are out of the page now (not moved: gone when swept) leaves (`leave`). */
  private sweep(): void {
    this.swept = performance.now();
    if (!this.following()) return;
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
          this.aside.add(j, unitNodes(j.unit), j.log?.reading() ?? []);
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

  /**
   * Units set aside whose nodes the page put back under `root` (a tab panel shown again): counted
   * and followed again, as written; those the page changed while out of the page (where no change
   * is seen) are `touched`, to be translated again, the page's values kept for restore.
   */
  private putBack(root: Node, touched: Set<Job>): void {
    const found = new Set<Job>();
    this.owners.everyWithin(root, found, this.walkedRoot);
    const back = new Set<Job>();
    for (const j of found) if (j.state === 'aside') for (const s of this.owners.siblings(j)) back.add(s);
    if (back.size === 0) return;
    // In the order they were written: restore undoes the pieces of a long text newest first.
    for (const j of this.aside.jobs((j) => back.has(j) && j.state === 'aside')) {
      j.state = 'done';
      this.done++;
      this.total++;
      this.merged.push(j);
      if (j.log?.adoptChanged(this.aside.readingOf(j))) touched.add(j);
    }
  }

  /** After units were found past the walk (the page's changes, a definition): translating again if any, and on. */
  protected carryOn(found: boolean): void {
    if (found && this.state === 'translated') this.state = 'translating';
    this.report();
    this.pump();
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
    if (group.length > 1) group.sort((a, b) => this.merged.indexOf(b) - this.merged.indexOf(a));
    for (const j of group) {
      if (j.state === 'retired') continue;
      if (j.state === 'done') {
        this.done--;
        j.log?.undo();
        j.log = null;
        this.merged = this.merged.filter((m) => m !== j);
      }
      if (j.state === 'error') this.errors--;
      if (j.state === 'queued') this.queuedSize -= j.size;
      this.queue?.delete(j);
      j.state = 'retired';
      this.total--;
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

  /**
   * An element the walk met with no shadow root that may get one: a custom element not defined yet
   * waits for its definition; anything else is watched for a root attached later, unless it lays
   * out inline (its size is not reported: late-roots.ts).
   */
  protected rootless(el: Element, inline: boolean): void {
    if (this.definitions?.wait(el)) return;
    if (!inline) this.lateRoots?.add(el);
  }

  /**
   * Custom elements whose definition came while the page was translated: what their new shadow
   * roots hold is translated, and the roots followed; one that attaches its root later (on some
   * event after its upgrade) is watched for it.
   */
  protected defined(els: readonly Element[]): void {
    const withRoot: Element[] = [];
    for (const el of els) {
      if (this.shadowOf(el)) withRoot.push(el);
      else if (el.isConnected) this.lateRoots?.add(el);
    }
    this.rooted(withRoot);
  }

  /** Elements that have a shadow root now, attached since the walk met them: what it holds is translated, and the root followed. */
  protected rooted(hosts: readonly Element[]): void {
    if (this.state !== 'translating' && this.state !== 'translated') return;
    const fresh: Unit[] = [];
    this.timed('follow', () => {
      for (const el of hosts) for (const u of this.segmenter!.upgraded(el)) if (!this.owners.taken(u)) fresh.push(u);
      for (const u of fresh) this.enqueue(u);
    });
    this.carryOn(fresh.length > 0);
  }
}

/** The least time between two sweeps. */
const SWEEP_MS = 500;
/** The most nodes a removal's walk visits before a sweep does it (~1 ms). */
const WALK_REMOVED = 2000;
