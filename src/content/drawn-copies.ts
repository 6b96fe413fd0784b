/**
 * The page's copies of an element's text that its style draws again: `content: attr(data-text)` in
 * a `::before` or `::after`, for a glitch heading's layers, a menu link's double that slides in on
 * hover, a text stroke. Once the element's text is translated, a copy left in the page's language
 * is drawn over or beside it ("Welcome" glitching over "Bienvenido"). A copy is a `data-*`
 * attribute whose value is the element's text (white space aside) and that a style draws (its
 * pseudo-element's content, or a rule of the page's readable sheets that draws it there): a script's
 * data that no style draws (a tab's name, a custom select's value, which the page may send) stays
 * as the page wrote it. Written with the unit (answers.ts), in its undo log.
 * Split letters' copies are split-words.ts's (`mirror`).
 */
import { readAs } from '../core/html/text';
import { HAS_LETTER } from './attributes';
import type { Entry } from './chunk';
import type { UndoLog } from './undo';

/** Longer values are not taken for copies (a glitch heading's or a link's text is short). */
const LONGEST = 200;

/** An element and the names of its attributes that copy its text. */
type Copies = [Element, string[]];

/**
 * The copies of a unit's text a style draws, read before it is written: on the unit's element
 * (`root`: null where the unit is part of its parent's content) and on each element it sends.
 * Null where none. In a document whose sheets can all be read, only the attributes they draw are
 * looked at (most pages draw none: nothing more is read); else each element's `data-*` attributes
 * (measured on aows-nba so: 22 ms for its 13 394 elements, ~2% of its DOM time).
 */
export function copiesIn(root: Element | null, entries: readonly Entry[]): Copies[] | null {
  const first = root ?? entries[0]?.node;
  if (!first) return null;
  // In the document, where its sheets can all be read: only the names they draw, if any.
  let only: ReadonlyMap<string, unknown> | null = null;
  const doc = first.ownerDocument;
  if (doc && first.getRootNode() === doc) {
    const styles = stylesOf(doc);
    if (!styles.unreadable) {
      if (styles.names.size === 0) return null;
      only = styles.names;
    }
  }
  let out: Copies[] | null = null;
  if (root) out = add(out, root, only);
  for (const e of entries) if (!e.opaque && !e.letters && e.node.nodeType === 1) out = add(out, e.node as Element, only);
  return out;
}

function add(out: Copies[] | null, el: Element, only: ReadonlyMap<string, unknown> | null): Copies[] | null {
  if (!el.hasAttributes()) return out;
  let names: string[] | null = null;
  let text: string | undefined;
  for (const name of only ? only.keys() : el.getAttributeNames()) {
    if (!name.startsWith('data-')) continue;
    const value = el.getAttribute(name);
    if (value === null || value.length > LONGEST || !HAS_LETTER.test(value)) continue;
    text ??= readAs(el.textContent ?? '');
    if (readAs(value) === text && drawnByStyle(el, name)) (names ??= []).push(name);
  }
  if (names) (out ??= []).push([el, names]);
  return out;
}

/**
 * Reads what `doc`'s sheets draw now, ahead of the first write (page.ts: while the first call is on
 * its way): a page's sheets of hundreds of kilobytes took ~9 ms of the first answer's write
 * (readability-yahoo-2's 216 kB), before its first paragraph showed.
 */
export function readDrawingRules(doc: Document): void {
  stylesOf(doc);
}

/** The copies say the text their element shows now, translated. */
export function writeCopies(copies: readonly Copies[], log: UndoLog): void {
  for (const [el, names] of copies) {
    const text = readAs(el.textContent ?? '');
    for (const name of names) log.attr(el, name, text);
  }
}

/**
 * Whether `el`'s `::before` or `::after` draws its attribute `name` now (Chromium gives the string
 * drawn, Firefox the `attr()` itself), or a rule of the page's sheets it can read draws it on `el`
 * whatever the pointer and the focus do (one that draws it on hover only: a menu link's double).
 */
function drawnByStyle(el: Element, name: string): boolean {
  const win = el.ownerDocument.defaultView;
  if (!win) return false;
  const value = JSON.stringify(el.getAttribute(name));
  for (const pseudo of ['::before', '::after']) {
    const content = win.getComputedStyle(el, pseudo).content;
    if (content.includes(value) || content.includes(`attr(${name})`)) return true;
  }
  const selectors = stylesOf(el.ownerDocument).names.get(name);
  return !!selectors?.some((selector) => {
    try {
      return el.matches(selector);
    } catch {
      // A selector we could not make plain: as if it drew it.
      return true;
    }
  });
}

/** The states a reader's pointer or focus puts an element in, and the pseudo-elements that draw a copy. */
const STATES = /:(?:hover|active|focus-visible|focus-within|focus|visited|target)(?![\w-])/g;
const PSEUDO = /::?(?:before|after)(?![\w-])/g;

/**
 * A drawing rule's selector as it matches its element in any of those states, without the
 * pseudo-element: `nav a:hover::after` is `nav a:where(*)`. A nested rule's (`&:hover::after`) is
 * every element's. Before (stop 62), any element with the name was taken: a paragraph's
 * `data-text` was written because a glitch heading's layers draw theirs.
 */
const atRest = (selector: string): string => (selector.includes('&') ? '*' : selector.replace(STATES, ':where(*)').replace(PSEUDO, ''));

/**
 * What a document's sheets draw of attributes: the names (`attr(...)` in a `content`) in those it
 * can read, each with the selectors of the rules that draw it (`atRest`), and whether one could
 * not be read (another origin's).
 */
interface Styles {
  sheets: number;
  last: CSSStyleSheet | null;
  names: Map<string, string[]>;
  unreadable: boolean;
}

/** Each document's, read again once it has more or fewer sheets, or another last one (a view's sheet swapped for the next's). */
const read = new WeakMap<Document, Styles>();
/**
 * The document whose sheets were counted in this task: a write of many units counts them once
 * (counting them for each unit was ~30 ms of aows-nba's 11 360 units). Nothing of ours adds a
 * sheet while it writes; a page's script runs in a task of its own.
 */
let counted: Document | null = null;

function stylesOf(doc: Document): Styles {
  const known = read.get(doc);
  if (known && counted === doc) return known;
  if (counted === null) queueMicrotask(() => (counted = null));
  counted = doc;
  // A framework's constructed sheets count too (`adoptedStyleSheets`).
  const adopted = doc.adoptedStyleSheets ?? [];
  const count = doc.styleSheets.length + adopted.length;
  const last = adopted[adopted.length - 1] ?? doc.styleSheets[doc.styleSheets.length - 1] ?? null;
  if (known?.sheets === count && known.last === last) return known;
  const names = new Map<string, string[]>();
  let unreadable = false;
  const ATTR = /attr\(\s*([\w-]+)/g;
  const visit = (rules: CSSRuleList) => {
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      const content = (rule as CSSStyleRule).style?.content;
      if (content) {
        for (const m of content.matchAll(ATTR)) {
          const selectors = names.get(m[1]!) ?? [];
          selectors.push(atRest((rule as CSSStyleRule).selectorText ?? '*'));
          names.set(m[1]!, selectors);
        }
      }
      const inner = (rule as CSSGroupingRule).cssRules;
      if (inner) visit(inner);
    }
  };
  const sheets = [...Array.from(doc.styleSheets), ...adopted];
  for (const sheet of sheets) {
    try {
      visit(sheet.cssRules);
    } catch {
      // Another origin's sheet: not readable here (each element's pseudo-elements are asked).
      unreadable = true;
    }
  }
  const styles = { sheets: count, last, names, unreadable };
  read.set(doc, styles);
  return styles;
}
