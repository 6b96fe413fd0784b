/**
 * Putting a run of sibling nodes back in an order: where the run ends now, and the moves, made
 * state-preserving where the browser can (undo.ts, merge.ts).
 */

/**
 * The node after the last of `nodes` (siblings) in the page now; null when they end their parent;
 * `none` when there are no nodes (the page removed them all).
 */
export function nodeAfter(nodes: readonly Node[], none: Node | null): Node | null {
  if (!nodes.length) return none;
  const run = new Set(nodes);
  // From the one no other precedes (the first, when they are in one piece), until all are passed.
  const start = nodes.find((n) => !run.has(n.previousSibling!)) ?? nodes[0]!;
  let last = start;
  let seen = 0;
  for (let c: Node | null = start; c && seen < run.size; c = c.nextSibling) {
    if (run.has(c)) {
      seen++;
      last = c;
    }
  }
  return last.nextSibling;
}

/**
 * Puts `nodes` (children of `parent`, or new) in this order right before `anchor`, moving only
 * those whose next sibling is not the one wanted: from the last back, each node already right before
 * the next stays. A move costs (measured: re-inserting a 500-node run of a BBC page, its stylesheet
 * links and scripts, ~24 ms per translation), and without `moveBefore` loses focus, selection and
 * playback inside the node, so a run whose order barely changed is barely touched.
 * `passOver`: siblings that may stay between two wanted nodes (a comment, an emptied text). A null
 * `anchor` is the end of `parent`; one the page took out of `parent`: the run ends where its last
 * node is (content the page added after it stays after it).
 */
export function placeInOrder(parent: Node, nodes: readonly Node[], anchor: Node | null, passOver?: (n: Node) => boolean): void {
  const last = nodes[nodes.length - 1];
  let next = anchor;
  if (anchor !== null && anchor.parentNode !== parent) next = last?.parentNode === parent ? last.nextSibling : null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    let after = n.parentNode === parent ? n.nextSibling : undefined;
    if (passOver) while (after && after !== next && passOver(after)) after = after.nextSibling;
    if (after !== next) moveBefore(parent, n, next);
    next = n;
  }
}

type Movable = Node & { moveBefore?(node: Node, child: Node | null): void };

/**
 * `parent.moveBefore(n, next)` where the browser has it (Chromium 133+: a state-preserving move,
 * so a frame in the run does not reload, a field keeps its focus, an animation its state) and both
 * are in the page; else `insertBefore` (a node made for the write, a detached parent, or a browser
 * without it).
 */
function moveBefore(parent: Node, n: Node, next: Node | null): void {
  const p = parent as Movable;
  if (typeof p.moveBefore === 'function' && n.isConnected && parent.isConnected) {
    try {
      p.moveBefore(n, next);
      return;
    } catch {
      // A move the browser refuses (a node of another kind, or another document): an ordinary insert.
    }
  }
  parent.insertBefore(n, next);
}
