import { describe, expect, it } from 'vitest';
import { fakeProvider } from '../../fakes/fake-provider';
import type { TrObj } from '../../../src/core/types';
import { body, harness } from './harness';

type Dat = { dat: TrObj[] };
const langs = { src: ['en', 'es', 'fr', 'de'], trg: ['en', 'es', 'fr', 'de'] };

describe('Translate in text format', () => {
  it('returns one text per dat, in order, with the route and the input length', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['one', 'two words', '三'] });
    expect(r.status).toBe(200);
    expect(body<Dat>(r).dat).toEqual([{ rid: 'a.ts', text: ['ONE', 'TWO WORDS', '三'], length: 13 }]);
  });

  it('uses the first max routes and reports them in route-list order', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, latencyMs: 30 });
    const b = fakeProvider({ id: 'b.ts', languages: langs, transform: (s) => `b:${s}` });
    const { call } = harness([a.module, b.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi', min: 2, max: 2 });
    expect(body<Dat>(r).dat.map((t) => [t.rid, t.text?.[0]])).toEqual([
      ['a.ts', 'HI'],
      ['b.ts', 'b:hi'],
    ]);
  });

  it('answers with the fastest route when min=1 and aborts the slower one', async () => {
    const slow = fakeProvider({ id: 'a.ts', languages: langs, latencyMs: 500 });
    const fast = fakeProvider({ id: 'b.ts', languages: langs, latencyMs: 5 });
    const { call } = harness([slow.module, fast.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi', min: 1, max: 2 });
    expect(body<Dat>(r).dat.map((t) => t.rid)).toEqual(['b.ts']);
    expect(slow.stats.aborted).toBe(1);
  });

  it('replaces a failing route with the next one so min alternatives still arrive', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, failWith: 502 });
    const b = fakeProvider({ id: 'b.ts', languages: langs });
    const c = fakeProvider({ id: 'c.ts', languages: langs });
    const { call } = harness([a.module, b.module, c.module], { interlinguas: [] });
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi', min: 2, max: 2 });
    expect(r.status).toBe(200);
    const dat = body<Dat>(r).dat;
    expect(dat.map((t) => t.rid)).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(dat[0]).toEqual({ rid: 'a.ts', err: '502 a.ts: fake failure', length: 0 });
    expect(dat.filter((t) => t.text).length).toBe(2);
  });

  it('does not start a replacement while min can still be reached', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, failWith: 503 });
    const b = fakeProvider({ id: 'b.ts', languages: langs, latencyMs: 20 });
    const c = fakeProvider({ id: 'c.ts', languages: langs });
    const { call } = harness([a.module, b.module, c.module], { interlinguas: [] });
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi', min: 1, max: 2 });
    expect(body<Dat>(r).dat.map((t) => t.rid)).toEqual(['a.ts', 'b.ts']);
    expect(c.stats.requests.length).toBe(0);
  });

  it('fails the whole request with 503 and every route err when no route succeeds', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, failWith: 429 });
    const b = fakeProvider({ id: 'b.ts', languages: langs, failWith: 403 });
    const { call } = harness([a.module, b.module], { interlinguas: [] });
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi' });
    expect(r.status).toBe(503);
    const { err, dat } = body<{ err: string; dat: TrObj[] }>(r);
    expect(err).toMatch(/no route succeeded/);
    expect(dat.map((t) => t.err?.slice(0, 3))).toEqual(['429', '403']);
  });

  it('reports a route still running at the timeout as 408, and 408 for the whole when none succeeded', async () => {
    const hang = fakeProvider({ id: 'a.ts', languages: langs, hang: true });
    const { call } = harness([hang.module]);
    const t0 = Date.now();
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi', timeout: 1 });
    expect(Date.now() - t0).toBeLessThan(1900);
    expect(r.status).toBe(408);
    expect(body<{ dat: TrObj[] }>(r).dat).toEqual([{ rid: 'a.ts', err: '408 timed out after 1 s', length: 0 }]);
    expect(hang.stats.aborted).toBe(1);
  });

  it('returns what arrived before the timeout when min was not reached', async () => {
    const ok = fakeProvider({ id: 'a.ts', languages: langs });
    const hang = fakeProvider({ id: 'b.ts', languages: langs, hang: true });
    const { call } = harness([ok.module, hang.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'hi', min: 2, max: 2, timeout: 1 });
    expect(r.status).toBe(200);
    expect(body<Dat>(r).dat.map((t) => t.err ?? t.text?.[0])).toEqual(['HI', '408 timed out after 1 s']);
  });

  it('puts rid routes first and refuses a rid that GetRoutes does not list', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const b = fakeProvider({ id: 'b.ts', languages: langs });
    const { call } = harness([a.module, b.module]);
    const r = await call('Translate', { src: 'de', trg: 'es', dat: 'x', rid: 'b.ts,en,a.ts' });
    expect(body<Dat>(r).dat[0]!.rid).toBe('b.ts,en,a.ts');
    expect(b.stats.requests[0]!.pair).toEqual({ src: 'de', trg: 'en' });
    expect(a.stats.requests[0]!.pair).toEqual({ src: 'en', trg: 'es' });
    const bad = await call('Translate', { src: 'de', trg: 'es', dat: 'x', rid: 'c.ts' });
    expect(bad.status).toBe(400);
    expect(body<{ err: string }>(bad).err).toContain('"c.ts"');
  });

  it('streams each route as it settles', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, latencyMs: 40 });
    const b = fakeProvider({ id: 'b.ts', languages: langs, latencyMs: 1 });
    const { service } = harness([a.module, b.module], { interlinguas: [] });
    const seen: string[] = [];
    await service.call('Translate', { src: 'en', trg: 'es', dat: 'hi', min: 2, max: 2 }, { trusted: true, onResult: (t) => seen.push(t.rid) });
    expect(seen).toEqual(['b.ts', 'a.ts']);
  });

  it('packs texts into provider requests within its limits and joins long texts back', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, limits: { chars: 20, segments: 2 } });
    const { call } = harness([a.module]);
    const long = 'First sentence here. Second sentence there.';
    const r = await call('Translate', { src: 'en', trg: 'es', dat: ['a', 'b', 'c', long] });
    expect(body<Dat>(r).dat[0]!.text).toEqual(['A', 'B', 'C', long.toUpperCase()]);
    for (const req of a.stats.requests) {
      expect(req.segments.length).toBeLessThanOrEqual(2);
      expect(req.segments.join('').length).toBeLessThanOrEqual(20);
    }
    // [a b] [c] ["First sentence here."] ["Second sentence "] ["there."]: in order, greedy, within 20.
    expect(a.stats.requests.map((q) => q.segments)).toEqual([
      ['a', 'b'],
      ['c'],
      ['First sentence here.'],
      ['Second sentence '],
      ['there.'],
    ]);
  });

  it('keeps paragraph breaks of the input', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, transform: (s) => s.trim().toUpperCase() });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'one\ntwo\n' });
    expect(body<Dat>(r).dat[0]!.text).toEqual(['ONE\nTWO\n']);
  });
});

describe('a rid whose provider is down', () => {
  it('is refused with the reason the provider gave', async () => {
    const up = fakeProvider({ id: 'a.ts', languages: langs });
    const down = fakeProvider({ id: 'b.ts', languages: langs });
    down.module.create({}, { fetch }).languages = async () => {
      throw new Error('permission to reach https://b.example not granted');
    };
    const { call } = harness([up.module, down.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', dat: 'x', rid: 'b.ts' });
    expect(r.status).toBe(400);
    expect(body<{ err: string }>(r).err).toMatch(/rid "b.ts" .*b\.ts is unavailable: .*permission to reach https:\/\/b\.example/);
  });
});
