/**
 * One language under several codes (routes/codes.ts): a call reaches every provider that lists
 * its language, each sent its own code, and a code no provider lists is read as the listed one
 * of its language and script.
 */
import { describe, expect, it } from 'vitest';
import { fakeProvider } from '../../fakes/fake-provider';
import type { TrObj } from '../../../src/core/types';
import { body, harness } from './harness';

type Reply = { dat: TrObj[] };

function chinese() {
  // Google, Microsoft, LibreTranslate list Chinese by script; Chrome's on-device translator as `zh`.
  const web = fakeProvider({ id: 'web.ts', languages: { src: ['en', 'zh-Hans', 'zh-Hant'], trg: ['en', 'zh-Hans', 'zh-Hant'] } });
  const device = fakeProvider({ id: 'device.ts', languages: { src: ['en', 'zh', 'zh-Hant'], trg: ['en', 'zh', 'zh-Hant'] } });
  return { web, device, ...harness([web.module, device.module]) };
}

describe('one language under several codes', () => {
  it('gives both providers to a call for zh or zh-Hans, each with its own code', async () => {
    for (const trg of ['zh', 'zh-Hans', 'zh-CN']) {
      const { web, device, call } = chinese();
      expect(body(await call('GetRoutes', { src: 'en', trg }))).toEqual(['web.ts', 'device.ts']);
      const r = await call('Translate', { src: 'en', trg, dat: 'Hello', min: '2', max: '2' });
      expect(r.status).toBe(200);
      expect(body<Reply>(r).dat.map((t) => [t.rid, t.text, t.err])).toEqual([
        ['web.ts', ['HELLO'], undefined],
        ['device.ts', ['HELLO'], undefined],
      ]);
      expect(web.stats.requests.map((q) => q.pair)).toEqual([{ src: 'en', trg: 'zh-Hans' }]);
      expect(device.stats.requests.map((q) => q.pair)).toEqual([{ src: 'en', trg: 'zh' }]);
    }
  });

  it('reads a client\'s zh-TW as Traditional Chinese, never as zh', async () => {
    const { web, device, call } = chinese();
    const r = await call('Translate', { src: 'en', trg: 'zh-TW', dat: 'Hello', min: '2', max: '2' });
    expect(r.status).toBe(200);
    expect(web.stats.requests.map((q) => q.pair.trg)).toEqual(['zh-Hant']);
    expect(device.stats.requests.map((q) => q.pair.trg)).toEqual(['zh-Hant']);
    const g = await call('Translate', { mode: 'g2', source: 'zh-TW', target: 'en', q: 'x' });
    expect(g.status).toBe(200);
    expect(web.stats.requests.at(-1)!.pair).toEqual({ src: 'zh-Hant', trg: 'en' });
  });

  it('says a pair of one language\'s two codes has no route, with no round trip through English', async () => {
    const { call } = chinese();
    expect(body(await call('GetRoutes', { src: 'zh', trg: 'zh-Hans' }))).toEqual([]);
    const r = await call('Translate', { src: 'zh', trg: 'zh-Hans', dat: 'x' });
    expect(r.status).toBe(400);
    expect(body<{ err: string }>(r).err).toContain('no route from zh to zh-Hans');
  });
});
