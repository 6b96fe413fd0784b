/**
 * The pieces of a provider's rate budget: a token bucket (requests per second), a circuit that
 * stops calling a provider that keeps refusing (429 rate limit, 403 quota), and the health figures
 * the UI shows (ok / limited / down, recent latency).
 */
import type { RouteErrorCode } from '../types';

/** Requests started per second; the burst is max(1, rps) so a quiet provider answers a burst at once. */
export class TokenBucket {
  private tokens: number;
  private at: number;
  private readonly capacity: number;

  constructor(
    private readonly rps: number,
    now: number,
  ) {
    this.capacity = Math.max(1, rps);
    this.tokens = this.capacity;
    this.at = now;
  }

  /** Takes a token and returns 0, or returns the ms until one is available (taking nothing). */
  take(now: number): number {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.rps) / 1000);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rps);
  }

  /** After a 429 the provider's own window is full: start again from an empty bucket. */
  drain(now: number): void {
    this.tokens = 0;
    this.at = now;
  }
}

/** Consecutive 429/403 answers (no success between) that open the circuit. */
export const CIRCUIT_THRESHOLD = 5;
/** First open period; doubles each time a probe fails, up to CIRCUIT_MAX_MS. */
export const CIRCUIT_BASE_MS = 30_000;
export const CIRCUIT_MAX_MS = 5 * 60_000;

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Closed: requests flow. Open: calls fail at once with 429, so the engine fails over to the next
 * route instead of waiting. Half-open (after the open period): one probe request at a time; its
 * success closes the circuit, its refusal opens it again for twice as long.
 */
export class Circuit {
  private refusals = 0;
  private until = 0;
  private cooldown = CIRCUIT_BASE_MS;
  private opened = false;
  reason = '';

  state(now: number): CircuitState {
    if (!this.opened) return 'closed';
    return now < this.until ? 'open' : 'half-open';
  }

  /** Ms until a probe is allowed (0 when not open). */
  remaining(now: number): number {
    return this.opened ? Math.max(0, this.until - now) : 0;
  }

  success(): void {
    this.refusals = 0;
    this.opened = false;
    this.cooldown = CIRCUIT_BASE_MS;
  }

  /** Records a failed request; `forceMs`: the provider asked for a wait too long to sit out. */
  failure(code: RouteErrorCode, message: string, now: number, forceMs?: number): void {
    if (code !== 429 && code !== 403) return;
    this.refusals += 1;
    const probeFailed = this.state(now) === 'half-open';
    if (forceMs === undefined && !probeFailed && this.refusals < CIRCUIT_THRESHOLD) return;
    if (probeFailed) this.cooldown = Math.min(CIRCUIT_MAX_MS, this.cooldown * 2);
    this.opened = true;
    this.until = now + Math.max(this.cooldown, forceMs ?? 0);
    this.reason = message;
  }
}

export type HealthState = 'ok' | 'limited' | 'down';

/** What the UI shows per provider (service.health()). */
export interface ProviderHealth {
  state: HealthState;
  /** Over the last 100 successful requests; null before the first. */
  latency_ms: { p50: number | null; p90: number | null };
  in_flight: number;
  queued: number;
  /** Provider requests sent and failed since the provider's settings last changed. */
  requests: number;
  failures: number;
  /** While the circuit is open: ms until a probe request is allowed. */
  retry_in_ms?: number;
  last_error?: string;
}

/** A 429 seen this recently makes the provider `limited`. */
const LIMITED_FOR_MS = 60_000;
/** Consecutive unreachable/failed requests that make the provider `down`. */
const DOWN_AFTER = 3;
const SAMPLES = 100;

export class HealthStats {
  private readonly samples: number[] = [];
  /** The samples sorted, made again only after a new sample (the scheduler asks on every send). */
  private sorted: number[] | undefined;
  private next = 0;
  private limitedAt = Number.NEGATIVE_INFINITY;
  private failedInRow = 0;
  requests = 0;
  failures = 0;
  lastError: string | undefined;

  ok(latencyMs: number): void {
    this.requests += 1;
    this.failedInRow = 0;
    this.sorted = undefined;
    if (this.samples.length < SAMPLES) this.samples.push(latencyMs);
    else this.samples[this.next] = latencyMs;
    this.next = (this.next + 1) % SAMPLES;
  }

  failed(code: RouteErrorCode, message: string, now: number): void {
    this.requests += 1;
    this.failures += 1;
    this.lastError = `${code} ${message}`;
    if (code === 429) this.limitedAt = now;
    // 400 is the input's fault, not the provider's.
    if (code !== 400 && code !== 429) this.failedInRow += 1;
  }

  /** The q-quantile of recent latencies; undefined before `min` samples. */
  quantile(q: number, min = 1): number | undefined {
    if (this.samples.length < min) return undefined;
    const sorted = (this.sorted ??= [...this.samples].sort((a, b) => a - b));
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  report(circuit: Circuit, now: number, inFlight: number, queued: number): ProviderHealth {
    const open = circuit.state(now) !== 'closed';
    const state: HealthState = open || this.failedInRow >= DOWN_AFTER ? 'down' : now - this.limitedAt < LIMITED_FOR_MS ? 'limited' : 'ok';
    const round = (v: number | undefined) => (v === undefined ? null : Math.round(v));
    return {
      state,
      latency_ms: { p50: round(this.quantile(0.5)), p90: round(this.quantile(0.9)) },
      in_flight: inFlight,
      queued,
      requests: this.requests,
      failures: this.failures,
      ...(open ? { retry_in_ms: circuit.remaining(now) } : {}),
      ...(this.lastError !== undefined ? { last_error: this.lastError } : {}),
    };
  }
}
