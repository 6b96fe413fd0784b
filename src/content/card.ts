/**
 * A card the page fits to its box (fitted.ts), read back to before the batch: whose words it held.
 * A card of several units (a line and a paragraph under it, two paragraphs) is ours to put back
 * only where every word in it was ours, or the page's in what we keep as it is.
 */
import type { Rewind } from './rewind';
import { excluded } from './tags';
import type { RangeUnit, Unit } from './units';
import type { UndoLog } from './undo';

/** A job, as far as its write goes. */
export interface Written {
  unit: Unit;
  state: string;
  log: UndoLog | null;
  copy?: unknown;
}

/** Whether `job` is a translated unit, written in place (not a bilingual copy), of nodes in a run. */
export function inPlace(job: Written): boolean {
  return job.state === 'done' && !!job.log && !job.copy && job.unit.kind === 'range';
}

/** A letter or a digit: a text that has words. */
export const LETTER = /[\p{L}\p{N}]/u;

/** The most nodes a card of several units may hold: a clamped card holds tens; a feed's list is no card. */
export const CARD_NODES = 400;

/**
 * Whether the words `n` held before the batch are all those of translated units in place whose
 * nodes it or `el` held (a block of a card, with its unit), or the page's in what we keep as it
 * is (a block that says no, code), or it held none (the space between blocks); within the
 * `budget` of nodes a card holds. `owner`: the job whose unit holds a node.
 */
export function othersWithin<J extends Written>(n: Node, el: Node, rewind: Rewind, budget: { left: number }, owner: (n: Node) => J | undefined): boolean {
  const held = new Set<Node>();
  const jobs = new Set<J>();
  const ours = (x: Node, kept: boolean): boolean => {
    if (--budget.left < 0) return false;
    held.add(x);
    if (x.nodeType === 1) {
      const no = kept || excluded(x as Element);
      for (const c of rewind.kids(x) ?? [...x.childNodes]) if (!ours(c, no)) return false;
      return true;
    }
    if (x.nodeType !== 3 || kept || !LETTER.test(rewind.text(x, true))) return true;
    const j = owner(x);
    if (!j || !inPlace(j)) return false;
    jobs.add(j);
    return true;
  };
  if (!ours(n, false)) return false;
  for (const j of jobs) {
    const parent = (j.unit as RangeUnit).parent;
    if (parent !== el && !held.has(parent)) return false;
  }
  return true;
}
