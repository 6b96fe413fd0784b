/**
 * Page translation for one document: segment the viewport first and the rest in idle slices, send
 * through the calls (calls.ts), follow the page's own changes (follow.ts), and restore exactly.
 */
import type { PageOptions, PageState, PageStatus } from '../shared/messages';
import { isCopy } from './bilingual';
import { readDrawingRules } from './drawn-copies';
import { runMetrics } from './metrics';
import type { Job } from './jobs';
import { discover, idleSlice } from './discover';
import { PageFollow } from './follow';
import { PageObserver, saysSomething, soon } from './observe';
import { onlyOverlays } from './overlay';
import { Prioritizer, viewportHeight } from './prioritize';
import { Segmenter } from './segment';
import { LateRoots } from './late-roots';
import { Definitions } from './upgrades';
import { TextFile } from './text-file';
import { undoing } from './pieces-undo';

export type { PageState, PageStatus };
export type { PageDeps, TranslateFn } from './jobs';

export class PageTranslator extends PageFollow {
  private scrolls: AbortController | null = null;
  /** While the page is being segmented: segments what a jump brought into view, now (discover.ts). */
  private segmentJump: (() => void) | null = null;
  /** The document's text file, cut into its paragraphs until restore. */
  private textFile: TextFile | null = null;

  /**
   * Translates the page from `src` to `trg`; a page in another target or mode is restored first.
   * Asked again as it is, a page translated with failures, or stopped, goes on (`resume`).
   */
  start(src: string, trg: string, opts: PageOptions = {}): PageStatus {
    try {
      return this.begin(src, trg, opts);
    } catch (e) {
      // What the page holds that we did not foresee (a document served as XML made our indicator
      // throw): the page goes back as it was, and the trigger gets the error, not a tab that says
      // "translating" for ever.
      if (this.state !== 'original') this.restore();
      throw e;
    }
  }

  private begin(src: string, trg: string, opts: PageOptions): PageStatus {
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
    this.pageLabel = 'no';
    this.error = undefined;
    this.observer = new PageObserver((records) => this.onMutations(records), this.frame, (r) => !onlyOverlays(r) && saysSomething(r, this.src, this.trg));
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
      ...(this.deps.flows ? { flows: this.deps.flows } : {}),
      shadow: this.shadowOf,
      // Copies exist only in bilingual mode (a restore removes them before any other starts).
      ignore: mode === 'bilingual' ? (el) => isCopy(el) || (ignore?.(el) ?? false) : ignore,
      onShadowRoot: (root) => {
        observer.observe(root);
        this.rootHosts.add(root.host);
      },
      onRootless: (el, inline) => this.rootless(el, inline),
      onUnshown: (el) => this.unshown(el),
      items: mode !== 'bilingual',
    });
    this.queue = this.newQueue();
    this.inViewFirst = true;
    this.followScroll();
    this.followActs();
    // A text file: one Text node per paragraph while translated (text-file.ts).
    this.textFile = TextFile.cut(this.doc);
    observer.observe(this.doc);
    const t0 = performance.now();
    Object.assign(this.metrics, runMetrics(t0));
    this.discoverPage(t0);
    this.report();
    this.readAhead();
    return this.status();
  }

  /**
   * What the first write would read of the page for the first time is read while the first call is
   * on its way (it left in this task): what its sheets draw of attributes (drawn-copies.ts); and
   * the code it runs for the first time is run on a sample (`PageDeps.rehearse`), in a task of its
   * own.
   */
  private readAhead(): void {
    const epoch = this.epoch;
    const going = () => epoch === this.epoch && this.state === 'translating';
    soon(() => {
      if (going()) this.timed('write', () => readDrawingRules(this.doc));
    });
    const rehearse = this.deps.rehearse;
    if (rehearse) setTimeout(() => going() && rehearse(), 0);
  }

  private newQueue(): Prioritizer<Job> {
    const height = this.deps.viewportHeight;
    return new Prioritizer<Job>({
      observe: this.deps.viewport !== false,
      far: this.scope === 'page',
      noBox: (el) => this.unshown(el),
      ...(height ? { viewportHeight: height } : {}),
    });
  }

  /**
   * Finds the page's units, the viewport first (discover.ts), and queues those no job covers yet;
   * `t0`: the trigger, for the bench's figures (none on a resume).
   */
  private discoverPage(t0?: number): void {
    const height = this.deps.viewportHeight;
    const epoch = this.epoch;
    // A resume walks a page with units written or queued: one queued in parts is owned below its nodes.
    const again = this.total > 0;
    this.discovering = true;
    this.segmentJump = discover({
      segmenter: this.segmenter!,
      doc: this.doc,
      idle: this.deps.idle ?? idleSlice,
      ...(this.deps.urgent ? { urgent: this.deps.urgent } : {}),
      near: this.deps.near,
      ...(height ? { height } : {}),
      viewport: this.deps.viewport !== false,
      alive: () => epoch === this.epoch,
      timed: (fn) => this.timed('segment', fn),
      noBox: (el) => this.unshown(el),
      found: (units, bucket, at) => {
        for (const u of units) if (!this.owners.taken(u, again)) this.enqueue(u, bucket, at, !again);
        // The first screen goes at once, as what a slice finds in view does; later slices only
        // send full calls until the end.
        if (bucket === undefined || bucket === 0) this.pump(true);
        else this.pump();
      },
      done: () => {
        this.discovering = false;
        this.segmentJump = null;
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
    this.inViewFirst = true;
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
    this.noWaits();
    this.observer?.stop();
    this.observer = null;
    const t0 = performance.now();
    // A long text's pieces written once, as the first piece found it (undo.ts `undoing`).
    undoing(() => {
      for (let i = this.merged.length - 1; i >= 0; i--) {
        const j = this.merged[i]!;
        j.log?.undo();
        // A copy in content the page took out and keeps (no longer in `copies`, its unit not swept
        // yet) goes too: put back later, it would show our words (dynamic property test, seed 85126).
        if (j.copy && !j.copy.el.isConnected) j.copy.el.remove();
      }
      this.undoAside();
    });
    this.docLog.undo();
    this.textFile?.join();
    this.textFile = null;
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
    this.ourTexts.clear();
    this.queue = null;
    this.segmenter = null;
    this.state = 'original';
    this.done = this.total = this.errors = 0;
    this.error = undefined;
    this.report();
    return this.status();
  }

  /**
   * What a scroll brings into view is segmented, where the page is still being segmented and it
   * moved half a screen or more (discover.ts), and sent at the next frame, not when a call next
   * ends (nor at the next idle slice, which a page being written to may not have). "Near the
   * viewport only": at every scroll (far units are sent only once near). The whole page: at a jump,
   * half a screen or more from where the last one was followed (calls.ts `jumped`: the units then
   * in view may take more calls, and calls already sent for them are hurried). Not at every scroll
   * event there: the browser's own small ones (scroll anchoring, as our writes change heights above
   * the viewport) come every frame, and finding what is in view ranks the queue again (a layout).
   */
  private followScroll(): void {
    const near = this.scope === 'near';
    if (!near && this.deps.viewport === false) return;
    this.scrolls = new AbortController();
    const h = viewportHeight(this.deps.viewportHeight);
    let followedAt = globalThis.scrollY;
    let scheduled = false;
    const onScroll = () => {
      if (scheduled) return;
      if (!near) {
        if (Math.abs(globalThis.scrollY - followedAt) < h / 2) return;
        followedAt = globalThis.scrollY;
      }
      scheduled = true;
      this.frame(() => {
        scheduled = false;
        // What came into view, if the page is still being segmented there (discover.ts).
        this.segmentJump?.();
        if (!near) return this.jumped();
        if (this.state === 'translated' && (this.queue?.ready ?? 0) > 0) this.state = 'translating';
        this.pump();
        this.report();
      });
    };
    addEventListener('scroll', onScroll, { passive: true, capture: true, signal: this.scrolls.signal });
  }
}
