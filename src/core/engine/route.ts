/** Runs one route (direct, or two legs chained through an interlingua) over a list of texts. */
import { ProviderError } from '../errors';
import type { BatchOptions, Provider } from '../provider';
import { parseRoute } from '../routes/routes';
import { translateLeg, type Outcome } from './leg';

export async function runRoute(
  rid: string,
  texts: readonly string[],
  src: string,
  trg: string,
  providers: ReadonlyMap<string, Provider>,
  options: BatchOptions,
  signal: AbortSignal,
): Promise<Outcome[]> {
  const legs = parseRoute(rid, src, trg);
  if (!legs) return texts.map(() => new ProviderError(400, `not a route: ${rid}`));
  let current: Outcome[] = [...texts];
  for (const leg of legs) {
    const provider = providers.get(leg.provider);
    if (!provider) return texts.map(() => new ProviderError(503, `${leg.provider} is not available`));
    const todo = current.flatMap((o, i) => (o instanceof ProviderError ? [] : [i]));
    if (todo.length === 0) break;
    const out = await translateLeg(provider, todo.map((i) => current[i] as string), { src: leg.src, trg: leg.trg }, options, signal);
    const next = [...current];
    todo.forEach((textIndex, k) => {
      const o = out[k]!;
      // The err of a chained route says which leg failed.
      next[textIndex] = o instanceof ProviderError ? new ProviderError(o.code, `${leg.provider}: ${o.message}`, o.retryAfterMs) : o;
    });
    current = next;
  }
  return current;
}
