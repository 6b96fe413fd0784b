/**
 * Parts of a sentence the page keeps changing by themselves (a typed word, a rotating word, a
 * count): where a batch's changes were (`notePart`), the element that holds two of them
 * (`commonPart`), the part widened to what holds no other words (`widen`), and whether a run has
 * words around it (`wordsOutside`). lively.ts decides which part is kept as the page writes it.
 */
import type { Job } from './jobs';
import { excluded } from './tags';
import type { Unit } from './units';

/**
 * Notes that the page changed `job`'s words at `at` (a text, or an element whose children
 * changed): in an inline element of its run, that element; else (the run's own texts, or changes
 * in several places) null.
 */
export function notePart(parts: Map<Job, Element | null>, job: Job, at: Node): void {
  const u = job.origin ?? job.unit;
  const run = u.kind === 'range' ? u.parent : null;
  const el = at.nodeType === 1 ? (at as Element) : at.parentElement;
  const part = run && el && el !== run && run.contains(el) ? el : null;
  const had = parts.get(job);
  parts.set(job, had === undefined ? part : run && had && part && commonPart(had, part, run));
}

/** Each place's part of its run a batch's changes were all in (lively.ts `admit`), or null where they were not all in one. */
export function partsByPlace(parts: ReadonlyMap<Unit, Element | null>, placeOf: (u: Exclude<Unit, { kind: 'attr' }>) => Node | undefined): Map<Node, Element | null> {
  const out = new Map<Node, Element | null>();
  for (const [u, part] of parts) {
    if (u.kind === 'attr') continue;
    const key = placeOf(u);
    if (!key) continue;
    const had = out.get(key);
    out.set(key, had === undefined ? part : had && part && commonPart(had, part, key));
  }
  return out;
}

/**
 * The element inside `within` (a run's parent) that holds both `a` and `b`, parts of its run: `a`
 * itself where it holds `b`; null where only `within` holds both (the run's own changes).
 */
export function commonPart(a: Element, b: Element, within: Node): Element | null {
  for (let el: Element | null = a; el && el !== within; el = el.parentElement) if (el.contains(b)) return within.contains(el) ? el : null;
  return null;
}

/**
 * `part` and the elements around it inside `within` that hold no words of their own beside it: a
 * typed word's wrapper widens to the element that also holds its cursor (`|`), which the page
 * writes again at each loop; not to a link that holds words beside a count.
 */
export function widen(part: Element, within: Node): Element {
  let el = part;
  for (let up = el.parentElement; up && up !== within && within.contains(up) && !wordsBeside([up], el); up = up.parentElement) el = up;
  return el;
}

/** Whether run `u` has words outside `part` (kept as it is, the part leaves something to translate). */
export function wordsOutside(u: Unit, part: Element): boolean {
  return u.kind === 'range' && wordsBeside(u.nodes, part);
}

/**
 * Whether `roots` hold a text with a letter that is not in `inner`, nor in what the run keeps as
 * it is (`translate="no"`: nothing to translate there).
 */
function wordsBeside(roots: readonly Node[], inner: Element): boolean {
  const stack: Node[] = [...roots];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n === inner || (n.nodeType === 1 && excluded(n as Element))) continue;
    if (n.nodeType === 3 && /\p{L}/u.test((n as Text).data)) return true;
    for (let c = n.firstChild; c; c = c.nextSibling) stack.push(c);
  }
  return false;
}
