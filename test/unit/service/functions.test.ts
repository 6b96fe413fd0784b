import { describe, expect, it } from 'vitest';
import { fakeProvider } from '../../fakes/fake-provider';
import { memoryStore } from '../../../src/core/storage';
import { body, harness, KEY, settingsFor } from './harness';
import { createService } from '../../../src/core/service';
import { rehearseDocument } from '../../../src/core/engine/translate-document';
import type { MemoryKey } from '../../../src/core/scheduler/memory';

const langs = { src: ['en', 'es', 'fr'], trg: ['en', 'es', 'fr'] };
type Err = { err: string };

describe('GetProviders, GetLanguages, GetRoutes', () => {
  it('lists enabled, configured providers only', async () => {
    const a = fakeProvider({ id: 'a.ts', name: 'Alpha', languages: langs });
    const k = fakeProvider({ id: 'k.ts', languages: langs, needsKey: true });
    const { call } = harness([a.module, k.module]);
    expect(body(await call('GetProviders', {}))).toEqual({ 'a.ts': 'Alpha' });
    const r = await call('GetRoutes', { src: 'en', trg: 'fr' });
    expect(body(r)).toEqual(['a.ts']);
  });

  it('answers GetLanguages with canonical codes and the routeless pairs', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: { pairs: [{ src: 'en', trg: 'es' }, { src: 'es', trg: 'fr' }] } });
    const { call } = harness([a.module], { interlinguas: ['es'] });
    const l = body<{ src: string[]; trg: string[]; exclude: string[][] }>(await call('GetLanguages', {}));
    expect(l.src.sort()).toEqual(['en', 'es']);
    expect(l.trg.sort()).toEqual(['es', 'fr']);
    expect(l.exclude).toEqual([]);
    expect(body(await call('GetRoutes', { src: 'en', trg: 'fr' }))).toEqual(['a.ts,es,a.ts']);
  });

  it('canonicalizes codes and answers 200 [] for a pair in exclude', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: { pairs: [{ src: 'en', trg: 'es' }, { src: 'fr', trg: 'en' }] } });
    const { call } = harness([a.module], { interlinguas: [] });
    expect(body(await call('GetRoutes', { src: 'ENG', trg: 'spa' }))).toEqual(['a.ts']);
    const ex = await call('GetRoutes', { src: 'en', trg: 'en' });
    expect(ex.status).toBe(400);
    const none = await call('GetRoutes', { src: 'fr', trg: 'es' });
    expect(none).toEqual({ status: 200, body: [] });
    const tr = await call('Translate', { src: 'fr', trg: 'es', dat: 'x' });
    expect(tr.status).toBe(400);
    expect(body<Err>(tr).err).toContain('fr');
  });

  it('refuses languages that are not listed', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'de', trg: 'es', dat: 'x' });
    expect(r.status).toBe(400);
    expect(body<Err>(r).err).toMatch(/source language "de" is not available/);
  });
});

describe('authentication and usage', () => {
  it('refuses missing, unknown and revoked keys with 403 without echoing them', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { service } = harness([a.module], {
      keys: [
        { name: 'ok', key: KEY },
        { name: 'old', key: 'revoked-key-1', revoked: true },
      ],
    });
    for (const [auth, msg] of [
      [undefined, /missing/],
      ['wrong-key-99', /unknown/],
      ['revoked-key-1', /"old" is revoked/],
    ] as const) {
      const r = await service.call('GetProviders', { auth });
      expect(r.status).toBe(403);
      expect(body<Err>(r).err).toMatch(msg);
      if (auth) expect(body<Err>(r).err).not.toContain(auth);
    }
  });

  it('lets the extension itself call without a key', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module]);
    expect((await call('GetProviders', {}, true)).status).toBe(200);
  });

  it('exhausts a key at its quota, counting only translated characters, across restarts', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const bad = fakeProvider({ id: 'b.ts', languages: langs, failWith: 502 });
    const store = memoryStore();
    const keys = [{ name: 'small', key: KEY, quota: 10 }];
    const first = harness([bad.module, a.module], { keys, interlinguas: [] }, store);
    // the failing route translated nothing: only a.ts's 6 characters count
    const r = await first.call('Translate', { src: 'en', trg: 'es', dat: 'abcdef', min: 2, max: 2 });
    expect(r.status).toBe(200);
    const tooBig = await first.call('Translate', { src: 'en', trg: 'es', dat: 'abcdefgh' });
    expect(tooBig.status).toBe(403);
    expect(body<Err>(tooBig).err).toMatch(/4 characters left/);
    await first.service.flush();
    const second = harness([a.module], { keys }, store);
    expect((await second.call('Translate', { src: 'en', trg: 'es', dat: 'abcd' })).status).toBe(200);
    const exhausted = await second.call('Translate', { src: 'en', trg: 'es', dat: 'a' });
    expect(exhausted.status).toBe(403);
    expect(body<Err>(exhausted).err).toMatch(/"small" is exhausted/);
    await second.service.flush();
    expect(await store.get('usage')).toEqual({ keys: { small: { requests: 2, chars: 10 } }, apps: {} });
  });

  it('counts usage per app', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call, service, store } = harness([a.module]);
    await call('Translate', { src: 'en', trg: 'es', dat: 'hello', app: 'my-app' });
    await service.flush();
    expect(await store.get('usage')).toEqual({
      keys: { tester: { requests: 1, chars: 5 } },
      apps: { 'my-app': { requests: 1, chars: 5 } },
    });
  });
});

describe('over HTTP', () => {
  const a = fakeProvider({ id: 'a.ts', languages: langs });
  const { service } = harness([a.module]);
  const get = (path: string, query: string, extra = {}) => service.http({ method: 'GET', path, query, ...extra });

  it('answers unknown functions with 404 and other methods with 405 and Allow', async () => {
    expect((await get('/api/translate', `auth=${KEY}`)).status).toBe(404);
    const r = await service.http({ method: 'PUT', path: '/api/Translate', query: '' });
    expect(r.status).toBe(405);
    expect(r.headers).toEqual({ Allow: 'GET, POST' });
  });

  it('decodes the query on bytes and refuses invalid UTF-8', async () => {
    const ok = await get('/api/Translate', `auth=${KEY}&src=en&trg=es&dat=caf%C3%A9+au+lait`);
    expect(body<{ dat: { text: string[] }[] }>(ok).dat[0]!.text).toEqual(['CAFÉ AU LAIT']);
    const bad = await get('/api/Translate', `auth=${KEY}&src=en&trg=es&dat=%C3%28`);
    expect(bad.status).toBe(400);
    expect(body<Err>(bad).err).toMatch(/UTF-8/);
  });

  it('appends form body parameters after the query ones', async () => {
    const r = await service.http({
      method: 'POST',
      path: '/api/Translate',
      query: `auth=${KEY}&dat=first`,
      body: new TextEncoder().encode('src=en&trg=es&dat=second'),
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
    });
    expect(body<{ dat: { text: string[] }[] }>(r).dat[0]!.text).toEqual(['FIRST', 'SECOND']);
    const json = await service.http({ method: 'POST', path: '/api/GetProviders', query: `auth=${KEY}`, body: new TextEncoder().encode('{}'), contentType: 'application/json' });
    expect(json.status).toBe(415);
  });
});

describe('keys in refusals', () => {
  it('never quotes a key back, even one sent in the wrong parameter', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { service } = harness([a.module]);
    for (const p of ['mode', 'min', 'timeout', 'dom', 'frm', 'rid']) {
      const r = await service.http({ method: 'GET', path: '/api/Translate', query: `auth=${KEY}&src=en&trg=es&dat=x&${p}=${KEY}` });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).not.toContain(KEY);
      expect(body<Err>(r).err).toContain('[key]');
    }
  });

  it('nor a key of the settings sent without auth (found by the fuzz test: mode=<key> alone)', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { service } = harness([a.module]);
    for (const query of [`mode=${KEY}`, `src=en&trg=es&dat=x&dom=${KEY}`, `format=${KEY}`]) {
      const r = await service.http({ method: 'GET', path: '/api/Translate', query });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(r.body)).not.toContain(KEY);
    }
    const r = await service.http({ method: 'GET', path: '/api/Translate', query: `mode=${KEY}` });
    expect(body<Err>(r).err).toContain('[key]');
  });
});

describe('warm (a right-click ahead of the context menu: page:wake)', () => {
  it('builds the language lists a first call needs, once, and counts no usage', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    let asked = 0;
    const counted = { ...a.module, create: (...args: Parameters<typeof a.module.create>) => {
      const p = a.module.create(...args);
      return { ...p, languages: (...l: Parameters<typeof p.languages>) => { asked += 1; return p.languages(...l); } };
    } };
    const store = memoryStore();
    const { service, call } = harness([counted], {}, store);
    await service.warm();
    expect(asked).toBe(1);
    await service.flush();
    expect(await store.get('usage')).toBeUndefined();
    // The call after it finds the lists built.
    expect((await call('Translate', { src: 'en', trg: 'es', dat: 'hi' }, true)).status).toBe(200);
    expect(asked).toBe(1);
  });

  it('then runs a page call\'s document code on a sample and reads the memory once, in a task of its own', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const settings = settingsFor([a.module]);
    const read: MemoryKey[][] = [];
    const memory = { get: async (keys: readonly MemoryKey[]) => (read.push([...keys]), keys.map(() => undefined)), set: async () => undefined };
    const service = createService({ settings: async () => settings, providers: [a.module], store: memoryStore(), fetch: globalThis.fetch, memory });
    await service.warm();
    // Not on the path of a call that comes with the warning: after the lists, in a task of its own.
    expect(read).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 0));
    expect(read).toHaveLength(1);
    await service.warm();
    await new Promise((r) => setTimeout(r, 0));
    expect(read).toHaveLength(1);
  });

  it('rehearses the whole round trip: every text of the sample comes back from its answer, in its markup', () => {
    expect(rehearseDocument()).toBe('<p i=1>[A ]<b i=2>[short]</b>[ text, ]<a i=3>[a link]</a>[.]</p><p i=4>[One &amp; two.]</p>');
  });

  it('leaves a failure to the first call, which reports it', async () => {
    const broken = { ...fakeProvider({ id: 'b.ts' }).module, create: () => { throw new Error('no such provider'); } };
    const { service, call } = harness([broken]);
    await expect(service.warm()).resolves.toBeUndefined();
    const r = await call('GetLanguages', {}, true);
    expect(r.status).toBe(500);
    expect(body<Err>(r).err).toContain('no such provider');
  });
});
