/**
 * Packing queued segments into one provider request: as many as the provider's limits allow, oldest
 * first. Strict order by default: texts reach the provider in the order they were asked for (what
 * a reader sees first is translated first). With a look-ahead, a segment that does not fit is
 * passed over for later, smaller ones (first fit): the scheduler uses it under a backlog, where
 * order matters less than filling requests (page chunks of up to ~1000 characters left ~15% of
 * 5000-character requests empty in strict order).
 */
import type { ProviderLimits } from '../provider';

export interface Packable {
  chars: number;
  /** Must travel alone: it was in a request the provider refused, and may be the reason. */
  solo: boolean;
}


/**
 * Indexes (ascending) of the queue entries that form the next request. Never exceeds
 * `limits.segments` or `limits.chars`, except a lone segment larger than `limits.chars`, which is
 * sent by itself so the provider answers it (usually with 400) instead of it waiting forever.
 */
export function pack(queue: readonly Packable[], limits: ProviderLimits, lookahead = 0): number[] {
  const first = queue[0];
  if (!first) return [];
  if (first.solo || first.chars >= limits.chars) return [0];
  const taken = [0];
  let chars = first.chars;
  let skipped = 0;
  for (let i = 1; i < queue.length && taken.length < limits.segments && skipped <= lookahead; i++) {
    const job = queue[i]!;
    if (!job.solo && chars + job.chars <= limits.chars) {
      taken.push(i);
      chars += job.chars;
    } else {
      skipped += 1;
    }
  }
  return taken;
}
