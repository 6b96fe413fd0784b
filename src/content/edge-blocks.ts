/**
 * Blocks the page puts in or takes out at the edge of a translated run: a submenu a menu item
 * renders on hover beside its label, a reply under a comment's text, a tooltip appended to a
 * paragraph's element. Such a block neither joins the run nor cuts it, so the run stays as it was
 * written. Until stop 67 the run beside it was undone and sent again: its words showed in the
 * page's language until the new answer came (at each hover of a menu), and a call went for
 * nothing. A block put in or taken out between two runs' nodes (or among one run's) is not at an
 * edge: the runs there are found again, as before (one cut in two; two a removed block joins);
 * nor is one beside a run whose write changed its nodes' order (what is its edge in the page's
 * order may be inside it there).
 */
import type { Job } from './jobs';
import type { ElementKinds } from './kinds';

/**
 * The job of the run beside which `r` (a childList record of the page's) put in or took out only
 * blocks, at its edge, which is left as written; undefined where the record is anything else. The
 * run is no longer all of its element's content (`whole`: its element no longer takes its `dir`,
 * nor its text when it is read again).
 */
export function runAtEdge(r: MutationRecord, holderOf: (n: Node) => Job | undefined, kinds: ElementKinds): Job | undefined {
  // The nodes on either side: the record's, and those of the nodes put in where they are now (a
  // record may not name its siblings).
  const added = [...r.addedNodes].filter((n) => n.parentNode === r.target);
  const side = (a: Node | null, b: Node | null | undefined): Job | null | undefined => {
    const [x, y] = [a ? holderOf(a) : undefined, b ? holderOf(b) : undefined];
    return x && y && x !== y ? null : (x ?? y);
  };
  const before = side(r.previousSibling, added[0]?.previousSibling);
  const after = side(r.nextSibling, added.at(-1)?.nextSibling);
  // Nothing beside it, something on both sides, or two runs on one.
  if (before === null || after === null || (before === undefined) === (after === undefined)) return undefined;
  const job = (before ?? after)!;
  // Its nodes in the translation's order: an edge now may be inside it in the page's order.
  if (job.log?.reorders) return undefined;
  // Read last: the walk reads the same of what the page put in (and keeps it), and most records have no run beside them.
  for (const n of r.addedNodes) if (!kinds.isBlockNode(n)) return undefined;
  for (const n of r.removedNodes) if (!kinds.isBlockNode(n)) return undefined;
  if (job.unit.kind === 'range' && job.unit.parent === r.target && added.length > 0) job.unit.whole = false;
  return job;
}
