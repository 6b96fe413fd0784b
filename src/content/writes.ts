/**
 * What comes back for the page's calls, written per frame with the observer paused (answers for
 * units away from the viewport paced: pace.ts): each answer into its unit and the units that
 * follow it, a plain text already answered into a unit packed later (leaders.ts), a call's end
 * into the fate of the units it lost.
 */
import type { TrdObj } from '../core/types';
import { writeAnswer } from './answers';
import { showCopy } from './bilingual';
import type { Call } from './chunk';
import { readAnswer, type AnswerEl } from './answer';
import { PageCalls } from './calls';
import type { Job, Pending } from './jobs';
import { withFollowers } from './leaders';
import { afterPaint } from './observe';
import type { UndoLog } from './undo';
import { primary, relabel, saysOtherLanguage } from './tags';
import { unitOnPage } from './units';

/** How often an element the page takes our label from says the target's again (`relabelAgain`). */
const RELABEL_AGAIN = 3;

export abstract class PageWrites extends PageCalls {
  /** Whether the page says the target's language yet (`relabelOnceSeen`): once a translation. */
  protected pageLabel: 'no' | 'asked' | 'done' = 'no';
  /** Once it does: the elements its relabelling took (answers.ts `relabelAbove` stops at them). */
  protected labelled: WeakSet<Element> | undefined;
  /** How often each was labelled the target's again after the page took its label (`relabelAgain`); per translation. */
  private relabels = new WeakMap<Element, number>();

  /**
   * An answer (or a call's end) to write: at the next frame if it is `near` the viewport or the
   * page's last, else when the pacer lets it (a scroll brings that forward).
   */
  protected later(p: Pending, near: boolean): void {
    if (p.epoch !== this.epoch) return;
    if (this.metrics.firstAnswerMs < 0 && p.kind === 'item') this.metrics.firstAnswerMs = performance.now() - this.metrics.startedAt;
    this.pending.push(p);
    const last = !this.discovering && this.inflight.size === 0 && (this.queue?.ready ?? 0) === 0;
    this.pacer.schedule(this.flushNow, near || last);
  }

  private readonly flushNow = () => this.flush();

  /** All answers that arrived since the last frame, written at once with the observer paused. */
  protected flush(): void {
    const batch = this.pending;
    this.pending = [];
    const observer = this.observer;
    if (!observer || batch.length === 0) return;
    const before = this.done;
    this.timed('write', () => observer.whilePaused(() => {
      for (const p of batch) {
        if (p.epoch !== this.epoch) continue;
        if (p.kind === 'item') this.write(p.req, p.call, p.item);
        else if (p.kind === 'copy') this.copy(p.job, p.answer, p.rid);
        else this.end(p.req, p.call, p.error, p.lost);
      }
    }));
    if (this.metrics.firstWriteMs < 0 && this.done > before) this.metrics.firstWriteMs = performance.now() - this.metrics.startedAt;
    if (this.done > 0) this.relabelOnceSeen();
    // In this frame, with the writes: a frame of its own for the indicator costs a whole page's
    // pre-paint on a long page.
    this.report(true);
    this.pump();
    // The page's last write (or a stop's): relabelled with it, not a frame later, so that what
    // says "translated" says the language too.
    if (this.state !== 'translating') this.relabelNow();
  }

  /**
   * The page is relabelled (`relabelPage`) once what is in view is written and painted: no call
   * holding a unit in view in flight, and none of its units queued (or with the page's last write,
   * `flush`). Not with the first write: the new `lang` restyles the whole page and lays out all its
   * text again (its shaping and line breaks follow the language), 320 ms in one frame on aows-nba,
   * and the rest of the first screen waited for it (its answers had arrived; they were written
   * 390 ms after the first). Not in bilingual mode: the page stays in its language; each copy
   * carries the target's.
   */
  private relabelOnceSeen(): void {
    if (this.pageLabel !== 'no' || this.mode !== 'replace') return;
    for (const e of this.inflight.values()) if (e.inView) return;
    if ((this.queue?.inView ?? 0) > 0) return;
    this.pageLabel = 'asked';
    // Not in the frame that paints the last of it either: written in a frame's fallback timer (a
    // busy page, its animation frame late), what is in view was painted with the relabelling's
    // restyle, 460 ms later on aows-nba.
    afterPaint(this.frame, () => this.relabelNow());
  }

  /** `labelled` once the page says the target's language (answers.ts `writeAnswer`). */
  protected relabelledYet(): WeakSet<Element> | undefined {
    return this.pageLabel === 'done' ? this.labelled : undefined;
  }

  /** Relabels the page now, once a translation, if something is written (and not restored since). */
  private relabelNow(): void {
    const observer = this.observer;
    if (this.pageLabel === 'done' || this.done === 0 || this.mode !== 'replace' || this.state === 'original' || !observer) return;
    this.pageLabel = 'done';
    this.labelled = new WeakSet();
    this.timed('write', () => observer.whilePaused(() => this.relabelPage()));
  }

  /**
   * The page says the target's language from now on: on `<html>`, and on each element inside that
   * says the page's language again (Wikipedia's article body and heading, a tweet's text), or a
   * screen reader would read the translation with the page language's voice, and hyphenation,
   * quotation marks and CJK glyphs would follow the wrong language. An element whose content is
   * left out (translate="no", inside another language's quote) keeps its own. Elements the page
   * adds later keep theirs (docs/page-translation.md).
   */
  private relabelPage(): void {
    const { doc, trg } = this;
    this.relabels = new WeakMap();
    this.docLog.attr(doc.documentElement, 'lang', trg);
    relabel(doc.documentElement, trg);
    const src = primary(this.src);
    const body = doc.body;
    if (!body) return;
    // <body lang="en"> too: it says the language of everything the page shows.
    for (const el of [body, ...body.querySelectorAll('[lang]')]) {
      const lang = el.getAttribute('lang');
      if (lang === null || primary(lang) !== src || this.segmenter?.skipped(el) !== false) continue;
      this.docLog.attr(el, 'lang', trg);
      relabel(el, trg);
      this.labelled?.add(el);
    }
  }

  /**
   * A `lang` the page changed on `el`: its value is the one restore gives back where a write of
   * ours labelled it (`adoptLabel`). Whether it is the page saying its own language again (or none)
   * there: an app that sets `<html lang>` at each update (React Helmet does, after comparing it with
   * its own value). If so, nothing is translated again, and it says the target's again, at most
   * `RELABEL_AGAIN` times (a page that puts its label back whenever we write ours keeps it). With
   * the observer paused.
   */
  protected relabelAgain(el: Element, within: () => Iterable<Job>): boolean {
    const now = el.getAttribute('lang');
    if (now === this.trg) return true;
    if (!this.adoptLabel(el, within) || saysOtherLanguage(el, now, primary(this.src))) return false;
    const times = this.relabels.get(el) ?? 0;
    if (times < RELABEL_AGAIN) {
      this.relabels.set(el, times + 1);
      el.setAttribute('lang', this.trg);
    }
    return true;
  }

  /**
   * The page's `lang` on `el` is the one restore gives back where a write of ours labelled it: in
   * the document's log (the relabelling's), else in one of the logs of the jobs `within` gives (a
   * unit's write labelled it: answers.ts). Whether one did.
   */
  private adoptLabel(el: Element, within: () => Iterable<Job>): boolean {
    if (this.docLog.adoptAttr(el, 'lang')) return true;
    let held = false;
    for (const j of within()) if (j.log?.adoptAttr(el, 'lang')) held = true;
    return held;
  }

  protected write(req: number, call: Call<Job>, item: TrdObj): void {
    for (const [id, answer] of readAnswer(item.dat, this.doc)) {
      const job = call.jobs.get(id);
      if (!job) continue;
      if (job.req !== req || job.state !== 'sent') {
        this.dropped++;
        continue;
      }
      // Its nodes left the page before the page's change was followed (the write's frame came
      // first): not written into what the page removed, and not counted.
      if (!unitOnPage(job.origin ?? job.unit)) {
        this.retire(job);
        continue;
      }
      if (item.err) {
        this.fail(job, item.err);
        continue;
      }
      // A follower is written into its own nodes: the elements its markup names, and its own
      // element where the unit is one (chunk.ts Markup `entries`, `into`).
      // (An attribute value has none: its answer is its text.)
      for (const j of withFollowers(job)) {
        const lead = j === job;
        const entries = lead ? call.entries.get(id)! : (j.markup?.entries ?? []);
        this.written(j, writeAnswer(j.unit, answer, id, entries, this.trg, this.src, lead ? call.into.get(id) : j.markup?.into, this.relabelledYet()), item.rid);
      }
      // What the page may copy of it later (written.ts `inMarkup`); a long text's piece is no text the page shows alone.
      if (job.unit.kind !== 'piece') this.ourTexts.add(answer);
      this.leaders.answer(job, answer, item.rid);
      this.leaders.settled(job);
    }
  }

  /** A unit whose markup was answered already, written from that answer (and its followers), each into its own nodes. */
  protected copy(job: Job, answer: AnswerEl, rid: string | undefined): void {
    // Retired since it was packed (the page changed or removed it).
    if (job.state !== 'waiting') return;
    if (!unitOnPage(job.origin ?? job.unit)) return this.retire(job);
    for (const j of withFollowers(job)) {
      this.written(j, writeAnswer(j.unit, answer, answer.id ?? 0, j.markup?.entries ?? [], this.trg, this.src, j.markup?.into, this.relabelledYet()), rid);
    }
    this.leaders.settled(job);
  }

  /**
   * A unit not written yet (a long text's piece queued, in flight or failed; a unit whose call
   * failed) written by the reader's choice of a route or of the original (choices.ts): taken off
   * the queue, its call's answer dropped when it comes (`write`), no longer failed. `ours`: the
   * text reads as our translation.
   */
  protected takeOver(j: Job, log: UndoLog, rid: string | undefined, ours: boolean): void {
    if (j.state === 'queued') {
      this.queue?.delete(j);
      this.queuedSize -= j.size;
    } else if (j.state === 'error') this.errors--;
    this.written(j, log, rid, ours);
  }

  private written(j: Job, log: UndoLog, rid: string | undefined, ours = true): void {
    j.log = log;
    this.owners.ownMade(j, log.created());
    j.markup = null;
    j.rid = rid;
    // Another part of a copy the reader hid (a long paragraph's, a row's label): it stays hidden.
    if (!j.copy || !this.hiddenCopies.has(j.copy.el)) showCopy(j.copy, j.origin, this.copies);
    j.state = 'done';
    this.done++;
    // The last part of a unit too long for one call: the whole's text is ours (written.ts `split`).
    if (ours) this.ourTexts.wrote(j.unit);
    this.merged.push(j);
    this.wrote(j);
    if (j.unit.kind === 'piece') this.pieceSettled(j);
  }

  /** A piece of a long text written or failed (choices.ts: a chooser waiting for the paragraph's pieces). */
  protected abstract pieceSettled(j: Job): void;

  /** A unit written: noted where the page changed its place before (follow.ts, lively.ts). */
  protected abstract wrote(job: Job): void;

  /** `lost`: the call went with the worker (`PortClosedError`); its units are sent again, a few times. */
  protected end(req: number, call: Call<Job>, error?: string, lost = false): void {
    this.inflight.delete(req);
    for (const job of call.jobs.values()) {
      if (job.req !== req || job.state !== 'sent') continue;
      if (lost && this.retries.afterLoss(job)) this.requeue(job);
      // A unit the answer lost, or a call that failed as a whole.
      else this.fail(job, error ?? 'the translation lost this unit');
    }
  }

  protected fail(job: Job, err: string): void {
    for (const j of withFollowers(job)) {
      j.state = 'error';
      this.errors++;
      this.retries.failed(j);
    }
    if (job.unit.kind === 'piece') this.pieceSettled(job);
    this.error = err;
    this.leaders.settled(job);
  }

}
