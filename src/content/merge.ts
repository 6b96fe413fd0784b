/**
 * Write-back by id-tag-and-merge. A translation is parsed off-page (an inert <template>: no script
 * runs, no image loads), then the live elements its ids name are re-used in translated order and
 * its text is written into the existing Text nodes, so listeners, framework-owned nodes, classes and
 * attributes survive. Only ids of the unit's own elements, under their own parent, are honoured;
 * any other element a provider returns is reduced to its text. Every write is logged so that
 * restore puts back exactly what was there.
 */
import type { Entry } from './chunk';
import type { AttrUnit, PieceUnit, RangeUnit } from './segment';

interface RangeRec {
  parent: Node;
  /** The range's nodes in their original order. */
  nodes: Node[];
  anchor: Node | null;
  texts: Map<Text, string>;
  created: Node[];
}

interface AttrRec {
  el: Element;
  name: string;
  old: string | null;
}

/** What one unit's write changed, to undo it. */
export class UndoLog {
  private readonly ranges: RangeRec[] = [];
  private readonly attrs: AttrRec[] = [];
  private readonly texts = new Map<Text, string>();

  range(parent: Node, nodes: readonly Node[], anchor: Node | null): RangeRec {
    const rec: RangeRec = { parent, nodes: [...nodes], anchor, texts: new Map(), created: [] };
    this.ranges.push(rec);
    return rec;
  }

  text(t: Text): void {
    if (!this.texts.has(t)) this.texts.set(t, t.data);
  }

  attr(el: Element, name: string, value: string): void {
    if (!this.attrs.some((a) => a.el === el && a.name === name)) this.attrs.push({ el, name, old: el.getAttribute(name) });
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }

  /** The page itself set an attribute we had written: its value is the one to restore. */
  adoptAttr(el: Element, name: string): void {
    const a = this.attrs.find((x) => x.el === el && x.name === name);
    if (a) a.old = el.getAttribute(name);
  }

  /** The page itself changed a text we had written: its new value is the one to restore. */
  adopt(t: Text): boolean {
    for (const r of this.ranges) {
      if (r.texts.has(t)) {
        r.texts.set(t, t.data);
        return true;
      }
    }
    if (this.texts.has(t)) {
      this.texts.set(t, t.data);
      return true;
    }
    return false;
  }

  undo(): void {
    for (let i = this.attrs.length - 1; i >= 0; i--) {
      const a = this.attrs[i]!;
      if (a.old === null) a.el.removeAttribute(a.name);
      else if (a.el.getAttribute(a.name) !== a.old) a.el.setAttribute(a.name, a.old);
    }
    for (const [t, s] of this.texts) if (t.data !== s) t.data = s;
    for (let i = this.ranges.length - 1; i >= 0; i--) undoRange(this.ranges[i]!);
    this.attrs.length = 0;
    this.ranges.length = 0;
    this.texts.clear();
  }
}

function undoRange(r: RangeRec): void {
  for (const [t, s] of r.texts) if (t.data !== s) t.data = s;
  for (const c of r.created) c.parentNode?.removeChild(c);
  // Nodes the page removed since stay removed; the rest go back in their order.
  const live = r.nodes.filter((n) => n.parentNode === r.parent);
  placeInOrder(r.parent, live, r.anchor);
}

function placeInOrder(parent: Node, nodes: readonly Node[], anchor: Node | null): void {
  const a = anchor && anchor.parentNode === parent ? anchor : null;
  let inOrder = true;
  for (let i = 0; i < nodes.length && inOrder; i++) {
    const next = i + 1 < nodes.length ? nodes[i + 1]! : a;
    if (nodes[i]!.nextSibling !== next && !(next === null && a === null && i === nodes.length - 1)) inOrder = false;
  }
  if (inOrder) return;
  for (const n of nodes) parent.insertBefore(n, a);
}

type Item = string | Node;

/** Parses markup into an inert fragment; nothing in it can run or load. */
export function parseOffPage(markup: string, doc: Document = document): DocumentFragment {
  const t = doc.createElement('template');
  t.innerHTML = markup;
  return t.content;
}

/** The unit wrappers (`<p i=N>`) of a parsed answer, by id. */
export function wrappers(frag: DocumentFragment): Map<number, Element> {
  const out = new Map<number, Element>();
  for (const el of frag.querySelectorAll('p[i]')) {
    const id = idOf(el);
    if (id !== null && !out.has(id)) out.set(id, el);
  }
  return out;
}

function idOf(el: Element): number | null {
  const m = /^\s*(\d{1,9})\s*$/.exec(el.getAttribute('i') ?? '');
  return m ? Number(m[1]) : null;
}

/** Writes a translated run into its live nodes. */
export function mergeRange(unit: RangeUnit, answer: Element, wrapperId: number, entries: readonly (Entry | undefined)[], log: UndoLog): void {
  const used = new Set<number>();
  const build = (kids: NodeListOf<ChildNode>, parentId: number, liveParent: Node): Item[] => {
    const seq: Item[] = [];
    for (const k of kids) {
      if (k.nodeType === 3) {
        seq.push((k as Text).data);
        continue;
      }
      if (!(k instanceof Element)) continue;
      const id = idOf(k);
      const e = id === null ? undefined : entries[id - 1];
      if (id === null || !e || e.parent !== parentId || used.has(id) || e.node.parentNode !== liveParent) {
        // Not ours, repeated or moved to another parent: its text stays, its tag does not.
        seq.push(...build(k.childNodes, parentId, liveParent));
        continue;
      }
      used.add(id);
      if (e.opaque) seq.push(e.node, ...build(k.childNodes, parentId, liveParent));
      else {
        const el = e.node as Element;
        apply(el, [...el.childNodes], null, build(k.childNodes, id, el), log);
        seq.push(el);
      }
    }
    return seq;
  };
  const seq = build(answer.childNodes, wrapperId, unit.parent);
  keepEdgeSpace(unit.nodes, seq);
  apply(unit.parent, unit.nodes, unit.anchor, seq, log);
}

/** Translators drop a run's leading and trailing space, which separated it from its neighbours. */
function keepEdgeSpace(nodes: readonly Node[], seq: Item[]): void {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  const lead = first?.nodeType === 3 ? /^\s*/.exec((first as Text).data)![0] : '';
  const trail = last?.nodeType === 3 ? /\s*$/.exec((last as Text).data)![0] : '';
  if (lead && !(typeof seq[0] === 'string' && /^\s/.test(seq[0]))) {
    if (typeof seq[0] === 'string') seq[0] = lead + seq[0].trimStart();
    else seq.unshift(lead);
  }
  // And some add space the original did not have at an edge.
  if (!lead && first?.nodeType === 3 && typeof seq[0] === 'string') seq[0] = seq[0].trimStart();
  const l = seq.length - 1;
  if (!trail && last?.nodeType === 3 && typeof seq[l] === 'string') seq[l] = (seq[l] as string).trimEnd();
  if (trail && !(typeof seq[l] === 'string' && /\s$/.test(seq[l] as string))) {
    if (typeof seq[l] === 'string') seq[l] = (seq[l] as string).trimEnd() + trail;
    else seq.push(trail);
  }
}

function apply(parent: Node, nodes: readonly Node[], anchor: Node | null, seq: readonly Item[], log: UndoLog): void {
  const rec = log.range(parent, nodes, anchor);
  const texts = nodes.filter((n): n is Text => n.nodeType === 3 && n.parentNode === parent);
  const desired: Node[] = [];
  const placed = new Set<Node>();
  let ti = 0;
  let buf = '';
  const flush = () => {
    if (buf === '') return;
    const t = texts[ti++];
    if (t) {
      rec.texts.set(t, t.data);
      if (t.data !== buf) t.data = buf;
      desired.push(t);
    } else {
      const nt = (parent.ownerDocument ?? document).createTextNode(buf);
      rec.created.push(nt);
      desired.push(nt);
    }
    buf = '';
  };
  for (const item of seq) {
    if (typeof item === 'string') buf += item;
    else if (!placed.has(item)) {
      flush();
      placed.add(item);
      desired.push(item);
    }
  }
  flush();
  // Text nodes the translation did not need stay in place, empty: a framework may hold them.
  for (; ti < texts.length; ti++) {
    const t = texts[ti]!;
    rec.texts.set(t, t.data);
    if (t.data !== '') t.data = '';
  }
  for (const n of nodes) if (!desired.includes(n) && n.parentNode === parent && n.nodeType !== 3) desired.push(n);
  for (const t of texts) if (!desired.includes(t)) desired.push(t);
  if (rec.created.length === 0 && sameOrder(nodes, desired)) return;
  placeInOrder(parent, desired, anchor);
}

function sameOrder(before: readonly Node[], after: readonly Node[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/** An attribute's translation, as text. */
export function mergeAttr(unit: AttrUnit, answer: Element, log: UndoLog): void {
  let v = answer.textContent ?? '';
  if (unit.value === unit.value.trim()) v = v.trim();
  if (v) log.attr(unit.el, unit.name, v);
}

/** One piece of a long text: the text node holds the translated pieces and the untranslated rest. */
export function mergePiece(unit: PieceUnit, answer: Element, log: UndoLog): void {
  const g = unit.group;
  let v = answer.textContent ?? '';
  const src = g.sources[unit.index]!;
  if (/\s$/.test(src) && !/\s$/.test(v)) v += ' ';
  g.outs[unit.index] = v;
  log.text(g.text);
  g.text.data = g.sources.map((s, i) => g.outs[i] ?? s).join('');
}
