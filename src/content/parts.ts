/**
 * A framework's parts in a run of nodes the write reorders (merge.ts). A comment (or processing
 * instruction) marks the place of what follows it: Lit writes a changed text into the node right
 * after its part's comment, and Lit and Svelte take a part out by walking from the comment to the
 * node that followed what the part shows. So a part is the comment, the node after it and the node
 * after that. React's `<!-- -->` between two texts (React never walks from it) is the comment and
 * the node after it only. A part of Lit's, a block of Svelte's or a fragment in a page Vue hydrated
 * may show several nodes: from a comment that starts one it reaches to the next comment or to the
 * run's end, and from one that ends one back to the comment before or to the run's start
 * (`REACHES_ON`, `REACHES_BACK`). The write keeps each part whole, or the run in its own order.
 */

/**
 * The parts of a run: each as its nodes in the run (consecutive, in their order), and by node;
 * `first`: the part that starts before the run (at a comment among the silent nodes at its start),
 * whose nodes in the run stay first; `last`: the part that reaches past the run (to a silent node
 * at its end, another unit's node or the parent's end), which stays last.
 */
export interface Parts {
  list: Node[][];
  of: Map<Node, Node[]>;
  first: Node[] | null;
  last: Node[] | null;
}

/**
 * Comments a framework walks on from to an end it does not mark: Lit's (a template's `?lit$…$`,
 * a list item's and a render's empty one, a server-rendered `lit-part`), whose end is the node
 * that followed the comment in the outer template whatever the part shows now (a nested template,
 * `html\`<b>${n}</b> new <i>unread</i>\``, shows several nodes, and nothing says how many), and a
 * fragment's start in a page Vue hydrated (`[`). Their parts reach to the next comment, or on.
 */
const REACHES_ON = /^(?:$|\?lit\$|\/?lit-part|\[$)/;

/**
 * Comments that end a range a framework walks to from a first node it does not mark: Svelte's
 * block sits before an empty one, a Lit list's item before its own empty end, a fragment Vue
 * hydrated before `]`, a server-rendered Lit part before `/lit-part`. Their parts reach back to
 * the comment before, or to the run's start.
 */
const REACHES_BACK = /^(?:$|\]$|\/lit-part)/;

/**
 * Comments that surely start a part reaching on (not the empty one, which also ends Svelte's
 * blocks and Lit's items): looked for past the blocks before a run too (`lead`), up to
 * `LOOK_BACK` nodes, as a nested template may show several blocks before a sentence.
 */
const STARTS = /^(?:\?lit\$|lit-part|\[$)/;
const LOOK_BACK = 16;

export function isMark(n: Node): boolean {
  return n.nodeType === 8 || n.nodeType === 7;
}

/**
 * The nodes right before `n` where a part that reaches `n` may start (the comments and at most one
 * other node; where none is a comment, up to a comment that surely starts one, `STARTS`, past a
 * few more nodes), in their order, into `out` (none: only asked); whether a comment is among them.
 */
function lead(n: Node | undefined, out: Node[] | null): boolean {
  let other = false;
  let marked = false;
  let c = n?.previousSibling ?? null;
  for (; c; c = c.previousSibling) {
    if (isMark(c)) marked = true;
    else if (other) break;
    else other = true;
    out?.unshift(c);
  }
  if (marked || !c) return marked;
  let start: Node | null = c;
  for (let i = 0; start && i < LOOK_BACK && !isMark(start); i++) start = start.previousSibling;
  if (!start || !isMark(start) || !STARTS.test((start as CharacterData).data)) return false;
  if (out) for (let b: Node | null = c; b; b = b === start ? null : b.previousSibling) out.unshift(b);
  return true;
}

/** Whether a part that starts before `n` may reach it: asked before the parts are read. */
export function markBefore(n: Node | undefined): boolean {
  return lead(n, null);
}

/**
 * The nodes right after `n` up to a comment that ends a range reaching back (`REACHES_BACK`: a
 * Svelte block's empty comment after the silent nodes that end a run, as a link with only a Lit
 * part in it), past at most `LOOK_BACK` others, with the comments right after it, into `out`
 * (none: only asked); whether there is one. Without them, a run whose block ends past its silent
 * end was read as having no part, and the translation's order moved the block's nodes (found by
 * the merge property test, seed 85005).
 */
function tail(n: Node | undefined, out: Node[] | null): boolean {
  let c = n?.nextSibling ?? null;
  for (let i = 0; c && i <= LOOK_BACK && !isMark(c); i++) c = c.nextSibling;
  if (!c || !REACHES_BACK.test((c as CharacterData).data)) return false;
  if (out) {
    for (let x = n!.nextSibling; x && x !== c; x = x.nextSibling) out.push(x);
    for (let x: Node | null = c; x && isMark(x); x = x.nextSibling) out.push(x);
  }
  return true;
}

/** Whether a part that ends after `n` may reach back to it: asked before the parts are read. */
export function markAfter(n: Node | undefined): boolean {
  return tail(n, null);
}

/** The parts of the run `nodes` (those still in `parent`). */
export function partsOf(nodes: readonly Node[], parent: Node): Parts {
  const run = nodes.filter((n) => n.parentNode === parent);
  const before: Node[] = [];
  lead(run[0], before);
  const after: Node[] = [];
  tail(run[run.length - 1], after);
  const all = before.length || after.length ? [...before, ...run, ...after] : run;
  // Where the run ends in `all`: what reaches there reaches past it.
  const stop = before.length + run.length;
  const parts: Parts = { list: [], of: new Map(), first: null, last: null };
  // Each part's first and last index in `all`, overlapping ones joined.
  let from = -1;
  let to = -1;
  let ends = false;
  const close = () => {
    const part = all.slice(Math.max(from, before.length), Math.min(to + 1, stop));
    if (!part.length) return;
    parts.list.push(part);
    for (const n of part) parts.of.set(n, part);
    if (from < before.length) parts.first = part;
    if (ends) parts.last = part;
  };
  for (let i = 0; i < all.length; i++) {
    if (!isMark(all[i]!)) continue;
    let shown = i + 1;
    while (shown < all.length && isMark(all[shown]!)) shown++;
    const data = (all[i] as CharacterData).data;
    let end = data === ' ' ? shown : shown + 1;
    let begin = i;
    // A part of several nodes (a nested template, a block, a fragment) between two marks, or to the run's ends.
    if (REACHES_ON.test(data)) while (end < all.length && !isMark(all[end]!)) end++;
    if (REACHES_BACK.test(data)) while (begin > 0 && !isMark(all[begin - 1]!)) begin--;
    if (from >= 0 && begin > to) close();
    if (from < 0 || begin > to) {
      from = begin;
      ends = false;
    }
    to = Math.max(to, Math.min(end, all.length - 1));
    ends ||= end >= stop;
  }
  if (from >= 0) close();
  return parts;
}

/**
 * Whether `desired` keeps each part whole: the part's nodes it places (a comment or an emptied text
 * need not be) next to each other, in their order; the first part first and the last part last.
 */
export function intact(parts: Parts, desired: readonly Node[]): boolean {
  const at = new Map<Node, number>();
  for (let i = 0; i < desired.length; i++) at.set(desired[i]!, i);
  for (const part of parts.list) {
    let next = -1;
    for (const n of part) {
      const i = at.get(n);
      if (i === undefined) continue;
      if (next >= 0 ? i !== next : part === parts.first && i !== 0) return false;
      next = i + 1;
    }
    if (part === parts.last && next >= 0 && next !== desired.length) return false;
  }
  return true;
}

/** `desired` (which keeps the parts whole) with each part's comments and emptied texts in their places in it. */
export function placeParts(parts: Parts, desired: readonly Node[]): Node[] {
  const order: Node[] = parts.first ? [...parts.first] : [];
  const placed = new Set<Node[]>();
  if (parts.first) placed.add(parts.first);
  for (const n of desired) {
    const part = parts.of.get(n);
    if (!part) order.push(n);
    else if (part !== parts.last && !placed.has(part)) {
      placed.add(part);
      order.push(...part);
    }
  }
  if (parts.last && !placed.has(parts.last)) order.push(...parts.last);
  return order;
}
