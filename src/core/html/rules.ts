/**
 * What the document format translates and what it keeps (decisions.md "Document format"), shared
 * by the chunker and by protect() so that both agree on what counts as translatable text.
 */
import { html } from 'parse5';

/** A node's place in the source, [startOffset, endOffset). */
export interface Span {
  startOffset: number;
  endOffset: number;
}

/**
 * What the readers use of a parsed element: parse5's (which has more), or simple.ts's. Offsets are
 * there when parsed with `sourceCodeLocationInfo`.
 */
export interface Element {
  nodeName: string;
  tagName: string;
  namespaceURI: string;
  attrs: { name: string; value: string; prefix?: string }[];
  childNodes: ChildNode[];
  sourceCodeLocation?: (Span & { startTag?: Span; endTag?: Span; attrs?: Record<string, Span> }) | null;
  /** A template's content. */
  content?: { childNodes: ChildNode[] };
}

export interface Text {
  nodeName: '#text';
  value: string;
  sourceCodeLocation?: Span | null;
}

/** A comment or a doctype: kept, never read. */
export interface Other {
  nodeName: string;
  sourceCodeLocation?: Span | null;
}

export type ChildNode = Element | Text | Other;

export const VOID = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * Kept whole and sent as a neutral placeholder: raw-text/RCDATA elements (text must never be written
 * into them: it would not be parsed as text), templates, foreign content, and head-only elements.
 */
export const NEUTRAL = new Set([
  'script', 'style', 'template', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript',
  'plaintext', 'svg', 'math', 'meta', 'link', 'base',
]);

/** Content that is code, user input or preformatted: kept verbatim, sent as an empty element of its own name. */
const KEPT = new Set(['code', 'kbd', 'samp', 'var', 'pre', 'listing']);

export const TRANSLATABLE_ATTRS = ['alt', 'title', 'placeholder', 'aria-label'] as const;
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);

/** Block-level elements: chunk boundaries may fall at their edges. */
export const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog', 'dir',
  'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hgroup', 'hr', 'li', 'listing', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'search', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'colgroup', 'optgroup', 'legend',
]);

/**
 * Nesting we descend into. Browsers cap it too (Chromium's parser at 512); content nested deeper is
 * kept as it is, and deeper nodes of an answer count only for their text, so no input or answer
 * can exhaust the stack.
 */
export const MAX_DEPTH = 400;

/** Names we can echo in placeholder markup; anything else a tokenizer accepted (`<p"x>`) is not repeated. */
export const SAFE_TAG = /^[a-z][a-z0-9-]*$/;

export function getAttr(el: Element, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name && !a.prefix) return a.value;
  return undefined;
}

/**
 * Why an element's content is not translated: `no` when the page says so (translate="no",
 * .notranslate, contenteditable; its attributes are left alone too), `tag` when its kind of content
 * is not prose (its own translatable attributes still are), null when it is translated.
 */
export function skipOf(el: Element): 'no' | 'tag' | null {
  if (el.namespaceURI !== html.NS.HTML) return 'tag';
  if (getAttr(el, 'translate')?.toLowerCase() === 'no') return 'no';
  const cls = getAttr(el, 'class');
  if (cls && cls.split(/[ \t\n\f\r]+/).includes('notranslate')) return 'no';
  const editable = getAttr(el, 'contenteditable');
  if (editable !== undefined && editable.toLowerCase() !== 'false') return 'no';
  return NEUTRAL.has(el.tagName) || KEPT.has(el.tagName) ? 'tag' : null;
}

/**
 * What the element's own `translate` says for its content (HTML: inherited, the nearest decides):
 * `no` for translate="no" or `.notranslate`, `yes` for translate="yes" or "" (the class wins on
 * one element), null when it says nothing. An editor (contenteditable) says neither: it is left
 * alone whatever is around or inside it.
 */
export function saysOf(el: Element): 'no' | 'yes' | null {
  if (el.namespaceURI !== html.NS.HTML) return null;
  const editable = getAttr(el, 'contenteditable');
  if (editable !== undefined && editable.toLowerCase() !== 'false') return null;
  const cls = getAttr(el, 'class');
  const value = getAttr(el, 'translate')?.toLowerCase();
  if (value === 'no' || (cls && cls.split(/[ \t\n\f\r]+/).includes('notranslate'))) return 'no';
  return value === 'yes' || value === '' ? 'yes' : null;
}

/** Names of the element's attributes whose values are prose. */
export function translatableAttrNames(el: Element): string[] {
  const names: string[] = [];
  for (const name of TRANSLATABLE_ATTRS) if (getAttr(el, name) !== undefined) names.push(name);
  if (el.tagName === 'input' && BUTTON_INPUTS.has((getAttr(el, 'type') ?? '').toLowerCase())) {
    if (getAttr(el, 'value') !== undefined) names.push('value');
  }
  return names;
}

export function isElement(n: ChildNode): n is Element {
  return 'tagName' in n;
}

export function childrenOf(el: Element): ChildNode[] {
  return el.tagName === 'template' && el.content ? el.content.childNodes : el.childNodes;
}
