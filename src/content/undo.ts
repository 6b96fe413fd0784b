/**
 * What one unit's write changed, to undo it exactly. Kept flat and small: original Text values and
 * attribute values (no clones, no Map per element), node order only where a write changed it.
 */
import { nodeAfter, placeInOrder } from './node-order';
import { unwritePiece, valueOf, type PiecesThen } from './pieces-undo';
import type { PieceGroup } from './units';

/** Nodes a write reordered or created: restore removes the created and puts the rest back. */
export interface Move {
  parent: Node;
  /** The range's nodes in their original order (with the page's own moves since: `adoptMove`). */
  nodes: readonly Node[];
  anchor: Node | null;
  created: Node[];
}

/**
 * A unit's nodes the page took out of `parent` to lay its words out anew (fitted.ts): `nodes`, as
 * they were there (the write's order), and `made`, what the page put in their place from our words.
 * `whole`: they were all of `parent`'s content; else a part of it, `made` in their place.
 */
interface Refit {
  parent: Node;
  nodes: readonly Node[];
  made: readonly Node[];
  whole: boolean;
}

const NONE: readonly Node[] = [];

/** The logs whose unit the page laid out anew (a few on the pages that do; no field on every log). */
const refits = new WeakMap<UndoLog, Refit[]>();

export class UndoLog {
  /** Text, original data, alternating (null: none). */
  private texts: (Text | string | PiecesThen)[] | null = null;
  /** Element, attribute name, original value (null: absent), in threes (null: none). */
  private attrs: (Element | string | null)[] | null = null;
  private moves: Move[] | null = null;

  /** Keeps `t`'s current data for restore (once); `was`: the data it had before the page's batch under way. */
  text(t: Text, was = t.data): void {
    if (this.textAt(t) < 0) (this.texts ??= []).push(t, was);
  }

  /** Writes `s` into `t`, its data kept for restore (`text`); nothing where it reads so already. */
  write(t: Text, s: string): void {
    if (t.data === s) return;
    this.text(t);
    t.data = s;
  }

  /**
   * Keeps what the long text `g` reads now, before its piece `index` is written (merge.ts
   * `mergePiece`): where that is what the last piece's write left (`g.shown`), as the pieces then
   * (`PiecesThen`, a list as long as the pieces), else (the text as the page has it) as it is.
   */
  piece(g: PieceGroup, index: number): void {
    const t = g.text;
    if (this.textAt(t) >= 0) return;
    const now = t.data;
    const then: PiecesThen = { group: g, outs: g.outs.slice(), index };
    if (g.shown === undefined || now !== g.shown) then.was = now;
    (this.texts ??= []).push(t, then);
  }

  /**
   * The page laid the unit's words out anew in `parent` (fitted.ts): `made`, its nodes there now,
   * show what our `nodes` held, all of `parent`'s content (`whole`: the first time the page did;
   * later, what it made before) or a part of it. Restore puts `nodes` back in their place.
   */
  fitted(parent: Node, nodes: readonly Node[], made: readonly Node[], whole: boolean): void {
    let list = refits.get(this);
    if (!list) refits.set(this, (list = []));
    const had = whole ? list.find((r) => r.whole && r.parent === parent) : undefined;
    if (had) had.made = made;
    else list.push({ parent, nodes, made, whole });
  }

  /** The page changed what it laid out (fitted.ts): what it shows there now is its own, and stays. */
  unfit(): void {
    refits.delete(this);
  }

  /**
   * The page put nodes of ours in `parent` into elements of its own, or took such elements away
   * (fitted.ts): `stands` says what is in a node's place now, for the write's moves there to put
   * back in the original order at restore (the page's element in the place of the first node it
   * took, nothing in the others'; the nodes an element held, in the place of the element taken
   * away). The texts stay in the log: restore writes their original words wherever they are.
   */
  rewrap(parent: Node, stands: ReadonlyMap<Node, readonly Node[]>): void {
    for (const m of this.moves ?? []) if (m.parent === parent) m.nodes = m.nodes.flatMap((n) => stands.get(n) ?? [n]);
  }

  /** `t` is the page's, split off a text of ours (ours.ts): it holds our words, and none at restore. */
  splitOff(t: Text): void {
    if (this.textAt(t) < 0) (this.texts ??= []).push(t, '');
  }

  move(m: Move): void {
    (this.moves ??= []).push(m);
  }

  /** Whether the write put nodes in another order, or made some: the page's places among them are not the original's. */
  get reorders(): boolean {
    return this.moves !== null;
  }

  /** The nodes the write made (Text nodes for texts the run had no node for); no list made for most writes. */
  created(): readonly Node[] {
    const m = this.moves;
    if (!m) return NONE;
    return m.length === 1 ? m[0]!.created : m.flatMap((x) => x.created);
  }

  attr(el: Element, name: string, value: string): void {
    if (this.attrAt(el, name) < 0) (this.attrs ??= []).push(el, name, el.getAttribute(name));
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }

  /**
   * The write is complete: its lists are kept at their exact length (a list grown by push keeps
   * room for 17 entries; a page holds one log per unit while translated).
   */
  seal(): this {
    if (this.texts) this.texts = this.texts.slice();
    if (this.attrs) this.attrs = this.attrs.slice();
    return this;
  }

  /** The page itself set an attribute we had written: its value is the one to restore. */
  adoptAttr(el: Element, name: string): boolean {
    const i = this.attrAt(el, name);
    if (i >= 0) this.attrs![i + 2] = el.getAttribute(name);
    return i >= 0;
  }

  /**
   * The page put `n` where it is now (added it, or moved it; one of the nodes a write reordered,
   * or one of its own): a write's nodes in `n`'s parent take it in their original order before
   * the node it is before now, as the page's insert said, so undoing the write keeps the page's
   * change (a chip list it sorts after a translation that reordered it, a block it inserts in the
   * middle of a sentence). Before none of them (appended, or before a node of its own), it is
   * none of theirs and stays where the page put it.
   */
  adoptMove(n: Node): void {
    for (const m of this.moves ?? []) {
      if (m.parent !== n.parentNode) continue;
      const nodes = m.nodes.filter((x) => x !== n);
      const at = n.nextSibling ? nodes.indexOf(n.nextSibling) : -1;
      if (at < 0 && nodes.length === m.nodes.length) continue;
      if (at >= 0) nodes.splice(at, 0, n);
      m.nodes = nodes;
    }
  }

  /** The texts the writes left empty (a run's Text nodes the translation did not need). */
  emptied(): Text[] {
    const out: Text[] = [];
    const t = this.texts ?? [];
    for (let i = 0; i < t.length; i += 2) if ((t[i] as Text).data === '') out.push(t[i] as Text);
    return out;
  }

  /** What `t` read before the writes (undefined: not one of their texts). */
  original(t: Text): string | undefined {
    const i = this.textAt(t);
    return i < 0 ? undefined : valueOf(this.texts![i + 1] as string | PiecesThen);
  }

  /** The page itself changed a text we had written: its new value is the one to restore. */
  adopt(t: Text): boolean {
    const i = this.textAt(t);
    if (i >= 0) this.keep(i, t.data);
    return i >= 0;
  }

  /** `was` is the value to restore of the log's text at `i`. */
  private keep(i: number, was: string): void {
    const v = this.texts![i + 1] as string | PiecesThen;
    if (typeof v === 'string') this.texts![i + 1] = was;
    else v.was = was;
  }

  /**
   * What the log's texts and attributes read now (what the writes left), for `adoptChanged` to tell
   * later what the page changed where its changes could not be seen.
   */
  reading(): (string | null)[] {
    const out: (string | null)[] = [];
    const t = this.texts ?? [];
    for (let i = 0; i < t.length; i += 2) out.push((t[i] as Text).data);
    const a = this.attrs ?? [];
    for (let i = 0; i < a.length; i += 3) out.push((a[i] as Element).getAttribute(a[i + 1] as string));
    return out;
  }

  /**
   * The page changed some of what `then` (an earlier `reading()`) read while no change could be seen
   * (the nodes out of the page): its values are the ones to restore. Whether any changed.
   */
  adoptChanged(then: readonly (string | null)[]): boolean {
    let changed = false;
    let k = 0;
    const t = this.texts ?? [];
    for (let i = 0; i < t.length; i += 2, k++) {
      const now = (t[i] as Text).data;
      if (now === then[k]) continue;
      this.keep(i, now);
      changed = true;
    }
    const a = this.attrs ?? [];
    for (let i = 0; i < a.length; i += 3, k++) {
      const now = (a[i] as Element).getAttribute(a[i + 1] as string);
      if (now === then[k]) continue;
      a[i + 2] = now;
      changed = true;
    }
    return changed;
  }

  undo(): void {
    const list = refits.get(this);
    if (list) {
      refits.delete(this);
      for (let i = list.length - 1; i >= 0; i--) putBack(list[i]!);
    }
    this.revert();
    this.texts = null;
    this.attrs = null;
    this.moves = null;
  }

  /**
   * Runs `fn` with the page as it was before these writes, then puts the writes back exactly (the
   * same nodes, in the same order): how a translated unit is serialized again for its alternatives.
   */
  asOriginal<T>(fn: () => T): T {
    const own = this.texts ?? [];
    const mine = this.attrs ?? [];
    const texts = own.map((x, i) => (i % 2 === 0 ? (x as Text).data : null));
    // A long text's pieces as they are, which undoing its piece's write takes back (`unwritePiece`).
    const groups = own.flatMap((x, i) => (i % 2 === 1 && typeof x !== 'string' ? [{ g: (x as PiecesThen).group, outs: (x as PiecesThen).group.outs.slice(), shown: (x as PiecesThen).group.shown }] : []));
    const attrs = mine.map((x, i) => (i % 3 === 2 ? (mine[i - 2] as Element).getAttribute(mine[i - 1] as string) : x));
    // Each move's nodes in their order now, and the node after them (the page may have added some since).
    const orders = (this.moves ?? []).map((m) => {
      const ours = new Set<Node>([...m.nodes, ...m.created]);
      const now: Node[] = [];
      for (let c = m.parent.firstChild; c; c = c.nextSibling) if (ours.has(c)) now.push(c);
      return { now, after: nodeAfter(now, m.anchor) };
    });
    this.revert();
    try {
      return fn();
    } finally {
      for (let i = 0; i < attrs.length; i += 3) {
        const el = attrs[i] as Element;
        const v = attrs[i + 2] as string | null;
        if (v === null) el.removeAttribute(attrs[i + 1] as string);
        else el.setAttribute(attrs[i + 1] as string, v);
      }
      for (let i = 0; i < texts.length; i += 2) (own[i] as Text).data = texts[i] as string;
      for (const { g, outs, shown } of groups) {
        outs.forEach((o, j) => (g.outs[j] = o));
        g.shown = shown === undefined ? undefined : g.text.data;
      }
      (this.moves ?? []).forEach((m, i) => placeInOrder(m.parent, orders[i]!.now, orders[i]!.after));
    }
  }

  private revert(): void {
    const a = this.attrs ?? [];
    for (let i = a.length - 3; i >= 0; i -= 3) {
      const el = a[i] as Element;
      const name = a[i + 1] as string;
      const old = a[i + 2] as string | null;
      if (old === null) el.removeAttribute(name);
      else if (el.getAttribute(name) !== old) el.setAttribute(name, old);
    }
    const t = this.texts ?? [];
    for (let i = 0; i < t.length; i += 2) {
      const was = t[i + 1] as string | PiecesThen;
      if (typeof was !== 'string') unwritePiece(was);
      else if ((t[i] as Text).data !== was) (t[i] as Text).data = was;
    }
    const moves = this.moves ?? [];
    for (let i = moves.length - 1; i >= 0; i--) undoMove(moves[i]!);
  }

  private textAt(t: Text): number {
    const texts = this.texts ?? [];
    for (let i = 0; i < texts.length; i += 2) if (texts[i] === t) return i;
    return -1;
  }

  private attrAt(el: Element, name: string): number {
    const a = this.attrs ?? [];
    for (let i = 0; i < a.length; i += 3) if (a[i] === el && a[i + 1] === name) return i;
    return -1;
  }
}

/**
 * The unit's nodes back in the place the page laid their words out in, and what it made of them
 * out; only while it shows nothing else there (all of the place), or what it made is all there
 * still (a part: put back before it). fitted.ts drops the refits where the page changes them.
 */
function putBack(r: Refit): void {
  if (r.whole) {
    const made = new Set(r.made);
    for (let c = r.parent.firstChild; c; c = c.nextSibling) if (!made.has(c) && !r.nodes.includes(c)) return;
    for (const n of r.made) if (n.parentNode === r.parent) r.parent.removeChild(n);
    placeInOrder(r.parent, r.nodes, null);
    return;
  }
  if (!r.made.length || r.made.some((n) => n.parentNode !== r.parent)) return;
  for (const n of r.nodes) r.parent.insertBefore(n, r.made[0]!);
  for (const n of r.made) r.parent.removeChild(n);
}

function undoMove(r: Move): void {
  for (const c of r.created) c.parentNode?.removeChild(c);
  // Nodes the page removed since stay removed; the rest go back in their order, where the run is
  // now: not before the anchor it had, which the page may have removed, or put content before.
  const live = r.nodes.filter((n) => n.parentNode === r.parent);
  const after = nodeAfter(live, r.anchor);
  placeInOrder(r.parent, withPagesNodes(r.parent, live, after), after);
}

/**
 * `live` (siblings, in their original order) with what the page put among them since the write (a
 * block inserted into the run, a node moved there) before the node of theirs it is before now, as
 * the page's insert said: the page's change is made in the original order too. What is before
 * the first of them or after the last stays where it is.
 */
function withPagesNodes(parent: Node, live: readonly Node[], after: Node | null): readonly Node[] {
  if (live.length < 2) return live;
  const run = new Set(live);
  const before = new Map<Node, Node[]>();
  let next: Node | null = null;
  let seen = 0;
  // From the end of the run back to its first node: each node of the page's there is before the run's node last passed.
  for (let c = after ? after.previousSibling : parent.lastChild; c && seen < run.size; c = c.previousSibling) {
    if (run.has(c)) {
      seen++;
      next = c;
    } else if (next) {
      const list = before.get(next);
      if (list) list.unshift(c);
      else before.set(next, [c]);
    }
  }
  if (before.size === 0) return live;
  const out: Node[] = [];
  for (const n of live) out.push(...(before.get(n) ?? []), n);
  return out;
}
