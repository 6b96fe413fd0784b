/**
 * What a unit's edges hold that a translator does not need: an element that shows no words (an
 * icon's `<i>` or `<svg>`, an icon font's glyph, an empty anchor, a `<br>`, an image, a
 * stylesheet) at the start or end of a run or of an element's content. Not sent (chunk.ts) and
 * not touched by the write (merge.ts): it stays at its edge, before or after the translation, as
 * it was before or after the original. In the middle of a run such an element is sent, as its
 * place among the words may move.
 *
 * On the largest saved page (a Wikipedia list) these were a ninth of what its calls carried: a
 * reference's stylesheet and its metadata's empty span beside every citation, an icon beside a
 * link. Decided from the DOM alone, so chunk.ts and merge.ts find the same edges.
 */

import { isBlank, isLoneLetter } from '../core/html/text';
import { iconFont } from './tags';

/** Elements whose content is not shown as text: a stylesheet, a script, a template's inert content. */
const RAW = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'script', 'style']);

/**
 * Whether `el` shows no words: nothing in it but white space, symbols (an icon font's glyph, a
 * citation's backlink `^`, an arrow, a star: Unicode's symbol categories, not punctuation, which
 * is part of a sentence), comments and such elements; or an icon a ligature icon font draws from
 * a word (tags.ts `iconFont`); or a link that is a letter alone, a label (a citation's backlink
 * "a": text.ts `isLoneLetter`), so that a reference's "^ a b" is left before its text, unsent.
 */
export function silent(el: Element): boolean {
  if (RAW.has(el.tagName) || iconFont(el)) return true;
  if (el.tagName === 'A' && loneLetterLink(el)) return true;
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3 ? words((c as Text).data) : c.nodeType === 1 && !silent(c as Element)) return false;
  }
  return true;
}

/** A link whose one text, down a chain of lone children (`<a><sup><b>a</b></sup></a>`), is a letter alone; read without building its text. */
function loneLetterLink(a: Element): boolean {
  let n: Node = a;
  while (n.nodeType === 1) {
    const first = n.firstChild;
    if (first === null || first !== n.lastChild) return false;
    n = first;
  }
  return n.nodeType === 3 && isLoneLetter((n as Text).data);
}

/** Symbols and white space alone, as a glyph standing for an icon is: a few characters. */
const SYMBOLS = /^[\t\n\f\r \p{S}]+$/u;

/** Whether a text has words: anything but white space and a few symbols. */
function words(s: string): boolean {
  return !isBlank(s) && (s.length > 8 || !SYMBOLS.test(s));
}

/** Neither text nor element: white space, a comment, a processing instruction. */
export function blank(n: Node): boolean {
  return n.nodeType === 3 ? isBlank((n as Text).data) : n.nodeType !== 1;
}

/**
 * `nodes` (siblings, in order) without the silent elements at their edges, and the white space and
 * comments beyond them: the same array if there are none (most runs). `after` is the first node
 * left off at the end (null: none): what the kept nodes sit before.
 */
export function core(nodes: readonly Node[]): { nodes: readonly Node[]; after: Node | null } {
  let from = 0;
  let to = nodes.length;
  // The first node that shows something: the walk from the end stops there, not asking it again.
  let shown = to;
  for (let i = 0; i < to; i++) {
    const n = nodes[i]!;
    if (blank(n)) continue;
    if (n.nodeType !== 1 || !silent(n as Element)) {
      shown = i;
      break;
    }
    from = i + 1;
  }
  for (let i = to - 1; i > shown; i--) {
    const n = nodes[i]!;
    if (blank(n)) continue;
    if (n.nodeType !== 1 || !silent(n as Element)) break;
    to = i;
  }
  if (from === 0 && to === nodes.length) return { nodes, after: null };
  return { nodes: nodes.slice(from, to), after: nodes[to] ?? null };
}

/** A range of siblings, first to last (both null: none). */
export interface Span {
  first: Node | null;
  last: Node | null;
}

/** As `core`, for an element's children: the first and the last kept, into `out` (no array per element). */
export function coreChildren(el: Node, out: Span): Span {
  let first = el.firstChild;
  let last = el.lastChild;
  // The first child that shows something: the walk from the end stops there, not asking it again.
  let shown: Node | null = null;
  for (let n = first; n; n = n.nextSibling) {
    if (blank(n)) continue;
    if (n.nodeType !== 1 || !silent(n as Element)) {
      shown = n;
      break;
    }
    first = n.nextSibling;
  }
  if (!first) {
    out.first = out.last = null;
    return out;
  }
  for (let n = last; n && n !== shown && n !== first.previousSibling; n = n.previousSibling) {
    if (blank(n)) continue;
    if (n.nodeType !== 1 || !silent(n as Element)) break;
    last = n.previousSibling;
  }
  // `first` is never silent itself, so `last` is never before it.
  out.first = first;
  out.last = last;
  return out;
}

/** An item's letter or roman numeral: `a`, `B`, `iv`, `XII`. */
const ITEM = '(?:[A-Za-z]|[ivxlc]{2,6}|[IVXLC]{2,6})';
/**
 * A list item's label at the start of a text, with the white space around it (a no-break space
 * after it too, as `a.&nbsp;` keeps a label on its item's line): `(a) `, `b) `, `iv) `, or `a. `,
 * `IV. ` before a capital, a digit or the text's end (the item's words in an element after it);
 * `E. coli` and `e. g.` are words, not labels.
 */
const LABEL = new RegExp(`^[\\t\\n\\f\\r ]*(?:\\(?${ITEM}\\)[\\t\\n\\f\\r \\u00a0]+|${ITEM}\\.[\\t\\n\\f\\r \\u00a0]+(?=[\\p{Lu}\\p{N}]|$))`, 'u');

/** A text that is a list item's label alone (`II.`, `(b)`), as an element of its own may hold it. */
const LABEL_ALONE = new RegExp(`^[\\t\\n\\f\\r ]*(?:\\(?${ITEM}\\)|${ITEM}\\.)[\\t\\n\\f\\r ]*$`);

export function isListLabel(text: string): boolean {
  return text.length <= 16 && LABEL_ALONE.test(text);
}

/**
 * The list label a unit's first node starts with (`first`: its first node as `core` gives it), or
 * ''. Rule-based engines read it as a word: Apertium gives "a. Send us an email" as "Un. Nos envío
 * un email", "II. Methods" as "#Ii. Métodos", and a name's initial alike ("A. J. Lawson": "Un. J.
 * Lawson"). Not sent (chunk.ts) and put back before the translation (merge.ts), as it was; a
 * number (`1.`) goes as it is, which no engine changes.
 */
export function listLabel(first: Node | undefined | null): string {
  return first?.nodeType === 3 ? labelOf((first as Text).data) : '';
}

/** The list label `text` starts with (an attribute's value: a `title` reads as its link), or ''. */
export function labelOf(text: string): string {
  return LABEL.exec(text)?.[0] ?? '';
}
