import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/core/errors';
import { Circuit, CIRCUIT_BASE_MS, CIRCUIT_THRESHOLD, TokenBucket } from '../../../src/core/scheduler/budget';
import { coalesce } from '../../../src/core/scheduler/coalesce';
import { rateFor } from '../../../src/core/scheduler/rates';
import { never, opts, pair, rate, scripted } from './scripted';

describe('rate budget', () => {
  it('takes defaults from the table and the user rate from settings, ignoring invalid values', () => {
    expect(rateFor('apertium.ts', undefined)).toMatchObject({ concurrency: 4, rps: 20 });
    expect(rateFor('deepl.ts', { rate: { concurrency: 2, rps: 'x' } })).toMatchObject({ concurrency: 2, rps: 10 });
    expect(rateFor('unknown.ts', { rate: { rps: -1 } }).rps).toBeGreaterThan(0);
  });

  it('token bucket: a burst of max(1, rps), then one token per 1/rps', () => {
    const b = new TokenBucket(2, 0);
    expect([b.take(0), b.take(0)]).toEqual([0, 0]);
    expect(b.take(0)).toBe(500);
    expect(b.take(500)).toBe(0);
    b.drain(500);
    expect(b.take(600)).toBe(400);
  });

  it('never has more requests in flight than its concurrency', async () => {
    const s = scripted({ limits: { chars: 100, segments: 1 }, latencyMs: 15 });
    const p = coalesce(s.provider, rate({ concurrency: 2 }));
    await Promise.all(Array.from({ length: 8 }, (_, i) => p.translateBatch([`t${i}`], pair, opts, never())));
    expect(s.requests).toHaveLength(8);
    expect(s.stats().maxInFlight).toBe(2);
  });

  it('starts no more requests per second than its rps', async () => {
    const s = scripted({ limits: { chars: 100, segments: 1 }, latencyMs: 1 });
    const p = coalesce(s.provider, rate({ rps: 20 }));
    await Promise.all(Array.from({ length: 24 }, (_, i) => p.translateBatch([`t${i}`], pair, opts, never())));
    // 20 at once (the burst), then 4 more at 50 ms intervals.
    expect(s.requests[23]!.start - s.requests[0]!.start).toBeGreaterThanOrEqual(190);
  });

  it('honours Retry-After: the whole provider waits, then the text is sent again', async () => {
    const s = scripted({
      limits: { chars: 100, segments: 1 },
      answer: (seg, n) => (n === 0 ? new ProviderError(429, 'slow down', 120) : seg),
    });
    const p = coalesce(s.provider, rate());
    const out = await Promise.all([p.translateBatch(['a'], pair, opts, never()), p.translateBatch(['b'], pair, opts, never())]);
    expect(out).toEqual([['a'], ['b']]);
    const retried = s.requests.slice(2);
    expect(retried.map((r) => r.segments)).toEqual([['a']]);
    expect(retried[0]!.start - s.requests[0]!.start).toBeGreaterThanOrEqual(115);
    expect(p.health().state).toBe('limited');
  });
});

describe('circuit', () => {
  it('opens after repeated refusals, half-opens after its period, and doubles it when the probe fails', () => {
    const c = new Circuit();
    for (let i = 0; i < CIRCUIT_THRESHOLD - 1; i++) c.failure(429, 'x', 0);
    expect(c.state(0)).toBe('closed');
    c.failure(403, 'quota', 0);
    expect(c.state(1)).toBe('open');
    expect(c.state(CIRCUIT_BASE_MS)).toBe('half-open');
    c.failure(429, 'x', CIRCUIT_BASE_MS);
    expect(c.state(CIRCUIT_BASE_MS * 2.5)).toBe('open');
    expect(c.state(CIRCUIT_BASE_MS * 3)).toBe('half-open');
    c.success();
    expect(c.state(CIRCUIT_BASE_MS * 3)).toBe('closed');
    c.failure(502, 'not a refusal', 0);
    expect(c.state(0)).toBe('closed');
  });

  it('fails calls fast with 429 while open, and reports the provider down', async () => {
    const s = scripted({ limits: { chars: 100, segments: 1 }, answer: () => new ProviderError(429, 'quota', 60_000) });
    const p = coalesce(s.provider, rate());
    await expect(p.translateBatch(['a'], pair, opts, never())).rejects.toMatchObject({ code: 429 });
    expect(s.requests).toHaveLength(1); // 60 s is not sat out: open at once
    const t0 = performance.now();
    await expect(p.translateBatch(['b'], pair, opts, never())).rejects.toMatchObject({ code: 429, message: /refusing requests/ });
    expect(performance.now() - t0).toBeLessThan(20);
    expect(s.requests).toHaveLength(1);
    const h = p.health();
    expect(h).toMatchObject({ state: 'down', requests: 1, failures: 1 });
    expect(h.retry_in_ms).toBeGreaterThan(50_000);
  });

  it('reports latency percentiles', async () => {
    const s = scripted({ latencyMs: 10 });
    const p = coalesce(s.provider, rate());
    for (let i = 0; i < 3; i++) await p.translateBatch([`x${i}`], pair, opts, never());
    const h = p.health();
    expect(h.state).toBe('ok');
    expect(h.latency_ms.p50).toBeGreaterThanOrEqual(9);
    expect(h.latency_ms.p90).toBeGreaterThanOrEqual(h.latency_ms.p50!);
  });
});
