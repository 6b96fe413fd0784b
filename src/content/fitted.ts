/**
 * Our words a page lays out anew, in nodes of its own or fewer of ours, to fit them in their box:
 * - shave and its kin write the element's words again (`textContent =`) cut at a word, with an
 *   ellipsis in an element of their own and the rest in a hidden one, and do it again on resize;
 * - Clamp.js cuts the line's last text and, where that is not enough, takes the line's last nodes
 *   out (a text, a bold word) and cuts the one left last;
 * - a script writes the words again as they are (`el.textContent = el.textContent.trim()`, or
 *   shave's own undo: the whole text in one node);
 * - the same over a card of several units (a line and a paragraph under it, two paragraphs: Clamp.js
 *   takes the last paragraph out, shave writes all the words again as one text), or over an element
 *   inside a unit (a span clamped in a paragraph);
 * - in a part of the place: linkify-element puts a text holding an address again as a text, a
 *   link and a text; a highlighter writes a text again as a span with its marks;
 * - around our nodes: a highlighter puts a mark around a whole text of ours (rangy's class
 *   applier), and takes it away again; a script puts them into a span to measure them. The page's
 *   element stays at restore, our nodes in it, with their original words.
 * What the element shows is still our translation: nothing is sent (our words would go out as the
 * page's, and restore would leave them), the unit stays translated, and restore puts its nodes
 * back in place of the page's, whole (not where the page's element is around them): the element
 * as it was before we wrote, as for a text the page cut (ours.ts).
 * Read once per batch where the page took nodes of ours out.
 */

import { spaced } from './ours';
import { CARD_NODES, inPlace, LETTER, othersWithin, type Written } from './card';
import { Batch, ELLIPSIS, type Rewind } from './rewind';
import { excluded } from './tags';
import type { RangeUnit } from './units';

export class Fitted<J extends Written> {
  /** The elements the page laid out anew, with the job whose words they show (made at the first: most pages make none). */
  private parents: WeakMap<Node, J> | null = null;
  /** The nodes the page made there from our words, with that job. */
  private made: WeakMap<Node, J> | null = null;

  /** `owner`: the job whose unit holds a node (ownership.ts `of`). */
  constructor(private readonly owner: (n: Node) => J | undefined) {}

  /** The job whose words `n` shows, in nodes the page made of them (`n` or an ancestor of it). */
  holder(n: Node): J | undefined {
    if (!this.made) return undefined;
    for (let x: Node | null = n; x; x = x.parentNode) {
      const j = this.made.get(x);
      if (j) return j;
    }
    return undefined;
  }

  /**
   * The page's batch `records`: each place where it laid our words out anew is taken as ours (its
   * job's log puts it back at restore), and its records are the ones returned, for the follow to
   * pass over. A place laid out before that the page now changes otherwise is its own from now
   * on: its job is in `changed`, to be translated again as it shows.
   */
  follow(records: readonly MutationRecord[], changed: Set<J>): Set<MutationRecord> | null {
    const batch = new Batch(records);
    this.wholes(batch, changed);
    this.parts(batch);
    if (this.made) this.changedMade(batch, changed);
    return batch.ours;
  }

  /**
   * Elements that held only our words, whose words the page laid out anew there: all one unit of
   * ours; a card of several (a unit's run beside blocks with units of their own, or only blocks:
   * Clamp.js takes the last blocks out and cuts the run, shave writes the card's words again as
   * one text); an element inside a unit (a span clamped in a paragraph).
   */
  private wholes(batch: Batch, changed: Set<J>): void {
    let seen: Set<Node> | null = null;
    for (const r of batch.records) {
      const [job, el] = this.place(r, batch) ?? [];
      if (!job || !el || seen?.has(el)) continue;
      (seen ??= new Set()).add(el);
      const rewind = batch.rewind;
      const before = rewind.kids(el);
      const back = before && this.laidOut(job, el, before, rewind);
      const held = back && rewind.held(back);
      if (held && fitOf(rewind.text(el, true), rewind.text(el, false), anew(el, held))) {
        this.takeWhole(job, el, back, batch);
        batch.take((x) => el.contains(x.target) || held.has(x.target) || this.jobOf(x.target) === job);
      } else if (this.parents?.get(el) === job) {
        this.parents.delete(el);
        job.log!.unfit();
        changed.add(job);
      }
    }
  }

  /**
   * Parts: nodes of ours the page put nodes of its own in place of, holding the same words (a
   * linkifier that makes a link of an address in our text, a highlighter that writes a text again
   * as a span with its marks), or put into elements of its own, or took out of them again (a
   * highlighter's marks around whole texts: rangy's class applier, an annotator; a span a script
   * measures them in).
   */
  private parts(batch: Batch): void {
    let looked: Set<Node> | null = null;
    for (const r of batch.records) {
      if (r.type !== 'childList' || !r.removedNodes.length || batch.ours?.has(r) || looked?.has(r.target)) continue;
      const p = r.target;
      (looked ??= new Set()).add(p);
      const gone = r.removedNodes[0]!;
      const job = this.removedFrom(p, gone, batch.rewind);
      if (!job || !inPlace(job) || !p.isConnected) continue;
      const run = this.changedRun(job, p, batch.rewind);
      if (!run) continue;
      const [nodes, made] = run;
      const log = job.log!;
      const wrapped = this.rewrapped(job, nodes, made, batch.rewind);
      if (wrapped) {
        log.rewrap(p, wrapped.stands);
        // The records of the wrapping, not those of what the page changed inside our nodes.
        batch.take((x) => x.target === p || wrapped.wrappers.some((w) => w.contains(x.target)));
        continue;
      }
      if (!this.laidAnew(job, p, nodes, made, batch)) continue;
      for (const n of nodes) batch.rewind.eachText(n, (t, was) => log.text(t, was));
      for (const n of made) (this.made ??= new WeakMap()).set(n, job);
      log.fitted(p, nodes, made, false);
      batch.take((x) => x.target === p || made.some((n) => n.contains(x.target)) || nodes.some((n) => n.contains(x.target)));
    }
  }

  /**
   * What the page changes otherwise in the nodes it made of our words is its own change: they stay
   * at restore, and the unit is translated again as it shows.
   */
  private changedMade(batch: Batch, changed: Set<J>): void {
    for (const r of batch.records) {
      if (r.type === 'attributes' || batch.ours?.has(r)) continue;
      const job = this.holder(r.target) ?? (r.removedNodes.length ? this.holder(r.removedNodes[0]!) : undefined);
      if (!job || changed.has(job)) continue;
      job.log?.unfit();
      changed.add(job);
    }
  }

  /**
   * In `p` (the unit's parent, or an element of the unit), the run of nodes the page changed in
   * this batch, as it was and as it is now (what is the same at both ends passed over); null where
   * the records do not add up, or `p` is not the unit's, or is in what it keeps as it is (code, a
   * no: what the page does there is its own).
   */
  private changedRun(job: J, p: Node, rewind: Rewind): [Node[], Node[]] | null {
    const before = rewind.kids(p);
    if (!before) return null;
    const now = [...p.childNodes];
    let i = 0;
    while (i < before.length && i < now.length && before[i] === now[i]) i++;
    let j = 0;
    while (j < before.length - i && j < now.length - i && before[before.length - 1 - j] === now[now.length - 1 - j]) j++;
    const nodes = before.slice(i, before.length - j);
    const made = now.slice(i, now.length - j);
    if (!nodes.length || !made.length) return null;
    const parent = (job.unit as RangeUnit).parent;
    if (p !== parent && this.owner(p) !== job) return null;
    for (let e: Node | null = p; e && e !== parent; e = e.parentNode) if (e.nodeType === 1 && excluded(e as Element)) return null;
    return [nodes, made];
  }

  /**
   * Whether the page took the run `nodes` of the unit out and made `made` in its place, showing the
   * same words in nodes that hold none of ours (linkify-element, a highlighter's span).
   */
  private laidAnew(job: J, p: Node, nodes: readonly Node[], made: readonly Node[], batch: Batch): boolean {
    const parent = (job.unit as RangeUnit).parent;
    for (const n of nodes) if (n.isConnected || (p === parent && this.owner(n) !== job)) return false;
    const added = batch.added;
    for (const n of made) if (!added.has(n)) return false;
    const rewind = batch.rewind;
    let was = '';
    let shows = '';
    for (const n of nodes) was += rewind.text(n, true);
    for (const n of made) shows += rewind.text(n, false);
    const words = bare(was);
    return LETTER.test(words) && bare(shows) === words;
  }

  /**
   * Whether the run `nodes` is now `made` only by elements of the page's put around nodes of ours,
   * or taken away from around them (a highlighter's marks around whole texts; a span a script
   * measures them in): the same nodes, in the same order, once each such element is read as what
   * it holds, with at least one such element (an empty one the page adds is content of its own:
   * an image's alt to translate), our texts among them unchanged and with words. Nodes of ours
   * the page only moved about there are its change. Then what stands in each node's place now,
   * for the write's moves to put back at restore (the page's element in the place of the first
   * node it took, nothing in the others'; the nodes an element held, in the place of the element
   * taken away), and those elements; else null.
   */
  private rewrapped(job: J, nodes: readonly Node[], made: readonly Node[], rewind: Rewind): { stands: Map<Node, Node[]>; wrappers: Node[] } | null {
    const now = new Set(made);
    let around = 0;
    // The run before, each element taken away (out of the page now) read as the nodes it held.
    const was = (n: Node): Node[] => {
      const kids = n.nodeType === 1 && !n.isConnected && !now.has(n) ? rewind.kids(n) : null;
      if (!kids?.length) return [n];
      around++;
      return kids.flatMap(was);
    };
    const before = nodes.flatMap(was);
    const ours = new Set(before);
    // The run now, each element of the page's around nodes of ours read as the nodes it holds.
    const is = (n: Node): Node[] => {
      if (ours.has(n) || n.nodeType !== 1 || !n.firstChild) return [n];
      around++;
      return [...n.childNodes].flatMap(is);
    };
    const after = made.flatMap(is);
    if (!around || before.length !== after.length) return null;
    let words = false;
    for (let k = 0; k < before.length; k++) {
      const n = before[k]!;
      if (after[k] !== n || this.owner(n) !== job) return null;
      if (n.nodeType === 3 && rewind.text(n, true) !== (n as Text).data) return null;
      words ||= LETTER.test(n.textContent ?? '');
    }
    if (!words) return null;
    const stands = new Map<Node, Node[]>();
    const wrappers: Node[] = [];
    for (const w of made) {
      if (ours.has(w)) continue;
      wrappers.push(w);
      nodes.filter((n) => w.contains(n)).forEach((n, k) => stands.set(n, k ? [] : [w]));
    }
    for (const w of nodes) {
      if (now.has(w) || stands.has(w)) continue;
      wrappers.push(w);
      stands.set(w, (rewind.kids(w) ?? []).filter((k) => now.has(k)));
    }
    return { stands, wrappers };
  }

  clear(): void {
    this.parents = null;
    this.made = null;
  }

  /**
   * Where `r` may lay our words out anew, and the job whose log puts it back: inside what the page
   * made of them before (the element it made them in), or in an element it takes nodes of ours
   * out of: all one unit's, or, where the batch shows signs of a fit (`Batch.mayFit`: most
   * removals are none), a card of several, or an element inside a unit.
   */
  private place(r: MutationRecord, batch: Batch): [J, Node] | null {
    const t = r.target;
    const made = this.holder(t);
    if (made) {
      if (!inPlace(made)) return null;
      for (let el: Node | null = t; el; el = el.parentNode) if (this.parents?.get(el) === made) return [made, el];
      return null;
    }
    if (r.type !== 'childList' || t.nodeType !== 1) return null;
    const had = this.parents?.get(t);
    if (had) return inPlace(had) ? [had, t] : null;
    if (!r.removedNodes.length) return null;
    const gone = r.removedNodes[0]!;
    const job = this.jobOf(gone);
    if (job && inPlace(job)) {
      const unit = job.unit as RangeUnit;
      if (unit.parent === t && unit.whole) return [job, t];
    }
    if (!batch.mayFit(t)) return null;
    const lead = this.removedFrom(t, gone, batch.rewind, job);
    return lead && this.fits(lead, t) ? [lead, t] : null;
  }

  /**
   * The job of the words the page took out of `p` with `gone`: `gone`'s (`job`), `p`'s own, or that
   * of the first text of ours `gone` held (an element of the page's it took away from around them,
   * a block of a card).
   */
  private removedFrom(p: Node, gone: Node, rewind: Rewind, job = this.jobOf(gone)): J | undefined {
    return job ?? this.owner(p) ?? rewind.firstOf(gone, this.owner);
  }

  /**
   * Whether `job` may have laid out anew in `el`: a translated unit in place whose nodes are
   * `el`'s, or one of whose elements `el` is (in none it keeps as it is: what the page does in a
   * no is its own), or in a card `el` that is in no unit.
   */
  private fits(job: J, el: Node): boolean {
    if (!inPlace(job) || el.nodeType !== 1) return false;
    const parent = (job.unit as RangeUnit).parent;
    if (parent === el) return true;
    const of = this.owner(el);
    if (!of) return true;
    if (of !== job || !parent.contains(el)) return false;
    for (let e: Node | null = el; e && e !== parent; e = e.parentNode) if (e.nodeType === 1 && excluded(e as Element)) return false;
    return true;
  }

  /**
   * Whether `el` held only our words before the batch: `job`'s nodes (or what the page made of
   * them before), and nodes whose words are all those of translated units in place, wholly inside
   * them (a card's blocks), none of them now inside an element of the page's there (a script that
   * wraps our nodes, in a span it measures, keeps them, and its wrapper is its own, to keep at
   * restore). The nodes that go back at restore (not what the page made before), or null.
   */
  private laidOut(job: J, el: Node, before: readonly Node[], rewind: Rewind): Node[] | null {
    // An element of the unit's holds only its nodes.
    const part = this.owner(el) === job;
    const back: Node[] = [];
    // A card is small: a list the page changes (a feed that drops an item and adds one with an
    // ellipsis of its own) is not walked whole.
    const budget = { left: CARD_NODES };
    for (const n of before) {
      if (n.parentNode !== el && el.contains(n)) return null;
      if (part || this.owner(n) === job) back.push(n);
      else if (this.jobOf(n) === job) continue;
      else if (othersWithin(n, el, rewind, budget, this.owner)) back.push(n);
      else return null;
    }
    return back;
  }

  /** The job whose words `n` shows: in what the page made of them (first: that is inside some other unit's element), or its own. */
  private jobOf(n: Node): J | undefined {
    return this.holder(n) ?? this.owner(n);
  }

  /**
   * `el` shows our words laid out anew: what it held before (`back`, in their order) goes back
   * there at restore, by `job`'s log, and what the page changed in those nodes on the way
   * (Clamp.js takes a block's last nodes out) is put back in them, by the log of the unit whose
   * nodes they are.
   */
  private takeWhole(job: J, el: Node, back: readonly Node[], batch: Batch): void {
    const log = job.log!;
    const rewind = batch.rewind;
    const kept = new Set(back);
    let changedKids: Set<Node> | null = null;
    for (const r of batch.records) if (r.type === 'childList' && r.target !== el) (changedKids ??= new Set()).add(r.target);
    for (const n of back) {
      rewind.each(n, (x) => {
        // Texts of ours the page changed on the way (the one Clamp.js cuts, a space it turned into
        // the ellipsis) read at restore what they read before (ours, logged at the write, or the page's).
        if (x.nodeType === 3) (this.owner(x)?.log ?? log).text(x as Text, rewind.text(x, true));
        else if (changedKids?.has(x)) {
          const kids = rewind.kids(x) ?? [];
          const now = [...x.childNodes].filter((c) => !kids.includes(c));
          const owner = kids.map((k) => this.owner(k)).find((j) => j?.log) ?? job;
          owner.log!.fitted(x, kids, now, true);
        }
      });
    }
    const made: Node[] = [];
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (kept.has(c)) continue;
      made.push(c);
      (this.made ??= new WeakMap()).set(c, job);
    }
    (this.parents ??= new WeakMap()).set(el, job);
    log.fitted(el, back, made, true);
  }
}

/** Whether none of the nodes `held` (those that go back at restore) is in `el` now: our words written anew, in nodes of the page's. */
function anew(el: Node, held: ReadonlySet<Node>): boolean {
  const walk = (n: Node): boolean => {
    for (let c = n.firstChild; c; c = c.nextSibling) if (held.has(c) || !walk(c)) return false;
    return true;
  };
  return walk(el);
}

/**
 * Whether `now` shows `was`'s words: the same, in nodes written anew (`anew`: shave's undo, text
 * written again as it was, laid out: break hints, spaces), or cut short, a start of them with an
 * ellipsis the page put in (after the cut, before a hidden rest). Not a start of them after which
 * the page took nodes out, the ellipsis there ours ("Wait..." before a link it took out).
 */
export function fitOf(was: string, now: string, anew: boolean): boolean {
  const words = bare(was);
  const shown = bare(now);
  if (!LETTER.test(words) || !LETTER.test(shown)) return false;
  if (shown === words) return anew;
  return shown.length < words.length && words.startsWith(shown) && ELLIPSIS.test(now) && !spaced(was).startsWith(spaced(now));
}

/** The words, without ellipses, break hints (soft hyphens, zero-width spaces and joiners) or spacing. */
function bare(s: string): string {
  return spaced(s.replace(/…|\.\.\./g, ''));
}
