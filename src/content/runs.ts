/**
 * Inline runs that are lists, not sentences (segment.ts `run`): links and buttons side by side (a
 * menu, a row of buttons, breadcrumbs, "Share Tweet Email", a form's labels and its button), runs
 * cut by separators ("Africa | United States to Lift Sudan Sanctions", "By <a>Jo Smith</a> ·
 * <time>5 June</time>"), and phrases glued with no space between elements ("<a>Associated
 * Press</a><time>December 2, 2016</time>"). Sent as one unit, a translator moves words from one
 * label or phrase into another: Apertium turned the buttons "Sections", "Home", "Search" into
 * "Búsqueda", "de", "Casa de las secciones", and put "Estados Unidos" in the link to the Africa
 * section. Each label or part is a unit of its own.
 */
import { HAS_LETTER } from './attributes';
import { wholeUnit, type RangeUnit } from './units';

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

/**
 * A link, a control, or a form control's `<label>`: its words are its own. Twitter's search form
 * ("Search query", a text field, a "Search Twitter" button) sent as one unit came back from
 * Apertium as "Búsqueda de" and a button "consulta de la búsqueda Twitter".
 */
function isItem(el: Element): boolean {
  const tag = el.tagName;
  if (tag === 'A' || tag === 'BUTTON' || tag === 'LABEL') return true;
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
 * Whether the run is a list: two or more links and buttons with letters (through
 * wrappers such as `<span><a>…</a></span>`), and no letter outside them but in one element that
 * holds no link or button, first or last (a label: "Copied" before a row of links, "Tags:"). If
 * so, the links, buttons and the label are in `items`, in document order, each to be a unit.
 */
export function listItems(nodes: readonly Node[], opaque: Opaque, items: Element[]): boolean {
  items.length = 0;
  for (const n of nodes) {
    // Letters in a text of the run itself: a sentence ("Read <a>the docs</a> and <a>the FAQ</a>.").
    if (n.nodeType === 3 ? HAS_LETTER.test((n as Text).data) : collect(n, opaque, items) === MIXED) return false;
  }
  let links = 0;
  for (const el of items) if (isItem(el)) links++;
  if (links < 2) return false;
  // Letters are looked for in the items only when there are two (a link alone in a cell is common);
  // a label has letters by its making.
  let kept = 0;
  let label = -1;
  links = 0;
  for (const el of items) {
    const item = isItem(el);
    if (item && !hasLetter(el, opaque)) continue;
    if (item) links++;
    // One label, heading or closing the list ("Tags:", "Copied", "Public"). Words in elements
    // between links, or several, are a sentence whose every text the page wrapped (Google Docs
    // pastes `<span style="font-weight: 400;">` around each: "… den <i>Deutschland-Kurier</i>. Der
    // <a>Bayerische Rundfunk</a> berichtete …").
    else if (label >= 0) return false;
    else label = kept;
    items[kept++] = el;
  }
  items.length = kept;
  return links > 1 && (label <= 0 || label === kept - 1);
}

/**
 * The units of a run with a letter, into `out`: one per label when it is a list (`list`: the
 * elements `listItems` found, or null), one per part when separators or glued phrases cut it, else
 * `run` itself.
 */
export function splitRun(run: RangeUnit, opaque: Opaque, list: readonly Element[] | null, out: { push(unit: RangeUnit): number }): void {
  const hidden = run.hidden;
  if (list) {
    for (const el of list) out.push(wholeUnit(el, hidden));
    return;
  }
  const parts = separatedParts(run.nodes, opaque);
  if (!parts) out.push(run);
  else for (const p of parts) out.push({ kind: 'range', parent: run.parent, nodes: p.nodes, anchor: p.next ?? run.anchor, whole: false, hidden });
}

/** What `collect` found in a node: letters outside links and buttons, links and buttons, or both (a sentence). */
const LETTERS = 1;
const LINKS = 2;
const MIXED = LETTERS | LINKS;

/**
 * What `n` holds (LETTERS, LINKS, MIXED or 0); its links and buttons into `items`, and an element
 * with letters and no link or button as one label (the outermost such: its own labels give way).
 */
function collect(n: Node, opaque: Opaque, items: Element[]): number {
  if (n.nodeType === 3) return HAS_LETTER.test((n as Text).data) ? LETTERS : 0;
  if (n.nodeType !== 1) return 0;
  const el = n as Element;
  if (opaque(el)) return 0;
  if (isItem(el)) {
    items.push(el);
    return LINKS;
  }
  const start = items.length;
  let holds = 0;
  let loose = false;
  for (let c = el.firstChild; c; c = c.nextSibling) {
    const h = collect(c, opaque, items);
    if (h === MIXED) return MIXED;
    if (h === LETTERS && c.nodeType === 3) loose = true;
    holds |= h;
  }
  // Words of its own beside a link: a sentence.
  if (loose && holds & LINKS) return MIXED;
  if (holds === LETTERS) {
    items.length = start;
    items.push(el);
  }
  return holds & LINKS ? LINKS : holds;
}

/** A part of a run between cuts, and the node after it (its separator, or the next part's first node; null: the run's end). */
interface Part {
  nodes: Node[];
  next: Node | null;
}

/** How a run is cut before a node: not, at a separator (in no part), or between glued phrases (the node starts the next part). */
const NO_CUT = 0;
const AT_SEPARATOR = 1;
const GLUED = 2;

/**
 * The parts with a letter of a run cut by separators or between glued phrases; null for a run with
 * no cut or fewer than two such parts.
 */
function separatedParts(nodes: readonly Node[], opaque: Opaque): Part[] | null {
  let first = -1;
  for (let i = 0; i < nodes.length && first < 0; i++) if (cutBefore(nodes, i, opaque) !== NO_CUT) first = i;
  if (first < 0) return null;
  const parts: Part[] = [];
  let start = 0;
  for (let i = first; i <= nodes.length; i++) {
    const cut = i < nodes.length ? cutBefore(nodes, i, opaque) : AT_SEPARATOR;
    if (cut === NO_CUT) continue;
    const part = nodes.slice(start, i);
    if (part.some((n) => hasLetter(n, opaque))) parts.push({ nodes: part, next: nodes[i] ?? null });
    start = cut === GLUED ? i : i + 1;
  }
  return parts.length > 1 ? parts : null;
}

function cutBefore(nodes: readonly Node[], i: number, opaque: Opaque): number {
  const n = nodes[i]!;
  if (isSeparator(n, opaque)) return AT_SEPARATOR;
  return i > 0 && glued(nodes[i - 1]!, n, opaque) ? GLUED : NO_CUT;
}

/** A text, or an element holding one text (`<span class="pipe">|</span>`, not `<code>|</code>`), that is only a separator. */
function isSeparator(n: Node, opaque: Opaque): boolean {
  if (n.nodeType === 3) return SEPARATOR.test((n as Text).data);
  const t = n.firstChild;
  return n.nodeType === 1 && t !== null && t === n.lastChild && t.nodeType === 3 && SEPARATOR.test((t as Text).data) && !opaque(n as Element);
}

/** A word of two letters or more ending lower-case (not the `i` of `<b>i</b>Phone`). */
const ENDS_LOWER = /\p{L}\p{Ll}$/u;
const STARTS_CAPITALIZED = /^\p{Lu}\p{Ll}/u;
/** Two words apart: a phrase, not a name written in two colours ("You" "Tube", "Git" "Hub"). */
const PHRASE = /\p{L}\s+\p{L}/u;

/**
 * Two elements side by side with no space between, the first ending in a lower-case word and the
 * next starting with a capitalized word, one of them a phrase of several words: the page's style
 * lays them out apart, or they would read as one word. `<a>Associated Press</a><time>December 2,
 * 2016</time>` (yahoo; React writes no space between elements), `<a>Video Gallery</a><span>Watch
 * behind-the-scenes videos</span>` (obamawhitehouse). Sent as one, Apertium gave the link the word
 * "Watch" ("Reloj de").
 */
function glued(a: Node, b: Node, opaque: Opaque): boolean {
  if (a.nodeType !== 1 || b.nodeType !== 1) return false;
  const end = edgeText(a, true, opaque);
  const start = edgeText(b, false, opaque);
  // The last characters only: a pattern anchored at the end is tried from every position.
  if (end === null || start === null || !ENDS_LOWER.test(end.slice(-4)) || !STARTS_CAPITALIZED.test(start)) return false;
  return PHRASE.test(a.textContent ?? '') || PHRASE.test(b.textContent ?? '');
}

/** The text at the end (`last`) or the start of an element, through its last or first descendants; null if that is not a text. */
function edgeText(n: Node, last: boolean, opaque: Opaque): string | null {
  while (n.nodeType === 1) {
    const c = opaque(n as Element) ? null : last ? n.lastChild : n.firstChild;
    if (c === null) return null;
    n = c;
  }
  return n.nodeType === 3 ? (n as Text).data : null;
}
