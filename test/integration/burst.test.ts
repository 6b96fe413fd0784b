/**
 * A burst of small Translate calls through the scheduler reaches the real APy within its
 * per-request limit (one text of at most 4000 characters per request, apertium.ts) and within its
 * rate budget (4 requests in flight), and identical texts are sent once.
 */
import { describe, expect, it } from 'vitest';
import { createService } from '../../src/core/service';
import type { Settings } from '../../src/core/settings/types';
import { memoryStore } from '../../src/core/storage';
import type { TrObj } from '../../src/core/types';
import { PROVIDERS } from '../../src/providers/index';

const APY = process.env.APY_URL ?? 'http://127.0.0.1:2737';

describe('a burst of Translate calls to APy', () => {
  it('goes out one text per request, at most 4 at once, identical texts once', async () => {
    const sent: string[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const spy: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.endsWith('/translate')) return fetch(input, init);
      sent.push(new URLSearchParams(String(init?.body)).getAll('q'));
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight -= 1;
      }
    };
    const settings: Settings = {
      providers: { 'apertium.ts': { enabled: true, url: APY } },
      ranking: ['apertium.ts'],
      interlinguas: [],
      keys: [],
      limits: { textSize: 1000 },
    };
    const service = createService({ settings: async () => settings, providers: PROVIDERS, store: memoryStore(), fetch: spy });
    const texts = Array.from({ length: 40 }, (_, i) => `The house number ${i % 25} is small.`);
    const replies = await Promise.all(
      texts.map((dat) => service.call('Translate', { src: 'en', trg: 'es', dat }, { trusted: true })),
    );
    for (const r of replies) expect(r.status).toBe(200);
    const out = replies.map((r) => (r.body as { dat: TrObj[] }).dat[0]!.text![0]!);
    expect(out[0]).toMatch(/casa/i);
    expect(out[25]).toBe(out[0]); // the same text, the same answer
    for (const q of sent) {
      expect(q).toHaveLength(1);
      expect([...q[0]!].length).toBeLessThanOrEqual(4000);
    }
    expect(sent.length).toBe(25);
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(service.health()['apertium.ts']).toMatchObject({ state: 'ok', requests: 25, failures: 0 });
  });
});
