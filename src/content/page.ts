/**
 * Page translation for one document: segment, queue by priority, pack units into frm=html calls,
 * merge answers per frame with the observer paused, follow the page's own changes, and restore.
 * Every call has an increasing request id; a unit remembers the call it was last sent in, and an
 * answer for any other call (or from before a restore or cancel) is dropped at write time.
 */
import type { ApiReply, TrdObj, TrObj } from '../core/types';
import type { ApiParams, PageState, PageStatus } from '../shared/messages';

export type { PageState, PageStatus };
import { Call, fit, TEXT_LIMIT } from './chunk';
import { mergeAttr, mergePiece, mergeRange, parseOffPage, UndoLog, wrappers } from './merge';
import { nextFrame, PageObserver } from './observe';
import { Prioritizer, type Ranked } from './prioritize';
import { Segmenter, type PieceGroup, type Unit } from './segment';

export type TranslateFn = (
  params: ApiParams,
  onItem: (item: TrObj | TrdObj) => void,
  options: { signal?: AbortSignal },
) => Promise<ApiReply>;

export interface PageDeps {
  translate: TranslateFn;
  doc?: Document;
  frame?: (cb: () => void) => void;
  onStatus?: (status: PageStatus) => void;
  /** Rank by the viewport (false in tests without layout). */
  viewport?: boolean;
  display?: (el: Element) => string;
  ignore?: (el: Element) => boolean;
  /** Calls in flight at once. */
  maxInFlight?: number;
  limit?: number;
}

type JobState = 'queued' | 'sent' | 'done' | 'error' | 'retired';

interface Job extends Ranked {
  unit: Unit;
  req: number;
  state: JobState;
  log: UndoLog;
}

type Pending =
  | { kind: 'item'; req: number; epoch: number; call: Call<Job>; item: TrdObj }
  | { kind: 'end'; req: number; epoch: number; call: Call<Job>; error?: string };

const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ckb', 'dv', 'ug', 'syr']);

export class PageTranslator {
  private readonly doc: Document;
  private readonly frame: (cb: () => void) => void;
  private readonly limit: number;
  private readonly maxInFlight: number;
  private state: PageState = 'original';
  private src = '';
  private trg = '';
  private epoch = 0;
  private reqSeq = 0;
  private seq = 0;
  private done = 0;
  private total = 0;
  private errors = 0;
  private error: string | undefined;
  /** Answers dropped because their unit had moved on (for tests and the bench). */
  dropped = 0;
  /** Calls sent since the page was loaded (for tests and the bench). */
  calls = 0;
  /** For the bench: ms spent in DOM extraction and write-back, and when the first unit was written. */
  readonly metrics = { domMs: 0, startedAt: 0, firstWriteMs: -1 };
  private queue: Prioritizer<Job> | null = null;
  private observer: PageObserver | null = null;
  private segmenter: Segmenter | null = null;
  private readonly inflight = new Map<number, AbortController>();
  private pending: Pending[] = [];
  private flushScheduled = false;
  /** Jobs written, in order: restore undoes them backwards. */
  private merged: Job[] = [];
  private docLog = new UndoLog();
  private owner = new WeakMap<Node, Job>();
  private attrOwner = new WeakMap<Element, Map<string, Job>>();
  private pieceJobs = new WeakMap<PieceGroup, Job[]>();

  constructor(private readonly deps: PageDeps) {
    this.doc = deps.doc ?? document;
    this.frame = deps.frame ?? nextFrame;
    this.limit = deps.limit ?? TEXT_LIMIT;
    this.maxInFlight = deps.maxInFlight ?? 4;
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
    };
  }

  /** Translates the page from `src` to `trg`; a page in another target is restored first. */
  start(src: string, trg: string): PageStatus {
    if ((this.state === 'translating' || this.state === 'translated') && this.trg === trg && this.src === src) return this.status();
    if (this.state !== 'original') this.restore();
    this.src = src;
    this.trg = trg;
    this.epoch++;
    this.state = 'translating';
    this.done = this.total = this.errors = 0;
    this.error = undefined;
    this.observer = new PageObserver((records) => this.onMutations(records), this.frame);
    const observer = this.observer;
    this.segmenter = new Segmenter({
      src: src.split('-')[0]!,
      ...(this.deps.display ? { display: this.deps.display } : {}),
      ...(this.deps.ignore ? { ignore: this.deps.ignore } : {}),
      onShadowRoot: (root) => observer.observe(root),
    });
    this.queue = new Prioritizer<Job>({ observe: this.deps.viewport !== false });
    observer.observe(this.doc);
    const t0 = performance.now();
    this.metrics.startedAt = t0;
    this.metrics.domMs = 0;
    this.metrics.firstWriteMs = -1;
    const units = this.segmenter.document(this.doc);
    observer.whilePaused(() => this.docLog.attr(this.doc.documentElement, 'lang', trg));
    for (const u of units) this.enqueue(u);
    this.metrics.domMs += performance.now() - t0;
    this.report();
    this.pump();
    return this.status();
  }

  /** Stops every request at once; what is translated stays (restore undoes it). */
  cancel(): PageStatus {
    if (this.state !== 'translating') return this.status();
    this.halt();
    this.state = 'cancelled';
    this.report();
    return this.status();
  }

  /** Puts the page back exactly as it was. */
  restore(): PageStatus {
    if (this.state === 'original') return this.status();
    this.halt();
    this.observer?.stop();
    this.observer = null;
    for (let i = this.merged.length - 1; i >= 0; i--) this.merged[i]!.log.undo();
    this.docLog.undo();
    this.merged = [];
    this.owner = new WeakMap();
    this.attrOwner = new WeakMap();
    this.pieceJobs = new WeakMap();
    this.state = 'original';
    this.done = this.total = this.errors = 0;
    this.error = undefined;
    this.report();
    return this.status();
  }

  private halt(): void {
    this.epoch++;
    for (const ac of this.inflight.values()) ac.abort(new DOMException('page translation stopped', 'AbortError'));
    this.inflight.clear();
    this.queue?.clear();
    this.pending = [];
  }

  private enqueue(unit: Unit): void {
    const parts = fit(unit, this.limit - 40);
    const jobs: Job[] = parts.map((u) => ({ unit: u, seq: this.seq++, req: 0, state: 'queued', log: new UndoLog() }));
    for (const job of jobs) {
      this.own(job);
      this.total++;
      this.queue!.add(job);
    }
  }

  private own(job: Job): void {
    const u = job.unit;
    if (u.kind === 'attr') {
      let m = this.attrOwner.get(u.el);
      if (!m) this.attrOwner.set(u.el, (m = new Map()));
      m.set(u.name, job);
    } else if (u.kind === 'piece') {
      const list = this.pieceJobs.get(u.group) ?? [];
      list.push(job);
      this.pieceJobs.set(u.group, list);
      if (!this.owner.has(u.group.text)) this.owner.set(u.group.text, job);
    } else {
      const mark = (n: Node) => {
        this.owner.set(n, job);
        for (let c = n.firstChild; c; c = c.nextSibling) mark(c);
      };
      for (const n of u.nodes) mark(n);
    }
  }

  private pump(): void {
    const queue = this.queue;
    if (this.state !== 'translating' || !queue) return;
    while (this.inflight.size < this.maxInFlight && queue.size > 0) {
      const call = new Call<Job>(this.limit);
      const jobs = queue.take((job) => call.add(job));
      if (jobs.length === 0) break;
      this.send(call, jobs);
    }
    if (this.inflight.size === 0 && queue.size === 0 && this.pending.length === 0) {
      this.state = 'translated';
      this.report();
    }
  }

  private send(call: Call<Job>, jobs: Job[]): void {
    const req = ++this.reqSeq;
    const epoch = this.epoch;
    for (const j of jobs) {
      j.req = req;
      j.state = 'sent';
    }
    const ac = new AbortController();
    this.inflight.set(req, ac);
    this.calls++;
    const params = { src: this.src, trg: this.trg, frm: 'html', dat: [call.markup] };
    this.deps
      .translate(params, (item) => {
        if ('cnt' in item) this.later({ kind: 'item', req, epoch, call, item });
      }, { signal: ac.signal })
      .then(
        (reply) => (reply.status === 200 ? undefined : replyError(reply)),
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      )
      .then((error) => {
        if (epoch !== this.epoch) return;
        // The slot is free at once; the units' fate is settled in order after the answers' writes.
        this.inflight.delete(req);
        this.later({ kind: 'end', req, epoch, call, ...(error === undefined ? {} : { error }) });
        this.pump();
      });
  }

  private later(p: Pending): void {
    if (p.epoch !== this.epoch) return;
    this.pending.push(p);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.frame(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** All answers that arrived since the last frame, written at once with the observer paused. */
  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    const observer = this.observer;
    if (!observer || batch.length === 0) return;
    const t0 = performance.now();
    const before = this.done;
    observer.whilePaused(() => {
      for (const p of batch) {
        if (p.epoch !== this.epoch) continue;
        if (p.kind === 'item') this.write(p.req, p.call, p.item);
        else this.end(p.req, p.call, p.error);
      }
    });
    const t1 = performance.now();
    this.metrics.domMs += t1 - t0;
    if (this.metrics.firstWriteMs < 0 && this.done > before) this.metrics.firstWriteMs = t1 - this.metrics.startedAt;
    this.report();
    this.pump();
  }

  private write(req: number, call: Call<Job>, item: TrdObj): void {
    const frag = parseOffPage(item.dat, this.doc);
    for (const [id, answer] of wrappers(frag)) {
      const job = call.jobs.get(id);
      if (!job) continue;
      if (job.req !== req || job.state !== 'sent') {
        this.dropped++;
        continue;
      }
      if (item.err) {
        this.fail(job, item.err);
        continue;
      }
      const u = job.unit;
      if (u.kind === 'range') {
        if (u.parent instanceof Element && u.parent.tagName === 'OPTION' && !u.parent.hasAttribute('value')) {
          // An option without a value submits its text: keep submitting the original.
          job.log.attr(u.parent, 'value', (u.parent as HTMLOptionElement).value);
        }
        mergeRange(u, answer, id, call.entries, job.log);
        if (u.whole && RTL.has(this.trg.split('-')[0]!) && u.parent instanceof Element && u.parent.tagName !== 'TITLE' && u.parent.tagName !== 'OPTION') {
          job.log.attr(u.parent, 'dir', 'rtl');
        }
      } else if (u.kind === 'attr') mergeAttr(u, answer, job.log);
      else mergePiece(u, answer, job.log);
      job.state = 'done';
      this.done++;
      this.merged.push(job);
    }
  }

  private end(req: number, call: Call<Job>, error?: string): void {
    this.inflight.delete(req);
    for (const job of call.jobs.values()) {
      // A unit the answer lost, or a call that failed as a whole.
      if (job.req === req && job.state === 'sent') this.fail(job, error ?? 'the translation lost this unit');
    }
  }

  private fail(job: Job, err: string): void {
    job.state = 'error';
    this.errors++;
    this.error = err;
  }

  private onMutations(records: MutationRecord[]): void {
    if (this.state !== 'translating' && this.state !== 'translated') return;
    const touched = new Set<Job>();
    const roots = new Set<Node>();
    const attrs: [Element, string][] = [];
    for (const r of records) {
      if (r.type === 'characterData') {
        const job = this.owner.get(r.target);
        if (job) {
          job.log.adopt(r.target as Text);
          touched.add(job);
        } else roots.add(r.target);
      } else if (r.type === 'attributes' && r.target instanceof Element && r.attributeName) {
        attrs.push([r.target, r.attributeName]);
      } else if (r.type === 'childList') {
        const inUnit = this.owner.get(r.target);
        if (inUnit) touched.add(inUnit);
        for (const n of [r.previousSibling, r.nextSibling]) {
          const j = n ? this.owner.get(n) : undefined;
          if (j) touched.add(j);
        }
        for (const n of r.addedNodes) roots.add(n);
      }
    }
    const observer = this.observer!;
    observer.whilePaused(() => {
      for (const [el, name] of attrs) {
        const job = this.attrOwner.get(el)?.get(name);
        if (job) {
          job.log.adoptAttr(el, name);
          this.retire(job);
        }
        if (el.getAttribute(name) !== null) roots.add(el);
      }
      for (const job of touched) {
        this.retire(job);
        const u = job.unit;
        const at = u.kind === 'range' ? (u.nodes.find((n) => n.parentNode === u.parent) ?? u.parent) : u.kind === 'piece' ? u.group.text : u.el;
        roots.add(at);
      }
    });
    const seg = this.segmenter!;
    const fresh: Unit[] = [];
    for (const root of roots) {
      if (!root.isConnected || this.owner.has(root)) continue;
      for (const u of seg.around(root)) if (!this.taken(u)) fresh.push(u);
    }
    const seen = new Set<Node>();
    for (const u of fresh) {
      // The same run found from two of its nodes.
      const key = u.kind === 'range' ? u.nodes[0]! : u.kind === 'attr' ? null : u.group.text;
      if (key && seen.has(key)) continue;
      if (key) seen.add(key);
      this.enqueue(u);
    }
    if (fresh.length && this.state === 'translated') this.state = 'translating';
    this.report();
    this.pump();
  }

  private taken(u: Unit): boolean {
    if (u.kind === 'attr') return this.attrOwner.get(u.el)?.has(u.name) ?? false;
    if (u.kind === 'piece') return this.owner.has(u.group.text);
    return u.nodes.some((n) => this.owner.has(n));
  }

  /** A unit the page changed: its write undone, its answer (if any comes) dropped. */
  private retire(job: Job): void {
    if (job.state === 'retired') return;
    const siblings = job.unit.kind === 'piece' ? (this.pieceJobs.get(job.unit.group) ?? [job]) : [job];
    for (const j of siblings) {
      if (j.state === 'retired') continue;
      if (j.state === 'done') {
        this.done--;
        j.log.undo();
        this.merged = this.merged.filter((m) => m !== j);
      }
      if (j.state === 'error') this.errors--;
      this.queue?.delete(j);
      j.state = 'retired';
      this.total--;
      this.disown(j);
    }
  }

  private disown(job: Job): void {
    const u = job.unit;
    if (u.kind === 'attr') this.attrOwner.get(u.el)?.delete(u.name);
    else if (u.kind === 'piece') {
      this.owner.delete(u.group.text);
      this.pieceJobs.delete(u.group);
    } else {
      const drop = (n: Node) => {
        if (this.owner.get(n) === job) this.owner.delete(n);
        for (let c = n.firstChild; c; c = c.nextSibling) drop(c);
      };
      for (const n of u.nodes) drop(n);
    }
  }

  private report(): void {
    this.deps.onStatus?.(this.status());
  }
}

function replyError(reply: ApiReply): string {
  const err = (reply.body as { err?: unknown } | null)?.err;
  return `${reply.status} ${typeof err === 'string' ? err : 'translation failed'}`;
}
