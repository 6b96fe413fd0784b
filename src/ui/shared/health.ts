/**
 * Provider health (the `health` message) per route: a chained route is as healthy as its worst
 * leg. Providers the worker has no numbers for yet are left out rather than guessed.
 */
import type { HealthState, ProviderHealth } from '../../core/scheduler/index';

const RANK: Record<HealthState, number> = { ok: 0, limited: 1, down: 2 };

export interface RouteHealth {
  state: HealthState;
  /** The slowest leg's median latency, when known. */
  p50?: number;
  /** The last error of a leg that is not ok. */
  error?: string;
}

export function routeHealth(rid: string, health: Readonly<Record<string, ProviderHealth>>): RouteHealth | undefined {
  let worst: RouteHealth | undefined;
  for (const id of rid.split(',').filter((p) => p.endsWith('.ts'))) {
    const h = health[id];
    if (!h) continue;
    const p50 = h.latency_ms?.p50;
    const worse = !worst || RANK[h.state] > RANK[worst.state];
    const next: RouteHealth = { state: worse ? h.state : worst!.state };
    const error = worse && h.state !== 'ok' ? h.last_error : worst?.error;
    if (error) next.error = error;
    const slowest = Math.max(worst?.p50 ?? 0, typeof p50 === 'number' ? p50 : 0);
    if (slowest > 0) next.p50 = slowest;
    worst = next;
  }
  return worst;
}
