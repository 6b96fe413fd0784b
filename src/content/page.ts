/**
 * Page translation for one document: segment the viewport first and the rest in idle slices, send
 * through the calls (calls.ts), follow the page's own changes, and restore exactly.
 */
import type { PageOptions, PageState, PageStatus } from '../shared/messages';
import { isCopy } from './bilingual';
import { runMetrics } from './metrics';
import { PageChoices } from './choices';
import type { Job } from './jobs';
import { discover, idleSlice } from './discover';
import { PageObserver } from './observe';
import { Prioritizer } from './prioritize';
import { Segmenter, type Unit } from './segment';
import { LateRoots } from './late-roots';
import { pageShadow } from './shadow';
import { Definitions } from './upgrades';

export type { PageState, PageStatus };
export type { PageDeps, TranslateFn } from './jobs';

export class PageTranslator extends PageChoices {
  private scrolls: AbortController | null = null;
  /** Custom elements the walk met before their definition (upgrades.ts); until restore. */
  private definitions: Definitions | null = null;
  /** An element's shadow root, open or closed: the segmenter's, the watch's and `defined`'s. */
  private readonly shadowOf = this.deps.shadow ?? pageShadow;
  /** Elements the walk met with no shadow root that may get one later (late-roots.ts); until restore. */
  private lateRoots: LateRoots | null = null;

  /**
   * Translates the page from `src` to `trg`; a page in another target or mode is restored first.
   * Asked again as it is, a page translated with failures, or stopped, goes on (`resume`).
   */
  start(src: string, trg: string, opts: PageOptions = {}): PageStatus {
    const mode = opts.mode ?? 'replace';
    const scope = opts.scope ?? 'page';
    const same = this.trg === trg && this.src === src && this.mode === mode && this.scope === scope;
    if (same && (this.state === 'translated' || this.state === 'cancelled')) return this.resume();
    if (this.state === 'translating' && same) return this.status();
    if (this.state !== 'original') this.restore();
    this.src = src;
    this.trg = trg;
    this.mode = mode;
    this.scope = scope;
    this.epoch++;
    this.state = 'translating';
    this.done = this.total = this.errors = this.failedInRow = 0;
    this.error = undefined;
    this.observer = new PageObserver((records) => this.onMutations(records), this.frame);
    const observer = this.observer;
    const ignore = this.deps.ignore;
    this.definitions = new Definitions(this.doc, {
      ...(this.deps.awaitsDefinition ? { waits: this.deps.awaitsDefinition } : {}),
      active: () => this.state === 'translating' || this.state === 'translated',
      defined: (els) => this.defined(els),
    });
    this.lateRoots = new LateRoots({
      shadow: this.shadowOf,
      rooted: (hosts) => this.rooted(hosts),
      timed: (fn) => this.timed('follow', fn),
      ...(this.deps.sizes ? { sizes: this.deps.sizes } : {}),
    });
    this.segmenter = new Segmenter({
      src: src.split('-')[0]!,
      ...(this.deps.display ? { display: this.deps.display } : {}),
      shadow: this.shadowOf,
      // Copies exist only in bilingual mode (a restore removes them before any other starts).
      ignore: mode === 'bilingual' ? (el) => isCopy(el) || (ignore?.(el) ?? false) : ignore,
      onShadowRoot: (root) => observer.observe(root),
      onRootless: (el, inline) => this.rootless(el, inline),
      items: mode !== 'bilingual',
    });
    this.queue = this.newQueue();
    if (scope === 'near') this.followScroll();
    observer.observe(this.doc);
    const t0 = performance.now();
    Object.assign(this.metrics, runMetrics(t0));
    this.discoverPage(t0);
    this.report();
    return this.status();
  }

  private newQueue(): Prioritizer<Job> {
    const height = this.deps.viewportHeight;
    return new Prioritizer<Job>({ observe: this.deps.viewport !== false, far: this.scope === 'page', ...(height ? { viewportHeight: height } : {}) });
  }

  /**
   * Finds the page's units, the viewport first (discover.ts), and queues those no job covers yet;
   * `t0`: the trigger, for the bench's figures (none on a resume).
   */
  private discoverPage(t0?: number): void {
    const height = this.deps.viewportHeight;
    const epoch = this.epoch;
    this.discovering = true;
    discover({
      segmenter: this.segmenter!,
      doc: this.doc,
      idle: this.deps.idle ?? idleSlice,
      near: this.deps.near,
      ...(height ? { height } : {}),
      viewport: this.deps.viewport !== false,
      alive: () => epoch === this.epoch,
      timed: (fn) => this.timed('segment', fn),
      found: (units, bucket, at) => {
        for (const u of units) if (!this.owners.taken(u)) this.enqueue(u, bucket, at);
        // The first screen goes at once; later slices only send full calls until the end.
        if (bucket === undefined) this.pump(true);
        else this.pump();
      },
      done: () => {
        this.discovering = false;
        this.segmenter?.forget();
        if (t0 !== undefined) this.metrics.segmentedMs = performance.now() - t0;
        this.report();
        this.pump();
      },
    });
  }

  /**
   * Goes on with a page translated with failures, or stopped (by the user, or after calls failed in
   * a row): what failed, and what the stop left unsent, is sent again; after a stop the page is walked
   * again for what was not found or changed meanwhile. Nothing answered is sent twice.
   */
  private resume(): PageStatus {
    const stopped = this.state === 'cancelled';
    const again = this.retries.take();
    if (!stopped && again.length === 0) return this.status();
    this.state = 'translating';
    this.failedInRow = 0;
    this.error = undefined;
    if (stopped) this.queue = this.newQueue();
    this.timed('pack', () => {
      for (const job of again) this.requeue(job);
    });
    if (stopped) this.discoverPage();
    this.report();
    this.pump(true);
    return this.status();
  }

  /** The indicator's Retry: what failed is sent again (after a stop, what was left too), as when asked again as it is. */
  retry(): PageStatus {
    return this.state === 'translated' || this.state === 'cancelled' ? this.resume() : this.status();
  }

  /** Stops every request at once; what is translated stays (restore undoes it). */
  cancel(): PageStatus {
    if (this.state !== 'translating') return this.status();
    this.stop();
    return this.status();
  }

  /** Puts the page back exactly as it was. */
  restore(): PageStatus {
    if (this.state === 'original') return this.status();
    this.halt();
    this.observer?.stop();
    this.observer = null;
    const t0 = performance.now();
    for (let i = this.merged.length - 1; i >= 0; i--) this.merged[i]!.log?.undo();
    this.docLog.undo();
    for (const c of this.copies) c.remove();
    this.metrics.restoreMs = performance.now() - t0;
    this.copies = [];
    this.copyWaits?.abort();
    this.copyWaits = null;
    this.scrolls?.abort();
    this.scrolls = null;
    this.definitions?.stop();
    this.definitions = null;
    this.lateRoots?.stop();
    this.lateRoots = null;
    this.rid = undefined;
    this.merged = [];
    this.retries.clear();
    this.owners.clear();
    this.queue = null;
    this.segmenter = null;
    this.state = 'original';
    this.done = this.total = this.errors = 0;
    this.error = undefined;
    this.report();
    return this.status();
  }

  private onMutations(records: MutationRecord[]): void {
    // Cancelled: nothing more is translated, but what the page changes in what was is still
    // followed, so restore keeps the page's own values.
    if (this.state !== 'translating' && this.state !== 'translated' && this.state !== 'cancelled') return;
    this.timed('follow', () => this.followChanges(records));
  }

  private followChanges(records: MutationRecord[]): void {
    const touched = new Set<Job>();
    const roots = new Set<Node>();
    const attrs: [Element, string][] = [];
    const changedAttrs: [Element, string][] = [];
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
      }
    }
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

  /** After units were found past the walk (the page's changes, a definition): translating again if any, and on. */
  private carryOn(found: boolean): void {
    if (found && this.state === 'translated') this.state = 'translating';
    this.report();
    this.pump();
  }

  /** A unit the page changed: its write undone, its answer (if any comes) dropped. */
  private retire(job: Job): void {
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
      this.lead(j);
    }
    if (this.state !== 'cancelled') for (const u of orphans) this.enqueue(u);
  }

  /**
   * An element the walk met with no shadow root that may get one: a custom element not defined yet
   * waits for its definition; anything else is watched for a root attached later, unless it lays
   * out inline (its size is not reported: late-roots.ts).
   */
  private rootless(el: Element, inline: boolean): void {
    if (this.definitions?.wait(el)) return;
    if (!inline) this.lateRoots?.add(el);
  }

  /**
   * Custom elements whose definition came while the page was translated: what their new shadow
   * roots hold is translated, and the roots followed; one that attaches its root later (on some
   * event after its upgrade) is watched for it.
   */
  private defined(els: readonly Element[]): void {
    const withRoot: Element[] = [];
    for (const el of els) {
      if (this.shadowOf(el)) withRoot.push(el);
      else if (el.isConnected) this.lateRoots?.add(el);
    }
    this.rooted(withRoot);
  }

  /** Elements that have a shadow root now, attached since the walk met them: what it holds is translated, and the root followed. */
  private rooted(hosts: readonly Element[]): void {
    if (this.state !== 'translating' && this.state !== 'translated') return;
    const fresh: Unit[] = [];
    this.timed('follow', () => {
      for (const el of hosts) for (const u of this.segmenter!.upgraded(el)) if (!this.owners.taken(u)) fresh.push(u);
      for (const u of fresh) this.enqueue(u);
    });
    this.carryOn(fresh.length > 0);
  }

  /** "Near the viewport only": a scroll brings far units near; they are sent then. */
  private followScroll(): void {
    this.scrolls = new AbortController();
    let scheduled = false;
    const onScroll = () => {
      if (scheduled) return;
      scheduled = true;
      this.frame(() => {
        scheduled = false;
        if (this.state === 'translated' && (this.queue?.ready ?? 0) > 0) this.state = 'translating';
        this.pump();
        this.report();
      });
    };
    addEventListener('scroll', onScroll, { passive: true, capture: true, signal: this.scrolls.signal });
  }
}
