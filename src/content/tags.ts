/**
 * What an element is without asking layout: the exclusions (never translated) and the tag defaults
 * of the UA stylesheet. segment.ts reads computed style only where these cannot answer.
 *
 * Every check here reads attributes, never `classList`, `children` or `childNodes`: those create
 * a DOMTokenList or a live collection that Blink caches on the node for the node's lifetime
 * (measured: ~150 kB per 1 000 elements left behind after restore).
 */

import { ATTRIBUTE_NAMES } from './attributes';
import { HTML_NS } from '../ui/shared/html-element';

/** Never translated, nothing inside looked at (their attributes neither). */
/** The SVG namespace: an SVG's `<title>` names what it is in (segment.ts, units.ts `unitElement`). */
export const SVG_NS = 'http://www.w3.org/2000/svg';

export const SKIP_TAGS = new Set([
  'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TEXTAREA', 'CODE', 'KBD', 'SAMP', 'VAR', 'PRE', 'LISTING', 'XMP',
  'PLAINTEXT', 'MATH', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'VIDEO', 'AUDIO', 'SELECT', 'INPUT', 'IMG',
  'BR', 'WBR', 'HR', 'PICTURE', 'METER', 'PROGRESS', 'DATALIST', 'OPTION', 'OPTGROUP', 'HEAD', 'LINK', 'META',
  // Angular Material's icon: its text is a ligature icon font's name (its label is translated).
  'MAT-ICON',
  // A ruby's reading (furigana over kanji, pinyin over hanzi) and its fallback parentheses: sent
  // with the sentence, they read as words of it ("I study kanji kanji today"). Left in their place.
  'RT', 'RP', 'RTC',
]);

/** Laid out as blocks by the UA stylesheet (also the kind of a display:none element). */
export const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'CENTER', 'DD', 'DETAILS', 'DIALOG', 'DIR', 'DIV',
  'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER',
  'HGROUP', 'HR', 'LI', 'MAIN', 'MENU', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD',
  'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'LEGEND', 'OPTGROUP', 'OPTION', 'SELECT', 'VIDEO', 'IFRAME', 'CANVAS',
]);

/** Laid out inline (or inline-block) by the UA stylesheet; checked before BLOCK_TAGS. */
const INLINE_TAGS = new Set([
  'A', 'ABBR', 'ACRONYM', 'B', 'BDI', 'BDO', 'BIG', 'CITE', 'CODE', 'DATA', 'DEL', 'DFN', 'EM', 'FONT', 'I', 'IMG',
  'INS', 'KBD', 'LABEL', 'MARK', 'NOBR', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRIKE', 'STRONG', 'SUB', 'SUP', 'TIME',
  'TT', 'U', 'VAR', 'BR', 'WBR', 'INPUT', 'BUTTON', 'OUTPUT', 'SELECT', 'TEXTAREA', 'VIDEO', 'IFRAME', 'CANVAS',
  'PICTURE', 'EMBED', 'OBJECT', 'METER', 'PROGRESS',
]);

/** Rendered nothing by the UA stylesheet (kind: inline, so they never break a run). */
const NONE_TAGS = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'LINK', 'META', 'HEAD', 'DATALIST']);

/**
 * The ligature icon fonts' classes (Material Icons, Material Symbols, Google Symbols): their font
 * draws the word "search" or "arrow_forward" as an icon. Translated, the word "búsqueda" shows
 * where the magnifier was.
 */
const ICON_CLASSES = 'material-icons(?:-[a-z]+)?|material-symbols-[a-z]+|google-symbols';
const ICON_FONT = new RegExp(`(?:^|\\s)(?:${ICON_CLASSES})(?:\\s|$)`);
/**
 * A formula typeset as HTML: KaTeX's (its MathML for screen readers, and its spans for the eye,
 * with `sin`, `log`, `max` as text) and MathJax 2's (Math Stack Exchange's, spans too). Sent, the
 * translator gave "pecado x" for `\sin x`. MathJax 3 draws its glyphs from CSS and an SVG, MathML
 * is `<math>`: neither shows text of its own to translate.
 */
const MATH_CLASSES = 'katex|MathJax(?:_[A-Za-z]+)?';
/**
 * A code editor's root, and a terminal's: Ace's and CodeMirror 5's draw code in `<div>`s and
 * `<span>`s (Monaco's too, which says `role="code"` in versions since 2020: `inspect`), and
 * xterm.js draws a terminal's rows so (a cloud shell's, a tutorial's). CodeMirror 6 says
 * `translate="no"` itself. Their code read `⟦function⟧` translated, a command's output too.
 */
const EDITOR_CLASSES = 'ace_editor|CodeMirror|monaco-editor|xterm';
/** Class names that leave an element's text as it is: `notranslate` (Google's, which pages use for every translator), the icon fonts', the typeset formulas' and the code editors'. */
const NOTRANSLATE = new RegExp(`(?:^|\\s)(?:notranslate|${ICON_CLASSES}|${MATH_CLASSES}|${EDITOR_CLASSES})(?:\\s|$)`);
/** `role="code"` (its first token, as ARIA reads it): code, as `<code>` is. */
const CODE_ROLE = /^\s*code(?:\s|$)/i;

/** An icon drawn by a ligature icon font (by its class, or Angular Material's `<mat-icon>`): it shows no words. */
export function iconFont(el: Element): boolean {
  return el.tagName === 'MAT-ICON' || ICON_FONT.test(el.getAttribute('class') ?? '');
}

/** Bits of `inspect`: the tag's display (0: ask computed style), exclusions, prose attributes. */
export const TAG_INLINE = 1;
export const TAG_BLOCK = 2;
export const TAG_NONE = 3;
export const TAG_DISPLAY = 3;
/** `excluded(el, src)`. */
export const EXCLUDED = 4;
/** `excluded(el)`: the same without the language test (what chunk.ts makes a placeholder of). */
export const EXCLUDED_ANY_LANG = 8;
/** Carries an attribute of the table (attributes.ts), maybe prose. */
export const PROSE_ATTR = 16;
/**
 * The page excludes it (`translate="no"`, `.notranslate`, contenteditable, another `lang`), its
 * attributes too; an element left out only for its tag (an image, a form control) keeps its
 * prose attributes.
 */
export const BY_PAGE = 32;
/**
 * Left out by `translate="no"` or `.notranslate` and by nothing else: a descendant that says
 * `translate="yes"` is translated all the same (HTML: the nearest `translate` decides).
 */
export const SAYS_NO = 64;
/** Says `translate="yes"` (or `translate=""`) and no `.notranslate`: it is translated inside content the page says no to. */
export const SAYS_YES = 128;

const NO_NAMES: readonly string[] = [];
/** The attribute table's names (attributes.ts): an element carrying one may hold prose there. */
const PROSE_NAMES: ReadonlySet<string> = new Set(ATTRIBUTE_NAMES);

/**
 * Elements inside the page that said the page's language and say the target's since the page was
 * relabelled (writes.ts `relabelPage`) or their unit written (answers.ts), with the value written:
 * what the walk finds in them is still the page's language to translate (a paragraph the page
 * adds to Wikipedia's article body, a resume after a stop), not another language's quote.
 */
const relabelled = new WeakMap<Element, string>();

/**
 * Whether `el`, were its `lang` `value`, would be left out as another language than `src` (the
 * page's, a primary subtag): not a region of it (`en-GB`), nor the label our translation wrote.
 */
export function saysOtherLanguage(el: Element, value: string | null, src: string): boolean {
  return !!value && primary(value) !== src && relabelled.get(el) !== value;
}

/**
 * Inline elements of a sentence the page keeps changing by themselves (a word a script types and
 * erases, a rotating word, a live count): kept as they are, as a `notranslate` element is, so the
 * sentence around them stays translated (lively.ts `admit`); until restore (`forgetLiveParts`).
 */
let liveParts = new WeakSet<Element>();
/** Whether any is kept: the walk reads every element, and most pages have none. */
let anyLive = false;

/** `el` is a part of its sentence the page keeps changing: left as it is from now on. */
export function keepLive(el: Element): void {
  liveParts.add(el);
  anyLive = true;
}

/** Whether `el` is a part of its sentence kept as the page writes it (`keepLive`). */
export function isLivePart(el: Element): boolean {
  return anyLive && liveParts.has(el);
}

/** The page left part `el` still: read as the page says again (lively.ts `unkeep`). */
export function unkeepLive(el: Element): void {
  liveParts.delete(el);
}

/** Restore: every element is read as the page says again. */
export function forgetLiveParts(): void {
  if (!anyLive) return;
  liveParts = new WeakSet();
  anyLive = false;
}

/** `el` now says `lang` because the translation wrote it there. */
export function relabel(el: Element, lang: string): void {
  relabelled.set(el, lang);
}

/** Whether `value` is the label our translation wrote on `el` (`relabel`). */
export function ourLabel(el: Element, value: string | null): boolean {
  return value !== null && relabelled.get(el) === value;
}

/**
 * The tag's UA display (none of class, id, style or hidden set), `excluded` (with and without
 * `src`) and whether an attribute of the table is
 * there, from one read of the attribute names (measured: a third of the time of asking each
 * attribute by name, and most elements carry some). Author rules on bare tags
 * (`nav a {display:block}`) are missed: such a link joins its neighbours' unit, a coarser unit.
 */
export function inspect(el: Element, src?: string): number {
  const tag = el.tagName;
  const html = el.namespaceURI === HTML_NS;
  let styled = !html;
  let no = false;
  let yes = false;
  let editable = false;
  let exLang = false;
  let prose = 0;
  if (isLivePart(el)) no = true;
  for (const name of el.hasAttributes() ? el.getAttributeNames() : NO_NAMES) {
    switch (name) {
      case 'class':
        styled = true;
        if (!no && NOTRANSLATE.test(el.getAttribute(name) ?? '')) no = true;
        break;
      case 'style':
      case 'id':
      case 'hidden':
        styled = true;
        break;
      case 'translate': {
        const value = el.getAttribute(name)?.toLowerCase();
        if (value === 'no') no = true;
        else if (value === 'yes' || value === '') yes = true;
        break;
      }
      case 'role':
        if (!no && CODE_ROLE.test(el.getAttribute(name) ?? '')) no = true;
        break;
      case 'contenteditable':
        if (el.getAttribute(name)?.toLowerCase() !== 'false') editable = true;
        break;
      case 'lang':
        if (src && saysOtherLanguage(el, el.getAttribute(name), src)) exLang = true;
        break;
      default:
        if (PROSE_NAMES.has(name)) prose = PROSE_ATTR;
    }
  }
  const page = no || editable;
  let display = 0;
  if (NONE_TAGS.has(tag)) display = TAG_NONE;
  else if (!styled) display = INLINE_TAGS.has(tag) ? TAG_INLINE : BLOCK_TAGS.has(tag) ? TAG_BLOCK : 0;
  const byTag = SKIP_TAGS.has(tag.toUpperCase()) || !html;
  const ex = page || byTag;
  const says = no ? (editable || byTag || exLang ? 0 : SAYS_NO) : yes && !editable ? SAYS_YES : 0;
  return display | (ex ? EXCLUDED | EXCLUDED_ANY_LANG : exLang ? EXCLUDED : 0) | (page || exLang ? BY_PAGE : 0) | prose | says;
}

/**
 * Whether the page says not to translate `el`'s content: the nearest element, `el` or an ancestor,
 * that says `translate="no"` (or has `.notranslate`) or `translate="yes"` decides (HTML's
 * translation mode, inherited); for content reached by a query, not the walk.
 */
export function saysNo(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement) {
    if (saysNoItself(e)) return true;
    const value = e.getAttribute('translate')?.toLowerCase();
    if (value === 'yes' || value === '') return false;
  }
  return false;
}

/** The element itself says `translate="no"`, has `.notranslate` (or an icon font's class, a formula's, an editor's) or `role="code"`, or is a live part (`keepLive`). */
function saysNoItself(el: Element): boolean {
  return isLivePart(el) || el.getAttribute('translate')?.toLowerCase() === 'no' || classSaysNo(el.getAttribute('class')) || CODE_ROLE.test(el.getAttribute('role') ?? '');
}

/** A `class` value that leaves the element's text as it is (`notranslate`, an icon font's class). */
export function classSaysNo(value: string | null): boolean {
  return value !== null && NOTRANSLATE.test(value);
}

/**
 * A file of code or data by its name: forges serve every file raw as `text/plain` (a README, and a
 * Python module alike), and the browser shows each as text. Its lines are not prose.
 */
const CODE_FILE =
  /\.(?:[cm]?js|jsx|tsx?|py|pyi|rb|go|rs|java|kts?|scala|c|h|cc|cpp|cxx|hpp|hh|cs|swift|m|mm|php|pl|pm|sh|bash|zsh|fish|ps1|bat|cmd|lua|r|jl|hs|ex|exs|erl|clj|dart|vue|svelte|css|scss|sass|less|json|jsonc|ya?ml|toml|ini|cfg|conf|properties|xml|xsl|html?|svg|sql|csv|tsv|lock|diff|patch|gradle|make|mk|cmake|dockerfile|tf|proto|graphql|gql)$/i;

/**
 * The `<pre>` the browser shows a text file in (`text/plain`: Chromium's and Firefox's viewers
 * put the file's text in one), whose text is prose to translate, not the code a page's `<pre>`
 * holds. Null for any other document, and for a file of code or data (`CODE_FILE`).
 */
export function plainTextPre(doc: Document): Element | null {
  if (doc.contentType !== 'text/plain' || CODE_FILE.test(doc.location?.pathname ?? '')) return null;
  const pre = doc.body?.firstElementChild;
  return pre?.localName === 'pre' && pre === doc.body!.lastElementChild ? pre : null;
}

/**
 * The document is an editor: `designMode` on, or its root or body editable (a rich-text editor's
 * frame, TinyMCE's or CKEditor's): what it holds is the user's draft, never translated.
 */
export function editableDocument(doc: Document): boolean {
  if (doc.designMode === 'on') return true;
  for (const el of [doc.documentElement, doc.body]) {
    const value = el?.getAttribute('contenteditable');
    if (value != null && value.toLowerCase() !== 'false') return true;
  }
  return false;
}

/**
 * The browser's view of an XML file that has no stylesheet (Chromium shows its tree in an XHTML
 * document of its own; Firefox's document is the XML itself, with no body): data and markup, as
 * code is, not prose.
 */
export function xmlTree(doc: Document): boolean {
  return !doc.contentType.includes('html') && doc.getElementById('webkit-xml-viewer-source-xml') !== null;
}

/** Nothing of the document's body is translated: an editor's draft, an XML file's tree. */
export function untouchedDocument(doc: Document): boolean {
  return editableDocument(doc) || xmlTree(doc);
}

/**
 * The page asks at its root not to be translated: Google's `<meta name="google"
 * content="notranslate">`, or `translate="no"` (or `.notranslate`) on `<html>` or `<body>`. Pages
 * say so to keep browsers from translating them unasked; the user who asks is not refused
 * (segment.ts `document`), but a rule that translates every page of a language passes them by.
 */
export function rootSaysNo(doc: Document): boolean {
  for (const meta of doc.querySelectorAll('meta[name]')) {
    if (meta.getAttribute('name')!.toLowerCase() === 'google' && /(?:^|[\s,])notranslate(?:$|[\s,])/i.test(meta.getAttribute('content') ?? '')) return true;
  }
  return [doc.documentElement, doc.body].some((el) => el && saysNoItself(el));
}

/** Why an element's content is left alone: the page says so, or it is not prose. */
export function excluded(el: Element, src?: string): boolean {
  return (inspect(el, src) & EXCLUDED) !== 0;
}

export function primary(lang: string): string {
  return lang.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * A unit in this element is translated in place, never with a copy under it nor `dir` on it: a
 * document's or an SVG's title, an option (nothing is laid out under them).
 */
export function inPlace(parent: Element | ShadowRoot): boolean {
  return parent.nodeType === 1 && ((parent as Element).localName === 'title' || (parent as Element).tagName === 'OPTION');
}

/** A node's children as an array, read through sibling links (no cached NodeList). */
export function kids(n: Node): Node[] {
  const out: Node[] = [];
  for (let c = n.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}
