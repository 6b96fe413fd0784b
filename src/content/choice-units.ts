/**
 * The unit a chooser of alternatives opens for (choices.ts): the translated paragraph at a node,
 * or the attribute an element shows as its words (a button input's label, an empty field's hint,
 * a broken image's alt text), each also where its call failed.
 */
import type { Job } from './jobs';
import type { Owners } from './ownership';
import { unitElement, type AttrUnit, type RangeUnit } from './units';
import type { UndoLog } from './undo';

/** A unit a chooser opens for, where it is shown, and its undo log (null: its call failed, the page shows its original). */
export interface ChoiceUnit {
  job: Job;
  unit: RangeUnit | AttrUnit;
  el: Element;
  log: UndoLog | null;
}

const BUTTON_TYPES = new Set(['button', 'submit', 'reset']);

/**
 * The attribute `el` shows as its words, where its words are an attribute's: a button input's label
 * (`value`), the hint of an empty field (`placeholder`), the alt text a broken image shows in its
 * place. Null elsewhere: a tooltip or what a screen reader says is no element's words.
 */
export function wordsAttribute(el: Element): string | null {
  const tag = el.localName;
  if (tag === 'input' && BUTTON_TYPES.has((el as HTMLInputElement).type)) return 'value';
  if ((tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).value === '') return 'placeholder';
  if (tag === 'img' && (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 0) return 'alt';
  return null;
}

/** Written, or failed (the page shows its original). */
const settled = (job: Job): boolean => (job.state === 'done' && job.log !== null) || job.state === 'error';

/**
 * The unit at `node` a chooser opens for: the attribute that is `node`'s words, else the
 * translated paragraph that holds `node` (ownership.ts `at`). Not a paragraph whose nodes the page
 * put elsewhere (a highlighter's mark around them, a linkifier's link or a clamp's text in their
 * place: fitted.ts), nor a copy the page reshaped (`reshaped`): another translation written into
 * the unit's nodes would go beside the page's.
 */
export function choiceUnitAt(owners: Owners<Job>, node: Node, reshaped: WeakSet<Element>): ChoiceUnit | null {
  const name = node.nodeType === 1 ? wordsAttribute(node as Element) : null;
  const attr = name ? owners.attr(node as Element, name) : undefined;
  if (attr?.unit.kind === 'attr' && settled(attr)) return { job: attr, unit: attr.unit, el: attr.unit.el, log: attr.log };
  const job = owners.at(node);
  if (!job || !settled(job) || job.unit.kind !== 'range') return null;
  const { parent, nodes } = job.unit;
  if (nodes.some((n) => n.parentNode !== parent) || (job.copy && reshaped.has(job.copy.el))) return null;
  // A copy not shown (it read as its original) is not where the unit is.
  const el = job.copy?.el.isConnected ? job.copy.el : unitElement(job.origin ?? job.unit);
  return { job, unit: job.unit, el: el!, log: job.log };
}
