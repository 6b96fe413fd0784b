/** A provider whose every request is answered by a script: text, error, or never (until aborted). */
import { ProviderError } from '../../../src/core/errors';
import type { Pair, Provider } from '../../../src/core/provider';

export interface Req {
  segments: string[];
  pair: Pair;
  start: number;
  aborted: boolean;
}

export type Answer = string[] | ProviderError | 'hang';

export function scripted(options: {
  id?: string;
  limits?: { chars: number; segments: number };
  latencyMs?: number;
  /** n: index of the request (0-based). Default: upper-case every segment. */
  answer?: (segments: string[], n: number) => Answer;
}) {
  const requests: Req[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const t0 = performance.now();
  const provider: Provider = {
    id: (options.id ?? 'p.ts') as `${string}.ts`,
    name: 'Scripted',
    limits: options.limits ?? { chars: 100, segments: 10 },
    html: true,
    languages: async () => ({ src: ['en', 'es', 'fr'], trg: ['en', 'es', 'fr'] }),
    translateBatch(segments, pair, _opts, signal) {
      const req: Req = { segments: [...segments], pair, start: performance.now() - t0, aborted: false };
      const n = requests.push(req) - 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = (options.answer ?? ((s) => s.map((x) => x.toUpperCase())))([...segments], n);
      return new Promise<string[]>((resolve, reject) => {
        const end = () => {
          inFlight -= 1;
          signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          req.aborted = true;
          clearTimeout(timer);
          end();
          reject(new ProviderError(408, 'aborted'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const timer =
          answer === 'hang'
            ? undefined
            : setTimeout(() => {
                end();
                if (answer instanceof ProviderError) reject(answer);
                else resolve(answer);
              }, options.latencyMs ?? 5);
      });
    },
  };
  return { provider, requests, stats: () => ({ maxInFlight, inFlight }) };
}

export const never = () => new AbortController().signal;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const opts = { format: 'text', domain: 'general' } as const;
export const pair = { src: 'en', trg: 'es' };
export const rate = (over: Partial<{ concurrency: number; rps: number; windowMs: number; timeoutMs: number }> = {}) => ({
  concurrency: 4,
  rps: 1000,
  windowMs: 5,
  timeoutMs: 0,
  ...over,
});
