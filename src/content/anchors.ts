/**
 * A framework's anchors in a run of nodes the write reorders (merge.ts): the page's empty Text
 * nodes. Vue keeps a fragment (a list, a component with several roots, a `<template v-if>`)
 * between two, and takes it out by walking from the first to the second; Preact and Svelte keep an
 * empty text where a value is empty, and write the next value into that node. So an anchor is
 * never written, and no node crosses one: each node of the run stays between the same two
 * anchors (its segment), in whatever order the translation puts it there.
 */
import type { Parts } from './parts';

export function isEmptyText(n: Node): boolean {
  return n.nodeType === 3 && (n as Text).data === '';
}

/** A run's anchors, in their order, and each other node of the run's segment (how many anchors are before it). */
export interface Anchors {
  list: readonly Text[];
  segment: ReadonlyMap<Node, number>;
}

/** The run `nodes` (those still in `parent`) read with its anchors `list`, in their order. */
export function anchorsOf(nodes: readonly Node[], parent: Node, list: readonly Text[]): Anchors {
  const segment = new Map<Node, number>();
  let k = 0;
  for (const n of nodes) {
    if (n.parentNode !== parent) continue;
    if (n === list[k]) k++;
    else segment.set(n, k);
  }
  return { list, segment };
}

type Item = string | Node;

/** The segment of the nearest node before `items[k]` that has one (none: the first). */
export function segmentBefore(a: Anchors, items: readonly Item[], k: number): number {
  for (let i = k - 1; i >= 0; i--) {
    const at = typeof items[i] === 'string' ? undefined : a.segment.get(items[i] as Node);
    if (at !== undefined) return at;
  }
  return 0;
}

/** The segment of the nearest node after `items[k]` that has one (none: the last). */
export function segmentAfter(a: Anchors, items: readonly Item[], k: number): number {
  for (let i = k + 1; i < items.length; i++) {
    const at = typeof items[i] === 'string' ? undefined : a.segment.get(items[i] as Node);
    if (at !== undefined) return at;
  }
  return a.list.length;
}

/**
 * For the text `items[k]` between nodes of two segments: the Text node right after the anchors
 * between them, else the one right before them (null: neither, or no anchor between). The text
 * of a component's fragment and the sentence's after it come back as one text: it goes where the
 * sentence's was, which the fragment's removal leaves (a fragment's last text took the words after
 * it out with it).
 */
export function acrossAnchors(a: Anchors, items: readonly Item[], k: number): Node | null {
  const low = segmentBefore(a, items, k);
  const high = segmentAfter(a, items, k);
  if (low >= high) return null;
  // (An anchor has no segment: a node that has one and is a Text node has words.)
  const late = a.list[high - 1]!.nextSibling;
  if (late?.nodeType === 3 && a.segment.get(late) === high) return late;
  const early = a.list[low]!.previousSibling;
  if (early?.nodeType === 3 && a.segment.get(early) === low) return early;
  return null;
}

/**
 * `order` with the run's anchors in it, each node of the run in its segment. The nodes `order`
 * leaves out (comments, Text nodes the translation left empty), a framework's part of them
 * together, each go in their segment: right after the node they were after, else right before
 * the one they were before, else at the first place there; never inside a part (`parts`: a part's
 * nodes stay next to each other). Null where `order` puts a node across an anchor, or what it
 * leaves out has no such place.
 */
export function withAnchors(a: Anchors, order: readonly Node[], parts: Parts | null): Node[] | null {
  const { list, segment } = a;
  const out: Node[] = [];
  let placed = 0;
  for (const n of order) {
    const at = segment.get(n);
    if (at === undefined && list.includes(n as Text)) {
      // An anchor a framework's part holds (parts.ts) is placed with it, only where it stands.
      if (n !== list[placed]) return null;
      out.push(list[placed++]!);
      continue;
    }
    // A Text node the write made (no segment) goes where the order puts it.
    if (at !== undefined) {
      if (at < placed) return null;
      while (placed < at) out.push(list[placed++]!);
    }
    out.push(n);
  }
  while (placed < list.length) out.push(list[placed++]!);
  // What the order leaves out, in the run's order, a part's nodes as one.
  const inOrder = new Set(out);
  const left: Node[][] = [];
  for (const n of segment.keys()) {
    if (inOrder.has(n)) continue;
    const last = left[left.length - 1];
    const part = parts?.of.get(n);
    if (part && last && parts!.of.get(last[0]!) === part) last.push(n);
    else left.push([n]);
  }
  for (const nodes of left) {
    const part = parts?.of.get(nodes[0]!);
    // A part that holds an anchor, placed already: not taken apart.
    if (part && part.some((n) => inOrder.has(n))) return null;
    const to = placeFor(nodes, segment.get(nodes[0]!)!, out, list, parts);
    if (to < 0) return null;
    out.splice(to, 0, ...nodes);
  }
  return out;
}

/** Where in `out` the nodes `run` of segment `at` go (before that index; -1: nowhere). */
function placeFor(run: readonly Node[], at: number, out: readonly Node[], list: readonly Text[], parts: Parts | null): number {
  const start = at === 0 ? 0 : out.indexOf(list[at - 1]!) + 1;
  const end = at < list.length ? out.indexOf(list[at]!) : out.length;
  const part = (n: Node | undefined) => (n ? parts?.of.get(n) : undefined);
  const own = part(run[0]);
  // A part that starts before the run goes first, and one that reaches past it last.
  if (own && own === parts?.first) return start === 0 ? 0 : -1;
  if (own && own === parts?.last) return end === out.length ? end : -1;
  const open = (p: number) => {
    if (p < start || p > end) return false;
    if (p === 0 && parts?.first && part(out[0]) === parts.first) return false;
    if (p === out.length && parts?.last && part(out[p - 1]) === parts.last) return false;
    const before = part(out[p - 1]);
    return before === undefined || before !== part(out[p]);
  };
  const prev = run[0]!.previousSibling ? out.indexOf(run[0]!.previousSibling) : -1;
  if (prev >= 0 && open(prev + 1)) return prev + 1;
  const last = run[run.length - 1]!;
  const next = last.nextSibling ? out.indexOf(last.nextSibling) : -1;
  if (next >= 0 && open(next)) return next;
  for (let p = start; p <= end; p++) if (open(p)) return p;
  return -1;
}
