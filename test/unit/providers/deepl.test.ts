import { describe, expect, it } from 'vitest';
import type { Provider } from '../../../src/core/provider';
import type { TrObj } from '../../../src/core/types';
import deeplDefault, { createDeepl, deepl } from '../../../src/providers/deepl';
import { startFakeDeepl, type DeeplFault } from '../../fakes/fake-deepl';
import { expectAbortIs408, fakeForFile, never, rejection, serviceWith, TEXT } from './harness';

const KEY = 'deepl-secret-key-1234:fx';
const EN_DE = { src: 'en', trg: 'de' };

const fake = await fakeForFile(startFakeDeepl(KEY));

const make = (extra: Record<string, unknown> = {}, now?: () => number): Provider =>
  createDeepl({ url: fake.url, key: KEY, ...extra }, { fetch: globalThis.fetch }, now ? { now } : {});
const translates = () => fake.requests.filter((r) => r.path === '/v2/translate');

describe('deepl.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(deeplDefault).toBe(deepl);
    expect(deepl).toMatchObject({ id: 'deepl.ts', name: 'DeepL', needsKey: true, enabledByDefault: false, defaultUrl: 'https://api.deepl.com' });
    expect(make()).toMatchObject({ id: 'deepl.ts', html: true, limits: { chars: 30_000, segments: 50 } });
  });

  it('sends free keys to api-free.deepl.com and Pro keys to api.deepl.com', async () => {
    const urls: string[] = [];
    const env = { fetch: (input: string | URL | Request) => (urls.push(String(input)), Promise.reject(new TypeError('offline'))) };
    for (const [url, key] of [['https://api.deepl.com', 'k:fx'], ['https://api-free.deepl.com', 'pro'], [undefined, 'k:fx'], ['http://proxy.test/', 'k']] as const) {
      await createDeepl({ url, key }, env).languages();
    }
    expect(urls.filter((u) => u.endsWith('type=source'))).toEqual([
      'https://api-free.deepl.com/v2/languages?type=source', 'https://api.deepl.com/v2/languages?type=source',
      'https://api-free.deepl.com/v2/languages?type=source', 'http://proxy.test/v2/languages?type=source',
    ]);
  });
});

describe('languages', () => {
  it('maps DeepL codes to canonical ones, bare targets to the likely variant', async () => {
    const l = (await make().languages()) as { src: string[]; trg: string[] };
    expect(l.src).toEqual(expect.arrayContaining(['en', 'pt', 'zh', 'nb', 'en-US', 'en-GB', 'pt-BR', 'pt-PT', 'zh-Hans', 'zh-Hant']));
    expect(l.trg).toEqual(expect.arrayContaining(['en-GB', 'en-US', 'pt-BR', 'pt-PT', 'zh-Hans', 'zh-Hant', 'nb', 'en', 'pt', 'zh']));
    expect(l.trg).not.toContain('EN-US');
    const p = make();
    await p.translateBatch(['a'], { src: 'pt-BR', trg: 'en' }, TEXT, never());
    await p.translateBatch(['b'], { src: 'de', trg: 'pt' }, TEXT, never());
    await p.translateBatch(['c'], { src: 'de', trg: 'zh' }, TEXT, never());
    await p.translateBatch(['d'], { src: 'de', trg: 'en-GB' }, TEXT, never());
    expect(translates().map((r) => r.body)).toMatchObject([
      { source_lang: 'PT', target_lang: 'EN-US' }, { source_lang: 'DE', target_lang: 'PT-BR' },
      { source_lang: 'DE', target_lang: 'ZH-HANS' }, { source_lang: 'DE', target_lang: 'EN-GB' },
    ]);
  });

  it('caches the lists for 24 h; a failure falls back to the documented list and is not cached', async () => {
    let t = 0;
    const p = make({}, () => t);
    fake.rule({ path: '/v2/languages', fault: { type: 'status', status: 500 }, times: 1 });
    const fallback = (await p.languages()) as { trg: string[] };
    expect(fallback.trg).toEqual(expect.arrayContaining(['ar', 'ko', 'en-US']));
    const fetched = (await p.languages()) as { trg: string[] };
    expect(fetched.trg).not.toContain('ar');
    t = 23 * 3600_000;
    await p.languages();
    const lists = () => fake.requests.filter((r) => r.path === '/v2/languages').length;
    expect(lists()).toBe(4);
    t = 24 * 3600_000 + 1;
    await p.languages();
    expect(lists()).toBe(6);
  });
});

describe('translateBatch', () => {
  it('posts JSON with the key in the Authorization header', async () => {
    expect(await make().translateBatch(['Hello', 'world & "you"'], EN_DE, TEXT, never())).toEqual(['HELLO', 'WORLD & "YOU"']);
    const [req] = translates();
    expect(req).toMatchObject({ method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' } });
    expect(req?.body).toEqual({ text: ['Hello', 'world & "you"'], source_lang: 'EN', target_lang: 'DE' });
    expect(req?.query).toEqual({});
  });

  it('uses tag_handling html for HTML and keeps the id-only placeholder tags', async () => {
    const html = '<b id="1">Hi</b> <i id="2">there</i>';
    expect(await make().translateBatch([html], EN_DE, { format: 'html', domain: 'general' }, never())).toEqual(['<b id="1">HI</b> <i id="2">THERE</i>']);
    expect(translates()[0]?.body).toMatchObject({ tag_handling: 'html' });
  });

  it('sends a context sentence for the domain and the domain glossary only for its pair', async () => {
    const p = make({ glossaries: { law: 'gl-en-de', tech: 'gl-unknown' } });
    await p.translateBatch(['x'], EN_DE, { format: 'text', domain: 'law' }, never());
    await p.translateBatch(['x'], { src: 'de', trg: 'en' }, { format: 'text', domain: 'law' }, never());
    await p.translateBatch(['x'], EN_DE, { format: 'text', domain: 'tech' }, never());
    await p.translateBatch(['x'], EN_DE, { format: 'text', domain: 'general' }, never());
    expect(translates().map((r) => r.body)).toEqual([
      { text: ['x'], source_lang: 'EN', target_lang: 'DE', context: 'The text is about law and administration.', glossary_id: 'gl-en-de' },
      { text: ['x'], source_lang: 'DE', target_lang: 'EN-US', context: 'The text is about law and administration.' },
      { text: ['x'], source_lang: 'EN', target_lang: 'DE', context: 'The text is about technology and engineering.' },
      { text: ['x'], source_lang: 'EN', target_lang: 'DE' },
    ]);
    // Each glossary is looked up once, the unknown one included.
    expect(fake.requests.filter((r) => r.path.startsWith('/v2/glossaries/')).map((r) => r.path)).toEqual(['/v2/glossaries/gl-en-de', '/v2/glossaries/gl-unknown']);
  });

  it('accepts 50 texts and refuses 51, and a body over 128 KiB, without a request', async () => {
    const p = make();
    expect(await p.translateBatch(Array.from({ length: 50 }, (_, i) => `t${i}`), EN_DE, TEXT, never())).toHaveLength(50);
    expect((await rejection(p.translateBatch(Array.from({ length: 51 }, () => 't'), EN_DE, TEXT, never()))).code).toBe(400);
    expect((await rejection(p.translateBatch(['😀'.repeat(30_000), 'x'.repeat(20_000)], EN_DE, TEXT, never()))).code).toBe(400);
    expect(translates()).toHaveLength(1);
    expect(await p.translateBatch(['😀'.repeat(30_000)], EN_DE, TEXT, never())).toEqual(['😀'.repeat(30_000)]);
  });
});

describe('errors by meaning', () => {
  const cases: [string, DeeplFault, number, RegExp][] = [
    ['400 bad request', { type: 'status', status: 400, body: { message: "Value for 'target_lang' not supported." } }, 400, /target_lang/],
    ['403 bad key', { type: 'status', status: 403, body: { message: `Wrong endpoint for ${KEY}` } }, 403, /Wrong endpoint/],
    ['456 quota exceeded', { type: 'status', status: 456, body: { message: 'Quota Exceeded' } }, 403, /quota/i],
    ['413 too large', { type: 'status', status: 413, body: { message: 'Request Entity Too Large' } }, 400, /413/],
    ['500', { type: 'status', status: 500, body: '<html>oops</html>' }, 502, /500/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['wrong number of translations', { type: 'count' }, 502, /1 items for 2 segments/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    fake.rule({ fault });
    const e = await rejection(make().translateBatch(['secret words', 'more'], EN_DE, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('secret');
  });

  it.each([429, 529])('%i is a rate limit with its Retry-After', async (status) => {
    fake.rule({ fault: { type: 'status', status, body: { message: 'Too many requests' }, headers: { 'retry-after': '7' } } });
    expect(await rejection(make().translateBatch(['x'], EN_DE, TEXT, never()))).toMatchObject({ code: 429, retryAfterMs: 7000 });
  });

  it('a wrong key is 403 from the service itself', async () => {
    const e = await rejection(createDeepl({ url: fake.url, key: 'wrong-key' }, { fetch: globalThis.fetch }).translateBatch(['x'], EN_DE, TEXT, never()));
    expect(e.code).toBe(403);
    expect(e.message).not.toContain('wrong-key');
  });

  it('abort cancels the HTTP request and is 408', async () => {
    const p = make();
    await p.languages();
    await expectAbortIs408(fake, (signal) => p.translateBatch(['wait'], EN_DE, TEXT, signal), translates);
  });
});

describe('through the service', () => {
  it('is listed, routed and translates when configured with a key', async () => {
    const call = serviceWith(deepl, { enabled: true, url: fake.url, key: KEY });
    expect((await call('GetProviders', {})).body).toEqual({ 'deepl.ts': 'DeepL' });
    expect((await call('GetRoutes', { src: 'en', trg: 'de' })).body).toEqual(['deepl.ts']);
    const r = await call('Translate', { src: 'en', trg: 'de', dat: ['Hello there', 'again'] });
    expect(r.status).toBe(200);
    expect((r.body as { dat: TrObj[] }).dat).toEqual([{ rid: 'deepl.ts', text: ['HELLO THERE', 'AGAIN'], length: 16 }]);
  });

  it('is left out without a key', async () => {
    const call = serviceWith(deepl, { enabled: true, url: fake.url });
    expect((await call('GetProviders', {})).body).toEqual({});
    expect(fake.requests).toHaveLength(0);
  });
});
