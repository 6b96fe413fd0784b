/**
 * Following the page's own changes while it is translated: text and attributes it changes are
 * translated again (the write undone first, so restore keeps the page's values; a place it keeps
 * changing waits: lively.ts), content it adds is segmented and queued, content it removes takes its
 * units with it (removals.ts), and shadow roots defined or attached later are walked.
 */
import { keptInCopies, pastCopies } from './bilingual';
import { PageFinds } from './find-again';
import { Fitted } from './fitted';
import { madeTexts, OurWords, splitRoot } from './ours';
import type { Job } from './jobs';
import { notePart } from './live-parts';
import { Lively, newNodes, realClock } from './lively';
import type { LateRoots } from './late-roots';
import type { ShadowReader } from './shadow';
import { SAYS_ATTRIBUTES } from './observe';
import type { Unit } from './segment';
import { forgetLiveParts, keepLive, unkeepLive } from './tags';
import { runRoots } from './units';
import { runAtEdge } from './edge-blocks';
import { blank } from './edges';
import type { Definitions } from './upgrades';

export class PageFollow extends PageFinds {
  /** Custom elements the walk met before their definition (upgrades.ts); until restore. */
  protected definitions: Definitions | null = null;
  /** Elements the walk met with no shadow root that may get one later (late-roots.ts); until restore. */
  protected lateRoots: LateRoots | null = null;
  /** Places the page keeps changing: what they hold waits (lively.ts). */
  protected readonly lively = new Lively(this.deps.clock ?? realClock, (roots, attrs) => this.releaseLively(roots, attrs), (parts) => this.givePartsBack(parts));
  /** Our words the page cut to fit, split or laid out (ours.ts); until restore. */
  private readonly ours = new OurWords<Job>();
  /** Our words the page laid out anew in nodes of its own, or fewer of ours (fitted.ts); until restore. */
  private readonly fitted = new Fitted<Job>((n) => this.owners.of(n));
  /** The user's clicks and Enter while the page is translated (`followActs`). */
  private acts: AbortController | null = null;

  /** What the page changes just after the user's click (or Enter) is never held (lively.ts): a tab, a view they asked for. */
  protected followActs(): void {
    this.acts?.abort();
    this.acts = new AbortController();
    const view = this.doc.defaultView;
    const opts = { capture: true, passive: true, signal: this.acts.signal };
    view?.addEventListener('pointerdown', () => this.lively.acted(), opts);
    view?.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') this.lively.acted();
      },
      opts,
    );
  }

  protected onMutations(records: MutationRecord[]): void {
    // Cancelled: nothing more is translated, but what the page changes in what was is still
    // followed, so restore keeps the page's own values.
    if (!this.following()) return;
    this.timed('follow', () => this.followChanges(records));
  }

  private followChanges(batch: MutationRecord[]): void {
    const touched = new Set<Job>();
    // The jobs whose words the page changed (their texts, what is inside their elements, nodes of
    // theirs with words it took out), not only what is beside them: only there may it have put
    // its own text back (lively.ts `givenBack`).
    const inside = new Set<Job>();
    // For each of those, the inline element of its run the batch's changes were all in, or null (lively.ts `admit`).
    const parts = new Map<Job, Element | null>();
    const copies = this.mode === 'bilingual' ? keptInCopies(batch, this.reshapedCopies) : null;
    const all = copies ? batch.filter((r) => !copies.has(r)) : batch;
    // Our words laid out anew in nodes of the page's (fitted.ts): its records are not changes.
    const fitted = this.fitted.follow(all, touched);
    const records = fitted ? all.filter((r) => !fitted.has(r)) : all;
    if (fitted) for (const r of fitted) if (r.type === 'childList' && r.target.nodeType === 1) this.segmenter?.childrenChanged(r.target as Element);
    const roots = new Set<Node>();
    const attrs: [Element, string][] = [];
    const changedAttrs: [Element, string][] = [];
    const removed: Node[] = [];
    const added: [Node, Node][] = [];
    const emptied = new Set<Node>();
    let made: Set<Node> | null = null;
    /** Texts the page made in this batch: what a split makes (read once, and only for a split). */
    const isMade = (n: Text) => (made ??= madeTexts(records)).has(n);
    /** A text of ours still in the page: moved there, not taken out. */
    const isMoved = (n: Text) => n.isConnected && this.owners.of(n) !== undefined;
    this.followTexts(records, touched, roots, isMade, parts);
    // Those the page changed in what it made of our words, and in our texts.
    for (const j of touched) inside.add(j);
    for (const r of records) {
      if (r.type === 'attributes' && r.target instanceof Element && r.attributeName) {
        attrs.push([r.target, r.attributeName]);
      } else if (r.type === 'childList') {
        if (r.target.nodeType === 1) this.segmenter?.childrenChanged(r.target as Element);
        // A highlighter's element put around words split off ours, or taken away (ours.ts).
        if (this.ours.split && this.ours.movesPieces(r, isMade, isMoved)) continue;
        // Not the unit around an element it keeps as it is (a select, code): what changed in there
        // is not its text (an option the page added is found from the option: `findAgain`).
        const inUnit = this.owners.holder(r.target, true);
        if (inUnit) {
          touched.add(inUnit);
          inside.add(inUnit);
          notePart(parts, inUnit, r.target);
        }
        // A block put in or taken out at a run's edge leaves it as written (edge-blocks.ts); in
        // bilingual mode, after the run's copy too (in its element, after its content).
        const kept = this.segmenter ? runAtEdge(r, (n) => this.holderOf(pastCopies(n) ?? n), this.segmenter) : undefined;
        for (const n of [r.previousSibling, r.nextSibling]) {
          const j = n ? this.holderOf(n) : undefined;
          if (j && j !== kept) touched.add(j);
        }
        for (const n of r.addedNodes) {
          // A silent node put at a run's edge holds nothing to find (found, it would join the run).
          if (!(kept && blank(n))) roots.add(n);
          added.push([n, r.target]);
          if (n.parentNode !== r.target) continue;
          // Put among (or was one of) the nodes a write reordered: undoing the write keeps the page's change.
          const ours = this.owners.of(n);
          ours?.log?.adoptMove(n);
          const beside = n.nextSibling && this.holderOf(n.nextSibling);
          if (beside && beside !== ours) beside.log?.adoptMove(n);
          // Beside a unit's node now: that unit is cut or joined (the record may not name its siblings).
          if (beside && beside !== kept) touched.add(beside);
          // Past our copies: a node the page appends to a block whose copy is inside it, last, is
          // after the copy, and beside the run the copy is for (React appends, after the copy).
          const prev = pastCopies(n.previousSibling);
          const before = prev && this.owners.holder(prev);
          if (before && before !== kept) touched.add(before);
        }
        for (const n of r.removedNodes) {
          removed.push(n);
          // One of a unit's own nodes, with words (out of the page, it is found by itself alone).
          const own = this.owners.of(n);
          // Where it was taken from, with words or not (a typed word's letter our write left empty);
          // not a silent node at the edge of a run kept as written (a framework's placeholder).
          if (own && own !== kept) notePart(parts, own, r.target);
          if (own && own !== kept && n.textContent?.trim()) inside.add(own);
        }
        if (r.removedNodes.length) emptied.add(r.target);
      }
    }
    if (this.aside.holding) for (const root of roots) if (root.isConnected) this.putBack(root, touched);
    const observer = this.observer!;
    observer.whilePaused(() => {
      for (const [el, name] of attrs) {
        if (name === 'lang' && this.relabelAgain(el, () => this.jobsWithin(el, new Set()))) continue;
        if (SAYS_ATTRIBUTES.has(name)) {
          // An element that became an editor (a comment the user now edits) or says translate="no"
          // (or took the class notranslate: `saysSomething` keeps no other class change), or
          // another language than the page's (a quote a script labels once it has guessed it),
          // gets its original back, text, attributes and bilingual copies: the user edits, and the
          // page saves, its own words. One that no longer does is translated again. Either way
          // its jobs and the run around it are undone below and found again as they are now (a
          // run that kept it as a placeholder takes its words in, a yes inside a no stays apart).
          // Out of the page too (a view the page may put back): found again when it is back.
          this.segmenter?.forgetElement(el);
          this.jobsWithin(el, touched);
          const around = this.owners.of(el);
          if (around) touched.add(around);
          roots.add(el);
          continue;
        }
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
        else runRoots(u, roots);
      }
      if (removed.length) this.leftPage(removed);
      if (this.mode === 'bilingual') for (const [n] of added) this.keepCopyBeside(n, roots);
      this.releaseOut();
    });
    if (this.state === 'cancelled') {
      this.report();
      return;
    }
    // A place that keeps changing waits (lively.ts): what it holds now comes back when due.
    const changed = [...inside].map((j) => j.origin ?? j.unit);
    const partOf = new Map<Unit, Element | null>();
    for (const [j, part] of parts) partOf.set(j.origin ?? j.unit, part);
    for (const j of inside) if (!parts.has(j)) partOf.set(j.origin ?? j.unit, null);
    const fresh = this.lively.admit(this.findAgain(roots, changedAttrs), added.length ? newNodes(added, emptied) : undefined, changed, partOf);
    // A part of a sentence the page keeps changing by itself is kept as it is, and the sentence is
    // translated around it (lively.ts `admit`).
    const kept = this.lively.takeKept();
    if (kept.length) {
      for (const el of kept) {
        keepLive(el);
        this.segmenter?.forgetElement(el);
      }
      fresh.push(...this.findAgain(kept, []));
    }
    this.queueFound(fresh);
    this.carryOn(fresh.length > 0);
  }

  /**
   * The page's changes to texts. One of ours that it cut to fit, split or laid out (ours.ts) still
   * shows our words: nothing is sent, and the texts split off it are ours to empty at restore.
   * Another change to one of ours is the page's: its value is the one to restore, and its unit is
   * undone and found again (`touched`). A text of no unit is looked at (`roots`).
   */
  private followTexts(records: readonly MutationRecord[], touched: Set<Job>, roots: Set<Node>, isMade: (n: Text) => boolean, parts: Map<Job, Element | null>): void {
    const texts = new Map<Text, [Job, string | null]>();
    const loose: Node[] = [];
    for (const r of records) {
      if (r.type !== 'characterData') continue;
      const t = r.target as Text;
      // In a part of its sentence kept as the page writes it: the page's own (find-again.ts).
      const part = this.owners.livePart(t);
      if (part) {
        this.keptChanged(part);
        continue;
      }
      const job = this.owners.of(t) ?? this.ours.pieceOf(t);
      if (!job) loose.push(t);
      // Its value before this batch: the first record's (our write's, where we wrote last).
      else if (!texts.has(t)) texts.set(t, [job, r.oldValue]);
    }
    for (const [t, [job, was]] of texts) {
      const log = job.log;
      const original = log?.original(t);
      const root = splitRoot(t, job.unit, this.owners.siblings(job).every((j) => j.state === 'done'));
      const ours = log && original !== undefined && was !== null && was !== original ? this.ours.judge(t, was, root, isMade) : null;
      if (ours) {
        this.ours.ownPieces(job, ours);
        continue;
      }
      // Every piece of a long text keeps the text as it was: the page's value is the one now.
      for (const j of this.owners.siblings(job)) j.log?.adopt(t);
      touched.add(job);
      notePart(parts, job, t);
    }
    for (const t of loose) if (!this.ours.pieceOf(t)) roots.add(t);
  }

  /** The job whose unit holds `n` (`owners.holder`), or whose words it holds, split off (ours.ts). */
  private holderOf(n: Node): Job | undefined {
    return this.owners.holder(n) ?? this.ours.pieceOf(n) ?? this.fitted.holder(n);
  }

  /**
   * Bilingual: a block the page moved (a card sorted, a post brought to the top) takes the copy of
   * its translation with it, under it again; one the page moves with its parent has it there already.
   * A node the page put right after a block, before that block's copy (Preact inserts a new node
   * before the next sibling of the one it comes after: the copy), leaves the copy under its block,
   * above the new node: a reader took the copy for the new node's translation.
   * A part of a run the page moved out of the run's parent leaves no copy behind: the run's copy
   * goes, and what is around each of its nodes now is found again (`roots`).
   */
  private keepCopyBeside(n: Node, roots: Set<Node>): void {
    if (!n.isConnected) return;
    const above = n.previousSibling;
    if (above) this.copyUnder(above);
    if (this.copyUnder(n)) return;
    const run = this.owners.of(n);
    if (!run?.copy || run.copy.after || run.origin?.kind !== 'range' || n.parentNode === run.origin.parent) return;
    for (const x of run.origin.nodes) if (x.isConnected) roots.add(x);
    this.retire(run);
  }

  /** Puts the copy of block `n`'s translation right after it if it is not; whether `n` has one there. */
  private copyUnder(n: Node): boolean {
    const block = n.nodeType === 1 && n.firstChild ? this.owners.of(n.firstChild)?.copy : undefined;
    if (block?.after !== n) return false;
    if (block.el.isConnected && n.nextSibling !== block.el) n.parentNode!.insertBefore(block.el, n.nextSibling);
    return true;
  }

  protected wrote(job: Job): void {
    this.lively.wrote(job.origin ?? job.unit);
  }

  protected keptChanged(el: Element): void {
    this.lively.partChanged(el);
  }

  /** Parts of sentences kept as the page wrote them, still for a while now: each sentence translated whole again (lively.ts); one out of the page is only read as the page says again, which its sentence, set aside, reads as a change (removals.ts `putBack`). */
  private givePartsBack(parts: readonly Element[]): void {
    if (this.state !== 'translating' && this.state !== 'translated') return;
    let found = 0;
    this.timed('follow', () => {
      const roots = new Set<Node>();
      this.observer!.whilePaused(() => {
        for (const el of parts) {
          unkeepLive(el);
          this.segmenter?.forgetElement(el);
          if (!el.isConnected) continue;
          const job = this.owners.of(el);
          // No job holds it where its sentence had nothing else to send (a letter alone around a
          // link): the sentence is found again from the part itself (dynamic property test, seed
          // 230025: the link was left in the page's words).
          if (job) this.retire(job);
          const u = job && (job.origin ?? job.unit);
          if (u?.kind === 'range') runRoots(u, roots);
          else roots.add(el);
        }
      });
      const fresh = this.findAgain(roots, []);
      found = fresh.length;
      this.queueFound(fresh);
    });
    this.carryOn(found > 0);
  }

  /** Places that kept changing, due now: translated as they are. */
  private releaseLively(roots: readonly Node[], attrs: readonly [Element, string][]): void {
    if (this.state !== 'translating' && this.state !== 'translated') return;
    let found = 0;
    this.timed('follow', () => {
      const fresh = this.findAgain(roots, attrs);
      found = fresh.length;
      this.queueFound(fresh);
    });
    this.carryOn(found > 0);
  }

  /** Neither a sweep nor a place that kept changing waits any more (restore). */
  protected noWaits(): void {
    this.noSweep();
    this.lively.clear();
    forgetLiveParts();
    this.ours.clear();
    this.fitted.clear();
    this.acts?.abort();
    this.acts = null;
  }

  /** After units were found past the walk (the page's changes, a definition): translating again if any, and on. */
  protected carryOn(found: boolean): void {
    if (found && this.state === 'translated') this.state = 'translating';
    this.report();
    this.pump();
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

  /** Hosts asked for a closed root because a child of theirs is not shown (`unshown`): each once. */
  private readonly unshownHosts = new WeakSet<Element>();

  /**
   * An element with no computed style (kinds.ts `onUnshown`): its parent's shadow root does not
   * show it, so the parent has one. Where that root is a closed one on an element with children
   * of its own (which `mayHost` does not ask: a widget that closes its root over its fallback
   * content), it is read from now on, and what it holds translated and followed like a root
   * attached later (`rooted`), once the walk under way is done.
   */
  protected unshown(el: Element): void {
    const host = el.parentElement;
    if (!host || this.unshownHosts.has(host)) return;
    this.unshownHosts.add(host);
    const lookInto = (this.shadowOf as Partial<ShadowReader>).lookInto;
    if (this.shadowOf(host) || !lookInto?.(host)) return;
    queueMicrotask(() => this.rooted([host]));
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
      for (const el of hosts) for (const u of this.segmenter!.upgraded(el)) if (!this.owners.taken(u, true)) fresh.push(u);
      for (const u of fresh) this.enqueue(u);
    });
    this.carryOn(fresh.length > 0);
  }
}
