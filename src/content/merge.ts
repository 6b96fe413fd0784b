/**
 * Write-back by id-tag-and-merge. A translation is read off-page (answer.ts: nothing in it is ever
 * a node of the page, nothing runs or loads), then the live elements its ids name are re-used in translated order and
 * its text is written into the existing Text nodes, so listeners, framework-owned nodes, classes and
 * attributes survive. Only ids of the unit's own elements, under their own parent, are honoured;
 * any other element a provider returns is reduced to its text. Every write is logged so that
 * restore puts back exactly what was there.
 */
import { textOf, type AnswerEl, type AnswerNode } from './answer';
import type { Entry } from './chunk';
import type { AttrUnit, PieceUnit, RangeUnit } from './segment';
import { kids } from './tags';
import { placeInOrder, type UndoLog } from './undo';

export { UndoLog } from './undo';

type Item = string | Node;

/** Writes a translated run into its live nodes. */
/** `entries`: what the unit's element ids name (chunk.ts Markup), counted from `wrapperId`. */
export function mergeRange(unit: RangeUnit, answer: AnswerEl, wrapperId: number, entries: readonly Entry[], log: UndoLog): void {
  const used = new Set<number>();
  const build = (list: readonly AnswerNode[], parentId: number, liveParent: Node): Item[] => {
    const seq: Item[] = [];
    for (const k of list) {
      if (typeof k === 'string') {
        seq.push(k);
        continue;
      }
      const id = k.id;
      const e = id === null || id <= wrapperId ? undefined : entries[id - wrapperId - 1];
      if (id === null || !e || e.parent !== parentId - wrapperId || used.has(id) || e.node.parentNode !== liveParent) {
        // Not ours, repeated or moved to another parent: its text stays, its tag does not.
        seq.push(...build(k.kids, parentId, liveParent));
        continue;
      }
      used.add(id);
      if (e.opaque) seq.push(e.node, ...build(k.kids, parentId, liveParent));
      else {
        const el = e.node as Element;
        apply(el, kids(el), null, build(k.kids, id, el), log);
        seq.push(el);
      }
    }
    return seq;
  };
  const seq = build(answer.kids, wrapperId, unit.parent);
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
  const texts = nodes.filter((n): n is Text => n.nodeType === 3 && n.parentNode === parent);
  const desired: Node[] = [];
  const placed = new Set<Node>();
  const created: Node[] = [];
  let ti = 0;
  let buf = '';
  const write = (t: Text, s: string) => {
    if (t.data === s) return;
    log.text(t);
    t.data = s;
  };
  const flush = () => {
    if (buf === '') return;
    const t = texts[ti++];
    if (t) {
      write(t, buf);
      desired.push(t);
    } else {
      const nt = (parent.ownerDocument ?? document).createTextNode(buf);
      created.push(nt);
      desired.push(nt);
    }
    placed.add(desired[desired.length - 1]!);
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
  for (; ti < texts.length; ti++) write(texts[ti]!, '');
  for (const n of nodes) if (!placed.has(n) && n.parentNode === parent && n.nodeType !== 3) desired.push(n), placed.add(n);
  for (const t of texts) if (!placed.has(t)) desired.push(t);
  if (created.length === 0 && sameOrder(nodes, desired)) return;
  log.move({ parent, nodes, anchor, created });
  placeInOrder(parent, desired, anchor);
}

function sameOrder(before: readonly Node[], after: readonly Node[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/** An attribute's translation, as text. */
export function mergeAttr(unit: AttrUnit, answer: AnswerEl, log: UndoLog): void {
  let v = textOf(answer);
  if (unit.value === unit.value.trim()) v = v.trim();
  if (v) log.attr(unit.el, unit.name, v);
}

/** One piece of a long text: the text node holds the translated pieces and the untranslated rest. */
export function mergePiece(unit: PieceUnit, answer: AnswerEl, log: UndoLog): void {
  const g = unit.group;
  let v = textOf(answer);
  const src = g.sources[unit.index]!;
  if (/\s$/.test(src) && !/\s$/.test(v)) v += ' ';
  g.outs[unit.index] = v;
  log.text(g.text);
  g.text.data = g.sources.map((s, i) => g.outs[i] ?? s).join('');
}
