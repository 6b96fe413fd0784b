import { describe, expect, it } from 'vitest';
import type { Provider } from '../../../src/core/provider';
import gcloudDefault, { createGcloud, gcloud } from '../../../src/providers/gcloud';
import { GCLOUD_KEY, gcloudError, startFakeGcloud } from '../../fakes/fake-gcloud';
import type { Fault } from '../../fakes/fake-service';
import { expectAbortIs408, fakeForFile, HTML, never, rejection, serviceWith, TEXT } from './harness';

const EN_ES = { src: 'en', trg: 'es' };

const fake = await fakeForFile(startFakeGcloud());

const make = (key = GCLOUD_KEY, now?: () => number): Provider => createGcloud({ url: fake.url, key }, { fetch: globalThis.fetch }, now ? { now } : {});
const translations = () => fake.requests.filter((r) => r.path === '/language/translate/v2');
const listings = () => fake.requests.filter((r) => r.path === '/language/translate/v2/languages');

describe('gcloud.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(gcloudDefault).toBe(gcloud);
    expect(gcloud).toMatchObject({ id: 'gcloud.ts', needsKey: true, enabledByDefault: false, defaultUrl: 'https://translation.googleapis.com' });
    expect(make()).toMatchObject({ id: 'gcloud.ts', html: true, limits: { chars: 5000, segments: 128 } });
  });
});

describe('languages', () => {
  it('fetches the list with the key in the header and maps the codes', async () => {
    const langs = (await make().languages()) as { src: string[]; trg: string[] };
    expect(langs.src).toEqual(['en', 'es', 'fr', 'de', 'pt', 'he', 'zh-Hans', 'zh-Hant', 'fil']);
    expect(langs.trg).toEqual(langs.src);
    const [req] = listings();
    expect(req?.method).toBe('GET');
    expect(req?.headers['x-goog-api-key']).toBe(GCLOUD_KEY);
    expect(Object.fromEntries(req!.query)).toEqual({ target: 'en' });
  });

  it('caches the list for 24 hours; a failure (bad key) gives the built-in list, not cached', async () => {
    let t = 0;
    const bad = make('wrong-key', () => t);
    expect(((await bad.languages()) as { src: string[] }).src.length).toBeGreaterThan(100);
    const p = make(GCLOUD_KEY, () => t);
    await p.languages();
    t = 24 * 3600_000 - 1;
    await p.languages();
    expect(listings()).toHaveLength(2);
    await bad.languages();
    expect(listings()).toHaveLength(3);
    t = 24 * 3600_000 + 1;
    await p.languages();
    expect(listings()).toHaveLength(4);
  });
});

describe('translateBatch', () => {
  it('posts the texts as JSON with source, target and format=text, key only in the header', async () => {
    const p = make();
    await p.languages();
    const texts = ['one', 'two "quoted"', 'ñandú 😀'];
    expect(await p.translateBatch(texts, { src: 'zh-Hans', trg: 'he' }, TEXT, never())).toEqual(texts.map((t) => t.toUpperCase()));
    const [req] = translations();
    expect(req).toMatchObject({ method: 'POST', headers: expect.objectContaining({ 'x-goog-api-key': GCLOUD_KEY, 'content-type': expect.stringMatching(/^application\/json/) }) });
    expect(JSON.parse(req!.body)).toEqual({ q: texts, source: 'zh', target: 'iw', format: 'text' });
    expect(fake.requests.every((r) => !r.query.has('key'))).toBe(true);
  });

  it('sends HTML with format=html and keeps the id tags', async () => {
    expect(await make().translateBatch(['<b id="1">Hi</b> there'], EN_ES, HTML, never())).toEqual(['<b id="1">HI</b> there'.replace('there', 'THERE')]);
    expect(JSON.parse(translations()[0]!.body)).toMatchObject({ format: 'html' });
  });

  it('fails with 403 and sends nothing when no key is set', async () => {
    expect((await rejection(make('').translateBatch(['x'], EN_ES, TEXT, never()))).code).toBe(403);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a language Google lacks without a request', async () => {
    expect((await rejection(make().translateBatch(['x'], { src: 'en', trg: 'tlh' }, TEXT, never()))).code).toBe(400);
    expect(translations()).toHaveLength(0);
  });
});

describe('errors by meaning', () => {
  type Case = [string, Fault | undefined, number, number | undefined];
  const cases: Case[] = [
    ['invalid key (400 API_KEY_INVALID)', undefined, 403, undefined],
    ['legacy keyInvalid', { type: 'answer', ...gcloudError(400, 'Bad key', 'INVALID_ARGUMENT', 'keyInvalid') }, 403, undefined],
    ['daily quota (403 dailyLimitExceeded)', { type: 'answer', ...gcloudError(403, 'Daily Limit Exceeded', 'PERMISSION_DENIED', 'dailyLimitExceeded') }, 403, undefined],
    ['per-minute rate (403 userRateLimitExceeded)', { type: 'answer', ...gcloudError(403, 'User Rate Limit Exceeded', 'PERMISSION_DENIED', 'userRateLimitExceeded'), headers: { 'retry-after': '7' } }, 429, 7000],
    ['429 RESOURCE_EXHAUSTED', { type: 'answer', ...gcloudError(429, 'Quota exceeded', 'RESOURCE_EXHAUSTED', 'rateLimitExceeded'), headers: { 'retry-after': '2' } }, 429, 2000],
    ['API not enabled', { type: 'answer', ...gcloudError(403, 'API has not been used', 'PERMISSION_DENIED', 'accessNotConfigured', 'SERVICE_DISABLED') }, 403, undefined],
    ['bad input (400 invalid)', { type: 'answer', ...gcloudError(400, 'Invalid Value', 'INVALID_ARGUMENT', 'invalid') }, 400, undefined],
    ['5xx', { type: 'answer', ...gcloudError(500, 'Internal error', 'INTERNAL', 'backendError') }, 502, undefined],
    ['HTML 502 from a proxy', { type: 'answer', status: 502, body: '<html>bad gateway</html>' }, 502, undefined],
    ['malformed JSON', { type: 'malformed' }, 502, undefined],
    ['wrong number of translations', { type: 'answer', status: 200, body: { data: { translations: [{ translatedText: 'A' }] } } }, 502, undefined],
    ['connection reset', { type: 'reset' }, 503, undefined],
  ];
  it.each(cases)('%s', async (_name, fault, code, retry) => {
    if (fault) fake.rule({ fault });
    const e = await rejection(make(fault ? GCLOUD_KEY : 'wrong-key-5678').translateBatch(['secret words', 'b'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.retryAfterMs).toBe(retry);
    expect(e.message).not.toMatch(/secret|wrong-key|AIza/);
  });

  it('a key echoed in a message is masked', async () => {
    fake.rule({ fault: { type: 'answer', ...gcloudError(403, `Key ${GCLOUD_KEY} is blocked`, 'PERMISSION_DENIED', 'forbidden') } });
    const e = await rejection(make().translateBatch(['x'], EN_ES, TEXT, never()));
    expect(e).toMatchObject({ code: 403, message: expect.stringContaining('[key]') });
    expect(e.message).not.toContain(GCLOUD_KEY);
  });

  it('abort cancels the HTTP request and is 408', async () => {
    await expectAbortIs408(fake, (signal) => make().translateBatch(['wait'], EN_ES, TEXT, signal), translations);
  });
});

describe('through the service', () => {
  it('is left out without a key', async () => {
    expect((await serviceWith(gcloud, { enabled: true, url: fake.url })('GetProviders', {})).body).toEqual({});
    expect(fake.requests).toHaveLength(0);
  });

  it('with a key: listed, routes en->es, translates', async () => {
    const call = serviceWith(gcloud, { enabled: true, url: fake.url, key: GCLOUD_KEY });
    expect((await call('GetProviders', {})).body).toEqual({ 'gcloud.ts': 'Google Cloud Translation' });
    expect((await call('GetRoutes', { src: 'en', trg: 'es' })).body).toEqual(['gcloud.ts']);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['Hello', 'world'] });
    expect(r.body).toEqual({ dat: [{ rid: 'gcloud.ts', text: ['HELLO', 'WORLD'], length: 10 }] });
  });
});
