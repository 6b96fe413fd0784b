import { describe, expect, it, vi } from 'vitest';
import type { Provider } from '../../../src/core/provider';
import lingvaDefault, { createLingva, lingva } from '../../../src/providers/lingva';
import { startFakeLingva } from '../../fakes/fake-lingva';
import type { Fault } from '../../fakes/fake-service';
import { expectAbortIs408, fakeForFile, never, rejection, serviceWith, TEXT } from './harness';

const EN_ES = { src: 'en', trg: 'es' };

const fake = await fakeForFile(startFakeLingva());

const make = (url: string | null = fake.url, now?: () => number): Provider =>
  createLingva(url === null ? {} : { url }, { fetch: globalThis.fetch }, now ? { now } : {});
const translations = () => fake.requests.filter((r) => !r.path.startsWith('/api/v1/languages'));
const sentText = (path: string) => decodeURIComponent(path.split('/')[5] ?? '');

describe('lingva.ts module', () => {
  it('needs a url and has no default instance', () => {
    expect(lingvaDefault).toBe(lingva);
    expect(lingva).toMatchObject({ id: 'lingva.ts', name: 'Lingva Translate', needsKey: false, needsUrl: true, enabledByDefault: false });
    expect(lingva.defaultUrl).toBeUndefined();
    expect(make()).toMatchObject({ html: false, limits: { chars: 1500, segments: 1 } });
  });

  it('without a url it is unavailable and sends nothing', async () => {
    expect((await rejection(make(null).languages())).code).toBe(503);
    expect((await rejection(make(null).translateBatch(['x'], EN_ES, TEXT, never()))).code).toBe(503);
  });
});

describe('languages', () => {
  it("fetches source and target lists and maps Lingva's codes", async () => {
    const langs = (await make().languages()) as { src: string[]; trg: string[] };
    expect(langs.src).toEqual(['en', 'es', 'fr', 'de', 'zh-Hans', 'he', 'fil']);
    expect(langs.trg).toEqual(['en', 'es', 'fr', 'de', 'zh-Hans', 'zh-Hant', 'he', 'fil']);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /api/v1/languages/source', 'GET /api/v1/languages/target']);
  });

  it('caches for 24 hours; a failure gives the built-in list and is not cached', async () => {
    let t = 0;
    const p = make(fake.url, () => t);
    fake.rule({ path: '/api/v1/languages/target', fault: { type: 'answer', status: 500, body: { error: 'boom' } }, times: 1 });
    expect(((await p.languages()) as { trg: string[] }).trg.length).toBeGreaterThan(100);
    await p.languages();
    t = 24 * 3600_000 - 1;
    await p.languages();
    expect(fake.requests.filter((r) => r.path === '/api/v1/languages/target')).toHaveLength(2);
    t = 24 * 3600_000 + 1;
    await p.languages();
    expect(fake.requests.filter((r) => r.path === '/api/v1/languages/target')).toHaveLength(3);
  });
});

describe('translateBatch', () => {
  it('puts the text, percent-encoded, in the path', async () => {
    const p = make();
    await p.languages();
    const text = 'a/b? c#d 100% & "e"\nnext';
    expect(await p.translateBatch([text], { src: 'he', trg: 'zh-Hant' }, TEXT, never())).toEqual([text.toUpperCase()]);
    const [req] = translations();
    expect(req?.method).toBe('GET');
    expect(req?.path).toBe(`/api/v1/iw/zh_HANT/${encodeURIComponent(text)}`);
  });

  it('answers "." and ".." itself: URL parsing would drop them from the path', async () => {
    expect(await make().translateBatch(['..'], EN_ES, TEXT, never())).toEqual(['..']);
    expect(fake.requests).toHaveLength(0);
  });

  it('cuts a text whose encoding is too long for a URL, and joins the pieces with their white space', async () => {
    const sentence = 'Привет, как дела у тебя сегодня? ';
    const text = sentence.repeat(40).trimEnd(); // 1319 characters, ~7 KB percent-encoded
    const [out] = await make().translateBatch([text], { src: 'en', trg: 'es' }, TEXT, never());
    expect(out).toBe(text.toUpperCase());
    const sent = translations().map((r) => sentText(r.path));
    expect(sent).toHaveLength(2);
    expect(sent.every((s) => encodeURIComponent(s).length <= 6000)).toBe(true);
    expect(sent.every((s) => s.trimEnd().endsWith('?'))).toBe(true);
  });

  it('refuses a language the instance lacks without a request', async () => {
    expect((await rejection(make().translateBatch(['x'], { src: 'zh-Hant', trg: 'en' }, TEXT, never()))).code).toBe(400);
    expect(translations()).toHaveLength(0);
  });
});

describe('errors by meaning', () => {
  type Case = [string, Fault, number];
  const cases: Case[] = [
    ['400 invalid language', { type: 'answer', status: 400, body: { error: 'Invalid target language' } }, 400],
    ['500 (Google failed behind it)', { type: 'answer', status: 500, body: { error: 'An error occurred while retrieving the translation' } }, 502],
    ['429 from the instance', { type: 'answer', status: 429, body: { error: 'Too many requests' } }, 429],
    ['malformed JSON', { type: 'malformed' }, 502],
    ['no translation', { type: 'answer', status: 200, body: { error: 'x' } }, 502],
    ['connection reset', { type: 'reset' }, 503],
  ];
  it.each(cases)('%s', async (_name, fault, code) => {
    fake.rule({ fault });
    const e = await rejection(make().translateBatch(['secret words'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).not.toContain('secret');
  });

  it('a failing piece fails the text and cancels the other pieces', async () => {
    const text = 'Я тут. '.repeat(500).trimEnd();
    const before = fake.aborted;
    let n = 0;
    fake.rule({ match: () => n++ === 0, fault: { type: 'answer', status: 500, body: { error: 'boom' } } });
    fake.rule({ fault: { type: 'hang' } });
    const e = await rejection(make().translateBatch([text], EN_ES, TEXT, never()));
    expect(e.code).toBe(502);
    await vi.waitFor(() => expect(fake.aborted - before).toBe(translations().length - 1));
    expect(translations().length).toBeGreaterThan(1);
  });

  it('abort cancels the HTTP request and is 408', async () => {
    await expectAbortIs408(fake, (signal) => make().translateBatch(['wait'], EN_ES, TEXT, signal), translations);
  });
});

describe('through the service', () => {
  it('is left out without a url', async () => {
    expect((await serviceWith(lingva, { enabled: true })('GetProviders', {})).body).toEqual({});
  });

  it('with a url: listed, routes en->es, translates', async () => {
    const call = serviceWith(lingva, { enabled: true, url: fake.url });
    expect((await call('GetProviders', {})).body).toEqual({ 'lingva.ts': 'Lingva Translate' });
    expect((await call('GetRoutes', { src: 'en', trg: 'es' })).body).toEqual(['lingva.ts']);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['Hello', 'world'] });
    expect(r.body).toEqual({ dat: [{ rid: 'lingva.ts', text: ['HELLO', 'WORLD'], length: 10 }] });
  });
});
