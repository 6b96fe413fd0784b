/**
 * Translate in document format (frm=html): the document is split into block-level chunks, each
 * chunk's markup reduced to id-only placeholder tags, and translated; a chunk whose route fails
 * is retried on the next route of the list, and one that no route translated keeps its original
 * markup with the err of its last route (decisions.md "Document format").
 */
import { ProviderError, routeErr, toProviderError } from '../errors';
import { splitDocument } from '../html/chunks';
import { protect, type Protected } from '../html/protect';
import { LostMarkupError } from '../html/rebuild';
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

/** A chunk of `source`, its markup marked for the glossary if there is one. */
function chunkOf(source: string, ctx: RunContext): Chunk {
  return { source, prot: protect(ctx.glossary ? ctx.glossary.markHtml(source) : source) };
}

/**
 * One route over several chunks: markup segments in HTML mode, attribute values as text. A chunk
 * of several blocks whose answer lost their tags (rebuild.ts `LostMarkupError`: a provider that
 * strips markup) is sent again block by block on the same route (`whole`: not again for those),
 * where an answer without its one block's tags is that block's content.
 */
async function tryRoute(rid: string, chunks: Chunk[], req: TranslateRequest, ctx: RunContext, signal: AbortSignal, whole = true): Promise<Chunk[]> {
  const markup = chunks.map((c) => c.prot.segments[0]!);
  const attrs = chunks.flatMap((c, ci) => c.prot.segments.slice(1).map((value) => ({ ci, value })));
  const run = (texts: string[], format: 'text' | 'html'): Promise<Outcome[]> =>
    texts.length === 0
      ? Promise.resolve([])
      : runRoute(rid, texts, req.src, req.trg, ctx, { format, domain: req.dom, background: ctx.background, foreground: ctx.foreground }, signal).catch((e: unknown) =>
          texts.map(() => toProviderError(e)),
        );
  const [mk, at] = await Promise.all([run(markup, 'html'), run(attrs.map((a) => a.value), 'text')]);
  const done: Chunk[] = [];
  const lost: Chunk[] = [];
  chunks.forEach((chunk, ci) => {
    const outcomes = [mk[ci]!, ...attrs.flatMap((a, k) => (a.ci === ci ? [at[k]!] : []))];
    let failed = outcomes.find((o): o is ProviderError => o instanceof ProviderError);
    if (!failed) {
      try {
        const dat = chunk.prot.restore(outcomes as string[]);
        chunk.out = { dat: ctx.glossary ? ctx.glossary.unmark(dat) : dat, rid, cnt: 0, length: chunk.prot.chars };
        done.push(chunk);
        return;
      } catch (e) {
        failed = toProviderError(e);
      }
    }
    chunk.lastError = failed;
    chunk.lastRid = rid;
    // One block without words: sent alone, it would come back so again.
    if (whole && failed instanceof LostMarkupError && failed.blocks > 1 && !signal.aborted) lost.push(chunk);
  });
  if (lost.length) done.push(...(await byBlock(rid, lost, req, ctx, signal)));
  return done;
}

/**
 * `lost` chunks translated block by block on route `rid`, their blocks sent together: those whose
 * every block was translated (their `out` set); a chunk with a block that failed keeps that
 * block's error.
 */
async function byBlock(rid: string, lost: Chunk[], req: TranslateRequest, ctx: RunContext, signal: AbortSignal): Promise<Chunk[]> {
  // At a budget of 0 every block is a chunk of its own; what lies between them stays as it is.
  const parts = lost.map((chunk) => splitDocument(chunk.source, 0).map((source) => chunkOf(source, ctx)));
  await tryRoute(rid, parts.flatMap((ps) => ps.filter(translatable)), req, ctx, signal, false);
  return lost.filter((chunk, i) => {
    const failed = parts[i]!.find((p) => translatable(p) && !p.out);
    if (failed) {
      chunk.lastError = failed.lastError;
      return false;
    }
    chunk.out = { dat: parts[i]!.map((p) => p.out?.dat ?? p.source).join(''), rid, cnt: 0, length: chunk.prot.chars };
    return true;
  });
}

export async function translateDocument(req: TranslateRequest, routes: readonly string[], ctx: RunContext): Promise<ApiReply> {
  const sources = splitDocument(req.dat[0] ?? '', CHUNK_CHARS);
  const sum = sources.length;
  const chunks: Chunk[] = sources.map((source) => chunkOf(source, ctx));
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

/** A page call as the content script writes it: blocks, phrasing with ids, a reference. */
const REHEARSAL = '<p i=1>A <b i=2>short</b> text, <a i=3>a link</a>.</p><p i=4>One &amp; two.</p>';

/**
 * A page call's document code run once on a small sample, with no provider: split, protect, and
 * restore from an answer that wraps every text. A worker that a trigger's warning woke (a
 * right-click, a held shortcut chord, the popup opening) has then compiled what its first call
 * runs; cold, that code held the first call 5–30 ms before its first request
 * (docs/page-translation.md, round of stop 69).
 * Returns the restored sample (tests: the round trip is whole).
 */
export function rehearseDocument(): string {
  return splitDocument(REHEARSAL, CHUNK_CHARS)
    .map((source) => {
      const prot = protect(source);
      return prot.restore(prot.segments.map((s) => s.replace(/(^|>)([^<]+)/g, '$1[$2]')));
    })
    .join('');
}
