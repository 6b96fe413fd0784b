import { describe, expect, it } from 'vitest';
import type { Provider } from '../../../src/core/provider';
import googleDefault, { createGoogle, google } from '../../../src/providers/google';
import { startFakeGoogle, UNUSUAL_TRAFFIC } from '../../fakes/fake-google';
import type { Fault } from '../../fakes/fake-service';
import { expectAbortIs408, fakeForFile, HTML, never, rejection, serviceWith, TEXT } from './harness';

const EN_ES = { src: 'en', trg: 'es' };

const fake = await fakeForFile(startFakeGoogle());

const make = (url = fake.url, now?: () => number): Provider => createGoogle({ url }, { fetch: globalThis.fetch }, now ? { now } : {});
const at = (path: string) => fake.requests.filter((r) => r.path === path);

describe('google.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(googleDefault).toBe(google);
    expect(google).toMatchObject({ id: 'google.ts', name: 'Google Translate', needsKey: false, enabledByDefault: true, defaultUrl: 'https://translate.googleapis.com' });
    expect(make()).toMatchObject({ id: 'google.ts', html: true, limits: { chars: 5000, segments: 128 } });
  });
});

describe('languages', () => {
  it("maps Google's codes to canonical BCP 47 and drops auto", async () => {
    const langs = (await make().languages()) as { src: string[]; trg: string[] };
    expect(langs.trg).toEqual(['en', 'es', 'fr', 'de', 'pt', 'he', 'jv', 'fil', 'no', 'zh-Hans', 'zh-Hant']);
    expect(langs.src).toEqual(langs.trg);
    expect(at('/translate_a/l')[0]?.query.get('client')).toBe('chrome');
  });

  it('caches the list for 24 hours; a failure falls back to the built-in list and is not cached', async () => {
    let t = 0;
    const p = make(fake.url, () => t);
    fake.rule({ path: '/translate_a/l', fault: { type: 'answer', status: 500, body: 'oops' }, times: 1 });
    const builtIn = (await p.languages()) as { src: string[] };
    expect(builtIn.src.length).toBeGreaterThan(100);
    expect(builtIn.src).toEqual(expect.arrayContaining(['he', 'zh-Hans', 'zh-Hant', 'fil', 'jv', 'mni-Mtei']));
    expect(((await p.languages()) as { src: string[] }).src).toHaveLength(11);
    t = 24 * 3600_000 - 1;
    await p.languages();
    expect(at('/translate_a/l')).toHaveLength(2);
    t = 24 * 3600_000 + 1;
    await p.languages();
    expect(at('/translate_a/l')).toHaveLength(3);
  });
});

describe('translateBatch', () => {
  it('sends one plain text to translate_a/single and joins its sentence pieces', async () => {
    const p = make();
    await p.languages();
    const text = 'Hello & world. Second one? ñandú 😀';
    expect(await p.translateBatch([text], { src: 'he', trg: 'zh-Hans' }, TEXT, never())).toEqual([text.toUpperCase()]);
    const [req] = at('/translate_a/single');
    expect(req?.method).toBe('GET');
    expect(Object.fromEntries(req!.query)).toEqual({ client: 'gtx', sl: 'iw', tl: 'zh-CN', dt: 't', q: text });
  });

  it('sends several texts as repeated form q to translate_a/t, answers in order', async () => {
    const texts = ['one', 'two & three', 'vier=4'];
    expect(await make().translateBatch(texts, EN_ES, TEXT, never())).toEqual(['ONE', 'TWO & THREE', 'VIER=4']);
    const [req] = at('/translate_a/t');
    expect(req).toMatchObject({ method: 'POST', headers: expect.objectContaining({ 'content-type': expect.stringMatching(/^application\/x-www-form-urlencoded/) }) });
    expect(Object.fromEntries(req!.query)).toEqual({ client: 'gtx', sl: 'en', tl: 'es' });
    expect(req!.form.getAll('q')).toEqual(texts);
  });

  it('sends HTML with format=html and keeps the id tags', async () => {
    const out = await make().translateBatch(['<b id="3">Hi</b> you'], EN_ES, HTML, never());
    expect(out).toEqual(['<b id="3">HI</b> YOU']);
    expect(at('/translate_a/t')[0]?.query.get('format')).toBe('html');
    expect(at('/translate_a/single')).toHaveLength(0);
  });

  it('sends a text too long for a GET URL by POST', async () => {
    const long = '語'.repeat(1000); // 9000 bytes once percent-encoded
    expect(await make().translateBatch([long], EN_ES, TEXT, never())).toEqual([long]);
    expect(at('/translate_a/single')).toHaveLength(0);
    expect(at('/translate_a/t')[0]?.form.get('q')).toBe(long);
  });

  it('accepts [text, lang] pairs and a bare string', async () => {
    fake.rule({ path: '/translate_a/t', fault: { type: 'answer', status: 200, body: [['UNO', 'en'], ['DOS', 'en']] }, times: 1 });
    expect(await make().translateBatch(['a', 'b'], EN_ES, TEXT, never())).toEqual(['UNO', 'DOS']);
    fake.rule({ path: '/translate_a/t', fault: { type: 'answer', status: 200, body: '"SOLO"', headers: { 'content-type': 'application/json' } }, times: 1 });
    expect(await make().translateBatch(['<i id="1">x</i>'], EN_ES, HTML, never())).toEqual(['SOLO']);
  });

  it('refuses a language it does not have without a request', async () => {
    const p = make();
    await p.languages();
    expect((await rejection(p.translateBatch(['x'], { src: 'en', trg: 'ko' }, TEXT, never()))).code).toBe(400);
    expect(at('/translate_a/single')).toHaveLength(0);
  });
});

describe('errors by meaning', () => {
  type Case = [string, Fault, number, number | undefined];
  const cases: Case[] = [
    ['429 with Retry-After', { type: 'answer', status: 429, body: UNUSUAL_TRAFFIC, headers: { 'retry-after': '30' } }, 429, 30_000],
    ['503 unusual traffic page', { type: 'answer', status: 503, body: UNUSUAL_TRAFFIC, headers: { 'retry-after': '5' } }, 429, 5_000],
    ['400 bad request', { type: 'answer', status: 400, body: '<html>400</html>' }, 400, undefined],
    ['5xx', { type: 'answer', status: 500, body: '<html>500</html>' }, 502, undefined],
    ['malformed JSON', { type: 'malformed' }, 502, undefined],
    ['no sentences', { type: 'answer', status: 200, body: [null, null, 'en'] }, 502, undefined],
    ['connection reset', { type: 'reset' }, 503, undefined],
  ];
  it.each(cases)('%s', async (_name, fault, code, retry) => {
    fake.rule({ fault });
    const e = await rejection(make().translateBatch(['secret words'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.retryAfterMs).toBe(retry);
    expect(e.message).not.toContain('secret');
  });

  it('a wrong number of texts is 502', async () => {
    fake.rule({ path: '/translate_a/t', fault: { type: 'answer', status: 200, body: ['ONLY ONE'] } });
    const e = await rejection(make().translateBatch(['a', 'b'], EN_ES, TEXT, never()));
    expect(e).toMatchObject({ code: 502, message: expect.stringMatching(/1 texts for 2/) });
  });

  it('an unreachable server is 503', async () => {
    const closed = await startFakeGoogle();
    await closed.close();
    expect((await rejection(make(closed.url).translateBatch(['x'], EN_ES, TEXT, never()))).code).toBe(503);
  });

  it('abort cancels the HTTP request and is 408', async () => {
    await expectAbortIs408(fake, (signal) => make().translateBatch(['a', 'b'], EN_ES, TEXT, signal), () => at('/translate_a/t'));
  });
});

describe('through the service', () => {
  it('is listed without settings, routes en->es and translates', async () => {
    const call = serviceWith(google, { enabled: true, url: fake.url });
    expect((await call('GetProviders', {})).body).toEqual({ 'google.ts': 'Google Translate' });
    expect((await call('GetRoutes', { src: 'en', trg: 'fil' })).body).toEqual(['google.ts']);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['Hello there.', 'Bye'] });
    expect(r.body).toEqual({ dat: [{ rid: 'google.ts', text: ['HELLO THERE.', 'BYE'], length: 15 }] });
    expect(at('/translate_a/t')[0]?.form.getAll('q')).toEqual(['Hello there.', 'Bye']);
  });
});
