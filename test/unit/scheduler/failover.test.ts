/** The engine's failover moves to the next route while a provider's circuit is open; health() shows it. */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/core/errors';
import type { ProviderModule } from '../../../src/core/provider';
import { createMemory } from '../../../src/core/scheduler/index';
import { createService } from '../../../src/core/service';
import { memoryStore } from '../../../src/core/storage';
import type { TrObj } from '../../../src/core/types';
import { fakeProvider } from '../../fakes/fake-provider';
import { settingsFor } from '../service/harness';

const langs = { src: ['en', 'es'], trg: ['en', 'es'] };

function refusing(): { module: ProviderModule; count: () => number } {
  let n = 0;
  const base = fakeProvider({ id: 'limited.ts', languages: langs });
  const module: ProviderModule = {
    ...base.module,
    create: (s, env) => ({
      ...base.module.create(s, env),
      translateBatch: async () => {
        n += 1;
        throw new ProviderError(429, 'quota exceeded', 3_600_000);
      },
    }),
  };
  return { module, count: () => n };
}

describe('failover while a circuit is open', () => {
  it('moves to the next route at once, without asking the refusing provider again', async () => {
    const limited = refusing();
    const good = fakeProvider({ id: 'good.ts', languages: langs });
    const modules = [limited.module, good.module];
    const settings = settingsFor(modules, { interlinguas: [] });
    const service = createService({ settings: async () => settings, providers: modules, store: memoryStore(), fetch });
    const ask = async (dat: string) => {
      const r = await service.call('Translate', { src: 'en', trg: 'es', dat }, { trusted: true });
      return (r.body as { dat: TrObj[] }).dat;
    };
    expect((await ask('one')).map((t) => [t.rid, t.err?.slice(0, 3) ?? t.text?.[0]])).toEqual([
      ['limited.ts', '429'],
      ['good.ts', 'ONE'],
    ]);
    const second = await ask('two');
    expect(second[0]!.err).toMatch(/^429 .*refusing requests/);
    expect(second[1]!.text).toEqual(['TWO']);
    expect(limited.count()).toBe(1);
    const health = service.health();
    expect(health['limited.ts']).toMatchObject({ state: 'down' });
    expect(health['good.ts']).toMatchObject({ state: 'ok', requests: 2 });
  });
});

describe('translation memory in the service', () => {
  it('answers a repeated page from memory, and recognises its own output', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, transform: (s) => `es:${s}` });
    const settings = settingsFor([a.module], { interlinguas: [] });
    const memory = createMemory();
    const service = createService({ settings: async () => settings, providers: [a.module], store: memoryStore(), fetch, memory });
    const doc = '<p>Hello <b>world</b></p><p>Second paragraph.</p>';
    const first = await service.call('Translate', { src: 'en', trg: 'es', dat: doc, frm: 'html' }, { trusted: true });
    const sent = a.stats.requests.length;
    expect(sent).toBeGreaterThan(0);
    const again = await service.call('Translate', { src: 'en', trg: 'es', dat: doc, frm: 'html' }, { trusted: true });
    expect(again.body).toEqual(first.body);
    expect(a.stats.requests.length).toBe(sent);
    // Text translated before, inserted into a page again: its own translation, no request.
    const r = await service.call('Translate', { src: 'en', trg: 'es', dat: 'plain' }, { trusted: true });
    const out = (r.body as { dat: TrObj[] }).dat[0]!.text![0]!;
    const n = a.stats.requests.length;
    const echo = await service.call('Translate', { src: 'en', trg: 'es', dat: out }, { trusted: true });
    expect((echo.body as { dat: TrObj[] }).dat[0]!.text).toEqual([out]);
    expect(a.stats.requests.length).toBe(n);
  });
});
