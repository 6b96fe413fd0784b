/**
 * Write-back by id-tag-and-merge. A translation is read off-page (answer.ts: nothing in it is ever
 * a node of the page, nothing runs or loads), then the live elements its ids name are re-used in translated order and
 * its text is written into the existing Text nodes, so listeners, framework-owned nodes, classes and
 * attributes survive. Only ids of the unit's own elements, under their own parent, are honoured;
 * any other element a provider returns is reduced to its text. Every write is logged so that
 * restore puts back exactly what was there.
 */
import { isBlank, leadingSpace, trailingSpace } from '../core/html/text';
import { textOf, type AnswerEl, type AnswerNode } from './answer';
import type { Entry } from './chunk';
import type { AttrUnit, PieceUnit, RangeUnit } from './segment';
import { piecesShown } from './units';
import { core, labelOf, listLabel } from './edges';
import { acrossAnchors, anchorsOf, isEmptyText, segmentAfter, segmentBefore, withAnchors, type Anchors } from './anchors';
import { isMark, markAfter, markBefore, partsOf, intact, placeParts } from './parts';
import { emptyLeftOut, keepPlaces } from './left-out';
import { kids } from './tags';
import { nodeAfter, placeInOrder } from './node-order';
import type { UndoLog } from './undo';
import { writeLetters } from './split-words';

export { UndoLog } from './undo';

type Item = string | Node;

/** Writes a translated run into its live nodes. */
/** `entries`: what the unit's element ids name (chunk.ts Markup), counted from `wrapperId`. */
export function mergeRange(unit: RangeUnit, answer: AnswerEl, wrapperId: number, entries: readonly Entry[], log: UndoLog, into?: Element): void {
  const seq: Item[] = [];
  // A unit sent as its one element's content (chunk.ts `soleElement`) is written there.
  const parent = into ?? unit.parent;
  // Without the silent elements at its edges, as chunk.ts sent it (edges.ts): they stay where they are.
  const { nodes, after } = core(into ? kids(into) : unit.nodes);
  const m: Merge = { wrapperId, entries, used: null, log };
  build(m, answer.kids, wrapperId, parent, seq);
  // A list item's label was not sent: it goes back before the translation, as it was.
  const label = listLabel(nodes[0]);
  if (label) {
    if (typeof seq[0] === 'string') seq[0] = label + seq[0].trimStart();
    else seq.unshift(label);
  }
  keepEdgeSpace(nodes, seq);
  apply(parent, nodes, after ?? (into ? null : unit.anchor), seq, log, m.letters);
  // The elements the answer left out keep no words of their own: theirs are in the translation.
  emptyLeftOut(entries, m.used, log);
}

interface Merge {
  wrapperId: number;
  entries: readonly Entry[];
  /** Ids honoured so far (by offset from the wrapper), made at the first element. */
  used: boolean[] | null;
  log: UndoLog;
  /** The letters of split words but each word's first, made at the first word: one element with it where a run keeps its order (`flow`). */
  letters?: Set<Node>;
}

/**
 * Appends to `seq` what `list` puts under `liveParent`: its text, and the live elements its ids
 * name (each written first, inside). One array per live element; no closure or Set per answer
 * (measured: mergeRange allocated ~15 MB of garbage over the 11 000 units of aows-nba).
 */
function build(m: Merge, list: readonly AnswerNode[], parentId: number, liveParent: Node, seq: Item[]): void {
  for (const k of list) {
    if (typeof k === 'string') {
      seq.push(k);
      continue;
    }
    const at = k.id === null ? 0 : k.id - m.wrapperId;
    const e = at > 0 ? m.entries[at - 1] : undefined;
    const used = e ? (m.used ??= new Array<boolean>(m.entries.length).fill(false)) : null;
    if (!e || !used || e.parent !== parentId - m.wrapperId || used[at - 1] || e.node.parentNode !== liveParent) {
      // Not ours, repeated or moved to another parent: its text stays, its tag does not.
      build(m, k.kids, parentId, liveParent, seq);
      continue;
    }
    used[at - 1] = true;
    if (e.letters) {
      // A split word (split-words.ts): its letters together, in their order, those still here.
      writeLetters(e.letters, textOf(k), m.log);
      for (const l of e.letters) if (l.parentNode === liveParent) seq.push(l);
      for (let i = 1; i < e.letters.length; i++) (m.letters ??= new Set()).add(e.letters[i]!);
      continue;
    }
    if (e.opaque) {
      seq.push(e.node);
      build(m, k.kids, parentId, liveParent, seq);
      continue;
    }
    const el = e.node as Element;
    // An element holding one element alone was sent as one tag: its content goes into the innermost (chunk.ts).
    const target = e.into ?? el;
    // Its edges as they were sent: read before its content is written (a text written as " | " is a symbol's).
    const { nodes, after } = core(kids(target));
    const inner: Item[] = [];
    build(m, k.kids, k.id!, target, inner);
    apply(target, nodes, after, inner, m.log, m.letters);
    seq.push(el);
  }
}

const SPACE = /\s/;

/** `/\s$/.test(s)`, reading the last character only (every space `\s` matches is one UTF-16 unit). */
function endsInSpace(s: string): boolean {
  return s !== '' && SPACE.test(s[s.length - 1]!);
}

/** Translators drop a run's leading and trailing space, which separated it from its neighbours. */
function keepEdgeSpace(nodes: readonly Node[], seq: Item[]): void {
  // Past the page's empty Text nodes at either edge (a framework's anchors).
  let i = 0;
  let j = nodes.length - 1;
  while (i < j && isEmptyText(nodes[i]!)) i++;
  while (j > i && isEmptyText(nodes[j]!)) j--;
  const first = nodes[i];
  const last = nodes[j];
  // Not `/\s*$/` (this function took 28 ms of sampled self time over aows-nba's 11 000 units, cold).
  const lead = first?.nodeType === 3 ? leadingSpace((first as Text).data) : '';
  const trail = last?.nodeType === 3 ? trailingSpace((last as Text).data) : '';
  if (lead && !(typeof seq[0] === 'string' && /^\s/.test(seq[0]))) {
    if (typeof seq[0] === 'string') seq[0] = lead + seq[0].trimStart();
    else seq.unshift(lead);
  }
  // And some add space the original did not have at an edge.
  if (!lead && first?.nodeType === 3 && typeof seq[0] === 'string') seq[0] = seq[0].trimStart();
  const l = seq.length - 1;
  if (!trail && last?.nodeType === 3 && typeof seq[l] === 'string') seq[l] = (seq[l] as string).trimEnd();
  if (trail && !(typeof seq[l] === 'string' && endsInSpace(seq[l] as string))) {
    if (typeof seq[l] === 'string') seq[l] = (seq[l] as string).trimEnd() + trail;
    else seq.push(trail);
  }
}

/**
 * Puts `seq` into `parent` in place of `nodes`: its strings into the run's Text nodes (`textsFor`;
 * a Text node made when they run out), its elements where they stand; or, where that order would
 * break a framework's part (parts.ts) or move a node across its anchor (anchors.ts), into the
 * run's own order (`flow`). The answer names each element at most once (build honours an id once,
 * and ids name distinct nodes), so nothing is placed twice.
 */
function apply(parent: Node, nodes: readonly Node[], anchor: Node | null, seq: readonly Item[], log: UndoLog, letters?: ReadonlySet<Node>): void {
  // Most runs and inline elements hold one text and come back as one (a link, a cell, a caption):
  // written in place, without the lists below.
  const only = nodes.length === 1 ? nodes[0]! : null;
  if (only?.nodeType === 3 && only.parentNode === parent && seq.length === 1 && typeof seq[0] === 'string' && !isEmptyText(only)) return log.write(only as Text, seq[0]);
  const texts: Text[] = [];
  // The page's empty Text nodes: a framework's anchors (Vue's fragment ends), never written.
  let anchors: Text[] | null = null;
  for (const n of nodes) {
    if (n.nodeType !== 3 || n.parentNode !== parent) continue;
    if (isEmptyText(n)) (anchors ??= []).push(n as Text);
    else texts.push(n as Text);
  }
  // `seq` with its adjacent strings as one: the elements, and the texts between them.
  const items: Item[] = [];
  for (const it of seq) {
    const l = items.length - 1;
    if (typeof it === 'string' && typeof items[l] === 'string') items[l] += it;
    else if (it !== '') items.push(it);
  }
  const anchored = anchors ? anchorsOf(nodes, parent, anchors) : null;
  const { into, free } = textsFor(nodes, texts, items, anchored);
  let desired: Node[] = [];
  let created: Node[] | null = null;
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const t = into[k];
    if (typeof item !== 'string') {
      desired.push(item);
      // The Text node after an element that the translation has no text after: kept after it, empty.
      if (t) desired.push(t);
    } else if (t) desired.push(t);
    else {
      const nt = (parent.ownerDocument ?? document).createTextNode(item);
      (created ??= []).push(nt);
      desired.push(nt);
    }
  }
  // The run's elements the answer left out stay too, where they were (`keepPlaces`).
  const answered = desired.length > 16 ? new Set(desired) : null;
  let marked = false;
  let left = false;
  for (const n of nodes) {
    if (n.nodeType !== 1) marked ||= isMark(n);
    else if (n.parentNode === parent && (answered ? !answered.has(n) : !desired.includes(n))) left = true;
  }
  if (left) desired = keepPlaces(parent, nodes, desired);
  const parts = marked || markBefore(nodes[0]) || markAfter(nodes[nodes.length - 1]) ? partsOf(nodes, parent) : null;
  // A framework's part or range the translation's order would break: the run keeps its own order
  // (the Text nodes made above are not used). Nothing is written before this is known.
  if (parts && !intact(parts, desired)) return flow(parent, nodes, anchor, items, log, letters);
  let order = parts ? placeParts(parts, desired) : desired;
  if (anchored) {
    const within = withAnchors(anchored, order, parts);
    if (!within) return flow(parent, nodes, anchor, items, log, letters);
    order = within;
  }
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const t = into[k];
    // White space between elements, sent as one space (chunk.ts `sentText`): the page's own kept.
    if (t && typeof item === 'string' && !(isBlank(item) && isBlank(t.data))) log.write(t, item);
  }
  // Text nodes the translation did not need stay where they are, empty: a framework may hold them.
  for (let i = 0; i < texts.length; i++) if (free[i]) log.write(texts[i]!, '');
  if (created === null && sameOrder(nodes, order)) return;
  // Where the run is now: the page may have added content after it since it was found.
  const at = nodeAfter(nodes.filter((n) => n.parentNode === parent), anchor);
  log.move({ parent, nodes, anchor: at, created: created ?? [] });
  placeInOrder(parent, order, at, passedOver);
}

/**
 * Writes the translation into a run that keeps its own order (a framework's part the translation's
 * order would break, or an anchor it would move a node across): its elements stay where they are, and the translation's texts go between them
 * in the translation's order: the text before its first element into the run's first Text node
 * before the run's first element, and so on (the other Text nodes there left empty, a Text node made
 * where there is none). Each element shows its own translation; a text may stand next to another
 * element than in the translation.
 */
function flow(parent: Node, nodes: readonly Node[], anchor: Node | null, items: readonly Item[], log: UndoLog, letters?: ReadonlySet<Node>): void {
  // The translation's texts between its elements; a split word's letters are one (a text between
  // two of them read "Wor Hello d": found by the merge property test, seed 105005).
  const strings: string[] = [''];
  for (const it of items) {
    if (typeof it === 'string') strings[strings.length - 1] += it;
    else if (!letters?.has(it)) strings.push('');
  }
  const run = nodes.filter((n) => n.parentNode === parent);
  const order: Node[] = [];
  let created: Node[] | null = null;
  let gap = 0;
  // Where the gap's text is (null: not yet), and where the gap starts in `order`.
  let written: Text | null = null;
  let start = 0;
  const close = () => {
    const s = strings[gap] ?? '';
    if (written || s === '') return;
    const nt = (parent.ownerDocument ?? document).createTextNode(s);
    (created ??= []).push(nt);
    order.splice(start, 0, nt);
  };
  for (const n of run) {
    // The page's empty Text nodes (a framework's anchors) are not written, and end no gap.
    if (n.nodeType === 3 && !isEmptyText(n)) {
      const t = n as Text;
      const s = written ? '' : (strings[gap] ?? '');
      if (!(isBlank(s) && isBlank(t.data) && s !== '')) log.write(t, s);
      written ??= t;
    } else if (n.nodeType === 1) {
      // A split word's letters are one element: the gap after it starts after its last.
      if (!letters?.has(n)) {
        close();
        gap++;
        written = null;
      }
      start = order.length + 1;
    }
    order.push(n);
  }
  close();
  if (created === null) return;
  const at = nodeAfter(run, anchor);
  log.move({ parent, nodes, anchor: at, created });
  placeInOrder(parent, order, at, passedOver);
}

/**
 * The Text node each text of `items` (strings between nodes) is written into, and which of `texts`
 * are left free. A text right after an element goes into the Text node that was right after that
 * element, and the run's first text into its first Text node, where they are free; the other texts
 * into the Text nodes left, in order. An element the translation moves thus takes the text after
 * it along, and a node the page adds later right after that element (Preact: before the element's
 * next sibling) and one it adds before that text (React, Vue: before the node of what comes next)
 * are the same place, which restore keeps right after the element (`UndoLog.adoptMove`). Given in
 * order (until 2026-11-28), the Text node after a moved element was another one: Preact's part
 * added after a count the translation had put behind a link was read as the link's.
 * An element with no text after it in the translation (last, or before another element) keeps the
 * Text node that was after it, empty (its entry in `into`), and the texts take other nodes or new
 * ones: a framework's range from a comment to the node after the range's last element (Lit's
 * part, Svelte's block) still ends right after that element, and is not walked past.
 * In a run with anchors (`anchored`: anchors.ts), a text takes only a Text node between the same
 * anchors as a node beside it, or between theirs; one between two nodes with anchors between them
 * the Text node right after those anchors, else the one right before them (`acrossAnchors`).
 */
function textsFor(nodes: readonly Node[], texts: readonly Text[], items: readonly Item[], anchored: Anchors | null): { into: (Text | undefined)[]; free: boolean[] } {
  const into = new Array<Text | undefined>(items.length);
  const free = new Array<boolean>(texts.length).fill(true);
  if (!texts.length) return { into, free };
  // Free but not to be written: the Text node after an element the translation has no text after.
  let kept: boolean[] | null = null;
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    if (typeof item !== 'string') {
      if (item.nodeType !== 1 || typeof items[k + 1] === 'string') continue;
      const i = indexOfText(texts, textAfter(item));
      if (i < 0 || !free[i] || kept?.[i]) continue;
      (kept ??= new Array<boolean>(texts.length).fill(false))[i] = true;
      into[k] = texts[i];
      continue;
    }
    const before = k > 0 ? (items[k - 1] as Node) : null;
    let was = !before ? (nodes[0] ?? null) : before.nodeType === 1 ? textAfter(before) : null;
    if (anchored) was = acrossAnchors(anchored, items, k) ?? was;
    const i = indexOfText(texts, was);
    if (i < 0 || !free[i] || kept?.[i]) continue;
    free[i] = false;
    into[k] = texts[i];
  }
  let next = 0;
  // In a run with anchors: a Text node in the segment of a node beside the text, or between theirs (else a new one).
  for (let k = 0; k < items.length; k++) {
    if (typeof items[k] !== 'string' || into[k]) continue;
    const low = anchored ? segmentBefore(anchored, items, k) : 0;
    while (next < texts.length && (!free[next] || kept?.[next] || (anchored !== null && anchored.segment.get(texts[next]!)! < low))) next++;
    if (next === texts.length) break;
    if (anchored && anchored.segment.get(texts[next]!)! > segmentAfter(anchored, items, k)) continue;
    free[next] = false;
    into[k] = texts[next];
  }
  return { into, free };
}

/** The index of `n` in `texts` (-1: none, or not a text). */
function indexOfText(texts: readonly Text[], n: Node | null): number {
  return n?.nodeType === 3 ? texts.indexOf(n as Text) : -1;
}

/** The node after `n`, past comments and processing instructions (a write leaves them where they are). */
function textAfter(n: Node): Node | null {
  let c = n.nextSibling;
  while (c && isMark(c)) c = c.nextSibling;
  return c;
}

/**
 * What a write leaves where it is among the nodes it orders: comments (never sent) and emptied
 * texts. A run's comment once sent all of a BBC page's 500-node run (its stylesheet links and
 * scripts) out of the page and back.
 */
function passedOver(n: Node): boolean {
  return isMark(n) || isEmptyText(n);
}

/** Whether `after` is `before` without what a write passes over. */
function sameOrder(before: readonly Node[], after: readonly Node[]): boolean {
  let j = 0;
  for (const n of before) {
    if (n === after[j]) j++;
    else if (!passedOver(n)) return false;
  }
  return j === after.length;
}

/** An attribute's translation, as text. */
export function mergeAttr(unit: AttrUnit, answer: AnswerEl, log: UndoLog): void {
  let v = textOf(answer);
  if (unit.value === unit.value.trim()) v = v.trim();
  // A list item's label (edges.ts) was not sent: it goes back before the translation.
  const label = labelOf(unit.value);
  if (label && v) v = label + v.trimStart();
  if (v) log.attr(unit.el, unit.name, v);
}

/** One piece of a long text: the text node holds the translated pieces and the untranslated rest. */
export function mergePiece(unit: PieceUnit, answer: AnswerEl, log: UndoLog): void {
  const g = unit.group;
  log.piece(g, unit.index);
  g.outs[unit.index] = pieceText(unit, answer);
  g.text.data = piecesShown(g);
  // As the text gives it back (the same string each time it is read, while it holds it).
  g.shown = g.text.data;
}

/**
 * What piece `unit` of a long text reads translated by `answer`: its source's white space before it
 * (a paragraph's indentation; none where it had none: Apertium gave a text file's third paragraph a
 * space), a space after it where its source had one, and its source's line breaks after it where
 * it had them (the blank lines after a paragraph of a text file: translators give the words alone).
 */
export function pieceText(unit: PieceUnit, answer: AnswerEl): string {
  let v = textOf(answer);
  const source = unit.group.sources[unit.index]!;
  v = LEADING_SPACE.exec(source)![0] + v.trimStart();
  const tail = TRAILING_BREAK.exec(source)?.[0];
  if (tail) return v.endsWith(tail) ? v : v.trimEnd() + tail;
  return endsInSpace(source) && !endsInSpace(v) ? v + ' ' : v;
}

const LEADING_SPACE = /^\s*/;
/** White space at a text's end that holds a line break. */
const TRAILING_BREAK = /\s*\n[\t ]*$/;

