/**
 * Inline runs that are lists, not sentences (segment.ts `run`): links and buttons side by side (a
 * menu, a row of buttons, breadcrumbs, "Share Tweet Email"), and runs cut by separators ("Africa |
 * United States to Lift Sudan Sanctions", "By <a>Jo Smith</a> · <time>5 June</time>"). Sent as one
 * unit, a translator moves words from one label or phrase into another: Apertium turned the
 * buttons "Sections", "Home", "Search" into "Búsqueda", "de", "Casa de las secciones", and put
 * "Estados Unidos" in the link to the Africa section. Each label or part is a unit of its own.
 */
import { HAS_LETTER } from './attributes';

/** Whether an element's content is left out (segment.ts reads it from its cache of element kinds). */
export type Opaque = (el: Element) => boolean;

/**
 * Marks that stand between phrases when a text or an element holds nothing else. Not `/` ("yes /
 * no"), nor `«»‹›` (quotation marks in French and German); breadcrumbs cut by those are lists of
 * links anyway.
 */
const SEPARATOR = /^\s*[|¦•·∙⋅]+\s*$/;

/** ARIA roles of controls and links: `<div role="button">`, menu items, tabs. */
const ITEM_ROLES = new Set(['button', 'link', 'menuitem', 'tab']);

/** A link or a control: its label is its own. */
function isItem(el: Element): boolean {
  const tag = el.tagName;
  if (tag === 'A' || tag === 'BUTTON') return true;
  const role = el.getAttribute('role');
  return role !== null && ITEM_ROLES.has(role.trim().toLowerCase());
}

/** Whether `n` has a letter outside excluded elements. */
export function hasLetter(n: Node, opaque: Opaque): boolean {
  if (n.nodeType === 3) return HAS_LETTER.test((n as Text).data);
  if (n.nodeType !== 1 || opaque(n as Element)) return false;
  for (let c = n.firstChild; c; c = c.nextSibling) if (hasLetter(c, opaque)) return true;
  return false;
}

/**
 * Whether the run is two or more links and buttons with letters and no letter outside them
 * (through wrappers such as `<span><a>…</a></span>`); if so, they are in `items`.
 */
export function listItems(nodes: readonly Node[], opaque: Opaque, items: Element[]): boolean {
  items.length = 0;
  for (const n of nodes) if (!collect(n, opaque, items)) return false;
  if (items.length < 2) return false;
  // Letters are looked for in the items only when there are two (a link alone in a cell is common).
  let kept = 0;
  for (const el of items) if (hasLetter(el, opaque)) items[kept++] = el;
  items.length = kept;
  return kept > 1;
}

/** Whether `n` holds no letter outside links and buttons; those into `items`. */
function collect(n: Node, opaque: Opaque, items: Element[]): boolean {
  if (n.nodeType === 3) return !HAS_LETTER.test((n as Text).data);
  if (n.nodeType !== 1) return true;
  const el = n as Element;
  if (opaque(el)) return true;
  if (isItem(el)) {
    items.push(el);
    return true;
  }
  for (let c = el.firstChild; c; c = c.nextSibling) if (!collect(c, opaque, items)) return false;
  return true;
}

/** A part of a run between separators, and the node after it (its separator; null: the run's end). */
export interface Part {
  nodes: Node[];
  next: Node | null;
}

/** The parts with a letter of a run cut by separators; null for a run with no separator or fewer than two such parts. */
export function separatedParts(nodes: readonly Node[], opaque: Opaque): Part[] | null {
  let cut = -1;
  for (let i = 0; i < nodes.length && cut < 0; i++) if (isSeparator(nodes[i]!, opaque)) cut = i;
  if (cut < 0) return null;
  const parts: Part[] = [];
  let start = 0;
  for (let i = cut; i <= nodes.length; i++) {
    if (i < nodes.length && !isSeparator(nodes[i]!, opaque)) continue;
    const part = nodes.slice(start, i);
    if (part.some((n) => hasLetter(n, opaque))) parts.push({ nodes: part, next: i < nodes.length ? nodes[i]! : null });
    start = i + 1;
  }
  return parts.length > 1 ? parts : null;
}

/** A text, or an element holding one text (`<span class="pipe">|</span>`, not `<code>|</code>`), that is only a separator. */
function isSeparator(n: Node, opaque: Opaque): boolean {
  if (n.nodeType === 3) return SEPARATOR.test((n as Text).data);
  const t = n.firstChild;
  return n.nodeType === 1 && t !== null && t === n.lastChild && t.nodeType === 3 && SEPARATOR.test((t as Text).data) && !opaque(n as Element);
}
