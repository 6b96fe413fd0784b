import { describe, expect, it } from 'vitest';
import type { Provider, ProviderSettings } from '../../../src/core/provider';
import type { TrObj } from '../../../src/core/types';
import microsoftDefault, { createMicrosoft, microsoft } from '../../../src/providers/microsoft';
import { startFakeMicrosoft, type MicrosoftFault } from '../../fakes/fake-microsoft';
import { expectAbortIs408, fakeForFile, never, rejection, serviceWith, TEXT } from './harness';

const KEY = 'ms-secret-key-5678';
const EN_DE = { src: 'en', trg: 'de' };

const fake = await fakeForFile(startFakeMicrosoft({ key: KEY, region: 'westeurope', categories: ['law-cat-1'] }));

const withKey = (extra: ProviderSettings = {}, now?: () => number): Provider =>
  createMicrosoft({ url: fake.url, key: KEY, region: 'westeurope', ...extra }, { fetch: globalThis.fetch }, now ? { now } : {});
const keyless = (now?: () => number): Provider => createMicrosoft({ url: fake.url, tokenUrl: fake.tokenUrl }, { fetch: globalThis.fetch }, now ? { now } : {});
const translates = () => fake.requests.filter((r) => r.path === '/translate');
const tokens = () => fake.requests.filter((r) => r.path === '/translate/auth');

describe('microsoft.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(microsoftDefault).toBe(microsoft);
    expect(microsoft).toMatchObject({ id: 'microsoft.ts', needsKey: false, enabledByDefault: false, defaultUrl: 'https://api.cognitive.microsofttranslator.com' });
    expect(withKey()).toMatchObject({ id: 'microsoft.ts', html: true, limits: { chars: 50_000, segments: 1000 } });
  });
});

describe('languages', () => {
  it('reads the keyless list and maps Microsoft codes to canonical ones', async () => {
    const l = (await withKey().languages()) as { src: string[]; trg: string[] };
    expect(l.src).toEqual(['de', 'en', 'es', 'fr', 'ckb', 'ku', 'nb', 'pt', 'pt-PT', 'zh-Hans', 'zh-Hant', 'pt-BR']);
    expect(l.trg).toEqual(l.src);
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'GET', path: '/languages', query: { 'api-version': '3.0', scope: 'translation' } });
    expect(req?.headers['ocp-apim-subscription-key']).toBeUndefined();
  });

  it('caches the list for 24 h; a failure falls back to the built-in list and is not cached', async () => {
    let t = 0;
    const p = withKey({}, () => t);
    fake.rule({ path: '/languages', fault: { type: 'reset' }, times: 1 });
    expect(((await p.languages()) as { src: string[] }).src).toContain('tlh-Latn');
    expect(((await p.languages()) as { src: string[] }).src).not.toContain('tlh-Latn');
    t = 24 * 3600_000 - 1;
    await p.languages();
    expect(fake.requests.filter((r) => r.path === '/languages')).toHaveLength(2);
    t = 24 * 3600_000;
    await p.languages();
    expect(fake.requests.filter((r) => r.path === '/languages')).toHaveLength(3);
  });
});

describe('translateBatch with a key', () => {
  it('posts [{Text}] with the subscription key and region', async () => {
    expect(await withKey().translateBatch(['Hello', 'wörld'], { src: 'pt-BR', trg: 'ku' }, TEXT, never())).toEqual(['HELLO', 'WÖRLD']);
    const [req] = translates();
    expect(req?.method).toBe('POST');
    expect(req?.query).toEqual({ 'api-version': '3.0', from: 'pt', to: 'kmr', textType: 'plain' });
    expect(req?.headers).toMatchObject({ 'ocp-apim-subscription-key': KEY, 'ocp-apim-subscription-region': 'westeurope', 'content-type': 'application/json; charset=UTF-8' });
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body).toEqual([{ Text: 'Hello' }, { Text: 'wörld' }]);
  });

  it('sends no region header when settings name none', async () => {
    const global = await startFakeMicrosoft({ key: KEY });
    try {
      await createMicrosoft({ url: global.url, key: KEY }, { fetch: globalThis.fetch }).translateBatch(['x'], EN_DE, TEXT, never());
      expect(global.requests.at(-1)?.headers['ocp-apim-subscription-region']).toBeUndefined();
    } finally {
      await global.close();
    }
  });

  it('uses textType=html for HTML and a category only where settings name one', async () => {
    const p = withKey({ categories: { law: 'law-cat-1' } });
    expect(await p.translateBatch(['<b id="1">Hi</b>'], EN_DE, { format: 'html', domain: 'law' }, never())).toEqual(['<b id="1">HI</b>']);
    await p.translateBatch(['x'], EN_DE, { format: 'text', domain: 'tech' }, never());
    expect(translates().map((r) => [r.query.textType, r.query.category])).toEqual([['html', 'law-cat-1'], ['plain', undefined]]);
  });

  it('fills a request to 1000 items and 50,000 characters', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => (i === 0 ? '😀'.repeat(49_001) : 'x'));
    expect(await withKey().translateBatch(items, EN_DE, TEXT, never())).toHaveLength(1000);
  });
});

describe('translateBatch without a key (Edge token)', () => {
  it('fetches one token for concurrent batches and sends it as Bearer', async () => {
    const p = keyless();
    await p.languages();
    expect(await Promise.all(['a', 'b', 'c'].map((s) => p.translateBatch([s], EN_DE, TEXT, never())))).toEqual([['A'], ['B'], ['C']]);
    expect(tokens()).toHaveLength(1);
    expect(translates().map((r) => r.headers.authorization)).toEqual(Array(3).fill(expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/)));
    expect(translates()[0]?.headers['ocp-apim-subscription-key']).toBeUndefined();
  });

  it('renews the token a minute before its exp claim', async () => {
    let shift = 0;
    const p = keyless(() => Date.now() + shift);
    await p.translateBatch(['a'], EN_DE, TEXT, never());
    shift = 530_000;
    await p.translateBatch(['b'], EN_DE, TEXT, never());
    expect(tokens()).toHaveLength(1);
    shift = 545_000;
    await p.translateBatch(['c'], EN_DE, TEXT, never());
    expect(tokens()).toHaveLength(2);
  });

  it('renews a revoked token once, then reports the refusal', async () => {
    const p = keyless();
    await p.translateBatch(['a'], EN_DE, TEXT, never());
    fake.revokeTokens();
    expect(await p.translateBatch(['b'], EN_DE, TEXT, never())).toEqual(['B']);
    expect(tokens()).toHaveLength(2);
    fake.rule({ fault: { type: 'status', status: 401, body: { error: { code: 401000, message: 'denied' } } }, times: 2 });
    expect((await rejection(p.translateBatch(['c'], EN_DE, TEXT, never()))).code).toBe(403);
    expect(tokens()).toHaveLength(3);
  });

  it.each([
    ['withdrawn (404)', { type: 'status', status: 404, body: 'Not Found' }, 502],
    ['rate limited', { type: 'status', status: 429, body: '' }, 429],
    ['not a token', { type: 'status', status: 200, body: '<html>captcha</html>' }, 502],
    ['unreachable', { type: 'reset' }, 503],
  ] as [string, MicrosoftFault, number][])('a token service %s fails the batch with %s', async (_name, fault, code) => {
    fake.rule({ path: '/translate/auth', fault });
    expect((await rejection(keyless().translateBatch(['x'], EN_DE, TEXT, never()))).code).toBe(code);
    expect(translates()).toHaveLength(0);
  });
});

describe('errors by meaning', () => {
  const err = (status: number, code: number, message = 'service says no'): MicrosoftFault => ({ type: 'status', status, body: { error: { code, message } } });
  const cases: [string, MicrosoftFault, number, RegExp][] = [
    ['400050 text too long', err(400, 400050, 'The input text is too long.'), 400, /400050: The input text is too long/],
    ['401000 bad key', err(401, 401000, `Bad key ${KEY}`), 403, /401000/],
    ['403001 free quota used', err(403, 403001), 403, /403001/],
    ['408001 custom system loading', err(408, 408001), 503, /408001/],
    ['500000', err(500, 500000), 502, /500000/],
    ['503000', err(503, 503000), 503, /503000/],
    ['a gateway page', { type: 'status', status: 502, body: '<html>Bad gateway</html>' }, 502, /HTTP 502/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['wrong number of translations', { type: 'count' }, 502, /1 items for 2 segments/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    const p = withKey();
    await p.languages();
    fake.rule({ fault });
    const e = await rejection(p.translateBatch(['secret words', 'more'], EN_DE, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('secret');
  });

  it('429xxx is a rate limit with its Retry-After', async () => {
    fake.rule({ fault: { type: 'status', status: 429, body: { error: { code: 429001, message: 'limits' } }, headers: { 'retry-after': '3' } } });
    expect(await rejection(withKey().translateBatch(['x'], EN_DE, TEXT, never()))).toMatchObject({ code: 429, retryAfterMs: 3000 });
  });

  it('a key for another region is refused by the service: 403', async () => {
    expect((await rejection(withKey({ region: 'eastus' }).translateBatch(['x'], EN_DE, TEXT, never()))).code).toBe(403);
  });

  it('abort cancels the HTTP request and is 408', async () => {
    const p = withKey();
    await p.languages();
    await expectAbortIs408(fake, (signal) => p.translateBatch(['wait'], EN_DE, TEXT, signal), translates);
  });
});

describe('through the service', () => {
  it.each([
    ['with a key', { key: KEY, region: 'westeurope' }],
    ['without a key', { tokenUrl: 'fake' }],
  ])('is listed, routed and translates when enabled %s', async (_name, conf) => {
    const call = serviceWith(microsoft, { enabled: true, url: fake.url, ...conf, ...('tokenUrl' in conf ? { tokenUrl: fake.tokenUrl } : {}) });
    expect((await call('GetProviders', {})).body).toEqual({ 'microsoft.ts': 'Microsoft Translator' });
    expect((await call('GetRoutes', { src: 'en', trg: 'zh-Hans' })).body).toEqual(['microsoft.ts']);
    const r = await call('Translate', { src: 'en', trg: 'zh-Hans', dat: 'Good morning' });
    expect((r.body as { dat: TrObj[] }).dat).toEqual([{ rid: 'microsoft.ts', text: ['GOOD MORNING'], length: 12 }]);
  });

  it('is off until the user enables it', async () => {
    expect((await serviceWith(microsoft)('GetProviders', {})).body).toEqual({});
    expect(fake.requests).toHaveLength(0);
  });
});
