/** Runs one route (direct, or two legs chained through an interlingua) over a list of texts. */
import { ProviderError, toProviderError } from '../errors';
import { protect } from '../html/protect';
import type { BatchOptions } from '../provider';
import { parseRoute } from '../routes/routes';
import { htmlToText, type Glossary } from './glossary';
import type { RunContext } from './context';
import { translateLeg, type Outcome } from './leg';

/** What runs a route: the providers, and each leg's codes as its provider lists them (RouteTable `legs`). */
export type RouteEngine = Pick<RunContext, 'providers' | 'legs'>;

export async function runRoute(
  rid: string,
  texts: readonly string[],
  src: string,
  trg: string,
  engine: RouteEngine,
  options: BatchOptions,
  signal: AbortSignal,
): Promise<Outcome[]> {
  const legs = engine.legs ? engine.legs(rid, src, trg) : parseRoute(rid, src, trg);
  if (!legs) return texts.map(() => new ProviderError(400, `not a route: ${rid}`));
  let current: Outcome[] = [...texts];
  for (const leg of legs) {
    const provider = engine.providers.get(leg.provider);
    if (!provider) return texts.map(() => new ProviderError(503, `${leg.provider} is not available`));
    const todo = current.flatMap((o, i) => (o instanceof ProviderError ? [] : [i]));
    if (todo.length === 0) break;
    const out = await translateLeg(provider, todo.map((i) => current[i] as string), { src: leg.src, trg: leg.trg }, options, signal);
    const next = [...current];
    todo.forEach((textIndex, k) => {
      const o = out[k]!;
      // The err of a chained route says which leg failed.
      next[textIndex] = o instanceof ProviderError ? o.of(leg.provider) : o;
    });
    current = next;
  }
  return current;
}

/**
 * Text-format texts with the user's glossary: a text holding a term travels as a one-chunk
 * document (the term kept verbatim, see glossary.ts) and comes back as text; the others as text.
 */
export async function runTextRoute(
  rid: string,
  texts: readonly string[],
  src: string,
  trg: string,
  engine: RouteEngine,
  options: BatchOptions,
  signal: AbortSignal,
  glossary: Glossary | undefined,
): Promise<Outcome[]> {
  const marked = glossary ? texts.map((t) => glossary.markText(t)) : [];
  if (!glossary || marked.every((m) => m === undefined)) return runRoute(rid, texts, src, trg, engine, options, signal);
  const plain = texts.flatMap((_, i) => (marked[i] === undefined ? [i] : []));
  const withTerms = texts.flatMap((_, i) => (marked[i] === undefined ? [] : [i]));
  const prots = withTerms.map((i) => protect(marked[i]!));
  const sent = prots.flatMap((p) => p.segments.slice(0, 1));
  const [plainOut, htmlOut] = await Promise.all([
    runRoute(rid, plain.map((i) => texts[i]!), src, trg, engine, options, signal),
    sent.length ? runRoute(rid, sent, src, trg, engine, { ...options, format: 'html' }, signal) : Promise.resolve([]),
  ]);
  const out: Outcome[] = [...texts];
  plain.forEach((i, k) => (out[i] = plainOut[k]!));
  let next = 0;
  withTerms.forEach((i, k) => {
    const p = prots[k]!;
    const answer = p.segments.length ? htmlOut[next++]! : undefined;
    if (answer instanceof ProviderError) out[i] = answer;
    else {
      try {
        out[i] = htmlToText(glossary.unmark(p.restore(answer === undefined ? [] : [answer])));
      } catch (e) {
        out[i] = toProviderError(e);
      }
    }
  });
  return out;
}
