import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idbMemory } from '../../../src/background/memory-idb';
import { coalesce } from '../../../src/core/scheduler/coalesce';
import { scheduleProvider, withMemory } from '../../../src/core/scheduler/index';
import { MemoryLru, type MemoryEntry, type TranslationMemory } from '../../../src/core/scheduler/memory';
import { openFileMemory } from '../../../src/server/memory-file';
import { never, opts, pair, rate, scripted } from './scripted';

const entry = (text: string, translation = text.toUpperCase(), at = 1): MemoryEntry => ({
  provider: 'p.ts', src: 'en', trg: 'es', domain: 'general', format: 'text', text, translation, at, kind: 'translated',
});
const key = (text: string) => ({ provider: 'p.ts', src: 'en', trg: 'es', domain: 'general' as const, format: 'text' as const, text });

/** The same behaviour from every implementation. */
function contract(name: string, make: (cap: number) => Promise<TranslationMemory>) {
  describe(`${name} memory`, () => {
    it('finds what was set, with its provenance; misses are undefined', async () => {
      const m = await make(10);
      await m.set([entry('hello', 'hola', 1234)]);
      const [hit, miss] = await m.get([key('hello'), key('bye')]);
      expect(hit).toMatchObject({ provider: 'p.ts', translation: 'hola', at: 1234, kind: 'translated' });
      expect(miss).toBeUndefined();
      expect(await m.get([{ ...key('hello'), trg: 'fr' }])).toEqual([undefined]);
    });

    it('evicts the least recently used beyond its cap', async () => {
      const m = await make(10);
      for (let i = 0; i < 10; i++) await m.set([entry(`t${i}`)]);
      await m.get([key('t0')]); // used: now the youngest
      for (let i = 10; i < 19; i++) await m.set([entry(`t${i}`)]);
      const got = await m.get([key('t0'), key('t1'), key('t2'), key('t18')]);
      expect(got.map((e) => e?.translation)).toEqual(['T0', undefined, undefined, 'T18']);
    });
  });
}

contract('in-memory', async (cap) => new MemoryLru(cap));

describe('in-memory cap by characters', () => {
  it('evicts the least recently used once keys, texts and translations pass maxChars', async () => {
    const m = new MemoryLru(1000, undefined, 10_000);
    const big = (i: number) => entry(`${i}:${'x'.repeat(1000)}`, 'y'.repeat(1000));
    for (let i = 0; i < 4; i++) await m.set([big(i)]);
    expect(m.size).toBe(3); // each ~3 kB: key (holds the text), text, translation
    expect(m.chars).toBeLessThanOrEqual(10_000);
    await m.get([key(big(1).text)]); // used: now the youngest
    await m.set([big(4)]);
    const got = await m.get([0, 1, 2, 3, 4].map((i) => key(big(i).text)));
    expect(got.map((e) => e !== undefined)).toEqual([false, true, false, true, true]);
    // Replacing an entry counts it once.
    const before = m.chars;
    await m.set([big(4)]);
    expect(m.chars).toBe(before);
  });

  it('keeps one entry even when it alone is over the cap', async () => {
    const m = new MemoryLru(10, undefined, 100);
    await m.set([entry('z'.repeat(500))]);
    expect(await m.get([key('z'.repeat(500))])).toEqual([expect.objectContaining({ translation: 'Z'.repeat(500) })]);
  });
});
let tick = 0;
contract('IndexedDB', async (cap) => idbMemory({ name: `tm-${Math.random()}`, maxEntries: cap, now: () => ++tick }));
contract('file', async (cap) => openFileMemory(join(mkdtempSync(join(tmpdir(), 'tm-')), 'tm.jsonl'), cap));

describe('file memory across restarts', () => {
  it('many sets at once share writes, and every entry is on disk when they resolve', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tm-')), 'tm.jsonl');
    const m = await openFileMemory(path, 1000);
    await Promise.all(Array.from({ length: 500 }, (_, i) => m.set([entry(`s${i}`)])));
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(500);
    const again = await openFileMemory(path, 1000);
    expect(again.size).toBe(500);
    expect((await again.get([key('s0'), key('s499')])).map((e) => e?.translation)).toEqual(['S0', 'S499']);
  });

  it('loads what was written, skips a torn line, and compacts the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tm-')), 'tm.jsonl');
    const m = await openFileMemory(path, 3);
    for (let i = 0; i < 7; i++) await m.set([entry(`t${i}`)]);
    await m.flush();
    appendFileSync(path, '{"provider":"p.ts","src":');
    const again = await openFileMemory(path, 3);
    expect(again.size).toBe(3);
    expect((await again.get([key('t6')]))[0]?.translation).toBe('T6');
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBeLessThanOrEqual(7);
    writeFileSync(path, '');
    expect((await openFileMemory(path)).size).toBe(0);
  });
});

describe('the memory around a provider', () => {
  it('a hit costs no request; a miss is sent and stored with provider and time', async () => {
    const s = scripted({});
    const m = new MemoryLru(100);
    await m.set([entry('known', 'CONOCIDO')]);
    const p = withMemory(coalesce(s.provider, rate()), m, { wallClock: () => 42 });
    expect(await p.translateBatch(['known', 'new'], pair, opts, never())).toEqual(['CONOCIDO', 'NEW']);
    expect(s.requests.map((r) => r.segments)).toEqual([['new']]);
    await new Promise((r) => setTimeout(r, 0));
    expect((await m.get([key('new')]))[0]).toMatchObject({ translation: 'NEW', provider: 'p.ts', at: 42, kind: 'translated' });
    // Its output is recognised as already translated.
    expect((await m.get([key('NEW')]))[0]).toMatchObject({ translation: 'NEW', kind: 'output' });
    expect(await p.translateBatch(['NEW', 'known'], pair, opts, never())).toEqual(['NEW', 'CONOCIDO']);
    expect(s.requests).toHaveLength(1);
  });

  it('an HTML answer that read the markup as text is neither kept nor served: asked again, the provider answers', async () => {
    const sent = '<p id="1"><a id="2">Help</a></p>';
    // Apertium while its pipeline started: `<a id="2">` read as the word "a".
    const s = scripted({ answer: (seg, n) => [n === 0 ? '<p id="1"><Un id="2">Ayuda</a></p>' : n === 1 ? '<p id="1"><a id="2">Ayuda</a></p>' : seg[0]!.toUpperCase()] });
    const m = new MemoryLru(100);
    const html = { ...opts, format: 'html' as const };
    const htmlKey = { ...key(sent), format: 'html' as const };
    const p = withMemory(coalesce(s.provider, rate()), m);
    expect(await p.translateBatch([sent], pair, html, never())).toEqual(['<p id="1"><Un id="2">Ayuda</a></p>']);
    await new Promise((r) => setTimeout(r, 0));
    expect(await m.get([htmlKey])).toEqual([undefined]);
    expect(await p.translateBatch([sent], pair, html, never())).toEqual(['<p id="1"><a id="2">Ayuda</a></p>']);
    await new Promise((r) => setTimeout(r, 0));
    expect((await m.get([htmlKey]))[0]).toMatchObject({ translation: '<p id="1"><a id="2">Ayuda</a></p>' });
    // One kept before this check existed is not served either.
    await m.set([{ ...htmlKey, text: '<b id="1">x</b>', translation: '<b Allez="1">X</b>', at: 1, kind: 'translated' }]);
    expect(await p.translateBatch(['<b id="1">x</b>'], pair, html, never())).toEqual(['<B ID="1">X</B>']);
    expect(s.requests).toHaveLength(3);
  });

  it('another model or instance of the same provider does not get its translations', async () => {
    const s = scripted({});
    const m = new MemoryLru(100);
    const a = scheduleProvider(s.provider, { model: 'small' }, { memory: m });
    const b = scheduleProvider(s.provider, { model: 'large' }, { memory: m });
    await a.translateBatch(['hello'], pair, opts, never());
    await new Promise((r) => setTimeout(r, 0));
    await a.translateBatch(['hello'], pair, opts, never());
    expect(s.requests).toHaveLength(1);
    await b.translateBatch(['hello'], pair, opts, never());
    expect(s.requests).toHaveLength(2);
  });

  it('an unreadable memory is reported and the provider asked', async () => {
    const s = scripted({});
    const warnings: string[] = [];
    const broken: TranslationMemory = { get: async () => Promise.reject(new Error('disk gone')), set: async () => {} };
    const p = withMemory(coalesce(s.provider, rate()), broken, { warn: (m) => warnings.push(m) });
    expect(await p.translateBatch(['x'], pair, opts, never())).toEqual(['X']);
    expect(warnings[0]).toMatch(/disk gone/);
  });
});
