import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Provider, ProviderSettings } from '../../../src/core/provider';
import remoteDefault, { createRemote, remote } from '../../../src/providers/remote';
import { ENGINE_KEY, startEngine, startFakeRemote, type RemoteFault } from '../../fakes/fake-remote';
import { body, harness } from '../service/harness';
import { fakeForFile, HTML, never, rejection, TEXT } from './harness';

const EN_ES = { src: 'en', trg: 'es' };
const REMOTE_KEY = ENGINE_KEY;

const engine = await startEngine();
afterAll(() => engine.close());
afterEach(() => {
  engine.stats.requests.length = 0;
});
const fake = await fakeForFile(startFakeRemote());

const make = (settings: ProviderSettings = {}, now?: () => number): Provider =>
  createRemote({ url: engine.url, key: REMOTE_KEY, ...settings }, { fetch: globalThis.fetch }, now ? { now } : {});
const makeFake = (settings: ProviderSettings = {}, now?: () => number): Provider => make({ url: fake.url, key: fake.key, ...settings }, now);

describe('remote.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(remoteDefault).toBe(remote);
    expect(remote).toMatchObject({ id: 'remote.ts', needsKey: true, needsUrl: true, enabledByDefault: false });
    expect(remote.defaultUrl).toBeUndefined();
    expect(make()).toMatchObject({ id: 'remote.ts', html: true, limits: { chars: 1000, segments: 50 } });
    expect(make({ limit: 5000 }).limits.chars).toBe(5000);
    expect(make({ limit: '2000' }).limits.chars).toBe(2000);
    expect(make({ limit: -3 }).limits.chars).toBe(1000);
  });
});

describe('languages', () => {
  it("are the remote's GetLanguages, asked with the key in auth", async () => {
    expect(await makeFake().languages()).toEqual({ src: ['en', 'es'], trg: ['en', 'es'] });
    expect(fake.requests).toEqual([{ method: 'GET', path: '/api/GetLanguages', query: { auth: [fake.key] }, form: {} }]);
    const langs = (await make().languages()) as { src: string[]; trg: string[] };
    expect([langs.src.sort(), langs.trg.sort()]).toEqual([['de', 'en', 'es', 'fr', 'pt'], ['de', 'en', 'es', 'fr', 'pt']]);
  });

  it('become pairs without the excluded ones and without src = trg; codes canonical', async () => {
    fake.rule({ fn: 'GetLanguages', fault: { type: 'body', body: { src: ['EN', 'es', 'iw'], trg: ['en', 'es', 'fr'], exclude: [['es', 'fr'], ['he', 'en']] } } });
    expect(await makeFake().languages()).toEqual({
      pairs: [{ src: 'en', trg: 'es' }, { src: 'en', trg: 'fr' }, { src: 'es', trg: 'en' }, { src: 'he', trg: 'es' }, { src: 'he', trg: 'fr' }],
    });
  });

  it("a real engine's exclude list is honoured", async () => {
    const own = await startEngine({ languages: { pairs: [{ src: 'en', trg: 'es' }, { src: 'es', trg: 'en' }, { src: 'en', trg: 'fr' }] } }, { interlinguas: [] });
    try {
      const support = await make({ url: own.url }).languages();
      expect(support).toEqual({ pairs: expect.arrayContaining([{ src: 'en', trg: 'es' }, { src: 'es', trg: 'en' }, { src: 'en', trg: 'fr' }]) });
      expect('pairs' in support && support.pairs).toHaveLength(3);
    } finally {
      await own.close();
    }
  });

  it('are cached for 24 hours, but not a failure', async () => {
    let t = 0;
    const p = makeFake({}, () => t);
    fake.rule({ fn: 'GetLanguages', fault: { type: 'status', status: 500 }, times: 1 });
    expect((await rejection(p.languages())).code).toBe(502);
    await p.languages();
    t = 23 * 3_600_000;
    await p.languages();
    expect(fake.requests).toHaveLength(2);
    t = 24 * 3_600_000 + 1;
    await p.languages();
    expect(fake.requests).toHaveLength(3);
  });

  it('a wrong key is 403 and unusable lists are 502', async () => {
    expect((await rejection(make({ key: 'wrong-key-9999' }).languages())).code).toBe(403);
    fake.rule({ fn: 'GetLanguages', fault: { type: 'body', body: { src: ['en'] } } });
    expect((await rejection(makeFake().languages())).code).toBe(502);
  });
});

describe('translateBatch', () => {
  it('posts one form with every segment as dat, max=min=1, and reads the first route', async () => {
    expect(await makeFake().translateBatch(['a b', 'ñ & ü'], EN_ES, TEXT, never())).toEqual(['A B', 'Ñ & Ü']);
    expect(fake.requests).toEqual([{
      method: 'POST', path: '/api/Translate', contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/), query: {},
      form: { auth: [fake.key], src: ['en'], trg: ['es'], dat: ['a b', 'ñ & ü'], min: ['1'], max: ['1'], frm: ['text'] },
    }]);
    await makeFake().translateBatch(['x'], EN_ES, { format: 'text', domain: 'law' }, never());
    expect(fake.requests[1]?.form.dom).toEqual(['law']);
  });

  it('translates through a real engine', async () => {
    expect(await make().translateBatch(['Hello', 'World'], EN_ES, TEXT, never())).toEqual(['HELLO', 'WORLD']);
    expect(engine.stats.requests.map((r) => r.segments)).toEqual([['Hello', 'World']]);
  });

  it('html: one frm=html request per fragment, tags and ids kept by the real engine', async () => {
    const out = await make().translateBatch(['<b id="1">Hi</b> there', 'plain <i id="2">x</i>'], EN_ES, HTML, never());
    expect(out).toEqual(['<b id="1">HI</b> THERE', 'PLAIN <i id="2">X</i>']);
    expect(engine.stats.requests).toHaveLength(2);
  });

  it('html: at most 4 requests at once, results in order, chunks joined by cnt', async () => {
    const segments = ['s0', 's1', 's2', 's3', 's4', 's5', 's6'];
    segments.forEach((s, i) => fake.rule({ match: (d) => d === s, fault: { type: 'delay', ms: 15 * (7 - i) } }));
    expect(await makeFake().translateBatch(segments, EN_ES, HTML, never())).toEqual(segments.map((s) => s.toUpperCase()));
    // Arrival order at the server is not send order; each fragment is one frm=html request.
    expect(fake.requests.map((r) => [r.form.frm, r.form.dat]).sort()).toEqual(segments.map((s) => [['html'], [s]]));
    expect(fake.maxConcurrent).toBe(4);
    fake.rule({ fault: { type: 'body', body: [{ dat: 'b', rid: 'x.ts', cnt: 2, sum: 2, length: 1 }, { dat: 'a ', rid: 'x.ts', cnt: 1, sum: 2, err: '0', length: 1 }] } });
    expect(await makeFake().translateBatch(['q'], EN_ES, HTML, never())).toEqual(['a b']);
  });

  it('takes the route that succeeded when a failed one is reported beside it', async () => {
    fake.rule({ fault: { type: 'body', body: { dat: [{ rid: 'a.ts', err: '429 rate limit', length: 0 }, { rid: 'b.ts', text: ['X'], length: 1 }] } } });
    expect(await makeFake().translateBatch(['x'], EN_ES, TEXT, never())).toEqual(['X']);
  });
});

describe('errors by meaning', () => {
  const route = (err: string) => ({ dat: [{ rid: 'deepl.ts', err, length: 0 }] });
  const cases: [string, RemoteFault, number, RegExp][] = [
    ['400', { type: 'status', status: 400, body: { err: 'source language "xx" is not available' } }, 400, /not available/],
    ['413 (over its limit)', { type: 'status', status: 413, body: { err: 'text of 1200 characters exceeds 1000' } }, 400, /1000/],
    ['403', { type: 'status', status: 403, body: { err: 'authorization key "team" is exhausted' } }, 403, /exhausted/],
    ['404 (not an interface server)', { type: 'status', status: 404, body: '<html>' }, 502, /no interface server/],
    ['408 whole request', { type: 'status', status: 408, body: { err: 'timed out', ...route('408 timed out after 20 s') } }, 408, /deepl\.ts: 408/],
    ['503 where its route hit a rate limit', { type: 'status', status: 503, body: { err: 'no route', ...route('429 provider rate limit') } }, 429, /429/],
    ['503 where its route refused the input', { type: 'status', status: 503, body: { err: 'no route', ...route('400 bad input') } }, 400, /400 bad input/],
    ['503 with no body', { type: 'status', status: 503, body: '' }, 503, /503/],
    ['500', { type: 'status', status: 500, body: { err: 'internal error' } }, 502, /internal error/],
    ['a route err with an unknown code', { type: 'body', body: route('418 teapot') }, 502, /418/],
    ['a route err 403 on 200', { type: 'body', body: route('403 provider key invalid') }, 403, /key invalid/],
    ['wrong count', { type: 'body', body: { dat: [{ rid: 'x.ts', text: ['ONE'], length: 3 }] } }, 502, /1 texts for 2/],
    ['no dat', { type: 'body', body: { ok: true } }, 502, /no dat/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    fake.rule({ fault });
    const e = await rejection(makeFake().translateBatch(['secret words', 'two'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toMatch(/secret|remote-key/);
  });

  it('a failed html chunk fails the fragment with its code', async () => {
    fake.rule({ fault: { type: 'body', body: [{ dat: '<b>orig</b>', rid: 'x.ts', cnt: 1, sum: 1, err: '429 provider rate limit', length: 0 }] }, times: 1 });
    expect((await rejection(makeFake().translateBatch(['<b id="1">x</b>'], EN_ES, HTML, never()))).code).toBe(429);
    fake.rule({ fault: { type: 'body', body: { dat: [] } } });
    expect((await rejection(makeFake().translateBatch(['<b id="1">x</b>'], EN_ES, HTML, never()))).code).toBe(502);
  });

  it('a rate limit keeps Retry-After; an unreachable server is 503', async () => {
    fake.rule({ fault: { type: 'status', status: 429, body: { err: 'slow down' }, headers: { 'retry-after': '3' } } });
    expect(await rejection(makeFake().translateBatch(['x'], EN_ES, TEXT, never()))).toMatchObject({ code: 429, retryAfterMs: 3000 });
    const gone = await startFakeRemote();
    const url = gone.url;
    await gone.close();
    expect((await rejection(makeFake({ url }).translateBatch(['x'], EN_ES, TEXT, never()))).code).toBe(503);
  });

  it('the real engine: exhausted key 403, text over its limit 400', async () => {
    const own = await startEngine({}, { keys: [{ name: 'team', key: REMOTE_KEY, quota: 5 }] });
    try {
      expect((await rejection(make({ url: own.url }).translateBatch(['0123456789'], EN_ES, TEXT, never()))).code).toBe(403);
    } finally {
      await own.close();
    }
    const e = await rejection(make().translateBatch(['x'.repeat(1001)], EN_ES, TEXT, never()));
    expect(e).toMatchObject({ code: 400, message: expect.stringMatching(/413/) });
  });

  it('abort cancels the request, is 408, and the real engine cancels its provider', async () => {
    const own = await startEngine({ hang: true });
    try {
      const ac = new AbortController();
      const pending = make({ url: own.url }).translateBatch(['wait'], EN_ES, TEXT, ac.signal);
      await vi.waitFor(() => expect(own.stats.requests).toHaveLength(1));
      ac.abort();
      expect((await rejection(pending)).code).toBe(408);
      await vi.waitFor(() => expect(own.stats.aborted).toBe(1));
    } finally {
      await own.close();
    }
  });

  it('html: abort cancels every open request', async () => {
    fake.rule({ fault: { type: 'hang' } });
    const ac = new AbortController();
    const before = fake.aborted;
    const pending = makeFake().translateBatch(['a', 'b', 'c', 'd', 'e'], EN_ES, HTML, ac.signal);
    await vi.waitFor(() => expect(fake.requests).toHaveLength(4));
    ac.abort();
    expect((await rejection(pending)).code).toBe(408);
    await vi.waitFor(() => expect(fake.aborted - before).toBe(4));
    expect(fake.requests).toHaveLength(4);
  });
});

describe('through the service', () => {
  const front = (conf: ProviderSettings) => {
    const h = harness([remote]);
    h.settings.providers['remote.ts'] = conf;
    return h;
  };

  it('is listed with url and key, routed, and translates', async () => {
    const { call } = front({ enabled: true, url: engine.url, key: REMOTE_KEY });
    expect(body(await call('GetProviders', {}))).toEqual({ 'remote.ts': remote.name });
    expect(body(await call('GetRoutes', { src: 'en', trg: 'es' }))).toEqual(['remote.ts']);
    expect(await call('Translate', { src: 'en', trg: 'es', dat: ['Hello', 'World'] })).toEqual({
      status: 200, body: { dat: [{ rid: 'remote.ts', text: ['HELLO', 'WORLD'], length: 10 }] },
    });
    const html = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hi <a href="/x">you</a></p>' });
    expect(body<{ dat: string }[]>(html).map((c) => c.dat).join('')).toBe('<p>HI <a href="/x">YOU</a></p>');
  });

  it('is left out without a key or without a url', async () => {
    expect(body(await front({ enabled: true, url: engine.url }).call('GetProviders', {}))).toEqual({});
    expect(body(await front({ enabled: true, key: REMOTE_KEY }).call('GetProviders', {}))).toEqual({});
  });
});
