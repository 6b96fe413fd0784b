import { afterEach, describe, expect, it } from 'vitest';
import type { Provider, ProviderSettings } from '../../../src/core/provider';
import mymemoryDefault, { createMyMemory, mymemory } from '../../../src/providers/mymemory';
import { mymemoryRefusal, QUOTA_WARNING, startFakeMyMemory } from '../../fakes/fake-mymemory';
import type { Fault } from '../../fakes/fake-service';
import { expectAbortIs408, fakeForFile, never, rejection, serviceWith, TEXT } from './harness';

const EN_ES = { src: 'en', trg: 'es' };
const bytes = (s: string) => new TextEncoder().encode(s).length;

const fake = await fakeForFile(startFakeMyMemory(100_000));
afterEach(() => fake.allowance.clear());

const make = (extra: ProviderSettings = {}): Provider => createMyMemory({ url: fake.url, ...extra }, { fetch: globalThis.fetch });
const sent = () => fake.requests.map((r) => r.query.get('q') ?? '');

describe('mymemory.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(mymemoryDefault).toBe(mymemory);
    expect(mymemory).toMatchObject({ id: 'mymemory.ts', name: 'MyMemory', needsKey: false, enabledByDefault: false, defaultUrl: 'https://api.mymemory.translated.net' });
    expect(make()).toMatchObject({ html: false, limits: { chars: 500, segments: 1 } });
  });

  it('has a built-in language list in canonical codes, fetched from nowhere', async () => {
    const langs = (await make().languages()) as { src: string[]; trg: string[] };
    expect(langs.src).toEqual(expect.arrayContaining(['en', 'he', 'fil', 'pt', 'pt-BR', 'zh-Hans', 'zh-Hant']));
    expect(langs.trg).toEqual(langs.src);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('translateBatch', () => {
  it('asks /get with q and langpair, and the email as de when set', async () => {
    expect(await make().translateBatch(['Hello & bye'], { src: 'zh-Hans', trg: 'fil' }, TEXT, never())).toEqual(['HELLO & BYE']);
    expect(await make({ email: 'me@example.org' }).translateBatch(['Hi'], EN_ES, TEXT, never())).toEqual(['HI']);
    const [anon, withEmail] = fake.requests;
    expect(anon?.method).toBe('GET');
    expect(Object.fromEntries(anon!.query)).toEqual({ q: 'Hello & bye', langpair: 'zh-CN|tl' });
    expect(Object.fromEntries(withEmail!.query)).toEqual({ q: 'Hi', langpair: 'en|es', de: 'me@example.org' });
    expect(fake.allowance.get('me@example.org')).toBe(100_000 - 2);
  });

  it('unescapes the entities of memory matches when the source had no &', async () => {
    expect(await make().translateBatch([`It's "ok"`], EN_ES, TEXT, never())).toEqual([`IT'S "OK"`]);
  });

  it('sends 500 bytes of ASCII in one request', async () => {
    const text = 'word '.repeat(100).trimEnd();
    expect(await make().translateBatch([text], EN_ES, TEXT, never())).toEqual([text.toUpperCase()]);
    expect(fake.requests).toHaveLength(1);
  });

  it('cuts a text over 500 bytes at sentence bounds, keeping the white space between pieces', async () => {
    const text = 'Привет, как дела? '.repeat(25).trimEnd(); // 449 characters, ~800 bytes
    const [out] = await make().translateBatch([text], { src: 'ru', trg: 'en' }, TEXT, never());
    expect(out).toBe(text.toUpperCase());
    expect(sent().length).toBeGreaterThan(1);
    expect(sent().every((q) => bytes(q) <= 500 && q.trimEnd().endsWith('?'))).toBe(true);
  });

  it('refuses a language it lacks without a request', async () => {
    expect((await rejection(make().translateBatch(['x'], { src: 'en', trg: 'tlh' }, TEXT, never()))).code).toBe(400);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('errors by meaning', () => {
  type Case = [string, Fault, number, number | undefined];
  const quotaMs = ((13 * 60 + 32) * 60 + 18) * 1000;
  const cases: Case[] = [
    ['quota warning in a 200 (status 429)', { type: 'answer', ...mymemoryRefusal(429, QUOTA_WARNING) }, 403, quotaMs],
    ['quota warning with responseStatus 200', { type: 'answer', ...mymemoryRefusal(200, QUOTA_WARNING) }, 403, quotaMs],
    ['quota warning as HTTP 429', { type: 'answer', ...mymemoryRefusal(429, QUOTA_WARNING), status: 429 }, 403, quotaMs],
    ['quotaFinished with an empty text', { type: 'answer', ...mymemoryRefusal(200, '', true) }, 403, undefined],
    ['invalid language pair', { type: 'answer', ...mymemoryRefusal('403', 'INVALID LANGUAGE PAIR SPECIFIED. EXAMPLE: LANGPAIR=EN|IT') }, 400, undefined],
    ['query too long', { type: 'answer', ...mymemoryRefusal(403, 'QUERY LENGTH LIMIT EXCEEDED. MAX ALLOWED QUERY : 500 CHARS') }, 400, undefined],
    ['too many requests (HTTP 429)', { type: 'answer', status: 429, body: 'Too Many Requests', headers: { 'retry-after': '4' } }, 429, 4000],
    ['unknown status in the body', { type: 'answer', ...mymemoryRefusal(500, 'SERVER ERROR') }, 502, undefined],
    ['5xx', { type: 'answer', status: 500, body: '<html>500</html>' }, 502, undefined],
    ['malformed JSON', { type: 'malformed' }, 502, undefined],
    ['no translatedText', { type: 'answer', status: 200, body: { responseData: null, responseStatus: 200 } }, 502, undefined],
    ['connection reset', { type: 'reset' }, 503, undefined],
  ];
  it.each(cases)('%s', async (_name, fault, code, retry) => {
    fake.rule({ fault });
    const e = await rejection(make().translateBatch(['secret words'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.retryAfterMs).toBe(retry);
    expect(e.message).not.toContain('secret');
  });

  it('reaching the free allowance is 403', async () => {
    const small = await startFakeMyMemory(10);
    try {
      const p = createMyMemory({ url: small.url }, { fetch: globalThis.fetch });
      await p.translateBatch(['12345678'], EN_ES, TEXT, never());
      expect((await rejection(p.translateBatch(['abc'], EN_ES, TEXT, never()))).code).toBe(403);
    } finally {
      await small.close();
    }
  });

  it('an invalid email is 403 and not repeated', async () => {
    const e = await rejection(make({ email: 'not-an-email' }).translateBatch(['x'], EN_ES, TEXT, never()));
    expect(e.code).toBe(403);
    expect(e.message).not.toContain('not-an-email');
  });

  it('abort cancels the HTTP request and is 408', async () => {
    await expectAbortIs408(fake, (signal) => make().translateBatch(['wait'], EN_ES, TEXT, signal), () => fake.requests);
  });
});

describe('through the service', () => {
  it('when enabled: listed, routes en->es, translates, sends the email', async () => {
    const call = serviceWith(mymemory, { enabled: true, url: fake.url, email: 'me@example.org' });
    expect((await call('GetProviders', {})).body).toEqual({ 'mymemory.ts': 'MyMemory' });
    expect((await call('GetRoutes', { src: 'en', trg: 'pt-BR' })).body).toEqual(['mymemory.ts']);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['Hello', 'world'] });
    expect(r.body).toEqual({ dat: [{ rid: 'mymemory.ts', text: ['HELLO', 'WORLD'], length: 10 }] });
    expect(fake.requests.map((q) => q.query.get('de'))).toEqual(['me@example.org', 'me@example.org']);
  });

  it('is off on a fresh install', async () => {
    expect((await serviceWith(mymemory)('GetProviders', {})).body).toEqual({});
  });
});
