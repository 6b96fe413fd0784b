import { describe, expect, it } from 'vitest';
import type { ProviderHealth } from '../../../src/core/scheduler/index';
import { routeHealth } from '../../../src/ui/shared/health';

const h = (state: ProviderHealth['state'], p50: number | null, last_error?: string): ProviderHealth =>
  ({ state, latency_ms: { p50, p90: p50 }, in_flight: 0, queued: 0, requests: 1, failures: 0, ...(last_error ? { last_error } : {}) });

describe('routeHealth', () => {
  const health = { 'apertium.ts': h('ok', 30), 'google.ts': h('limited', 200, '429 too many'), 'deepl.ts': h('down', null, 'circuit open') };
  it('is the state of a direct route\'s provider, and of a chained route\'s worst leg', () => {
    expect(routeHealth('apertium.ts', health)).toEqual({ state: 'ok', p50: 30 });
    expect(routeHealth('apertium.ts,en,google.ts', health)).toEqual({ state: 'limited', p50: 200, error: '429 too many' });
    expect(routeHealth('google.ts,en,deepl.ts', health)).toEqual({ state: 'down', p50: 200, error: 'circuit open' });
  });
  it('says nothing about providers without numbers', () => {
    expect(routeHealth('libre.ts', health)).toBeUndefined();
    expect(routeHealth('libre.ts,en,apertium.ts', health)).toEqual({ state: 'ok', p50: 30 });
  });
});
