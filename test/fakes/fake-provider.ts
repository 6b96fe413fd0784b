/**
 * A deterministic in-process provider for unit and DOM tests. It "translates" by upper-casing the
 * text outside tags and appending ` (<id>)`-free markers only where asked, counts its requests and
 * can be told to fail, hang or lag.
 */
import { ProviderError } from '../../src/core/errors';
import type { LanguageSupport, Pair, Provider, ProviderModule } from '../../src/core/provider';
import type { ProviderId, RouteErrorCode } from '../../src/core/types';

export interface FakeOptions {
  id?: ProviderId;
  name?: string;
  languages?: LanguageSupport;
  /** Milliseconds before answering. */
  latencyMs?: number;
  /** Fail every request with this code. */
  failWith?: RouteErrorCode;
  /** Fail requests containing this substring with 400 (to test per-segment retries). */
  rejectText?: string;
  /** Never answer (until aborted). */
  hang?: boolean;
  limits?: { chars: number; segments: number };
  html?: boolean;
  needsKey?: boolean;
  /** How a segment is transformed; default upper-cases text outside tags. */
  transform?: (segment: string, pair: Pair) => string;
}

export interface FakeStats {
  requests: { segments: string[]; pair: Pair; format: string; domain: string }[];
  aborted: number;
}

export const upperOutsideTags = (s: string): string =>
  s.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) => tag ?? (text ?? '').toUpperCase());

export function fakeProvider(options: FakeOptions = {}): { module: ProviderModule; stats: FakeStats } {
  const stats: FakeStats = { requests: [], aborted: 0 };
  const id = options.id ?? 'fake.ts';
  const languages: LanguageSupport = options.languages ?? { src: ['en', 'es', 'fr', 'de', 'pt'], trg: ['en', 'es', 'fr', 'de', 'pt'] };
  const transform = options.transform ?? ((s: string) => upperOutsideTags(s));
  const provider: Provider = {
    id,
    name: options.name ?? `Fake ${id}`,
    limits: options.limits ?? { chars: 5000, segments: 50 },
    html: options.html ?? true,
    async languages() {
      return languages;
    },
    translateBatch(segments, pair, batch, signal) {
      stats.requests.push({ segments: [...segments], pair, format: batch.format, domain: batch.domain });
      return new Promise<string[]>((resolve, reject) => {
        const onAbort = () => {
          stats.aborted += 1;
          clearTimeout(timer);
          reject(new ProviderError(408, 'aborted'));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        const answer = () => {
          signal.removeEventListener('abort', onAbort);
          if (options.failWith) return reject(new ProviderError(options.failWith, 'fake failure'));
          if (options.rejectText && segments.some((s) => s.includes(options.rejectText!))) {
            return reject(new ProviderError(400, 'fake refused the input'));
          }
          resolve(segments.map((s) => transform(s, pair)));
        };
        const timer = options.hang ? undefined : setTimeout(answer, options.latencyMs ?? 0);
      });
    },
  };
  const module: ProviderModule = {
    id,
    name: provider.name,
    needsKey: options.needsKey ?? false,
    enabledByDefault: true,
    create: () => provider,
  };
  return { module, stats };
}
