/**
 * What to do after a provider request failed. Pure, so the policy is tested without time.
 * - 429: wait as the provider asked (Retry-After plus up to 20% jitter) or back off exponentially
 *   with full jitter; a wait over MAX_RETRY_WAIT_MS is not sat out: the circuit opens instead.
 * - 502 (the service failed) and requests that never answered: try again (twice at most) after a
 *   short jittered pause. Not 503 (unreachable): the engine's failover to the next route is faster.
 * - 400, or 502 again, on a request of several texts: each text goes alone, so only the bad one
 *   fails (decisions.md: "one bad chunk fails alone").
 * - anything else (403, exhausted tries): the texts fail with the provider's error.
 */
import type { ProviderError } from '../errors';

export const MAX_RETRY_WAIT_MS = 10_000;
/**
 * Tries of one text, 429s and transient failures together. 5: under the bench's fault mix (17% of
 * requests fail) a text then fails with odds ~0.17^5 = 1e-4 instead of ~0.5% with 3.
 */
export const MAX_ATTEMPTS = 5;
const MAX_TRANSIENT = 3;
/** First backoff without Retry-After; doubles per try (100, 200, 400, 800 ms: ~1.5 s in all). */
export const BACKOFF_MS = 100;

export type Decision =
  | { kind: 'fail' }
  /** `pause`: the whole provider waits (a 429 speaks for every request, not just this one). */
  | { kind: 'retry'; delayMs: number; pause: boolean }
  | { kind: 'solo' }
  /** The provider asked for a wait longer than MAX_RETRY_WAIT_MS: open the circuit for it. */
  | { kind: 'open'; forMs: number };

export function decide(err: ProviderError, attempts: number, texts: number, random: () => number): Decision {
  if (err.code === 429) {
    const asked = err.retryAfterMs;
    if (asked !== undefined && asked > MAX_RETRY_WAIT_MS) return { kind: 'open', forMs: asked };
    if (attempts >= MAX_ATTEMPTS) return { kind: 'fail' };
    const delayMs = asked !== undefined ? asked * (1 + 0.2 * random()) : BACKOFF_MS * 2 ** (attempts - 1) * (0.5 + random());
    return { kind: 'retry', delayMs, pause: true };
  }
  const transient = err.code === 502 || err.code === 408;
  if (transient && attempts < MAX_TRANSIENT) return { kind: 'retry', delayMs: BACKOFF_MS * (0.5 + random()), pause: false };
  if ((err.code === 400 || err.code === 502) && texts > 1) return { kind: 'solo' };
  return { kind: 'fail' };
}
