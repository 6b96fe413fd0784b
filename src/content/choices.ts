/**
 * Alternatives in place: a translated unit switched to another route's translation. The unit is
 * serialized again as it was (its undo log set aside for the moment, observer paused) and sent once
 * per other route, that route first: frm=html answers with one route only (interface.md 4.1 fixes
 * min=max=1 for documents), so one streamed call per route is how they arrive one by one. The
 * chosen answer is written through the same merge (live nodes re-used, a new undo log, so restore
 * stays exact); "use this route for the page" puts its rid first in every later call. "Show the
 * original" puts the unit's original back (its undo log undone, an empty one in its place), until
 * a route is picked again or the page is restored; in bilingual mode, "Hide this translation" takes
 * the unit's copy off the page, until a route is picked again. A long text translated in pieces is
 * switched as one paragraph (`longTextChoice`), its pieces still on their way too. The routes are
 * asked in ask-routes.ts.
 */
import { showCopy, type Copy } from './bilingual';
import { PageWrites } from './writes';
import { Call } from './chunk';
import type { Job, TranslateFn } from './jobs';
import { relabelAbove, writeAnswer } from './answers';
import { readAnswer, textOf, type AnswerEl } from './answer';
import { piecesShown, unitElement, type PieceGroup, type PieceUnit, type Unit } from './units';
import { pieceText } from './merge';
import { inPlace } from './tags';
import { undoing } from './pieces-undo';
import { UndoLog } from './undo';
import { askRoutes, RouteList, type Alternative, type RouteAsk } from './ask-routes';
import { choiceUnitAt, type ChoiceUnit } from './choice-units';
import { t } from '../ui/shared/i18n';

export type { Alternative } from './ask-routes';

export interface Choice {
  /** Where the unit is shown (the chooser is placed by it). */
  el: Element;
  /**
   * What the unit read before it was translated, and its language; `shown`: the page shows it
   * (picked with `pickOriginal`). Null in bilingual mode, where the original is on the page beside
   * its copy.
   */
  original: { text: string; lang: string; shown: boolean } | null;
  /**
   * Bilingual mode: the unit's copy is on the page (`shown`), or the reader took it off
   * (`hidden`, with `hide`). Null in replace mode, and where no copy is shown as it read as its
   * original.
   */
  copy: 'shown' | 'hidden' | null;
  /** Every route asked has answered (or failed). */
  done: Promise<void>;
  /** Writes the alternative of `rid`; false when there is none or the unit changed since. */
  pick(rid: string): boolean;
  /** Puts the unit's original back (replace mode); false when the unit changed since. */
  pickOriginal(): boolean;
  /** Takes the unit's copy off the page (bilingual mode); false when there is none shown or the unit changed since. */
  hide(): boolean;
  /** Stops the calls still running. */
  close(): void;
  /** Picks `rid` and makes it the page's route (a frame's chooser the top frame shows: chooser-lift.ts). */
  prefer?(rid: string): void;
}

export abstract class PageChoices extends PageWrites {
  /** Requests made for alternatives (for tests). */
  altCalls = 0;
  private readonly routeList = new RouteList();
  /** The logs of units whose original was picked back ("Show the original"): empty, in their job until it is written again. */
  private originals = new WeakSet<UndoLog>();
  /** Bilingual copies the page reshaped without changing their words (bilingual.ts `keptInCopies`): no alternatives there. */
  protected readonly reshapedCopies = new WeakSet<Element>();
  /** Choosers of long texts waiting for their pieces still on their way (`longTextChoice`). */
  private readonly pieceWatch = new Set<(j: Job) => void>();

  /**
   * The alternatives of the translated unit at `node`, each passed to `onAlternative` as it
   * settles (the current one first, from the page). Null: no translated unit there, nor one whose
   * call failed.
   */
  choiceAt(node: Node, onAlternative: (a: Alternative) => void): Choice | null {
    if (!this.deps.routes || !this.observer) return null;
    const at = choiceUnitAt(this.owners, node, this.reshapedCopies);
    if (at) return this.unitChoice(at, onAlternative);
    const long = this.longTextAt(node);
    return long ? this.longTextChoice(long, onAlternative) : null;
  }

  /**
   * A paragraph, or the attribute an element shows as its words (choice-units.ts). `log` null: the
   * unit's call failed, and the page shows its original (written by a pick: writes.ts `takeOver`).
   */
  private unitChoice({ job, unit, el, log }: ChoiceUnit, onAlternative: (a: Alternative) => void): Choice {
    const observer = this.observer!;
    const call = new Call<Job>(Infinity);
    const textNow = () =>
      (unit.kind === 'attr' ? (unit.el.getAttribute(unit.name) ?? '') : unit.whole ? (unit.parent.textContent ?? '') : unit.nodes.map((n) => n.textContent ?? '').join('')).trim();
    const shown = textNow();
    // The page shows the unit's original, picked back or its copy hidden: every route is an alternative.
    const hidden = job.copy !== undefined && this.hiddenCopies.has(job.copy.el);
    const copy: Choice['copy'] = hidden ? 'hidden' : job.copy?.el.isConnected ? 'shown' : null;
    const plain = !log || this.originals.has(log) || hidden;
    let original: Choice['original'] = null;
    const serialize = () => {
      call.add(job);
      if (!job.copy) original = { text: textNow(), lang: this.src, shown: plain };
    };
    observer.whilePaused(() => (log ? log.asOriginal(serialize) : serialize()));
    const { src, trg, epoch } = this;
    const current = job.rid ?? '';
    const ac = new AbortController();
    if (!plain) onAlternative({ rid: current, text: shown, current: true });
    const read = ([dat]: string[]) => {
      const wrapper = readAnswer(dat!, this.doc).get(1);
      return wrapper ? textOf(wrapper).trim() : null;
    };
    const { done, answers } = this.ask({ markups: [call.markup], current, plain, read, onAlternative, signal: ac.signal });
    return {
      el,
      original,
      copy,
      done,
      close: () => ac.abort(new DOMException('alternatives closed', 'AbortError')),
      pickOriginal: () => {
        const obs = this.observer;
        if (!original || epoch !== this.epoch || job.state !== 'done' || !job.log || !obs) return false;
        obs.whilePaused(() => {
          job.log?.undo();
          const plainLog = new UndoLog();
          // A page that says the target's language already: this paragraph says its own (a screen
          // reader reads it with its voice). Not before: the page's relabelling would take it too.
          // An attribute says no language of its own.
          const el = unit.kind === 'range' && unit.parent instanceof Element ? unit.parent : null;
          const whole = unit.kind === 'range' && unit.whole;
          const labelled = el && this.relabelledYet();
          if (el && labelled) {
            if (whole && !inPlace(el)) this.saysOriginal(el, plainLog, labelled);
            // A post added since that the undone log relabelled (answers.ts) still says the target's:
            // its other units are translated.
            relabelAbove(whole ? el.parentElement : el, src, trg, plainLog, labelled);
          }
          job.log = plainLog.seal();
          this.originals.add(job.log);
        });
        return true;
      },
      hide: () => {
        const obs = this.observer;
        const c = job.copy;
        // A failed unit's copy is shown where other units of it are written (a paragraph's parts).
        if (!c?.el.isConnected || epoch !== this.epoch || (job.state !== 'done' && job.state !== 'error') || !obs) return false;
        this.hideCopy(c);
        return true;
      },
      pick: (rid) => {
        const dat = answers.get(rid)?.[0];
        const obs = this.observer;
        const failed = job.state === 'error';
        if (dat === undefined || epoch !== this.epoch || !(failed || (job.state === 'done' && job.log)) || !obs) return false;
        const wrapper = readAnswer(dat, this.doc).get(1)!;
        obs.whilePaused(() => {
          job.log?.undo();
          const written = writeAnswer(unit, wrapper, 1, call.entries.get(1)!, trg, src, call.into.get(1), this.relabelledYet());
          if (failed) return this.takeOver(job, written, rid, true);
          job.log = written;
          this.owners.ownMade(job, job.log.created());
          this.copyPicked(job.copy, job.origin);
        });
        job.rid = rid;
        return true;
      },
    };
  }

  /**
   * A long text sent in pieces (fit.ts `pieces`), switched as one paragraph: its pieces are sent
   * to each route in calls within the text limit, as the page's were (the engine refuses a longer
   * document), and a pick writes every piece. The pieces' writes are undone newest first (the text
   * back to its original), then made again in the order they were first made, so each log keeps
   * the text as the writes before it left it, as restore and the page's changes read them
   * (removals.ts `retire`). Pieces not written yet (on their way, queued, or failed) are written by
   * a pick too (writes.ts `takeOver`); the route shown is passed on once they all are.
   */
  private longTextChoice(jobs: readonly Job[], onAlternative: (a: Alternative) => void): Choice {
    const units = jobs.map((j) => j.unit as PieceUnit);
    const g = units[0]!.group;
    // Each piece's call and its id there.
    const calls: Call<Job>[] = [];
    const at: [number, number][] = [];
    for (const j of jobs) {
      let call = calls.at(-1);
      if (!call?.add(j)) {
        call = new Call<Job>();
        call.add(j);
        calls.push(call);
      }
      at.push([calls.length - 1, [...call.jobs.keys()].at(-1)!]);
    }
    /** Each piece's answer in the answers to `calls`, or null where one is missing. */
    const answerOf = (dats: string[]) => {
      const read = dats.map((d) => readAnswer(d, this.doc));
      const out = at.map(([c, id]) => read[c]!.get(id));
      return out.every((a) => a !== undefined) ? (out as AnswerEl[]) : null;
    };
    const first = jobs[0]!;
    // Bilingual: the copy the text is in; hidden by the reader, every route is an alternative.
    const copy = first.copy;
    const hidden = copy !== undefined && this.hiddenCopies.has(copy.el);
    // The page shows its original: picked back, its copy hidden, or no piece written (they failed).
    const plain = (first.log !== null && this.originals.has(first.log)) || hidden || jobs.every((j) => j.state !== 'done');
    const { src, trg, epoch } = this;
    const current = jobs.find((j) => j.rid)?.rid ?? '';
    const ac = new AbortController();
    const still = () => epoch === this.epoch && this.observer !== null && this.longTextShown(jobs, g);
    // The route shown, once every piece is written; a piece failed: the route left it untranslated.
    const shown = (): boolean => {
      if (jobs.some((j) => j.state === 'error')) onAlternative({ rid: current, err: t('chooserPartFailed', 'Part of this paragraph was not translated'), current: false });
      else if (jobs.every((j) => j.state === 'done')) onAlternative({ rid: current, text: g.text.data.trim(), current: true });
      else return false;
      return true;
    };
    const watch = (j: Job) => jobs.includes(j) && (!still() || shown()) && this.pieceWatch.delete(watch);
    if (!plain && !shown()) this.pieceWatch.add(watch);
    const closed = () => {
      this.pieceWatch.delete(watch);
      ac.abort(new DOMException('alternatives closed', 'AbortError'));
    };
    // The text as each route writes it: its pieces translated, those not sent (a file's code) as they are.
    const read = (dats: string[]) => {
      const answer = answerOf(dats);
      const outs = g.sources.slice();
      answer?.forEach((a, k) => (outs[units[k]!.index] = pieceText(units[k]!, a)));
      return answer ? outs.join('').trim() : null;
    };
    const { done, answers } = this.ask({ markups: calls.map((c) => c.markup), current, plain, read, onAlternative, signal: ac.signal });
    const rewrite = (write: (j: Job, k: number) => UndoLog, rid?: string) => {
      this.pieceWatch.delete(watch);
      const order = jobs.filter((j) => j.state === 'done').sort((a, b) => this.merged.indexOf(a) - this.merged.indexOf(b));
      // Newest first: the text and its pieces (`g.outs`) as the first piece's write found them.
      undoing(() => {
        for (let k = order.length - 1; k >= 0; k--) order[k]!.log!.undo();
      });
      for (const j of order) j.log = write(j, jobs.indexOf(j));
      const rest = jobs.filter((j) => j.state !== 'done');
      for (const j of rest) this.takeOver(j, write(j, jobs.indexOf(j)), rid, rid !== undefined);
      // A queued piece taken off may have been the page's last work.
      if (rest.length) this.pump();
    };
    const el = this.longTextEl(jobs);
    return {
      el,
      original: copy ? null : { text: g.sources.join('').trim(), lang: src, shown: plain },
      copy: hidden ? 'hidden' : copy?.el.isConnected ? 'shown' : null,
      done,
      close: closed,
      pickOriginal: () => {
        // None written (they failed, or are on their way): the page shows the original already.
        if (copy || !still() || !jobs.some((j) => j.state === 'done')) return false;
        this.observer!.whilePaused(() => {
          rewrite(() => new UndoLog().seal());
          // The paragraph says its own language where it is all this text, as a unit's does.
          const plainLog = new UndoLog();
          const labelled = this.relabelledYet();
          if (labelled && el.childNodes.length === 1 && !inPlace(el)) this.saysOriginal(el, plainLog, labelled);
          first.log = plainLog.seal();
          this.originals.add(first.log);
        });
        return true;
      },
      hide: () => {
        if (!copy?.el.isConnected || !still()) return false;
        this.hideCopy(copy);
        return true;
      },
      pick: (rid) => {
        const dats = answers.get(rid);
        const answer = dats && answerOf(dats);
        if (!answer || !still()) return false;
        this.observer!.whilePaused(() => {
          rewrite((j, k) => writeAnswer(j.unit, answer[k]!, at[k]![1], calls[at[k]![0]]!.entries.get(at[k]![1])!, trg, src), rid);
          this.copyPicked(copy, first.origin);
        });
        for (const j of jobs) j.rid = rid;
        return true;
      },
    };
  }

  /**
   * `el`, shown as its original, says the page's language (in `log`). A unit the page puts in it
   * later (a block it appends) leaves that label alone, as the relabelling's elements
   * (answers.ts `relabelAbove` stops at `labelled`): its log would keep this label as the one to
   * give back, and restore would leave it after this log gave back the page's.
   */
  private saysOriginal(el: Element, log: UndoLog, labelled: WeakSet<Element>): void {
    log.attr(el, 'lang', this.src);
    labelled.add(el);
  }

  /** Takes a unit's bilingual copy off the page ("Hide this translation"): its jobs stay done and written, and a route picked puts the same copy back. */
  private hideCopy(copy: Copy): void {
    this.observer!.whilePaused(() => copy.el.remove());
    this.hiddenCopies.add(copy.el);
  }

  /**
   * A route picked for a unit in bilingual mode (the observer paused): its copy, not shown (it
   * read as its original, or the reader hid it), is shown if it does not read as `origin` now.
   */
  private copyPicked(copy: Copy | undefined, origin: Unit | undefined): void {
    if (!copy) return;
    this.hiddenCopies.delete(copy.el);
    showCopy(copy, origin, this.copies);
  }

  /** Asks the pair's routes for `markups` (ask-routes.ts), counted in `altCalls`. */
  private ask(a: RouteAsk) {
    const counted: TranslateFn = (params, onItem, opts) => {
      this.altCalls++;
      return (this.deps.ask ?? this.deps.translate)(params, onItem, opts);
    };
    return askRoutes(counted, this.src, this.trg, this.pageRoutes(), a);
  }

  /** The element showing the translated unit at `node` that may have alternatives; null elsewhere. */
  translatedAt(node: Node): Element | null {
    if (this.state === 'original') return null;
    const at = choiceUnitAt(this.owners, node, this.reshapedCopies);
    if (at) return at.el;
    const long = this.longTextAt(node);
    return long ? this.longTextEl(long) : null;
  }

  /** Where a long text is shown: its bilingual copy not shown (hidden, or none of it written yet) is not where the text is. */
  private longTextEl(jobs: readonly Job[]): Element {
    const { copy, origin, unit } = jobs[0]!;
    return (copy && !copy.el.isConnected ? unitElement(origin!) : (unit as PieceUnit).group.text.parentElement)!;
  }

  /**
   * What the chooser offers beside the other routes: the original, hidden under its translation
   * (replace mode), or hiding the translation (bilingual mode, where the original is on the page;
   * not for the attribute shown as `at`'s words, translated in place there too); null when there is
   * no chooser (nothing translated, or no routes to ask).
   */
  offers(at?: Element): 'original' | 'hide' | null {
    if (!this.deps.routes || this.state === 'original') return null;
    // An attribute has no copy: translated in place in bilingual mode too.
    const attr = at && choiceUnitAt(this.owners, at, this.reshapedCopies)?.unit.kind === 'attr';
    return this.mode === 'bilingual' && !attr ? 'hide' : 'original';
  }

  /** The pair's routes, asked once per translation (ask-routes.ts `RouteList`). */
  private pageRoutes(): Promise<string[]> {
    return this.routeList.get(`${this.epoch} ${this.src} ${this.trg}`, () => this.deps.routes?.(this.src, this.trg) ?? Promise.resolve([]));
  }

  /**
   * The translated long text at `node`, sent in pieces (in place, or in its bilingual copy): its
   * jobs in the text's order, a piece written at least and the text reading what they wrote (not
   * what the page cut, split or wrote there); null elsewhere.
   */
  private longTextAt(node: Node): Job[] | null {
    const job = this.owners.at(node);
    if (!job || job.unit.kind !== 'piece') return null;
    const g = job.unit.group;
    const jobs = this.owners.siblings(job);
    if (jobs.length !== g.sources.length - (g.kept?.size ?? 0) || !this.longTextShown(jobs, g) || !g.text.parentElement) return null;
    return [...jobs].sort((a, b) => (a.unit as PieceUnit).index - (b.unit as PieceUnit).index);
  }

  /**
   * Whether a piece of the long text `g` is written (`jobs`) or failed, the others on their way,
   * and the text shows what they wrote: in the page, or in its bilingual copy (on the page, or
   * hidden by the reader; not shown yet where none is written).
   */
  private longTextShown(jobs: readonly Job[], g: PieceGroup): boolean {
    let written = false;
    let failed = false;
    for (const j of jobs) {
      if (j.state === 'done' && j.log) written = true;
      else if (j.state === 'error') failed = true;
      else if (j.state !== 'queued' && j.state !== 'sent') return false;
    }
    const copy = jobs[0]!.copy;
    const placed = copy ? copy.el.isConnected || this.hiddenCopies.has(copy.el) || !written : g.text.isConnected;
    return placed && (written || failed) && g.text.data === piecesShown(g);
  }

  protected pieceSettled(j: Job): void {
    for (const watch of this.pieceWatch) watch(j);
  }

  /** The route put first in every later call of this page (until restore). */
  preferRoute(rid: string): void {
    if (this.state === 'original') return;
    this.rid = rid;
    this.report();
  }
}
