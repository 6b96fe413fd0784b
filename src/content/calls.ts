/**
 * The calls of page translation: a queue by priority, units packed into frm=html calls (at most
 * `maxInFlight` at once); their answers are written by writes.ts. Every call has an increasing
 * request id; a unit remembers the call it was last sent in, and an answer for any other call (or
 * from before a restore or cancel) is dropped at write time.
 */
import { type PageMode, type PageScope, type PageState, type PageStatus } from '../shared/messages';
import { copyOf, type Copy } from './bilingual';
import { Call, nothingToSend, prepare, TEXT_LIMIT, type Markup } from './chunk';
import { fit } from './fit';
import { DomClock, runMetrics, type Phase } from './metrics';
import { callOutcome } from './answer';
import { UndoLog } from './merge';
import { nextFrame, type Frame, type PageObserver } from './observe';
import { Pacer } from './pace';
import { Progress } from './progress';
import { Leaders } from './leaders';
import { Retries } from './retries';
import { Owners } from './ownership';
import { rankOf, viewportHeight, type Bucket, type Prioritizer } from './prioritize';
import type { Job, PageDeps, Pending } from './jobs';
import type { Segmenter, Unit } from './segment';
import { runNow, unitElement, unitOnPage } from './units';
import { WrittenTexts } from './written';

/**
 * Calls that failed in a row, none answered between, after which the page stops as if cancelled,
 * the error kept: a pair with no route, a refused key or a provider down fails every call the same
 * way, and sending them all only repeats it (aows-nba sent 812 calls for "no route from en to fr").
 * Above the calls in flight at once (up to 16: `IN_VIEW_EXTRA`), so one burst is not enough.
 */
export const STOP_AFTER_FAILED_CALLS = 18;

/**
 * At the trigger and after a jump (`inViewFirst`), units in view may be sent while fewer than
 * `maxInFlight` + this many calls holding what is in or near the viewport are in flight, the
 * background calls (which hold the slots then, and which the worker serves last: docs/speed.md)
 * not counted. Before, aows-nba's references left 98 ms after the jump, when a slot was freed;
 * then, while those counted, the screen's last calls one by one, background calls between them.
 */
export const IN_VIEW_EXTRA = 4;

/** A call in flight. */
interface InFlight {
  ac: AbortController;
  call: Call<Job>;
  /** It holds a unit in or near the viewport: its answers are written at the next frame. */
  near: boolean;
  /** It holds a unit in the viewport (writes.ts `relabelOnceSeen` waits for it). */
  inView: boolean;
  /** A background call's: tells the worker the reader now waits for it (`jumped`). */
  hurry: (() => void) | null;
}

export abstract class PageCalls {
  protected readonly doc: Document;
  protected readonly frame: Frame;
  protected readonly pacer: Pacer;
  protected readonly limit: number;
  protected readonly maxInFlight: number;
  protected state: PageState = 'original';
  protected src = '';
  protected trg = '';
  protected mode: PageMode = 'replace';
  protected scope: PageScope = 'page';
  /** The route put first in every call ("Use this route for the page"). */
  protected rid: string | undefined;
  /** Bilingual copies shown: restore removes them. */
  protected copies: Element[] = [];
  /** Copies the reader hid ("Hide this translation", choices.ts): not shown again until a route is picked. */
  protected hiddenCopies = new WeakSet<Element>();
  /** Stops the copies' images waiting for their originals to load (bilingual.ts); restore aborts it. */
  protected copyWaits: AbortController | null = null;
  /** The jobs that write into one copy (its labels, the parts of a long unit): one changed, all go. */
  protected copyJobs = new WeakMap<Copy, Job[]>();
  protected epoch = 0;
  protected reqSeq = 0;
  protected seq = 0;
  protected done = 0;
  protected total = 0;
  protected errors = 0;
  protected error: string | undefined;
  /** Calls failed in a row, none answered between (`STOP_AFTER_FAILED_CALLS`). */
  protected failedInRow = 0;
  /** Answers dropped because their unit had moved on (for tests and the bench). */
  dropped = 0;
  /** Calls sent since the page was loaded (for tests and the bench). */
  calls = 0;
  /**
   * For the bench. `domMs`: main-thread ms of DOM extraction (segmentation, serializing calls,
   * wherever a call is packed) and write-back (parsing answers, merging, the page's own changes),
   * not counting `sendMs`, the ms spent handing calls to the messaging layer. Then, after the
   * trigger: when the first call left, when its first answer arrived, when the whole page was
   * segmented, when the first unit was written. `restoreMs`: the last restore's undo. `phaseMs`:
   * `domMs` by what it was spent on (each slice to the innermost `timed` running it).
   */
  readonly metrics = { ...runMetrics(0), restoreMs: 0 };
  private readonly clock = new DomClock(this.metrics);
  protected queue: Prioritizer<Job> | null = null;
  protected observer: PageObserver | null = null;
  protected segmenter: Segmenter | null = null;
  /** The rest of the page is still being segmented. */
  protected discovering = false;
  /** Units in the viewport may take calls beyond `maxInFlight` (`IN_VIEW_EXTRA`) until none is left queued (the trigger, a jump). */
  protected inViewFirst = false;
  protected queuedSize = 0;
  /** Calls in flight, by request id: what aborts each, and what it carries. */
  protected readonly inflight = new Map<number, InFlight>();
  /** What a resume sends again, and the units of calls lost with the worker (retries.ts). */
  protected readonly retries = new Retries();
  protected pending: Pending[] = [];
  /** Jobs written, in order: restore undoes them backwards. */
  protected merged: Job[] = [];
  protected docLog = new UndoLog();
  protected readonly owners = new Owners<Job>();
  /** The job translating each attribute value while it is queued or in flight (leaders.ts). */
  protected readonly leaders = new Leaders();
  /** The texts our translations wrote (written.ts): what the page copies of them is not sent. */
  protected readonly ourTexts = new WrittenTexts();
  private readonly progress: Progress;

  constructor(protected readonly deps: PageDeps) {
    this.doc = deps.doc ?? document;
    this.frame = deps.frame ?? nextFrame;
    this.pacer = deps.pacer ?? new Pacer({ frame: this.frame });
    this.limit = deps.limit ?? TEXT_LIMIT;
    this.maxInFlight = deps.maxInFlight ?? 6;
    this.progress = new Progress(() => this.status(), () => this.state, this.frame, deps.onStatus);
  }

  status(): PageStatus {
    return {
      state: this.state,
      ...(this.src ? { src: this.src } : {}),
      ...(this.trg ? { trg: this.trg } : {}),
      done: this.done,
      total: this.total,
      errors: this.errors,
      ...(this.error ? { error: this.error } : {}),
      ...(this.state === 'original' ? {} : { mode: this.mode, scope: this.scope }),
      ...(this.rid ? { rid: this.rid } : {}),
    };
  }

  /** Runs `fn` as DOM work of `phase` (metrics.ts `DomClock`). */
  protected timed<T>(phase: Phase, fn: () => T): T {
    return this.clock.time(phase, fn);
  }

  protected halt(): void {
    this.epoch++;
    this.inViewFirst = false;
    for (const { ac } of this.inflight.values()) ac.abort(new DOMException('page translation stopped', 'AbortError'));
    this.inflight.clear();
    this.queue?.clear();
    this.queuedSize = 0;
    this.discovering = false;
    this.pending = [];
    this.pacer.cancel();
    this.leaders.clear();
  }

  /** `walked`: found by the page's first walk (page.ts `discoverPage`): the page's own, but for copies of ours found before (written.ts `copied`). */
  protected enqueue(origin: Unit, bucket?: Bucket, at?: Element, walked = false): void {
    if (origin.kind === 'attr' && this.follow(origin)) return;
    const max = this.limit - 40;
    const opaque = this.segmenter?.opaque;
    // Bilingual: the unit as it lives in its copy (a unit per label of a row); ranked and owned by
    // the original too, and retired together (`copyJobs`).
    const bi = this.mode === 'bilingual' ? copyOf(origin, this.trg, this.doc, opaque, this.deps.measure, (this.copyWaits ??= new AbortController()).signal) : null;
    const rankBy = at ?? (bi ? (unitElement(origin) ?? undefined) : undefined);
    const together: Job[] | undefined = bi ? [] : undefined;
    for (const unit of bi?.units ?? [origin]) {
      const whole = prepare(unit, opaque);
      // A letter alone (an index's "A", a grade), or nothing but a unit's edges: left as it is.
      // Words of ours the page copied (written.ts): in the target's language already.
      if (nothingToSend(whole) || (unit.kind !== 'piece' && this.ourTexts.copied(whole, unit.kind === 'attr' ? unit.el : unit.nodes[0]!, walked))) continue;
      const parts = fit(unit, max, whole.size);
      if (parts.length > 1 && unit.kind === 'range' && !unit.paragraphs) this.ourTexts.split(parts, () => prepare(runNow(unit), opaque));
      for (const u of parts) {
        const markup = u === unit ? whole : prepare(u, opaque);
        const job = this.job(u, 'queued', markup, bi?.copy, bi ? origin : undefined);
        together?.push(job);
        this.owners.own(job);
        if (bi) this.owners.own(job, origin);
        this.total++;
        this.put(job, bucket, rankBy);
      }
    }
    // A copy with nothing sent (a letter alone) is never shown: nothing to retire with it.
    if (bi && together!.length > 0) this.copyJobs.set(bi.copy, together!);
  }

  /** Queues `job` by `bucket`, else by where `at` (else its unit) is; an attribute value's job leads that value's others. */
  private put(job: Job, bucket?: Bucket, at?: Element): void {
    const u = job.unit;
    this.leaders.queued(job);
    this.queuedSize += job.size;
    this.queue!.add(job, u.hidden ? 2 : bucket, at);
  }

  private job(unit: Unit, state: 'queued' | 'waiting', markup: Markup | null, copy?: Job['copy'], origin?: Unit): Job {
    // Every field at once: one shape, no property added later (it would need a store of its own).
    return { unit, seq: this.seq++, req: 0, state, size: markup?.size ?? 0, markup, log: null, rid: undefined, copy, origin, followers: null };
  }

  /** An attribute unit whose value a queued or sent job translates already: it follows that job. */
  private follow(u: Unit & { kind: 'attr' }): boolean {
    const leader = this.leaders.of(u);
    if (!leader) return false;
    const job = this.job(u, 'waiting', null);
    this.leaders.follow(leader, job);
    this.owners.own(job);
    this.total++;
    return true;
  }

  /** Fills free slots with calls; while the page is being segmented, only with full ones unless `now`. */
  protected pump(now = false): void {
    this.timed('pack', () => this.fill(now));
  }

  private fill(now: boolean): void {
    const queue = this.queue;
    if (this.state !== 'translating' || !queue) return;
    while (queue.size > 0 && this.slotFree(queue) && (now || !this.discovering || this.queuedSize >= this.limit)) {
      const call = new Call<Job>(this.limit);
      // A call holding a unit in or near the viewport: its answer is written at the next frame.
      let near = false;
      let inView = false;
      let gone: Job[] | null = null;
      const jobs: Job[] = [];
      const taken = queue.take((job, bucket) => {
        // The page removed it since it was queued (follow.ts): taken off the queue, not sent.
        if (!unitOnPage(job.origin ?? job.unit)) {
          (gone ??= []).push(job);
          return true;
        }
        // The same plain text was answered: written from that answer at the next write (leaders.ts).
        const key = this.leaders.keyOf(job);
        const known = this.leaders.answerOf(key);
        if (known) {
          this.queuedSize -= job.size;
          job.state = 'waiting';
          this.later({ kind: 'copy', epoch: this.epoch, job, ...known }, bucket < 2);
          return true;
        }
        // The same plain text is in this call or one in flight: it follows that job (leaders.ts).
        const followed = this.leaders.followAtPacking(job, key);
        if (followed) {
          this.queuedSize -= job.size;
          if (bucket < 2 && followed === 'call') near = true;
          if (bucket === 0 && followed === 'call') inView = true;
          return true;
        }
        if (!call.add(job)) return false;
        this.leaders.packed(job, key);
        jobs.push(job);
        if (bucket < 2) near = true;
        if (bucket === 0) inView = true;
        return true;
      });
      if (taken.length === 0) break;
      if (gone) this.observer?.whilePaused(() => gone!.forEach((j) => this.retire(j)));
      if (jobs.length === 0) continue;
      for (const j of jobs) {
        this.queuedSize -= j.size;
        // The call holds what the answer needs.
        j.markup = null;
      }
      this.send(call, jobs, near, inView);
      this.leaders.callSent();
    }
    if (!this.discovering && this.inflight.size === 0 && queue.ready === 0 && this.pending.length === 0) {
      this.state = 'translated';
      this.leaders.forgetAnswers();
      this.report();
    }
  }

  /**
   * The reader jumped (page.ts `followScroll`): background calls in flight that hold a unit now in
   * view are hurried (the worker serves what of them still waits among the foreground work, and
   * their answers are written at the next frame), and what is queued in view may take more calls.
   */
  protected jumped(): void {
    if (this.state !== 'translating') return;
    const h = viewportHeight(this.deps.viewportHeight);
    for (const [req, entry] of this.inflight) {
      if (!entry.hurry) continue;
      for (const j of entry.call.jobs.values()) {
        const el = j.req === req ? unitElement(j.origin ?? j.unit) : null;
        if (!el || rankOf(el.getBoundingClientRect(), h) !== 0) continue;
        entry.hurry();
        entry.hurry = null;
        entry.near = entry.inView = true;
        break;
      }
    }
    this.inViewFirst = true;
    this.pump(true);
  }

  /** A call may be sent: a slot is free, or one for the viewport while its units wait (`inViewFirst`, `IN_VIEW_EXTRA`). */
  private slotFree(queue: Prioritizer<Job>): boolean {
    if (this.inflight.size < this.maxInFlight) return true;
    if (!this.inViewFirst) return false;
    if (queue.inView > 0) return this.nearInFlight() < this.maxInFlight + IN_VIEW_EXTRA;
    // Ranking again reads boxes (a layout): only until the viewport's units have all been found
    // (the rest of the page is segmented in slices, the screen jumped to first) and sent.
    if (!this.discovering) this.inViewFirst = false;
    return false;
  }

  private nearInFlight(n = 0): number {
    for (const entry of this.inflight.values()) if (entry.near) n++;
    return n;
  }

  protected send(call: Call<Job>, jobs: Job[], near: boolean, inView: boolean): void {
    const req = ++this.reqSeq;
    const epoch = this.epoch;
    for (const j of jobs) {
      j.req = req;
      j.state = 'sent';
    }
    const ac = new AbortController();
    const entry: InFlight = { ac, call, near, inView, hurry: null };
    const foreground = near ? undefined : new Promise<void>((r) => (entry.hurry = r));
    this.inflight.set(req, entry);
    this.calls++;
    if (this.metrics.firstSendMs < 0) this.metrics.firstSendMs = performance.now() - this.metrics.startedAt;
    const params = { src: this.src, trg: this.trg, frm: 'html', dat: [call.markup], ...(this.rid ? { rid: [this.rid] } : {}) };
    // Handing the call to the messaging layer is not DOM work: counted apart (the bench shows both).
    const t0 = performance.now();
    const sent = this.deps.translate(params, (item) => {
      if (!('cnt' in item)) return;
      if (epoch === this.epoch) this.failedInRow = item.err ? this.failedInRow + 1 : 0;
      this.later({ kind: 'item', req, epoch, call, item }, entry.near);
    }, { signal: ac.signal, background: !near, ...(foreground ? { foreground } : {}) });
    this.clock.exclude(performance.now() - t0);
    callOutcome(sent).then(({ error, lost }) => {
      // Stopped or restored since, or cancelled with nothing of the page's left in it (follow.ts).
      if (epoch !== this.epoch || ac.signal.aborted) return;
      // The slot is free at once; the units' fate is settled in order after the answers' writes.
      this.inflight.delete(req);
      this.later({ kind: 'end', req, epoch, call, ...(error === undefined ? {} : { error }), ...(lost ? { lost } : {}) }, entry.near);
      if (error !== undefined) this.failedInRow++;
      if (this.failedInRow >= STOP_AFTER_FAILED_CALLS && this.state === 'translating') this.stop();
      else this.pump();
    });
  }

  /**
   * Cancel, by the user or after calls failed in a row (the last error kept for the indicator, the
   * badge and the popup): answers that arrived and wait for their frame (or the pacer) are written,
   * not thrown away, the calls in flight are aborted, and nothing more is sent; what the page
   * changes in what was translated is still followed.
   */
  protected stop(): void {
    this.state = 'cancelled';
    this.flush();
    // Before halt forgets them: what a resume sends again.
    const unsent = this.queue?.jobs() ?? [];
    for (const { call } of this.inflight.values()) for (const j of call.jobs.values()) if (j.state === 'sent') unsent.push(j);
    this.retries.stopped(unsent);
    this.halt();
    this.report();
  }

  /**
   * A job failed or left unsent by a stop, queued again as it is (the same unit, owner and copy;
   * serialized afresh: the page may have changed around it). An attribute value follows a job
   * already queued for the same value, as at discovery.
   */
  protected requeue(job: Job): void {
    if (job.state === 'error') this.errors--;
    job.req = 0;
    const leader = this.leaders.of(job.unit);
    if (leader && leader !== job) return this.leaders.follow(leader, job);
    job.markup = prepare(job.unit, this.segmenter?.opaque);
    job.size = job.markup.size;
    job.state = 'queued';
    this.put(job, undefined, job.origin ? (unitElement(job.origin) ?? undefined) : undefined);
  }

  /** An answer, a call's end or a copy to write (writes.ts). */
  protected abstract later(p: Pending, near: boolean): void;

  /** Writes what waits to be written now (writes.ts). */
  protected abstract flush(): void;

  /** A unit the page changed or removed: its write undone, its answer (if any comes) dropped (follow.ts). */
  protected abstract retire(job: Job): void;

  /** Progress to the indicator and the badge (progress.ts); `now`: in a frame already (a write). */
  protected report(now = false): void {
    this.progress.report(now);
  }
}
