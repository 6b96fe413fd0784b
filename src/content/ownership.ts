/**
 * Which job owns a node or an attribute, so the page's own changes find the unit they touch. Only a
 * unit's top-level nodes are recorded (a lookup walks up from the changed node): a unit's inline
 * elements own everything inside them, and ancestors of a block are never a unit's nodes. Weak
 * maps: nothing here keeps a node the page dropped alive.
 */
import type { AttrUnit, PieceGroup, Unit } from './segment';
import { excluded, isLivePart } from './tags';

export class Owners<J extends { unit: Unit }> {
  private nodes = new WeakMap<Node, J>();
  /** One attribute's job (the usual case), or a Map by attribute name. */
  private attrs = new WeakMap<Element, J | Map<string, J>>();
  private pieces = new WeakMap<PieceGroup, J[]>();

  /** `unit`: the job's own, or the original a bilingual copy stands for. */
  own(job: J, u: Unit = job.unit): void {
    if (u.kind === 'attr') {
      const had = this.attrs.get(u.el);
      if (had === undefined || (!(had instanceof Map) && had.unit.kind === 'attr' && had.unit.name === u.name)) this.attrs.set(u.el, job);
      else if (had instanceof Map) had.set(u.name, job);
      else this.attrs.set(u.el, new Map([[(had.unit as AttrUnit).name, had], [u.name, job]]));
    } else if (u.kind === 'piece') {
      const list = this.pieces.get(u.group);
      if (list) list.push(job);
      else this.pieces.set(u.group, [job]);
      if (!this.nodes.has(u.group.text)) this.nodes.set(u.group.text, job);
    } else for (const n of u.nodes) this.nodes.set(n, job);
  }

  /**
   * The nodes a write of `job` made: a page's change beside one (an element removed or added next
   * to it) touches the job, as one beside the unit's own nodes does. Not taken back at `disown`:
   * undoing the write takes them out of the page, and the weak map lets them go.
   */
  ownMade(job: J, nodes: readonly Node[]): void {
    for (const n of nodes) this.nodes.set(n, job);
  }

  disown(job: J, u: Unit = job.unit): void {
    if (u.kind === 'attr') {
      const had = this.attrs.get(u.el);
      if (had instanceof Map) had.delete(u.name);
      else if (had && nameOf(had) === u.name) this.attrs.delete(u.el);
    } else if (u.kind === 'piece') {
      this.nodes.delete(u.group.text);
      this.pieces.delete(u.group);
    } else for (const n of u.nodes) if (this.nodes.get(n) === job) this.nodes.delete(n);
  }

  /** The job whose unit holds `node` (the nearest, for a unit cut out of an inline element). */
  of(node: Node): J | undefined {
    for (let n: Node | null = node; n; n = n.parentNode) {
      const j = this.nodes.get(n);
      if (j) return j;
    }
    return undefined;
  }

  /** `of` the node a click is on, else of its first child held (a block's target is the element: its content's unit). */
  at(node: Node): J | undefined {
    let job = this.of(node);
    for (let c = node.firstChild; !job && c; c = c.nextSibling) job = this.of(c);
    return job;
  }

  /**
   * The job whose unit translates `node`: as `of`, but none when the way up crosses an element the
   * unit keeps as it is (tags.ts `excluded`: code, a select, what the page says no to), whose
   * content is translated apart if at all (an option, what says translate="yes" inside a no).
   * `within`: `node`'s content is what changed, so `node` itself counts as crossed (new children
   * of a select, or beside one of its options, change nothing of the unit that holds it).
   */
  holder(node: Node, within = false): J | undefined {
    for (let n: Node | null = node, crossed = false; n; n = n.parentNode) {
      if ((within || n !== node) && n.nodeType === 1 && excluded(n as Element)) crossed = true;
      const j = this.nodes.get(n);
      if (j) return crossed ? undefined : j;
    }
    return undefined;
  }

  /**
   * The part of its sentence kept as the page writes it (a live part: lively.ts, tags.ts
   * `keepLive`) that `node` is in, where it is the nearest element kept as it is (tags.ts
   * `excluded`) and a unit holds it: what the page changes in there is its own, none of that
   * unit's words. Undefined otherwise (a `notranslate` count in a sentence is not one: a change
   * there while the run's answer is on its way left the run's order to restore wrong, seed 101051).
   */
  livePart(node: Node): Element | undefined {
    let kept: Element | undefined;
    // From `node` itself: a text of a unit inside the part (the part took a block, and its runs
    // are units of their own) is that unit's, not the page's (seed 222023: its change went
    // unseen, and restore wrote the unit's older original over what the page last wrote).
    for (let n: Node | null = node; n; n = n.parentNode) {
      if (!kept && n !== node && n.nodeType === 1 && excluded(n as Element)) kept = n as Element;
      if (this.nodes.has(n)) return kept && isLivePart(kept) ? kept : undefined;
    }
    return undefined;
  }

  /**
   * Adds to `out` the jobs of `node` and of everything inside it (units cut out of an inline
   * element, pieces of a long text), not inside an element kept as it is: what says yes inside a
   * no is a unit apart, as for `ownsWithin` (undone with the run around it at each of its changes,
   * it was then taken for a place the page puts its words back into: seed 84923).
   */
  within(node: Node, out: Set<J>): void {
    const stack: Node[] = [node];
    for (let n = stack.pop(); n; n = stack.pop()) {
      const j = this.nodes.get(n);
      if (j) out.add(j);
      if (n.nodeType !== 1 || !excluded(n as Element)) for (let c = n.firstChild; c; c = c.nextSibling) stack.push(c);
    }
  }

  /**
   * Adds to `out` every job of a node or an attribute in `node`'s subtree, the shadow roots in it
   * included (`shadow`): what leaves the page, or comes back, with `node`. Visits at most `budget`
   * nodes; returns what is left of it (below 0: stopped short).
   */
  everyWithin(node: Node, out: Set<J>, shadow: (el: Element) => ShadowRoot | null, budget = Infinity): number {
    const stack: Node[] = [node];
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (--budget < 0) return budget;
      const j = this.nodes.get(n);
      if (j) out.add(j);
      if (n.nodeType === 1) {
        const had = this.attrs.get(n as Element);
        if (had instanceof Map) for (const a of had.values()) out.add(a);
        else if (had) out.add(had);
        const root = shadow(n as Element);
        if (root) stack.push(root);
      }
      for (let c = n.firstChild; c; c = c.nextSibling) stack.push(c);
    }
    return budget;
  }

  attr(el: Element, name: string): J | undefined {
    const had = this.attrs.get(el);
    return had instanceof Map ? had.get(name) : had && nameOf(had) === name ? had : undefined;
  }

  /** The jobs of every piece of the text `job`'s piece belongs to (just `job` for other units). */
  siblings(job: J): J[] {
    return job.unit.kind === 'piece' ? (this.pieces.get(job.unit.group) ?? [job]) : [job];
  }

  /**
   * A job already covers this unit. `deep`: or a node inside it, for a unit found again (a view put
   * back, a page resumed): one too long for a call was queued in parts, owned below its own nodes
   * (chunk.ts `fit`: a long text's pieces, an inline element's content), and would be translated
   * twice, over its own translation; or a node around it: a unit cut out of an element a job owns
   * (its content, found again as a link's label while the page changed beside it) is that job's,
   * and read while its write stands (its nodes in the translation's order) it was queued beside
   * the fresh one made once the job is retired (found by the dynamic property test, seed 8023:
   * restore left the element's children in the translation's order). Not on a first walk, where
   * no node is owned yet.
   */
  taken(u: Unit, deep = false): boolean {
    if (u.kind === 'attr') return this.attr(u.el, u.name) !== undefined;
    if (u.kind === 'piece') return deep ? this.holder(u.group.text) !== undefined : this.nodes.has(u.group.text);
    if (!deep) return u.nodes.some((n) => this.nodes.has(n));
    for (const n of u.nodes) if (this.holder(n) !== undefined || this.ownsWithin(n)) return true;
    return false;
  }

  /**
   * Whether every text with words in the run belongs to a unit (a range's own, or one inside it).
   * Not those in an element the run keeps as it is (tags.ts `excluded`: a no, and what says yes
   * inside it, a unit apart): they are none of the run's.
   */
  covers(u: Unit): boolean {
    if (u.kind !== 'range') return true;
    const stack: Node[] = [...u.nodes];
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (n.nodeType === 3 && /\S/.test((n as Text).data) && this.of(n) === undefined) return false;
      if (n.nodeType !== 1 || !excluded(n as Element)) for (let c = n.firstChild; c; c = c.nextSibling) stack.push(c);
    }
    return true;
  }

  /**
   * Whether a node below `node` belongs to a unit. Not below an element kept as it is (what says yes
   * inside a no is a unit apart, not a part of the run around it: counted as one, it was undone
   * and sent again at each change of that run, found by the dynamic property test, seed 84923).
   */
  private ownsWithin(node: Node): boolean {
    if (node.nodeType === 1 && excluded(node as Element)) return false;
    const stack: Node[] = [];
    for (let c = node.firstChild; c; c = c.nextSibling) stack.push(c);
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (this.nodes.has(n)) return true;
      if (n.nodeType !== 1 || !excluded(n as Element)) for (let c = n.firstChild; c; c = c.nextSibling) stack.push(c);
    }
    return false;
  }

  clear(): void {
    this.nodes = new WeakMap();
    this.attrs = new WeakMap();
    this.pieces = new WeakMap();
  }
}

/** The attribute an attribute job is for ('' for any other job). */
function nameOf(job: { unit: Unit }): string {
  return job.unit.kind === 'attr' ? job.unit.name : '';
}
