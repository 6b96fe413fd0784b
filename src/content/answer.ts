/**
 * An answer, read into plain data: the unit wrappers (`<p i=N>`) by id, each a tree of text and
 * elements that carry only their id. The merge needs nothing else.
 *
 * Answers are our own markup coming back (the engine's safe rebuild writes only the input's tags,
 * and text escaped), so most are read by the engine's small exact reader of that markup
 * (core/html/simple.ts: well-nested `p`, the phrasing tags chunk.ts sends, `br`/`img`, only an
 * `i` attribute, the entities the engine writes). For such input the HTML parser builds exactly
 * that tree, and no Document, node or wrapper is made (measured: a DOMParser document per answer
 * was the largest self time of write-back, ~0.4 ms each). Anything else (another tag or
 * attribute, a comment, a stray or missing end tag, an unknown entity, CR or NUL) goes to the
 * HTML parser off-page, as before, and is read from its tree: same result, slower.
 */
import { readWith } from '../core/html/simple';
import type { ApiReply } from '../core/types';
import { PortClosedError } from '../shared/messages';

/** How a call ended: its error if it failed, and `lost` if it went with the worker (`PortClosedError`). */
export function callOutcome(sent: Promise<ApiReply>): Promise<{ error?: string; lost?: boolean }> {
  return sent.then(
    (reply) => (reply.status === 200 ? {} : { error: replyError(reply) }),
    (e: unknown) => (e instanceof PortClosedError ? { error: e.message, lost: true } : { error: e instanceof Error ? e.message : String(e) }),
  );
}

function replyError(reply: ApiReply): string {
  const err = (reply.body as { err?: unknown } | null)?.err;
  return `${reply.status} ${typeof err === 'string' ? err : 'translation failed'}`;
}

/** An element of an answer: its `i` (null: none, or not a number), its content. */
export interface AnswerEl {
  id: number | null;
  kids: AnswerNode[];
}
export type AnswerNode = string | AnswerEl;

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

/** Our own markup read exactly (core/html/simple.ts); null for anything the HTML parser would treat otherwise. */
export function readOwn(markup: string): Map<number, AnswerEl> | null {
  const out = new Map<number, AnswerEl>();
  const ok = readWith<AnswerEl>(markup, {
    element(name, attr, value, parent) {
      // The reader's `i` (1 to 9 digits), as `idOf` reads it from the DOM.
      const el: AnswerEl = { id: attr === 'i' ? Number(value) : null, kids: [] };
      // Wrappers are only at the top there; what is outside them is no unit's.
      if (parent) parent.kids.push(el);
      else if (name === 'p' && el.id !== null && !out.has(el.id)) out.set(el.id, el);
      return el;
    },
    text(value, parent) {
      if (parent) parent.kids.push(value);
    },
    close() {},
  });
  return ok ? out : null;
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
