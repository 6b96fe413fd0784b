import { describe, expect, it } from 'vitest';
import type { Provider, ProviderSettings } from '../../../src/core/provider';
import type { TrObj } from '../../../src/core/types';
import libreDefault, { createLibre, libre } from '../../../src/providers/libre';
import { startFakeLibre, type FakeLibre, type FakeLibreOptions, type LibreFault } from '../../fakes/fake-libre';
import { expectAbortIs408, fakeForFile, never, rejection, serviceWith, TEXT } from './harness';

const KEY = 'lt-secret-key-4242';
const EN_ES = { src: 'en', trg: 'es' };

const fake = await fakeForFile(startFakeLibre({ keys: [KEY], charLimit: 3000 }));

const make = (extra: ProviderSettings = {}, now?: () => number, url = fake.url): Provider =>
  createLibre({ url, ...extra }, { fetch: globalThis.fetch }, now ? { now } : {});
const translates = () => fake.requests.filter((r) => r.path === '/translate');
const withInstance = async (options: FakeLibreOptions, run: (instance: FakeLibre) => Promise<void>) => {
  const instance = await startFakeLibre(options);
  try {
    await run(instance);
  } finally {
    await instance.close();
  }
};

describe('libre.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(libreDefault).toBe(libre);
    expect(libre).toMatchObject({ id: 'libre.ts', name: 'LibreTranslate', needsKey: false, enabledByDefault: false, defaultUrl: 'https://libretranslate.com' });
    expect(make()).toMatchObject({ id: 'libre.ts', html: true, limits: { chars: 2000, segments: 25 } });
  });
});

describe('languages', () => {
  it('builds pairs from targets in canonical codes and sends the instance codes back', async () => {
    const p = make();
    expect(await p.languages()).toEqual({
      pairs: [
        { src: 'en', trg: 'es' }, { src: 'en', trg: 'nb' }, { src: 'en', trg: 'pt-BR' }, { src: 'en', trg: 'zh-Hans' }, { src: 'en', trg: 'zh-Hant' },
        { src: 'es', trg: 'en' }, { src: 'nb', trg: 'en' }, { src: 'pt-BR', trg: 'en' }, { src: 'zh-Hans', trg: 'en' }, { src: 'zh-Hant', trg: 'en' },
      ],
    });
    await p.translateBatch(['a'], { src: 'en', trg: 'zh-Hant' }, TEXT, never());
    await p.translateBatch(['b'], { src: 'pt-BR', trg: 'en' }, TEXT, never());
    expect(translates().map((r) => r.body)).toMatchObject([{ source: 'en', target: 'zt' }, { source: 'pb', target: 'en' }]);
  });

  it('takes every other language as a target when an old instance lists no targets', async () => {
    await withInstance({}, async (old) => {
      old.rule({ path: '/languages', fault: { type: 'status', status: 200, body: [{ code: 'en', name: 'English' }, { code: 'fr', name: 'French' }] } });
      expect(await make({}, undefined, old.url).languages()).toEqual({ pairs: [{ src: 'en', trg: 'fr' }, { src: 'fr', trg: 'en' }] });
    });
  });

  it("takes the instance's character limit from /frontend/settings", async () => {
    const p = make();
    await p.languages();
    expect(p.limits).toEqual({ chars: 3000, segments: 25 });
    await withInstance({ charLimit: -1 }, async (unlimited) => {
      const q = make({}, undefined, unlimited.url);
      await q.languages();
      expect(q.limits.chars).toBe(5000);
    });
    await withInstance({ noSettings: true }, async (old) => {
      const q = make({}, undefined, old.url);
      await q.languages();
      expect(q.limits.chars).toBe(2000);
    });
  });

  it('caches the list for 24 h; a failure is not cached, and without a list the instance is unavailable', async () => {
    let t = 0;
    const p = make({}, () => t);
    fake.rule({ path: '/languages', fault: { type: 'status', status: 502, body: 'Bad gateway' }, times: 1 });
    expect((await rejection(p.languages())).code).toBe(502);
    await p.languages();
    t = 24 * 3600_000 - 1;
    await p.languages();
    const lists = () => fake.requests.filter((r) => r.path === '/languages').length;
    expect(lists()).toBe(2);
    t = 24 * 3600_000;
    fake.rule({ path: '/languages', fault: { type: 'reset' }, times: 1 });
    expect(await p.languages()).toMatchObject({ pairs: expect.arrayContaining([EN_ES]) });
    expect(lists()).toBe(3);
  });
});

describe('translateBatch', () => {
  it('posts JSON with q as a list and the key as api_key', async () => {
    expect(await make({ key: KEY }).translateBatch(['Hello', 'a & b'], EN_ES, TEXT, never())).toEqual(['HELLO', 'A & B']);
    const [req] = translates();
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.body).toEqual({ q: ['Hello', 'a & b'], source: 'en', target: 'es', format: 'text', api_key: KEY });
  });

  it('sends no api_key without a key, and format html for HTML', async () => {
    expect(await make().translateBatch(['<b id="2">Hi</b>'], EN_ES, { format: 'html', domain: 'law' }, never())).toEqual(['<b id="2">HI</b>']);
    expect(translates()[0]?.body).toEqual({ q: ['<b id="2">Hi</b>'], source: 'en', target: 'es', format: 'html' });
  });

  it('accepts the single string an instance without batches answers for one text', async () => {
    const p = make();
    await p.languages();
    fake.rule({ fault: { type: 'status', status: 200, body: { translatedText: 'HOLA' } }, times: 2 });
    expect(await p.translateBatch(['hola'], EN_ES, TEXT, never())).toEqual(['HOLA']);
    expect((await rejection(p.translateBatch(['a', 'b'], EN_ES, TEXT, never()))).code).toBe(502);
  });

  it('refuses a pair the instance lacks without a request', async () => {
    expect((await rejection(make().translateBatch(['x'], { src: 'es', trg: 'nb' }, TEXT, never()))).code).toBe(400);
    expect(translates()).toHaveLength(0);
  });
});

describe('errors by meaning', () => {
  const lt = (status: number, error: string, headers?: Record<string, string>): LibreFault => ({ type: 'status', status, body: { error }, ...(headers ? { headers } : {}) });
  const cases: [string, LibreFault, number, RegExp][] = [
    ['400 unsupported', lt(400, 'xx is not supported'), 400, /400: xx is not supported/],
    ['400 over the limit', lt(400, 'Invalid request: request (30) exceeds text limit (20)'), 400, /exceeds text limit/],
    ['400 key required', lt(400, 'Visit https://portal.libretranslate.com to get an API key'), 403, /API key/],
    ['403 invalid key', lt(403, 'Invalid API key'), 403, /Invalid API key/],
    ['403 banned for flooding', lt(403, 'Too many request limits violations'), 429, /Too many request/],
    ['500 cannot translate', lt(500, 'Cannot translate text: model crashed'), 502, /model crashed/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['wrong number of translations', { type: 'count' }, 502, /1 items for 2 segments/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    const p = make({ key: KEY });
    await p.languages();
    fake.rule({ fault });
    const e = await rejection(p.translateBatch(['secret words', 'more'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('secret');
  });

  it('429 is a rate limit with its Retry-After', async () => {
    fake.rule({ fault: lt(429, 'Slowdown: 20 per 1 minute', { 'retry-after': '60' }) });
    expect(await rejection(make().translateBatch(['x'], EN_ES, TEXT, never()))).toMatchObject({ code: 429, retryAfterMs: 60_000 });
  });

  it("the instance's own refusals: a missing key is 403, a batch over its limit 400", async () => {
    await withInstance({ keys: [KEY], keyRequired: true, batchLimit: 2 }, async (strict) => {
      expect((await rejection(make({}, undefined, strict.url).translateBatch(['x'], EN_ES, TEXT, never()))).code).toBe(403);
      expect((await rejection(make({ key: 'wrong' }, undefined, strict.url).translateBatch(['x'], EN_ES, TEXT, never()))).code).toBe(403);
      expect((await rejection(make({ key: KEY }, undefined, strict.url).translateBatch(['a', 'b', 'c'], EN_ES, TEXT, never()))).code).toBe(400);
    });
  });

  it('abort cancels the HTTP request and is 408', async () => {
    const p = make();
    await p.languages();
    await expectAbortIs408(fake, (signal) => p.translateBatch(['wait'], EN_ES, TEXT, signal), translates);
  });
});

describe('through the service', () => {
  it('is listed, routed and translates when enabled, with no key needed', async () => {
    const call = serviceWith(libre, { enabled: true, url: fake.url });
    expect((await call('GetProviders', {})).body).toEqual({ 'libre.ts': 'LibreTranslate' });
    expect((await call('GetRoutes', { src: 'en', trg: 'es' })).body).toEqual(['libre.ts']);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['one', 'two'] });
    expect((r.body as { dat: TrObj[] }).dat).toEqual([{ rid: 'libre.ts', text: ['ONE', 'TWO'], length: 6 }]);
  });

  it('is off until the user enables it', async () => {
    expect((await serviceWith(libre)('GetProviders', {})).body).toEqual({});
    expect(fake.requests).toHaveLength(0);
  });
});
