/**
 * Places of a translated page that keep changing (a ticker, a live count, a log that grows, results
 * redrawn at each key): each change would be a call, for as long as the tab is open. A place's first
 * changes in a row are translated at once; after them, a change waits until the place has been
 * still for `SETTLE_MS`, or at the latest `gap` after its previous translation (the gap doubling
 * each time it is what sends, up to `MAX_GAP_MS`); `QUIET_MS` without a change and the place starts
 * afresh; a change just after the user's click is theirs (a tab or a view shown), never held. What
 * waits is not counted in the page's progress: it shows the page's own text meanwhile.
 */
import { commonPart, partsByPlace, wordsOutside, widen } from './live-parts';
import { runRoots, type Unit } from './units';

export interface Clock {
  now(): number;
  /** Runs `fn` after `ms`; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => performance.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

/** Changes in a row translated at once. */
export const FREE_CHANGES = 3;
/** How long a place that keeps changing must be still before its change is translated. */
export const SETTLE_MS = 1500;
/** At first, the longest a change waits after its place's previous translation; doubled each time the wait is what sends. */
export const FIRST_GAP_MS = 5000;
export const MAX_GAP_MS = 60_000;
/** A place still this long is new again. */
export const QUIET_MS = 10_000;
/** A change this soon after the user's click (or Enter) is the user's (a tab, a view): never held. */
export const ACTED_MS = 1000;
/** A change seen this soon after our write to its place (a frame later, or more under load) that gives it the text it had before is the page putting its own back. */
export const BOUNCE_MS = 500;
/** Times in a row the page puts its own text back before that text is left as it is. */
export const BOUNCES = 2;

interface Place {
  changes: number;
  last: number;
  sent: number;
  gap: number;
  /** Changes counted once per batch: a place's two runs found in one batch are one change. */
  batch: number;
  /** Whether this batch's change waits. */
  waits: boolean;
  due: number;
  /** Whether `due` is the gap's end (the place never stilled), not its stillness. */
  byGap: boolean;
  /** Where to look again when it is due: nodes of the runs it held (none for an attribute; made when first held). */
  roots: Set<Node> | null;
  /** When we last wrote a translation into it (`wrote`). */
  wrote: number;
  /** Its text at its last change, and how many changes in a row put that text back right after our write. */
  text: string | null;
  bounces: number;
  /** Whether, after those, it was tried once more when still (`BOUNCES`). */
  retried: boolean;
  /** The inline element of its run its last changes were all in (a word a script types), and how many changes in a row. */
  part: Element | null;
  partChanges: number;
}

/** An attribute's place is its element and name. */
interface AttrPlace extends Place {
  el: Element;
  name: string;
}

/** What a held place gives back when it is due: nodes to segment around, and attributes to read. */
export type Release = (roots: readonly Node[], attrs: readonly [Element, string][]) => void;

export class Lively {
  private places = new WeakMap<object, Place>();
  private attrPlaces = new WeakMap<Element, Map<string, AttrPlace>>();
  private readonly held = new Set<Place>();
  private batch = 0;
  /** Whether any place was made: writes are noted only then (most pages change none). */
  private placed = false;
  private cancel: (() => void) | null = null;
  private timerAt = Infinity;
  private actedAt = -Infinity;
  /** Parts of runs to keep as they are, found by `admit` (`takeKept`). */
  private kept: Element[] = [];
  /** Parts kept, and when the page last changed each (`partChanged`): one still for `QUIET_MS` is given back (`unkeep`). */
  private readonly parts = new Map<Element, number>();
  private partsTimer: (() => void) | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly release: Release,
    /** Parts kept that the page has left still for `QUIET_MS`: to be translated with their sentence again. */
    private readonly unkeep: (parts: Element[]) => void = () => undefined,
  ) {}

  /**
   * Units the page's change brought (changed, or added where it changed): those to translate now;
   * the others' places wait, and come back through `release` when due. `added`: the nodes the page
   * added, each with the element whose whole content it redrew (a list of results: the list is the
   * place) or null (content of its own: at once, and no place is kept for it until it changes).
   * `changed`: the units (as they were) whose words the page changed, not only what is beside them:
   * a place none of them is in was undone by us, its text put back by our undo, not by the page
   * (`givenBack`; all of them where not given). `parts`: for a changed unit, the inline element
   * of its run the change was all in (null: the run's own texts or nodes).
   *
   * A place whose changes, past its first `FREE_CHANGES`, were each all in the same inline element
   * of its run (a word a script types and erases, a rotating word, a count) keeps that element as
   * it is (`takeKept`), and its sentence is translated around it at once: before, each change
   * undid the whole sentence, which showed the page's words until its next try, 5 to 60 s later.
   */
  admit(units: readonly Unit[], added?: ReadonlyMap<Node, Node | null>, changed?: readonly Unit[], parts?: ReadonlyMap<Unit, Element | null>): Unit[] {
    const now = this.clock.now();
    const batch = ++this.batch;
    const out: Unit[] = [];
    let keys: Set<Node | undefined> | null = null;
    const partsAt = parts?.size ? partsByPlace(parts, (u) => keyOf(u, added)) : null;
    /** Places whose part is kept this batch, by that part: their units that hold it are found again around it by the caller. */
    let keeps: Map<Place, Element> | null = null;
    for (const u of units) {
      const place = this.placeOf(u, added);
      if (!place) {
        out.push(u);
        continue;
      }
      if (place.batch !== batch) {
        place.batch = batch;
        keys ??= changed ? new Set(changed.flatMap((c) => (c.kind === 'attr' ? [] : [keyOf(c, added)]))) : null;
        const touched = !keys || u.kind === 'attr' || keys.has(keyOf(u, added));
        place.waits = this.givenBack(place, textOf(u), now, touched) ? !place.retried : this.waits(place, now);
        const key = u.kind === 'attr' ? undefined : keyOf(u, added);
        const part = key ? (partsAt?.get(key) ?? null) : null;
        // Changes in two elements of one part of the run (a typed word's text and its cursor) are in the part that holds both.
        const both = part && place.part && key ? commonPart(part, place.part, key) : null;
        place.partChanges = both ? place.partChanges + 1 : part ? 1 : 0;
        place.part = both ?? part;
        const kept = place.part && key && place.partChanges > FREE_CHANGES ? widen(place.part, key) : null;
        if (place.waits && kept && kept.isConnected && place.bounces === 0 && holds(u, kept) && wordsOutside(u, kept)) {
          // The sentence is found again around it by the caller, kept as it is: none of this batch's units that hold it.
          this.kept.push(kept);
          this.parts.set(kept, now);
          this.watchParts();
          place.changes = place.partChanges = 0;
          place.part = null;
          place.waits = false;
          (keeps ??= new Map()).set(place, kept);
        }
      }
      const keptPart = keeps?.get(place);
      if (keptPart && holds(u, keptPart)) continue;
      if (leftAlone(place)) continue;
      if (!place.waits) out.push(u);
      else this.hold(place, u);
    }
    if (this.held.size) this.schedule();
    return out;
  }

  /** The parts of runs `admit` found the page keeps changing by themselves, each once: to be kept as they are. */
  takeKept(): Element[] {
    const kept = this.kept;
    this.kept = [];
    return kept;
  }

  /** The page changed what is in `el`: if it is a part kept, it is not still. */
  partChanged(el: Element): void {
    if (this.parts.has(el)) this.parts.set(el, this.clock.now());
  }

  /**
   * Gives back the parts kept that have been still for `QUIET_MS` (a countdown that ended, a
   * rotating word that stopped), out of the page too: their sentence is translated whole again,
   * the word with it. A typing loop pauses a second or two between words, and keeps its part.
   */
  private watchParts(): void {
    if (this.partsTimer || this.parts.size === 0) return;
    let first = Infinity;
    for (const at of this.parts.values()) first = Math.min(first, at);
    this.partsTimer = this.clock.after(Math.max(0, first + QUIET_MS - this.clock.now()), () => {
      this.partsTimer = null;
      const now = this.clock.now();
      const still: Element[] = [];
      for (const [el, at] of this.parts) {
        if (now - at < QUIET_MS) continue;
        this.parts.delete(el);
        still.push(el);
      }
      this.watchParts();
      if (still.length) this.unkeep(still);
    });
  }

  /** The user clicked (or pressed Enter): what the page changes next is what they asked to see. */
  acted(): void {
    this.actedAt = this.clock.now();
  }

  /**
   * Whether the page put back, right after our write, the text the place had at its previous
   * change: it undoes what we write there (a component that renders again on any change of its
   * nodes). After `BOUNCES` times in a row, that text waits until the place has been still for
   * `SETTLE_MS` (a ticker writing the same text again and again may stop), is tried once more
   * then, and put back once more is left as the page shows it (`leftAlone`), not counted. A
   * change to another text is translated as every other change is, and so is one that did not
   * change the place's words (`touched`: a node with no words the page adds or takes out beside a
   * run undoes our write there, and the run then shows its text again by our undo, not the page's;
   * found by the dynamic property test, seed 85523, where a run so undone four times was left
   * untranslated).
   */
  private givenBack(p: Place, text: string, now: number, touched: boolean): boolean {
    const bounced = touched && now - p.wrote < BOUNCE_MS && text === p.text;
    p.bounces = bounced ? p.bounces + 1 : 0;
    if (!bounced) p.retried = false;
    p.text = text;
    if (p.bounces < BOUNCES) return false;
    if (!p.retried) {
      p.due = now + SETTLE_MS;
      p.byGap = false;
    }
    return true;
  }

  /** We wrote a translation for `u`: the time is kept where its place changed before. */
  wrote(u: Unit): void {
    if (!this.placed) return;
    const place = this.placeOf(u, undefined, false);
    if (place) place.wrote = this.clock.now();
  }

  /** Nothing waits any more, and every place starts afresh (restore). */
  clear(): void {
    this.placed = false;
    this.cancel?.();
    this.cancel = null;
    this.timerAt = Infinity;
    for (const p of this.held) p.roots = null;
    this.held.clear();
    this.kept = [];
    this.parts.clear();
    this.partsTimer?.();
    this.partsTimer = null;
    this.places = new WeakMap();
    this.attrPlaces = new WeakMap();
  }

  private waits(p: Place, now: number): boolean {
    if (now - p.last >= QUIET_MS) {
      p.changes = 0;
      p.gap = FIRST_GAP_MS;
    }
    p.changes++;
    p.last = now;
    const theirs = now - this.actedAt < ACTED_MS;
    if (p.changes <= FREE_CHANGES || theirs || now >= p.sent + p.gap) {
      // Past its gap: sent now, and the next wait may be longer.
      if (p.changes > FREE_CHANGES && !theirs) p.gap = Math.min(p.gap * 2, MAX_GAP_MS);
      p.sent = now;
      // Another run of the place held: looked at again at once (this one is translated already).
      p.due = now;
      p.byGap = false;
      return false;
    }
    p.byGap = p.sent + p.gap < now + SETTLE_MS;
    p.due = p.byGap ? p.sent + p.gap : now + SETTLE_MS;
    return true;
  }

  private hold(p: Place, u: Unit): void {
    this.held.add(p);
    if (u.kind === 'piece') (p.roots ??= new Set()).add(u.group.text);
    else if (u.kind === 'range') runRoots(u, (p.roots ??= new Set()));
  }

  private schedule(): void {
    let due = Infinity;
    for (const p of this.held) due = Math.min(due, p.due);
    if (due >= this.timerAt) return;
    this.cancel?.();
    this.timerAt = due;
    this.cancel = this.clock.after(Math.max(0, due - this.clock.now()), this.fire);
  }

  private readonly fire = () => {
    this.cancel = null;
    this.timerAt = Infinity;
    const now = this.clock.now();
    const roots: Node[] = [];
    const attrs: [Element, string][] = [];
    for (const p of this.held) {
      if (p.due > now) continue;
      // Sent because the gap ran out (the place never stilled): the next wait is longer.
      if (p.byGap) p.gap = Math.min(p.gap * 2, MAX_GAP_MS);
      if (p.bounces >= BOUNCES) p.retried = true;
      p.sent = now;
      if ('el' in p) attrs.push([(p as AttrPlace).el, (p as AttrPlace).name]);
      else if (p.roots) roots.push(...p.roots);
      p.roots = null;
      this.held.delete(p);
    }
    if (this.held.size) this.schedule();
    if (roots.length || attrs.length) this.release(roots, attrs);
  };

  /**
   * A run's place is its element (a paragraph, an item of a flex row), a long text's its node, an
   * attribute's its element and name; in content the page has just redrawn, the element redrawn
   * (new nodes each time would be new places); in content just added, none (undefined).
   */
  private placeOf(u: Unit, added?: ReadonlyMap<Node, Node | null>, make = true): Place | undefined {
    if (make) this.placed = true;
    if (u.kind === 'attr') {
      let byName = this.attrPlaces.get(u.el);
      if (!byName) {
        if (!make) return undefined;
        this.attrPlaces.set(u.el, (byName = new Map()));
      }
      let p = byName.get(u.name);
      if (!p && make) byName.set(u.name, (p = { ...newPlace(), el: u.el, name: u.name }));
      return p;
    }
    const key = keyOf(u, added);
    if (!key) return undefined;
    let p = this.places.get(key);
    if (!p && make) this.places.set(key, (p = newPlace()));
    return p;
  }
}

function newPlace(): Place {
  return { changes: 0, last: -Infinity, sent: -Infinity, gap: FIRST_GAP_MS, batch: 0, waits: false, due: 0, byGap: false, roots: null, wrote: -Infinity, text: null, bounces: 0, retried: false, part: null, partChanges: 0 };
}

/** A place whose text the page gave back after its last try too (`givenBack`): left as the page shows it. */
function leftAlone(p: Place): boolean {
  return p.bounces >= BOUNCES && p.retried;
}

/**
 * The node a text's place is keyed by (`placeOf`): a run's element (a paragraph, an item of a
 * flex row), a long text's node; in content the page has just redrawn, the element redrawn;
 * undefined in content just added.
 */
function keyOf(u: Exclude<Unit, { kind: 'attr' }>, added: ReadonlyMap<Node, Node | null> | undefined): Node | undefined {
  const key = u.kind === 'piece' ? u.group.text : !u.whole && u.nodes.length === 1 && u.nodes[0]!.nodeType === 1 ? u.nodes[0]! : u.parent;
  if (added?.size) {
    for (let n: Node | null = key; n; n = n.parentNode) {
      const into = added.get(n);
      if (into !== undefined) return into ?? undefined;
    }
  }
  return key;
}

/**
 * Whether run `u` holds `part`: a part the page keeps changing is kept as it is inside its
 * sentence. A block the page put into it cuts the run there, and the words after it are a run of
 * their own, translated as every other change of their place is (found by the dynamic property
 * test, seed 132002: they were left to be found around the part, which no longer reaches them).
 */
function holds(u: Unit, part: Element): boolean {
  return u.kind === 'range' && u.nodes.some((n) => n.contains(part));
}

/** What a unit shows: its nodes' text, a long text's, an attribute's value. */
function textOf(u: Unit): string {
  if (u.kind === 'attr') return u.value;
  if (u.kind === 'piece') return u.group.text.data;
  let text = '';
  for (const n of u.nodes) text += n.textContent ?? '';
  return text;
}

/**
 * The nodes the page added in a batch, each with the place it went into when it redrew that
 * element's whole content (every node there now is new: a list of results redrawn, text written
 * with `textContent`), else null: content of its own (a chat's new message, a feed's new item),
 * whose units are new places (lively.ts). Not a redraw where old nodes stay: a chat that appends a
 * message and drops its oldest.
 */
export function newNodes(added: readonly [Node, Node][], emptied: ReadonlySet<Node>): Map<Node, Node | null> {
  const out = new Map<Node, Node | null>();
  for (const [n, into] of added) out.set(n, emptied.has(into) ? into : null);
  const whole = new Map<Node, boolean>();
  for (const [n, into] of added) {
    if (out.get(n) === null) continue;
    let all = whole.get(into);
    if (all === undefined) {
      all = true;
      for (let c = into.firstChild; c && all; c = c.nextSibling) all = out.has(c);
      whole.set(into, all);
    }
    if (!all) out.set(n, null);
  }
  return out;
}
