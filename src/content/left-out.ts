/**
 * The unit's elements an answer left out (a provider that dropped their tags, or every tag): they
 * stay, the same nodes, where they were among what the translation places (`keepPlaces`), and
 * without their words, which are in the translation's text now (`emptyLeftOut`). merge.ts calls
 * both.
 */
import { isBlank } from '../core/html/text';
import type { Entry } from './chunk';
import type { UndoLog } from './undo';
import { writeLetters } from './split-words';

/**
 * `desired` with each of the run's elements it lacks right after the node it came after in the
 * run, of those `desired` places (first if none): where it was among what stays, so a run whose
 * only change is that moves no node and leaves a framework's range as it was. Until stop 54 they
 * went after the translation: a link emptied that way moved past its sentence's text, out of the
 * order of a Lit part whose start comment the run does not reach (found by the merge property
 * test, seeds 85105 and 86715).
 */
export function keepPlaces(parent: Node, nodes: readonly Node[], desired: readonly Node[]): Node[] {
  const placed = new Set(desired);
  // Each placed node's left-out elements, in the run's order (`null`: those before any).
  const after = new Map<Node | null, Node[]>();
  let prev: Node | null = null;
  for (const n of nodes) {
    if (placed.has(n)) prev = n;
    else if (n.nodeType === 1 && n.parentNode === parent) {
      const list = after.get(prev);
      if (list) list.push(n);
      else after.set(prev, [n]);
    }
  }
  const order: Node[] = after.get(null) ?? [];
  for (const d of desired) {
    order.push(d);
    for (const n of after.get(d) ?? []) order.push(n);
  }
  return order;
}

/**
 * Empties the own texts of the entries the answer did not use (`used`, by entry; null: none was):
 * no word shows twice, translated in the sentence and as it was in the element. What was not sent
 * stays (an opaque element: code, an image, what the page says not to translate). Until stop 53
 * they kept their words: a provider that strips markup left each paragraph's links and bold words
 * in English after its translation.
 */
export function emptyLeftOut(entries: readonly Entry[], used: readonly boolean[] | null, log: UndoLog): void {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (used?.[i] || e.opaque) continue;
    // A split word's letters (split-words.ts `splitWord`), with the script's copies of them; or the element's own texts.
    if (e.letters) {
      writeLetters(e.letters, '', log);
      continue;
    }
    const el = e.into ?? e.node;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 && !isBlank((c as Text).data)) log.write(c as Text, '');
    }
  }
}
