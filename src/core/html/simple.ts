/**
 * A small exact reader of simple markup: what the content script sends (`<p i=1>Hi <b i=2>you</b></p>`)
 * and what comes back of the engine's own placeholders (`<b id="2">`). Well-nested `p` (at the top
 * only), the phrasing tags a unit is sent with, `br`/`img`, at most one attribute (`i` or `id`, a
 * number), the character references the engine and the content script write. For such input the
 * HTML parser builds exactly the tree written (no implied tags, no adoption, no reconstruction, no
 * foster parenting), so this reader gives the same nodes and source offsets as parse5, without
 * parse5's cost: ~13 ms a call in a worker whose code has never run, where the first calls of a
 * page wait for it before their first request.
 *
 * Anything else (another tag or attribute, a comment, a stray or missing end tag, an unknown
 * reference, CR or NUL) is null, and the caller parses it with the HTML parser: same result, slower.
 * Used by the engine's model and answers (model.ts, protect.ts, through `readSimple`) and the
 * content script's answers (`readWith` into its own nodes: no intermediate tree to collect).
 */
import type { ChildNode, Element, Span, Text } from './rules';

/** Tags read inside a wrapper, or at the top: phrasing the parser nests as written. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'data', 'dfn', 'em', 'i', 'mark', 'q', 's', 'small', 'span', 'strong',
  'sub', 'sup', 'time', 'u', 'font', 'big', 'tt', 'strike', 'del', 'ins', 'code', 'x-keep',
]);
const VOID = new Set(['br', 'img']);
const ENTITY = /&(?:(amp|lt|gt|quot|apos|nbsp);|#(\d{1,7});|#[xX]([0-9a-fA-F]{1,6});)/y;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** Deeper is left to the parser (Blink flattens deep trees; rules.ts caps what is descended into). */
const MAX_NESTING = 200;
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** One tag: `<name>`, `<name a=N>`, `<name a="N">` or `</name>`, `a` being `i` or `id`. */
interface Tag {
  close: boolean;
  name: string;
  /** The attribute's name and value (1 to 9 digits), or null. */
  attr: 'i' | 'id' | null;
  value: string;
  /** Just after the tag's `>`. */
  end: number;
}

/** The one Tag readTag fills (reading is synchronous: one at a time). */
const scratch: Tag = { close: false, name: '', attr: null, value: '', end: 0 };

/**
 * What a reading makes of the markup, told in source order (`parent` null at the top; offsets are
 * the node's start tag, or its text, in the source). The content script builds its answers
 * straight from this, the engine parse5-shaped nodes.
 */
export interface Sink<E> {
  element(name: string, attr: Tag['attr'], value: string, parent: E | null, start: number, end: number): E;
  text(value: string, parent: E | null, start: number, end: number): void;
  /** The element's end tag, [start, end). */
  close(el: E, start: number, end: number): void;
}

/** Reads `s` into `sink`; false (and whatever the sink made is to be dropped) for anything else. */
export function readWith<E>(s: string, sink: Sink<E>): boolean {
  if (s.includes('\r') || s.includes('\0')) return false;
  const open: E[] = [];
  const names: string[] = [];
  const tag = scratch;
  let inA = false;
  let at = 0;
  const n = s.length;
  while (at < n) {
    const lt = s.indexOf('<', at);
    const end = lt < 0 ? n : lt;
    const parent = open.length ? open[open.length - 1]! : null;
    if (end > at) {
      const value = decode(s, at, end);
      if (value === null) return false;
      sink.text(value, parent, at, end);
    }
    if (lt < 0) break;
    if (!readTag(s, lt, tag)) return false;
    at = tag.end;
    const name = tag.name;
    if (tag.close) {
      // An end tag closes the element it names, which must be the current one.
      if (tag.attr !== null || parent === null || names[names.length - 1] !== name) return false;
      sink.close(parent, lt, at);
      open.pop();
      names.pop();
      if (name === 'a') inA = false;
      continue;
    }
    const isVoid = VOID.has(name);
    // A `p` anywhere but the top would close the open one; a nested `a` closes the open one.
    if (name === 'p' ? open.length > 0 : !isVoid && (!INLINE.has(name) || (name === 'a' && inA))) return false;
    if (open.length >= MAX_NESTING) return false;
    const el = sink.element(name, tag.attr, tag.value, parent, lt, at);
    if (isVoid) continue;
    open.push(el);
    names.push(name);
    if (name === 'a') inA = true;
  }
  return open.length === 0;
}

/** An element read here: parse5's fields that the readers use, with its source offsets. */
interface Read extends Element {
  sourceCodeLocation: Span & { startTag: Span; endTag?: Span };
}

/** The nodes of `s` as parse5's `parseFragment` gives them (with offsets), or null for anything else. */
export function readSimple(s: string): ChildNode[] | null {
  const top: ChildNode[] = [];
  const ok = readWith<Read>(s, {
    element(name, attr, value, parent, start, end) {
      const el: Read = {
        nodeName: name,
        tagName: name,
        namespaceURI: HTML_NS,
        attrs: attr ? [{ name: attr, value }] : [],
        childNodes: [],
        sourceCodeLocation: { startOffset: start, endOffset: end, startTag: { startOffset: start, endOffset: end } },
      };
      (parent ? parent.childNodes : top).push(el);
      return el;
    },
    text(value, parent, start, end) {
      const text: Text = { nodeName: '#text', value, sourceCodeLocation: { startOffset: start, endOffset: end } };
      (parent ? parent.childNodes : top).push(text);
    },
    close(el, start, end) {
      el.sourceCodeLocation.endTag = { startOffset: start, endOffset: end };
      el.sourceCodeLocation.endOffset = end;
    },
  });
  return ok ? top : null;
}

/** Reads the tag at `at` (a `<`) into `tag`; false for any other shape. By hand: every tag goes through here. */
function readTag(s: string, at: number, tag: Tag): boolean {
  let i = at + 1;
  const close = s.charCodeAt(i) === 47; // '/'
  if (close) i++;
  const start = i;
  let c = s.charCodeAt(i);
  if (!(c >= 97 && c <= 122)) return false;
  for (i++, c = s.charCodeAt(i); (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45; c = s.charCodeAt(++i));
  const name = s.slice(start, i);
  let attr: Tag['attr'] = null;
  let value = '';
  if (s.startsWith(' i=', i)) attr = 'i';
  else if (s.startsWith(' id=', i)) attr = 'id';
  if (attr) {
    i += attr.length + 2;
    const quoted = s.charCodeAt(i) === 34; // '"'
    if (quoted) i++;
    const from = i;
    for (c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i));
    if (i === from || i - from > 9) return false;
    value = s.slice(from, i);
    if (quoted) {
      if (s.charCodeAt(i) !== 34) return false;
      i++;
    }
  }
  if (s.charCodeAt(i) !== 62) return false; // '>'
  tag.close = close;
  tag.name = name;
  tag.attr = attr;
  tag.value = value;
  tag.end = i + 1;
  return true;
}

/** Text between tags with its character references resolved; null for one we do not read. */
function decode(s: string, from: number, to: number): string | null {
  let amp = s.indexOf('&', from);
  if (amp < 0 || amp >= to) return s.slice(from, to);
  let out = '';
  let at = from;
  while (amp >= 0 && amp < to) {
    ENTITY.lastIndex = amp;
    const m = ENTITY.exec(s);
    if (!m || ENTITY.lastIndex > to) return null;
    let c: string;
    if (m[1]) c = NAMED[m[1]]!;
    else {
      const cp = m[2] ? Number(m[2]) : parseInt(m[3]!, 16);
      if (!plain(cp)) return null;
      c = String.fromCodePoint(cp);
    }
    out += s.slice(at, amp) + c;
    at = ENTITY.lastIndex;
    amp = s.indexOf('&', at);
  }
  return out + s.slice(at, to);
}

/** A code point a numeric reference yields unchanged (no control, surrogate or noncharacter). */
function plain(cp: number): boolean {
  if (cp === 9 || cp === 10) return true;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return false;
  return cp <= 0x10ffff;
}
