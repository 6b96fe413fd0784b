import { describe, expect, it } from 'vitest';
import { pack } from '../../../src/core/scheduler/pack';
import { decide, MAX_RETRY_WAIT_MS } from '../../../src/core/scheduler/retry';
import { ProviderError } from '../../../src/core/errors';

const q = (...chars: number[]) => chars.map((c) => ({ chars: c, solo: false }));

describe('pack', () => {
  it('fills a request up to the character limit exactly, oldest first', () => {
    expect(pack(q(40, 60, 1), { chars: 100, segments: 10 })).toEqual([0, 1]);
    expect(pack(q(40, 61, 1), { chars: 100, segments: 10 })).toEqual([0]);
  });

  it('stops at the segment limit', () => {
    expect(pack(q(1, 1, 1, 1, 1), { chars: 100, segments: 3 })).toEqual([0, 1, 2]);
  });

  it('keeps order: a later small text does not jump a text that does not fit', () => {
    expect(pack(q(50, 60, 10), { chars: 100, segments: 10 })).toEqual([0]);
  });

  it('may fill gaps with a look-ahead when asked', () => {
    expect(pack(q(50, 60, 10), { chars: 100, segments: 10 }, 4)).toEqual([0, 2]);
  });

  it('sends a text over the limit alone, and a solo text alone', () => {
    expect(pack(q(150, 1), { chars: 100, segments: 10 })).toEqual([0]);
    expect(pack([{ chars: 1, solo: true }, ...q(1)], { chars: 100, segments: 10 })).toEqual([0]);
    expect(pack([...q(1), { chars: 1, solo: true }], { chars: 100, segments: 10 })).toEqual([0]);
  });
});

describe('retry decisions', () => {
  const half = () => 0.5;
  it('waits as long as Retry-After asks, plus at most 20% jitter', () => {
    const d = decide(new ProviderError(429, 'slow down', 1000), 1, 1, () => 1);
    expect(d).toEqual({ kind: 'retry', delayMs: 1200, pause: true });
    expect(decide(new ProviderError(429, 'x', 1000), 1, 1, () => 0)).toMatchObject({ delayMs: 1000 });
  });

  it('backs off exponentially with jitter without Retry-After, and gives up after 5 tries', () => {
    const a = decide(new ProviderError(429, 'x'), 1, 1, half);
    const b = decide(new ProviderError(429, 'x'), 2, 1, half);
    expect(a.kind === 'retry' && b.kind === 'retry' && b.delayMs === 2 * a.delayMs).toBe(true);
    expect(decide(new ProviderError(429, 'x'), 5, 1, half)).toEqual({ kind: 'fail' });
  });

  it('does not sit out a wait over the maximum: the circuit opens', () => {
    expect(decide(new ProviderError(429, 'x', MAX_RETRY_WAIT_MS + 1), 1, 1, half)).toEqual({ kind: 'open', forMs: MAX_RETRY_WAIT_MS + 1 });
  });

  it('retries a 502 twice, then sends each text alone; 400 alone at once; 503 and 403 fail', () => {
    expect(decide(new ProviderError(502, 'x'), 1, 3, half).kind).toBe('retry');
    expect(decide(new ProviderError(502, 'x'), 3, 3, half).kind).toBe('solo');
    expect(decide(new ProviderError(502, 'x'), 3, 1, half).kind).toBe('fail');
    expect(decide(new ProviderError(400, 'x'), 1, 3, half).kind).toBe('solo');
    expect(decide(new ProviderError(400, 'x'), 1, 1, half).kind).toBe('fail');
    expect(decide(new ProviderError(503, 'x'), 1, 3, half).kind).toBe('fail');
    expect(decide(new ProviderError(403, 'x'), 1, 3, half).kind).toBe('fail');
  });
});
