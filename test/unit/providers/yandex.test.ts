import { describe, expect, it } from 'vitest';
import type { Provider, ProviderSettings } from '../../../src/core/provider';
import type { TrObj } from '../../../src/core/types';
import yandexDefault, { createYandex, yandex } from '../../../src/providers/yandex';
import { startFakeYandex, type YandexFault } from '../../fakes/fake-yandex';
import { expectAbortIs408, fakeForFile, never, rejection, serviceWith, TEXT } from './harness';

const KEY = 'AQVN-secret-key-9999';
const EN_DE = { src: 'en', trg: 'de' };

const fake = await fakeForFile(startFakeYandex(KEY));

const make = (extra: ProviderSettings = {}, now?: () => number): Provider =>
  createYandex({ url: fake.url, key: KEY, ...extra }, { fetch: globalThis.fetch }, now ? { now } : {});
const translates = () => fake.requests.filter((r) => r.path === '/translate/v2/translate');

describe('yandex.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(yandexDefault).toBe(yandex);
    expect(yandex).toMatchObject({ id: 'yandex.ts', needsKey: true, enabledByDefault: false, defaultUrl: 'https://translate.api.cloud.yandex.net' });
    expect(make()).toMatchObject({ id: 'yandex.ts', html: true, limits: { chars: 10_000, segments: 100 } });
  });
});

describe('languages', () => {
  it('posts for the list and maps Yandex codes to canonical ones', async () => {
    const l = (await make().languages()) as { src: string[]; trg: string[] };
    expect(l.src).toEqual(['de', 'en', 'he', 'kk-Latn', 'nb', 'pt', 'pt-BR', 'ru', 'zh-Hans']);
    expect(l.trg).toEqual(l.src);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/translate/v2/languages', headers: { authorization: `Api-Key ${KEY}` }, body: {} });
  });

  it('caches the list for 24 h; a failure falls back to the built-in list and is not cached', async () => {
    let t = 0;
    const p = make({}, () => t);
    fake.rule({ path: '/translate/v2/languages', fault: { type: 'status', status: 503, body: { code: 14, message: 'unavailable' } }, times: 1 });
    expect(((await p.languages()) as { src: string[] }).src).toContain('uz-Cyrl');
    expect(((await p.languages()) as { src: string[] }).src).not.toContain('uz-Cyrl');
    t = 24 * 3600_000 - 1;
    await p.languages();
    expect(fake.requests).toHaveLength(2);
    t = 24 * 3600_000;
    await p.languages();
    expect(fake.requests).toHaveLength(3);
  });
});

describe('translateBatch', () => {
  it('posts texts with Yandex codes, PLAIN_TEXT and the API key', async () => {
    expect(await make().translateBatch(['Hello', 'shalom'], { src: 'nb', trg: 'zh-Hans' }, TEXT, never())).toEqual(['HELLO', 'SHALOM']);
    const [req] = translates();
    expect(req?.headers).toMatchObject({ authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' });
    expect(req?.body).toEqual({ texts: ['Hello', 'shalom'], sourceLanguageCode: 'no', targetLanguageCode: 'zh', format: 'PLAIN_TEXT' });
  });

  it('sends HTML as format HTML and keeps the tags', async () => {
    expect(await make().translateBatch(['<b id="4">Hi</b>'], EN_DE, { format: 'html', domain: 'law' }, never())).toEqual(['<b id="4">HI</b>']);
    expect(translates()[0]?.body).toMatchObject({ format: 'HTML' });
  });

  it('sends folderId where settings name one', async () => {
    const folder = await startFakeYandex(KEY, 'b1g-folder');
    try {
      const p = createYandex({ url: folder.url, key: KEY, folderId: 'b1g-folder' }, { fetch: globalThis.fetch });
      expect(await p.translateBatch(['x'], EN_DE, TEXT, never())).toEqual(['X']);
      expect(folder.requests.map((r) => r.body)).toEqual([{ folderId: 'b1g-folder' }, expect.objectContaining({ folderId: 'b1g-folder' })]);
    } finally {
      await folder.close();
    }
  });

  it('accepts 10,000 characters and refuses 10,001 without a request', async () => {
    const p = make();
    expect(await p.translateBatch(['😀'.repeat(5000), 'x'.repeat(5000)], EN_DE, TEXT, never())).toHaveLength(2);
    expect((await rejection(p.translateBatch(['😀'.repeat(5000), 'x'.repeat(5001)], EN_DE, TEXT, never()))).code).toBe(400);
    expect(translates()).toHaveLength(1);
  });
});

describe('errors by meaning', () => {
  const grpc = (status: number, code: number, message = 'service says no'): YandexFault => ({ type: 'status', status, body: { code, message, details: [] } });
  const cases: [string, YandexFault, number, RegExp][] = [
    ['INVALID_ARGUMENT', grpc(400, 3, 'unsupported target_language_code'), 400, /gRPC code 3: unsupported target_language_code/],
    ['PERMISSION_DENIED', grpc(403, 7), 403, /gRPC code 7/],
    ['INTERNAL', grpc(500, 13), 502, /gRPC code 13/],
    ['UNAVAILABLE', grpc(503, 14), 503, /gRPC code 14/],
    ['a gateway page', { type: 'status', status: 502, body: '<html>502</html>' }, 502, /HTTP 502/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['wrong number of translations', { type: 'count' }, 502, /1 items for 2 segments/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    const p = make();
    await p.languages();
    fake.rule({ fault });
    const e = await rejection(p.translateBatch(['secret words', 'more'], EN_DE, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('secret');
  });

  it('RESOURCE_EXHAUSTED is a rate limit with its Retry-After', async () => {
    fake.rule({ fault: { type: 'status', status: 429, body: { code: 8, message: 'Quota limit translate.requests.rate exceeded' }, headers: { 'retry-after': '2' } } });
    expect(await rejection(make().translateBatch(['x'], EN_DE, TEXT, never()))).toMatchObject({ code: 429, retryAfterMs: 2000 });
  });

  it('an unknown key is 403, and the key it quotes is not repeated', async () => {
    const e = await rejection(createYandex({ url: fake.url, key: 'AQVN-wrong-key' }, { fetch: globalThis.fetch }).translateBatch(['x'], EN_DE, TEXT, never()));
    expect(e.code).toBe(403);
    expect(e.message).toMatch(/Unknown api key/);
    expect(e.message).not.toContain('AQVN-wrong-key');
  });

  it('abort cancels the HTTP request and is 408', async () => {
    const p = make();
    await p.languages();
    await expectAbortIs408(fake, (signal) => p.translateBatch(['wait'], EN_DE, TEXT, signal), translates);
  });
});

describe('through the service', () => {
  it('is listed, routed and translates when configured with a key', async () => {
    const call = serviceWith(yandex, { enabled: true, url: fake.url, key: KEY });
    expect((await call('GetProviders', {})).body).toEqual({ 'yandex.ts': 'Yandex Translate' });
    expect((await call('GetRoutes', { src: 'ru', trg: 'he' })).body).toEqual(['yandex.ts']);
    const r = await call('Translate', { src: 'ru', trg: 'he', dat: 'привет' });
    expect((r.body as { dat: TrObj[] }).dat).toEqual([{ rid: 'yandex.ts', text: ['ПРИВЕТ'], length: 6 }]);
  });

  it('is left out without a key', async () => {
    expect((await serviceWith(yandex, { enabled: true, url: fake.url })('GetProviders', {})).body).toEqual({});
    expect(fake.requests).toHaveLength(0);
  });
});
