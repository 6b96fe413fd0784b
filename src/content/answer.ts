/**
 * An answer, read into plain data: the unit wrappers (`<p i=N>`) by id, each a tree of text and
 * elements that carry only their id. The merge needs nothing else.
 *
 * Answers are our own markup coming back (the engine's safe rebuild writes only the input's tags,
 * and text escaped), so most are read by a small exact reader of that markup: well-nested `p`,
 * the phrasing tags chunk.ts sends, `br`/`img`, only an `i` attribute, the entities the engine
 * writes. For such input the HTML parser builds exactly this tree (no implied tags, no adoption,
 * no reconstruction), and no Document, node or wrapper is made (measured: a DOMParser document per
 * answer was the largest self time of write-back, ~0.4 ms each). Anything else (another tag or
 * attribute, a comment, a stray or missing end tag, an unknown entity, CR or NUL) goes to the
 * HTML parser off-page, as before, and is read from its tree: same result, slower.
 */

/** An element of an answer: its `i` (null: none, or not a number), its content. */
export interface AnswerEl {
  id: number | null;
  kids: AnswerNode[];
}
export type AnswerNode = string | AnswerEl;

/** The tags the reader accepts inside a wrapper (chunk.ts PHRASING, `code` placeholders). */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'data', 'dfn', 'em', 'i', 'mark', 'q', 's', 'small', 'span', 'strong',
  'sub', 'sup', 'time', 'u', 'font', 'big', 'tt', 'strike', 'del', 'ins', 'code',
]);
const VOID = new Set(['br', 'img']);
const ENTITY = /&(?:(amp|lt|gt|quot|apos|nbsp);|#(\d{1,7});|#[xX]([0-9a-fA-F]{1,6});)/y;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** Blink flattens deeper trees while parsing. */
const MAX_DEPTH = 200;

/** The wrappers of an answer by id (the first of a repeated id wins, as `querySelectorAll` order). */
export function readAnswer(markup: string, doc: Document = document): Map<number, AnswerEl> {
  return readOwn(markup) ?? readParsed(parseOffPage(markup, doc));
}

/** The text of an element of an answer, as `textContent` gives it. */
export function textOf(el: AnswerEl): string {
  let out = '';
  for (const k of el.kids) out += typeof k === 'string' ? k : textOf(k);
  return out;
}

/** Our own markup read exactly; null for anything the HTML parser would treat otherwise. */
export function readOwn(markup: string): Map<number, AnswerEl> | null {
  if (markup.includes('\r') || markup.includes('\0')) return null;
  const out = new Map<number, AnswerEl>();
  const stack: { name: string; el: AnswerEl }[] = [];
  let inA = 0;
  let at = 0;
  const n = markup.length;
  while (at < n) {
    const lt = markup.indexOf('<', at);
    const end = lt < 0 ? n : lt;
    if (end > at && stack.length) {
      const text = decode(markup, at, end);
      if (text === null) return null;
      stack[stack.length - 1]!.el.kids.push(text);
    }
    if (lt < 0) break;
    const tag = readTag(markup, lt);
    if (!tag) return null;
    at = tag.end;
    const name = tag.name;
    if (tag.close) {
      // An end tag closes the element it names, which must be the current one.
      if (tag.id !== null || stack.length === 0 || stack[stack.length - 1]!.name !== name) return null;
      stack.pop();
      if (name === 'a') inA--;
      continue;
    }
    const el: AnswerEl = { id: tag.id, kids: [] };
    if (name === 'p') {
      // A wrapper only at the top: a `p` anywhere else would close the open one.
      if (stack.length) return null;
      if (el.id !== null && !out.has(el.id)) out.set(el.id, el);
      stack.push({ name, el });
      continue;
    }
    if (stack.length === 0 || stack.length > MAX_DEPTH) return null;
    if (VOID.has(name)) {
      stack[stack.length - 1]!.el.kids.push(el);
      continue;
    }
    // A nested <a> makes the parser close the open one.
    if (!INLINE.has(name) || (name === 'a' && inA > 0)) return null;
    if (name === 'a') inA++;
    stack[stack.length - 1]!.el.kids.push(el);
    stack.push({ name, el });
  }
  return stack.length === 0 ? out : null;
}

interface Tag {
  close: boolean;
  name: string;
  id: number | null;
  /** Just after the tag's `>`. */
  end: number;
}

/**
 * `<name>`, `<name i=N>`, `<name i="N">` or `</name>` at `at` (name: a-z then a-z0-9; N: 1 to 9
 * digits); null for anything else. By hand: the answer's every tag goes through here.
 */
function readTag(s: string, at: number): Tag | null {
  let i = at + 1;
  const close = s.charCodeAt(i) === 47; // '/'
  if (close) i++;
  const start = i;
  let c = s.charCodeAt(i);
  if (!(c >= 97 && c <= 122)) return null;
  for (i++, c = s.charCodeAt(i); (c >= 97 && c <= 122) || (c >= 48 && c <= 57); c = s.charCodeAt(++i));
  const name = s.slice(start, i);
  let id: number | null = null;
  if (s.startsWith(' i=', i)) {
    i += 3;
    const quoted = s.charCodeAt(i) === 34; // '"'
    if (quoted) i++;
    const from = i;
    for (c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i));
    if (i === from || i - from > 9) return null;
    id = Number(s.slice(from, i));
    if (quoted) {
      if (s.charCodeAt(i) !== 34) return null;
      i++;
    }
  }
  if (s.charCodeAt(i) !== 62) return null; // '>'
  return { close, name, id, end: i + 1 };
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

/**
 * Parses markup into an inert fragment; nothing in it can run or load: the fragment belongs to
 * DOMParser's document, which has no browsing context. The nodes stay in that document: adopted
 * into the page's, an <img> would load. (A Range's createContextualFragment was ~25% faster, but
 * AMO's linter flags it: issue 8, web-ext lint with no warning of ours.)
 */
export function parseOffPage(markup: string, doc: Document = document): DocumentFragment {
  const view = doc.defaultView as (Window & { DOMParser: typeof DOMParser }) | null;
  const Parser = view?.DOMParser ?? DOMParser;
  const parsed = new Parser().parseFromString(`<!doctype html><body>${markup}`, 'text/html');
  const frag = parsed.createDocumentFragment();
  const body = parsed.body;
  while (body.firstChild) frag.appendChild(body.firstChild);
  return frag;
}

/** The wrappers of a parsed answer, read the same way. */
export function readParsed(frag: DocumentFragment): Map<number, AnswerEl> {
  const out = new Map<number, AnswerEl>();
  for (const el of frag.querySelectorAll('p[i]')) {
    const id = idOf(el);
    if (id !== null && !out.has(id)) out.set(id, fromDom(el));
  }
  return out;
}

function fromDom(el: Element): AnswerEl {
  const kids: AnswerNode[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1) kids.push(fromDom(c as Element));
    else if (c.nodeType !== 3) continue;
    // Adjacent texts as one, as the reader has them (a parser that splits a run changes nothing).
    else if (typeof kids[kids.length - 1] === 'string') kids[kids.length - 1] += (c as Text).data;
    else kids.push((c as Text).data);
  }
  return { id: idOf(el), kids };
}

function idOf(el: Element): number | null {
  const m = /^\s*(\d{1,9})\s*$/.exec(el.getAttribute('i') ?? '');
  return m ? Number(m[1]) : null;
}
