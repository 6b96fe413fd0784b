import { describe, expect, it } from 'vitest';
import { fakeProvider } from '../../fakes/fake-provider';
import { createService } from '../../../src/core/service';
import { createMemory } from '../../../src/core/scheduler/index';
import { memoryStore } from '../../../src/core/storage';
import { settingsFor } from './harness';

describe('results answered by the translation memory', () => {
  it('are marked cached in the stream, and cost no provider request', async () => {
    const a = fakeProvider({ id: 'a.ts' });
    const b = fakeProvider({ id: 'b.ts' });
    const settings = settingsFor([a.module, b.module], { interlinguas: [] });
    const service = createService({ settings: async () => settings, providers: [a.module, b.module], store: memoryStore(), fetch, memory: createMemory() });
    const stream = async (dat: string[]) => {
      const seen: [string, boolean][] = [];
      await service.call('Translate', { src: 'en', trg: 'es', dat, min: 2, max: 2 }, { trusted: true, onResult: (tr, meta) => seen.push([tr.rid, meta?.cached ?? false]) });
      return seen.sort();
    };
    expect(await stream(['hello', 'world'])).toEqual([['a.ts', false], ['b.ts', false]]);
    await new Promise((r) => setTimeout(r, 0)); // memory writes are not awaited by the answer
    const before = a.stats.requests.length + b.stats.requests.length;
    expect(await stream(['hello', 'world'])).toEqual([['a.ts', true], ['b.ts', true]]);
    expect(a.stats.requests.length + b.stats.requests.length).toBe(before);
    // one new text: not all of it from the memory
    expect(await stream(['hello', 'again'])).toEqual([['a.ts', false], ['b.ts', false]]);
  });
});
