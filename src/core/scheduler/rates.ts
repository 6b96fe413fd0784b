/**
 * Rate budgets per provider: how many requests may be in flight and how many may start per second.
 * One table of defaults; the user overrides them with a `rate` object in the provider's settings
 * (`"deepl.ts": {"rate": {"concurrency": 2, "rps": 5}}`).
 */
import type { ProviderSettings } from '../provider';

export interface RateSettings {
  /** Provider requests in flight at once. */
  concurrency: number;
  /** Requests started per second (token bucket refill; the burst is max(1, rps)). */
  rps: number;
  /** Coalescing window in ms: how long a burst may gather before a partial request goes out. */
  windowMs: number;
  /**
   * Longest a single provider request may take before it is abandoned and retried; 0: adaptive
   * (5 x recent p90 latency, at least 2 s; 30 s before 5 requests have answered).
   */
  timeoutMs: number;
}

/**
 * Defaults by provider id. Figures are the services' published free-tier limits, kept a little
 * under so a shared key still has room; APy's from TOOLCHAIN.md (~20 req/s with 4 clients on 2 cores).
 */
export const DEFAULT_RATES: Readonly<Record<string, Partial<RateSettings>>> = {
  'apertium.ts': { concurrency: 4, rps: 20 },
  'deepl.ts': { concurrency: 4, rps: 10 },
  'google.ts': { concurrency: 6, rps: 10 },
  'microsoft.ts': { concurrency: 4, rps: 10 },
  // LLM servers (often one local GPU) answer one prompt at a time faster than several.
  'llm.ts': { concurrency: 2, rps: 4 },
  'mymemory.ts': { concurrency: 2, rps: 2 },
  'libre.ts': { concurrency: 2, rps: 5 },
};

/**
 * For providers missing from the table (new ones, test fakes): 50 rps keeps a page's burst of
 * requests from being spread over seconds while a service's own limits are unknown.
 * windowMs is only a floor on how long a partial request waits while others are in flight (the
 * wait is max(windowMs, p50/2)): the bench's sweep (0-30 ms) moved neither requests nor wall time.
 */
export const FALLBACK_RATE: RateSettings = { concurrency: 4, rps: 50, windowMs: 3, timeoutMs: 0 };

const positive = (v: unknown, max: number): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= max ? v : undefined;
const nonNegative = (v: unknown, max: number): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max ? v : undefined;

/** The budget of one provider: defaults, then the table, then the user's `rate` (invalid values ignored). */
export function rateFor(id: string, settings: ProviderSettings | undefined): RateSettings {
  const table = DEFAULT_RATES[id] ?? {};
  const user = settings?.rate !== null && typeof settings?.rate === 'object' ? (settings.rate as Record<string, unknown>) : {};
  const concurrency = positive(user.concurrency, 256);
  return {
    concurrency: Math.floor(concurrency ?? table.concurrency ?? FALLBACK_RATE.concurrency),
    rps: positive(user.rps, 100_000) ?? table.rps ?? FALLBACK_RATE.rps,
    windowMs: nonNegative(user.windowMs, 1000) ?? table.windowMs ?? FALLBACK_RATE.windowMs,
    timeoutMs: nonNegative(user.timeoutMs, 300_000) ?? table.timeoutMs ?? FALLBACK_RATE.timeoutMs,
  };
}
