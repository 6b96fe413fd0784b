/**
 * Translate in document format (frm=html): the document is split into block-level chunks, each
 * chunk's markup reduced to id-only placeholder tags, and translated; a chunk whose route fails
 * is retried on the next route of the list, and one that no route translated keeps its original
 * markup with the err of its last route (decisions.md "Document format").
 */
import { ProviderError, routeErr, toProviderError } from '../errors';
import { splitDocument } from '../html/chunks';
import { protect, type Protected } from '../html/protect';
import type { ApiReply, TranslateRequest, TrdObj } from '../types';
import type { RunContext } from './context';
import type { Outcome } from './leg';
import { runRoute } from './route';

/**
 * Text per chunk: small enough that one failure loses little, large enough to keep context. The
 * default text limit, so a request within it is one chunk: at 600, a page's 1000-character calls
 * made 1.25-1.5 Apertium requests each (readability-wikipedia: 166 requests for 133 calls).
 */
export const CHUNK_CHARS = 1000;

interface Chunk {
  source: string;
  prot: Protected;
  /** Set once the chunk is final (translated, or failed on every route). */
  out?: TrdObj;
  lastError?: ProviderError;
  /** The last route that failed this chunk: the `rid` its failure is reported under. */
  lastRid?: string;
}

const translatable = (c: Chunk) => c.prot.segments.length > 0;

/** One route over several chunks: markup segments in HTML mode, attribute values as text. */
async function tryRoute(rid: string, chunks: Chunk[], req: TranslateRequest, ctx: RunContext, signal: AbortSignal) {
  const markup = chunks.map((c) => c.prot.segments[0]!);
  const attrs = chunks.flatMap((c, ci) => c.prot.segments.slice(1).map((value) => ({ ci, value })));
  const run = (texts: string[], format: 'text' | 'html'): Promise<Outcome[]> =>
    texts.length === 0
      ? Promise.resolve([])
      : runRoute(rid, texts, req.src, req.trg, ctx.providers, { format, domain: req.dom, background: ctx.background, foreground: ctx.foreground }, signal).catch((e: unknown) =>
          texts.map(() => toProviderError(e)),
        );
  const [mk, at] = await Promise.all([run(markup, 'html'), run(attrs.map((a) => a.value), 'text')]);
  const done: Chunk[] = [];
  chunks.forEach((chunk, ci) => {
    const outcomes = [mk[ci]!, ...attrs.flatMap((a, k) => (a.ci === ci ? [at[k]!] : []))];
    const failed = outcomes.find((o): o is ProviderError => o instanceof ProviderError);
    if (failed) {
      chunk.lastError = failed;
      chunk.lastRid = rid;
      return;
    }
    try {
      const dat = chunk.prot.restore(outcomes as string[]);
      chunk.out = { dat: ctx.glossary ? ctx.glossary.unmark(dat) : dat, rid, cnt: 0, length: chunk.prot.chars };
      done.push(chunk);
    } catch (e) {
      chunk.lastError = toProviderError(e);
      chunk.lastRid = rid;
    }
  });
  return done;
}

export async function translateDocument(req: TranslateRequest, routes: readonly string[], ctx: RunContext): Promise<ApiReply> {
  const sources = splitDocument(req.dat[0] ?? '', CHUNK_CHARS);
  const sum = sources.length;
  const glossary = ctx.glossary;
  const chunks: Chunk[] = sources.map((source) => ({ source, prot: protect(glossary ? glossary.markHtml(source) : source) }));
  const finalize = (c: Chunk, out: Omit<TrdObj, 'cnt' | 'sum'>) => {
    c.out = { ...out, cnt: chunks.indexOf(c) + 1, sum };
    ctx.onResult?.(c.out);
  };

  const ac = new AbortController();
  const onCancel = () => ac.abort();
  ctx.signal?.addEventListener('abort', onCancel, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort();
  }, req.timeout * 1000);
  try {
    for (const rid of routes) {
      const pending = chunks.filter((c) => translatable(c) && !c.out);
      if (pending.length === 0 || ac.signal.aborted) break;
      for (const c of await tryRoute(rid, pending, req, ctx, ac.signal)) finalize(c, c.out!);
    }
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onCancel);
  }

  const rid0 = routes[0] ?? '';
  const stopped = timedOut ? new ProviderError(408, `timed out after ${req.timeout} s`) : undefined;
  for (const c of chunks) {
    if (c.out) continue;
    if (!translatable(c)) finalize(c, { dat: c.source, rid: rid0, length: 0 });
    else {
      const err = stopped ?? c.lastError ?? new ProviderError(503, 'no route for this pair');
      finalize(c, { dat: c.source, rid: c.lastRid ?? rid0, err: routeErr(err), length: 0 });
    }
  }
  const dat = chunks.map((c) => c.out!);
  const anyText = chunks.some(translatable);
  if (anyText && !chunks.some((c) => translatable(c) && !c.out!.err)) {
    const status = timedOut || ac.signal.aborted ? 408 : 503;
    return { status, body: { err: `no route translated the document (${dat.find((d) => d.err)?.err})`, dat } };
  }
  return { status: 200, body: dat };
}
