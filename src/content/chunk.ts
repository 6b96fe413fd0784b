/**
 * Units as frm=html markup, packed into Translate calls within the text limit (interface.md: the
 * limit counts code points of `dat`, markup included). Each unit is a `<p i=N>` wrapper; its inline
 * elements are sent as bare tags carrying only `i=<id>`, so no page attribute (classes, URLs, data)
 * costs budget or reaches a provider, and the answer names live nodes by id only. Anything that is
 * not prose (code, images, form controls, notranslate) is an empty placeholder.
 */
import type { Unit } from './segment';
import { excluded } from './tags';
import { isBlank, isLoneLetter } from '../core/html/text';
import { core, coreChildren, isListLabel, labelOf, listLabel, type Span } from './edges';
import { HAS_LETTER } from './attributes';
import { splitWord } from './split-words';
import { isSplitLine } from './split-lines';

/** Default `limits.textSize` of the engine. */
export const TEXT_LIMIT = 1000;

/** Tags whose name a provider may see: phrasing content the HTML parser nests as written. */
const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'data', 'dfn', 'em', 'i', 'mark', 'q', 's', 'small', 'span', 'strong',
  'sub', 'sup', 'time', 'u', 'font', 'big', 'tt', 'strike', 'del', 'ins',
]);

/**
 * One element id of a unit's markup: a live node, the id of the element it sits in as an offset
 * from the unit's wrapper (0: the wrapper itself), opaque or not.
 */
export interface Entry {
  node: Node;
  parent: number;
  opaque: boolean;
  /** The element the answer's content goes into, where `node` holds one element alone (a chain of them): its innermost. */
  into: Element | null;
  /** A word a script split into an element per letter (`splitWord`), sent as one tag: its letters, `node` the first. */
  letters?: Element[];
}

/**
 * A unit serialized once, when it is queued: its markup cut at its ids (the wrapper is id 1, its
 * k-th element id 1+k, in the order they appear, so `pieces[0] 1 pieces[1] 2 ... pieces[k+1]`),
 * its size with those ids, and the nodes its ids name (`entries[k - 1]`). Packing a call only
 * numbers the ids from where the call is; the page is not read again.
 */
export interface Markup {
  pieces: string[];
  /** Code points of the markup with ids from 1. */
  size: number;
  entries: Entry[];
  /** The element the wrapper stands for, where the unit is one inline element (`soleElement`): its content is sent. */
  into?: Element;
}

/** The markup with ids from `base + 1`. */
export function markupAt(m: Markup, base = 0): string {
  const p = m.pieces;
  let out = p[0]!;
  for (let k = 1; k < p.length; k++) out += String(base + k) + p[k]!;
  return out;
}

/** One Translate call being built: markup, and for each wrapper id its job and the nodes its ids name. */
export class Call<J extends { unit: Unit; markup?: Markup | null }> {
  readonly parts: string[] = [];
  readonly jobs = new Map<number, J>();
  readonly entries = new Map<number, readonly Entry[]>();
  /** By wrapper id, the element a wrapper stands for (Markup `into`), for the units that have one. */
  readonly into = new Map<number, Element>();
  /** Ids used so far. */
  private ids = 0;
  size = 0;

  constructor(readonly limit: number = TEXT_LIMIT) {}

  get markup(): string {
    return this.parts.join('');
  }

  /** Adds the job's unit if it fits (always, when the call is empty); false leaves the call as it was. */
  add(job: J): boolean {
    const m = job.markup ?? prepare(job.unit);
    // Later ids are never shorter: what does not fit with ids from 1 does not fit at all.
    if (this.size > 0 && this.size + m.size > this.limit) return false;
    const base = this.ids;
    let n = m.size;
    // Digits the ids gain from `base`.
    for (let k = 1; k < m.pieces.length; k++) n += digits(base + k) - digits(k);
    if (this.size > 0 && this.size + n > this.limit) return false;
    this.jobs.set(base + 1, job);
    this.entries.set(base + 1, m.entries);
    if (m.into) this.into.set(base + 1, m.into);
    this.parts.push(markupAt(m, base));
    this.ids += m.entries.length + 1;
    this.size += n;
    return true;
  }
}

function digits(n: number): number {
  return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : String(n).length;
}

import { codePoints } from '../core/html/text';
export { codePoints };

export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * Code points of markup as the provider gets it: the engine sends a no-break space, which this
 * markup holds as it is, as `&#160;` (text.ts `escapeSegment`), five more. Counted so, a call
 * within the limit here is within it at the provider: French text has one before each `:`, `»`
 * and `?`, and a call of 997 code points here went to Apertium as 1 017 characters, which its
 * adapter sends in two parts cut in a sentence.
 */
export function sentSize(s: string): number {
  let n = codePoints(s);
  for (let i = s.indexOf('\u00a0'); i >= 0; i = s.indexOf('\u00a0', i + 1)) n += 5;
  return n;
}

/** Builds a Markup's pieces: text is added to the current piece; an id ends it. */
interface Writer {
  pieces: string[];
  cur: string;
  /** Whether white space collapses in an element (null: text is sent as it is). */
  collapses: ((el: Element) => boolean) | null;
  /** The element last asked of `collapses`, and its answer. */
  spaceEl?: Element | null;
  spaceCollapses?: boolean;
}

/** Two white-space characters in a row (or a tab, a line break): what indenting a page's source leaves in its texts. */
const SPACE_RUN = /[\t\n\f\r ][\t\n\f\r ]|[\t\n\f\r]/;
const SPACES = /[\t\n\f\r ]+/g;
const LEADING_SPACES = /^[\t\n\f\r ]+/;
/** A list item's label as sent (edges.ts `listLabel` found it in the page), its spaces collapsed or not. */
const LEADING_LABEL = /^[\t\n\f\r ]*\S+[\t\n\f\r \u00a0]+/;
const TRAILING_SPACES = /[\t\n\f\r ]+$/;

/**
 * Whether a browser shows a run of white space in `el`'s text as one space (CSS `white-space`
 * normal or nowrap). Where it keeps them (`pre-wrap`, `pre-line`, `break-spaces`: a chat's
 * message, a poem) the text is sent as it is, its line breaks for the translation to keep.
 */
export function collapsesSpace(el: Element): boolean {
  const view = el.ownerDocument.defaultView;
  if (!view) return false;
  const style = view.getComputedStyle(el);
  const collapse = (style as CSSStyleDeclaration & { whiteSpaceCollapse?: string }).whiteSpaceCollapse;
  if (collapse) return collapse === 'collapse';
  // '' where no style is computed (happy-dom's defaults): the initial value, normal.
  const ws = style.whiteSpace;
  return ws === 'normal' || ws === 'nowrap' || ws === '';
}

/**
 * A text's data as sent: where its element collapses white space, each run of it as one space.
 * Pages indent their source, and the indentation is in their texts: on a GitHub page it was a
 * quarter of what a page's calls carried, and providers bill markup and spaces by the character.
 */
function sentText(t: Text, w: Writer): string {
  const data = t.data;
  if (!w.collapses || !SPACE_RUN.test(data)) return data;
  const el = t.parentElement;
  if (el !== w.spaceEl) {
    w.spaceEl = el;
    w.spaceCollapses = el !== null && w.collapses(el);
  }
  return w.spaceCollapses ? data.replace(SPACES, ' ') : data;
}

/**
 * A unit as markup (see Markup); `opaque`: tags.ts `excluded`, or what a segmenter read of it;
 * `collapses`: whether white space collapses in an element (`collapsesSpace`).
 *
 * A run's white space at its edges is not sent, and runs of it inside are sent as one space where
 * the page shows them so (`sentText`): translators drop the one and keep the other as one space,
 * and the merge puts the run's own edges back and leaves a text of white space only as it was.
 */
export function prepare(unit: Unit, opaque: (el: Element) => boolean = excluded, collapses: (el: Element) => boolean = collapsesSpace): Markup {
  const entries: Entry[] = [];
  const w: Writer = { pieces: ['<p i='], cur: '>', collapses };
  let markupInto: Element | undefined;
  // A value's label goes as a text's does: a link's title that reads as the link is sent once with it.
  if (unit.kind === 'attr') w.cur += escapeText(unit.value.slice(labelOf(unit.value).length));
  else if (unit.kind === 'piece') w.cur += escapeText(unit.group.sources[unit.index]!);
  else {
    // Its tag, and those of the elements it holds alone, say nothing a translator needs; nor do
    // elements that show no text at its edges (edges.ts).
    const run = core(unit.nodes).nodes;
    let inA = false;
    const span: Span = { first: null, last: null };
    for (let el = soleElement(run, opaque); el; el = loneElement(coreChildren(el, span), opaque)) {
      markupInto = el;
      inA ||= el.localName === 'a';
    }
    if (!markupInto) serializeNodes(run, 0, entries, w, opaque);
    else serializeSpan(span, 0, inA, entries, w, opaque);
    // The edges: right after the wrapper's `>` (and a list item's label there: edges.ts), and before its end.
    const lead = listLabel(markupInto ? span.first : run[0]) ? LEADING_LABEL : LEADING_SPACES;
    if (w.pieces.length > 1) w.pieces[1] = '>' + w.pieces[1]!.slice(1).replace(lead, '');
    else w.cur = '>' + w.cur.slice(1).replace(lead, '');
    w.cur = w.cur.replace(TRAILING_SPACES, '');
  }
  w.pieces.push(w.cur + '</p>');
  let size = 0;
  for (const p of w.pieces) size += sentSize(p);
  for (let k = 1; k < w.pieces.length; k++) size += digits(k);
  return markupInto ? { pieces: w.pieces, size, entries, into: markupInto } : { pieces: w.pieces, size, entries };
}

/**
 * The one element among `nodes` beside white space and comments, where it is prose (not opaque):
 * a unit that is a link, a date in a `<span>`, a cell's `<b>`. Sent as its content, the wrapper
 * standing for it: on the largest saved page half the units were one such element (or a chain of
 * them, a link in a `<span>`), and their tags 16% of what the page's calls carried.
 */
function soleElement(nodes: readonly Node[], opaque: (el: Element) => boolean): Element | null {
  let found: Element | null = null;
  for (const n of nodes) {
    if (n.nodeType === 1) {
      if (found || opaque(n as Element)) return null;
      found = n as Element;
    } else if (n.nodeType === 3 && !isBlank((n as Text).data)) return null;
  }
  return found;
}

/** `soleElement` of a span of siblings (an element's children but the silent ones at their edges: edges.ts). */
function loneElement(span: Span, opaque: (el: Element) => boolean): Element | null {
  const last = span.last;
  let found: Element | null = null;
  for (let c = span.first; c; c = c === last ? null : c.nextSibling) {
    if (c.nodeType === 1) {
      if (found || opaque(c as Element)) return null;
      found = c as Element;
    } else if (c.nodeType === 3 && !isBlank((c as Text).data)) return null;
  }
  return found;
}

/** A unit as markup, as a call of its own has it. */
export function serializeUnit(unit: Unit): string {
  return markupAt(prepare(unit));
}

const LETTER_AT_END = /\p{L}$/u;
const LETTER_AT_START = /^\p{L}/u;

/**
 * Whether the link `el`, whose content (`span`, the innermost of a chain) is one text, is a lone
 * letter set apart from the words beside it: kept as the page has it, sent as a placeholder. Only
 * a link: an emphasized word ("<em>I</em> did it", "<em>a</em> solution") is a word, and a drop
 * cap glued to the rest of its word ("<span>T</span>he") is sent as it is.
 */
function labelOnly(el: Element, span: Span): boolean {
  const t = span.first;
  if (t === null || t !== span.last || t.nodeType !== 3 || !isLoneLetter((t as Text).data)) return false;
  const before = el.previousSibling;
  const after = el.nextSibling;
  return !(before?.nodeType === 3 && LETTER_AT_END.test((before as Text).data)) && !(after?.nodeType === 3 && LETTER_AT_START.test((after as Text).data));
}

/** An element whose content is one text, a list item's label (`<span class="num">II.</span> Methods`): kept as the page has it (edges.ts). */
function labelAlone(span: Span): boolean {
  const t = span.first;
  return t !== null && t === span.last && t.nodeType === 3 && isListLabel((t as Text).data);
}

/**
 * A markup with nothing to translate: its whole text a lone letter (`isLoneLetter`) or a list
 * item's label (`III.`: edges.ts `isListLabel`), or, its edges left out (edges.ts: a backlink
 * alone), no letter at all. A unit not sent. However long its markup: placeholders (a letter's
 * link kept, code) make a long one with no word (until 2026-11-28 one over 40 characters was
 * sent, and offered alternatives that changed nothing).
 */
export function nothingToSend(m: Markup): boolean {
  const text = m.pieces.join('').replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt);/g, ' ');
  return isLoneLetter(text) || isListLabel(text) || !HAS_LETTER.test(text);
}

/** Lower-case tag names, made once each. */
const LOWER = new Map<string, string>();

function serializeNode(n: Node, parent: number, inA: boolean, entries: Entry[], w: Writer, opaque: (el: Element) => boolean): void {
  if (n.nodeType === 3) {
    w.cur += escapeText(sentText(n as Text, w));
    return;
  }
  if (n.nodeType !== 1) return;
  const el = n as Element;
  const upper = el.tagName;
  let tag = LOWER.get(upper);
  if (tag === undefined) LOWER.set(upper, (tag = upper.toLowerCase()));
  if (opaque(el)) return kept(el, tag, parent, entries, w);
  // An element that holds one element alone (a reference's link around a superscript around a
  // bold letter) is one tag: its own, the answer written into the innermost (Entry `into`).
  // A link anywhere in the chain makes it an <a>: that it is a link is what a translator may use.
  let inner = el;
  let link = tag === 'a';
  const span = coreChildren(el, { first: null, last: null });
  for (let c = loneElement(span, opaque); c; c = loneElement(coreChildren(c, span), opaque)) {
    inner = c;
    link ||= c.localName === 'a';
  }
  if ((link && labelOnly(el, span)) || labelAlone(span)) return kept(el, tag, parent, entries, w);
  entries.push({ node: el, parent, opaque: false, into: inner === el ? null : inner });
  const k = entries.length;
  // A nested <a> would be closed by the parser; so would anything not phrasing.
  const name = link ? (inA ? 'span' : 'a') : PHRASING.has(tag) ? tag : 'span';
  w.pieces.push(`${w.cur}<${name} i=`);
  w.cur = '>';
  serializeSpan(span, k, inA || link, entries, w, opaque);
  w.cur += `</${name}>`;
}

/** An element kept as the page has it: an empty placeholder of its own id. */
function kept(el: Element, tag: string, parent: number, entries: Entry[], w: Writer): void {
  entries.push({ node: el, parent, opaque: true, into: null });
  w.pieces.push(w.cur + (tag === 'br' ? '<br i=' : tag === 'img' ? '<img i=' : '<code i='));
  w.cur = tag === 'br' || tag === 'img' ? '>' : '></code>';
}

/** An element's children but the silent ones at their edges (edges.ts `coreChildren`: merge.ts leaves them as they are). */
function serializeSpan(span: Span, k: number, inA: boolean, entries: Entry[], w: Writer, opaque: (el: Element) => boolean): void {
  const last = span.last;
  for (let c = span.first; c; c = c === last ? null : c.nextSibling) {
    const word = c.nodeType === 1 ? splitWord(c as Element, last, opaque) : null;
    if (word) c = serializeWord(word, k, entries, w);
    else serializeNode(c, k, inA, entries, w, opaque);
    if (c !== last) lineBreak(c, w);
  }
}

/**
 * A space after a line of a split text (split-lines.ts) that the next line follows straight: the
 * lines are blocks, nothing between them, and their words would be read as one ("ourbeautiful").
 */
function lineBreak(n: Node, w: Writer): void {
  if (n.nodeType === 1 && n.nextSibling?.nodeType === 1 && isSplitLine(n as Element)) w.cur += ' ';
}

/** A run's nodes (siblings, in order), as `serializeSpan` does an element's children. */
function serializeNodes(nodes: readonly Node[], k: number, entries: Entry[], w: Writer, opaque: (el: Element) => boolean): void {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    let word = n.nodeType === 1 ? splitWord(n as Element, nodes[nodes.length - 1]!, opaque) : null;
    if (word) {
      // Only as far as the run has them, in its order.
      let j = 0;
      while (j < word.length && nodes[i + j] === word[j]) j++;
      word = j > 1 ? word.slice(0, j) : null;
    }
    if (word) {
      serializeWord(word, k, entries, w);
      i += word.length - 1;
    } else serializeNode(n, k, false, entries, w, opaque);
    if (i < nodes.length - 1) lineBreak(nodes[i]!, w);
  }
}

/** A split word as one tag of its first letter's id (Entry `letters`), its letters as text; the node to go on from (its last). */
function serializeWord(word: Element[], parent: number, entries: Entry[], w: Writer): Element {
  entries.push({ node: word[0]!, parent, opaque: false, into: null, letters: word });
  w.pieces.push(`${w.cur}<span i=`);
  let text = '>';
  for (const el of word) text += escapeText((el.firstChild as Text).data);
  w.cur = text + '</span>';
  return word[word.length - 1]!;
}

/** Standalone size of a unit's markup. */
export function unitSize(unit: Unit): number {
  return prepare(unit).size;
}

/** Nodes of a run as markup (ids from 2, as in a call of their own): for their size (fit.ts). */
export function serializeRangeNodes(nodes: Node[]): string {
  const w: Writer = { pieces: [''], cur: '', collapses: null };
  serializeNodes(nodes, 0, [], w, excluded);
  w.pieces.push(w.cur);
  return markupAt({ pieces: w.pieces, size: 0, entries: [] }).slice(1);
}
