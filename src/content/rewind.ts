/**
 * One batch of the page's changes read back from its records (the observer keeps texts' old
 * values): what the page was before the batch, where a reading of it needs that (fitted.ts: our
 * words the page laid out anew, or put into elements of its own).
 */

/** One batch of the page's changes: what is read of it, once and only where needed, and the records found ours. */
export class Batch {
  private rewound: Rewind | null = null;
  private addedNodes: Set<Node> | null = null;
  private ellipsis: boolean | null = null;
  /** The records that lay our words out anew: not the page's changes (none: most batches). */
  ours: Set<MutationRecord> | null = null;

  constructor(readonly records: readonly MutationRecord[]) {}

  get rewind(): Rewind {
    return (this.rewound ??= new Rewind(this.records));
  }

  /** The nodes the page added in the batch (made, or moved there). */
  get added(): Set<Node> {
    if (!this.addedNodes) {
      this.addedNodes = new Set();
      for (const r of this.records) for (const n of r.addedNodes) this.addedNodes.add(n);
    }
    return this.addedNodes;
  }

  /**
   * Whether the page may have fitted words in `el` in this batch (fitted.ts): it wrote an ellipsis
   * (into a text, or in nodes it added), or all of `el`'s nodes are new. Most batches that take
   * nodes out are none of these, and are not read further.
   */
  mayFit(el: Node): boolean {
    if (this.ellipsis === null) {
      this.ellipsis = false;
      for (const r of this.records) {
        if (r.type === 'characterData' ? ELLIPSIS.test((r.target as Text).data) : r.type === 'childList' && [...r.addedNodes].some((n) => ELLIPSIS.test(n.textContent ?? ''))) {
          this.ellipsis = true;
          break;
        }
      }
    }
    if (this.ellipsis) return true;
    const added = this.added;
    for (let c = el.firstChild; c; c = c.nextSibling) if (!added.has(c)) return false;
    return el.firstChild !== null;
  }

  /** The records `within` a place laid out anew are ours; not one of an attribute (shave's height), the page's as ever. */
  take(within: (r: MutationRecord) => boolean): void {
    for (const r of this.records) if (r.type !== 'attributes' && within(r)) (this.ours ??= new Set()).add(r);
  }
}

/** An ellipsis a page puts where it cut words (`…`, or three dots). */
export const ELLIPSIS = /…|\.\.\./;

/**
 * The page before a batch, read back from the batch's records: an element's children before it
 * (its childList records undone, last first), a text's value (its first record's old value).
 */
export class Rewind {
  private readonly data = new Map<Node, string>();
  private readonly lists = new Map<Node, Node[] | null>();

  constructor(private readonly records: readonly MutationRecord[]) {
    for (const r of records) if (r.type === 'characterData' && !this.data.has(r.target)) this.data.set(r.target, r.oldValue ?? '');
  }

  /** `el`'s children before the batch; null where the records do not add up. */
  kids(el: Node): Node[] | null {
    let list = this.lists.get(el);
    if (list !== undefined) return list;
    list = [...el.childNodes];
    for (let i = this.records.length - 1; i >= 0 && list; i--) {
      const r = this.records[i]!;
      if (r.type !== 'childList' || r.target !== el) continue;
      for (const n of r.addedNodes) {
        const k = list.indexOf(n);
        if (k >= 0) list.splice(k, 1);
      }
      const at = r.previousSibling ? list.indexOf(r.previousSibling) + 1 : r.nextSibling ? list.indexOf(r.nextSibling) : 0;
      if (at < 0 || (r.previousSibling && at === 0)) list = null;
      else list.splice(at, 0, ...r.removedNodes);
    }
    this.lists.set(el, list);
    return list;
  }

  /** What `n` read: before the batch, or now. */
  text(n: Node, before: boolean): string {
    if (n.nodeType === 3) return before ? this.data.get(n) ?? (n as Text).data : (n as Text).data;
    if (n.nodeType !== 1) return '';
    let s = '';
    const kids = before ? this.kids(n) ?? [...n.childNodes] : n.childNodes;
    for (const c of kids) s += this.text(c, before);
    return s;
  }

  /** `n` and every node under it before the batch, first to last. */
  each(n: Node, fn: (x: Node) => void): void {
    fn(n);
    if (n.nodeType === 1) for (const c of this.kids(n) ?? [...n.childNodes]) this.each(c, fn);
  }

  /** Each text under `n` before the batch, with what it read then. */
  eachText(n: Node, fn: (t: Text, was: string) => void): void {
    this.each(n, (x) => x.nodeType === 3 && fn(x as Text, this.text(x, true)));
  }

  /** `nodes` and every node under them before the batch. */
  held(nodes: readonly Node[]): Set<Node> {
    const out = new Set<Node>();
    for (const n of nodes) this.each(n, (x) => out.add(x));
    return out;
  }

  /** What `pick` gives for the first text under `n` before the batch that it gives something for. */
  firstOf<T>(n: Node, pick: (t: Text) => T | undefined): T | undefined {
    if (n.nodeType === 3) return pick(n as Text);
    if (n.nodeType !== 1) return undefined;
    for (const c of this.kids(n) ?? [...n.childNodes]) {
      const v = this.firstOf(c, pick);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}
