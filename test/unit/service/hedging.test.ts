import { describe, expect, it } from 'vitest';
import { fakeProvider, type FakeOptions } from '../../fakes/fake-provider';
import type { TrObj } from '../../../src/core/types';
import { harness } from './harness';

const langs = { src: ['en', 'es'], trg: ['en', 'es'] };

async function setup(hedging: boolean) {
  const slowOptions: FakeOptions = { id: 'a.ts', languages: langs, latencyMs: 5 };
  const a = fakeProvider(slowOptions);
  const b = fakeProvider({ id: 'b.ts', languages: langs, latencyMs: 5, transform: (s) => `b:${s}` });
  const h = harness([a.module, b.module], { interlinguas: [], hedging });
  // Recent latency of both routes: ~5 ms.
  for (let i = 0; i < 6; i++) await h.call('Translate', { src: 'en', trg: 'es', dat: `warm ${i}`, min: 2, max: 2 });
  slowOptions.latencyMs = 800;
  return { ...h, a, b };
}

describe('hedging', () => {
  it('starts the next route when the first runs past its recent p90, and answers with the first to arrive', async () => {
    const { call, a } = await setup(true);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hello' });
    expect((r.body as { dat: TrObj[] }).dat).toEqual([{ rid: 'b.ts', text: ['b:hello'], length: 5 }]);
    expect(a.stats.aborted).toBe(1);
  });

  it('is off by default: the first route is waited for', async () => {
    const { call } = await setup(false);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hello' });
    expect((r.body as { dat: TrObj[] }).dat).toEqual([{ rid: 'a.ts', text: ['HELLO'], length: 5 }]);
  });
});
