/**
 * Translate in text format: min/max/timeout and failover (decisions.md "Translate: min, max,
 * timeout and failover"). The first `max` routes start at once; a failed route is replaced by the
 * next one while `min` successes could otherwise no longer be reached. With hedging (issue 4), a
 * route still running after its recent p90 latency starts the next route too; the first answers
 * win, and no more than `min` (<= max) successes are ever kept.
 */
import { ProviderError, routeErr, toProviderError } from '../errors';
import type { ApiReply, TranslateRequest, TrObj } from '../types';
import type { Outcome } from './leg';
import { runTextRoute } from './route';
import { codePoints } from './segments';
import type { RunContext } from './context';

export function translateText(req: TranslateRequest, routes: readonly string[], ctx: RunContext): Promise<ApiReply> {
  const length = req.dat.reduce((n, d) => n + codePoints(d), 0);
  const results = new Map<number, TrObj>();
  const running = new Map<number, AbortController>();
  /** Per route: segments asked of the providers, and how many the translation memory answered. */
  const memory = new Map<number, { hits: number; segments: number }>();
  const hedges = new Set<ReturnType<typeof setTimeout>>();
  let successes = 0;
  let next = 0;
  let finished = false;

  return new Promise<ApiReply>((resolve) => {
    const settle = (i: number, outcomes: Outcome[]) => {
      if (finished) return;
      running.delete(i);
      const rid = routes[i]!;
      const err = outcomes.find((o): o is ProviderError => o instanceof ProviderError);
      const tr: TrObj = err ? { rid, err: routeErr(err), length: 0 } : { rid, text: outcomes as string[], length };
      results.set(i, tr);
      if (!err) successes += 1;
      const m = memory.get(i);
      ctx.onResult?.(tr, { cached: !err && m !== undefined && m.segments > 0 && m.hits === m.segments });
      while (successes + running.size < req.min && next < routes.length) start(next++);
      if (successes >= req.min || running.size === 0) finish('done');
    };

    const start = (i: number) => {
      const ac = new AbortController();
      running.set(i, ac);
      const m = { hits: 0, segments: 0 };
      memory.set(i, m);
      const onCached = (hits: number, segments: number) => {
        m.hits += hits;
        m.segments += segments;
      };
      const after = ctx.hedgeAfterMs?.(routes[i]!);
      if (after !== undefined) {
        const hedge = setTimeout(() => {
          hedges.delete(hedge);
          if (!finished && running.has(i) && successes < req.min && next < routes.length) start(next++);
        }, after);
        hedges.add(hedge);
      }
      runTextRoute(routes[i]!, req.dat, req.src, req.trg, ctx, { format: 'text', domain: req.dom, onCached, background: ctx.background, foreground: ctx.foreground }, ac.signal, ctx.glossary)
        .catch((e: unknown) => req.dat.map(() => toProviderError(e)))
        .then((outcomes) => settle(i, outcomes));
    };

    const finish = (why: 'done' | 'timeout' | 'cancelled') => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      for (const h of hedges) clearTimeout(h);
      ctx.signal?.removeEventListener('abort', onCancel);
      for (const [i, ac] of running) {
        ac.abort();
        if (why !== 'done') {
          const tr: TrObj = { rid: routes[i]!, err: `408 timed out after ${req.timeout} s`, length: 0 };
          results.set(i, tr);
          ctx.onResult?.(tr);
        }
      }
      const dat = [...results.entries()].sort((a, b) => a[0] - b[0]).map(([, tr]) => tr);
      if (successes > 0) return resolve({ status: 200, body: { dat } });
      const status = why === 'done' ? 503 : 408;
      const summary = dat.map((tr) => `${tr.rid}: ${tr.err}`).join('; ');
      const err = why === 'cancelled' ? 'cancelled by the caller' : `no route succeeded (${summary || 'no route'})`;
      resolve({ status, body: { err, dat } });
    };

    const onCancel = () => finish('cancelled');
    const timer = setTimeout(() => finish('timeout'), req.timeout * 1000);
    if (ctx.signal?.aborted) return finish('cancelled');
    ctx.signal?.addEventListener('abort', onCancel, { once: true });
    const first = Math.min(req.max, routes.length);
    if (first === 0) return finish('done');
    while (next < first) start(next++);
  });
}
