/**
 * Blocks the page puts in or takes out at the edge of a translated run: a submenu a menu item
 * renders on hover beside its label, a reply under a comment's text, a tooltip appended to a
 * paragraph's element. Such a block neither joins the run nor cuts it, so the run stays as it was
 * written. Until stop 67 the run beside it was undone and sent again: its words showed in the
 * page's language until the new answer came (at each hover of a menu), and a call went for
 * nothing. Frameworks mark where a block is not shown with a silent node (Vue's empty comment,
 * Svelte's anchor): put in, taken out, or among the run's last nodes, it changes no words either.
 * A block put in or taken out between two runs' nodes (or among one run's words) is not at an
 * edge: the runs there are found again, as before (one cut in two; two a removed block joins);
 * nor is one beside a run whose write changed its nodes' order (what is its edge in the page's
 * order may be inside it there). In bilingual mode a run's copy in its element, after it, is at
 * its edge and silent (follow.ts maps the copy to the run before it): a submenu put after a list
 * item's copy leaves the copy as it was (since stop 68; it was made again at each hover).
 */
import { isCopy } from './bilingual';
import { blank } from './edges';
import type { Job } from './jobs';
import type { ElementKinds } from './kinds';

/**
 * The job of the run beside which `r` (a childList record of the page's) put in or took out only
 * blocks and silent nodes (edges.ts `blank`: a comment, white space), at its edge, which is left
 * as written; undefined where the record is anything else. The run is no longer all of its
 * element's content once a block is in (`whole`: its element no longer takes its `dir`, nor its
 * text when it is read again).
 */
export function runAtEdge(r: MutationRecord, holderOf: (n: Node) => Job | undefined, kinds: ElementKinds): Job | undefined {
  // The nodes on either side: the record's, and those of the nodes put in where they are now (a
  // record may not name its siblings).
  const added = [...r.addedNodes].filter((n) => n.parentNode === r.target);
  const prev = added.length ? added[0]!.previousSibling : r.previousSibling;
  const next = added.length ? added.at(-1)!.nextSibling : r.nextSibling;
  const side = (a: Node | null, b: Node | null): Job | null | undefined => {
    const [x, y] = [a ? holderOf(a) : undefined, b ? holderOf(b) : undefined];
    return x && y && x !== y ? null : (x ?? y);
  };
  const before = side(r.previousSibling, prev);
  const after = side(r.nextSibling, next);
  // Two runs on one side, or nothing on either.
  if (before === null || after === null || (before === undefined && after === undefined)) return undefined;
  const job = (before ?? after)!;
  // Runs on both sides, or one's words on both: not at an edge, unless what of it is on one side is silent.
  if (before && after && (before !== after || !(silentFrom(next, job, holderOf, true) || silentFrom(prev, job, holderOf, false)))) return undefined;
  // Its nodes in the translation's order: an edge now may be inside it in the page's order.
  if (job.log?.reorders) return undefined;
  // Read last: the walk reads the same of what the page put in (and keeps it), and most records have no run beside them.
  let blocks = false;
  for (const list of [r.addedNodes, r.removedNodes]) {
    for (const n of list) {
      if (blank(n)) continue;
      if (!kinds.isBlockNode(n)) return undefined;
      blocks = true;
    }
  }
  // The page's run (bilingual: the job's unit is the one in the copy).
  const run = job.origin ?? job.unit;
  if (blocks && added.length > 0 && run.kind === 'range' && run.parent === r.target) run.whole = false;
  return job;
}

/** Whether the nodes of `job` from `n` on (`forward`, else back) are all silent, or its bilingual copy (ours). */
function silentFrom(n: Node | null, job: Job, holderOf: (n: Node) => Job | undefined, forward: boolean): boolean {
  for (; n && holderOf(n) === job; n = forward ? n.nextSibling : n.previousSibling) if (!blank(n) && !(n.nodeType === 1 && isCopy(n as Element))) return false;
  return true;
}
