/**
 * "The popup can show cached alternatives offline" (issue 4, translation memory): when every
 * provider has become unreachable, a Translate of text the memory holds still answers, from the
 * memory, with each route's own earlier translation marked cached, and costs no provider request.
 * The memory wraps every provider outside its scheduler (src/core/scheduler/index.ts withMemory),
 * so a hit never reaches the failing provider, its retries or its circuit.
 */
import { describe, expect, it } from 'vitest';
import { fakeProvider, type FakeOptions } from '../../fakes/fake-provider';
import { createService } from '../../../src/core/service';
import { createMemory } from '../../../src/core/scheduler/index';
import { memoryStore } from '../../../src/core/storage';
import type { TrObj } from '../../../src/core/types';
import { settingsFor } from './harness';

function offlineSetup() {
  // The fakes read their options at each request: setting failWith later takes them "offline".
  const aOptions: FakeOptions = { id: 'a.ts', transform: (s) => `a:${s}` };
  const bOptions: FakeOptions = { id: 'b.ts', transform: (s) => `b:${s}` };
  const a = fakeProvider(aOptions);
  const b = fakeProvider(bOptions);
  const settings = settingsFor([a.module, b.module], { interlinguas: [] });
  const service = createService({ settings: async () => settings, providers: [a.module, b.module], store: memoryStore(), fetch, memory: createMemory() });
  const requests = () => a.stats.requests.length + b.stats.requests.length;
  const goOffline = () => {
    aOptions.failWith = 503;
    bOptions.failWith = 503;
  };
  /** As the popup asks: one text, min 2 / max 3 alternatives, streamed with their meta. */
  const popup = async (text: string) => {
    const seen: { rid: string; text?: string; err?: boolean; cached: boolean }[] = [];
    const reply = await service.call(
      'Translate',
      { src: 'en', trg: 'es', dat: [text], min: 2, max: 3, timeout: 5 },
      {
        trusted: true,
        onResult: (tr, meta) => {
          const t = tr as TrObj;
          seen.push({ rid: t.rid, ...(t.text ? { text: t.text.join('') } : {}), ...(t.err ? { err: true } : {}), cached: meta?.cached ?? false });
        },
      },
    );
    seen.sort((x, y) => x.rid.localeCompare(y.rid));
    return { reply, seen };
  };
  return { service, requests, goOffline, popup };
}

describe('cached alternatives while every provider is unreachable', () => {
  it('are answered from the memory, marked cached, with no provider request', async () => {
    const { requests, goOffline, popup } = offlineSetup();
    const online = await popup('Good morning');
    expect(online.reply.status).toBe(200);
    expect(online.seen).toEqual([
      { rid: 'a.ts', text: 'a:Good morning', cached: false },
      { rid: 'b.ts', text: 'b:Good morning', cached: false },
    ]);
    await new Promise((r) => setTimeout(r, 0)); // memory writes are not awaited by the answer

    goOffline();
    const before = requests();
    const offline = await popup('Good morning');
    expect(offline.reply.status).toBe(200);
    expect(offline.seen).toEqual([
      { rid: 'a.ts', text: 'a:Good morning', cached: true },
      { rid: 'b.ts', text: 'b:Good morning', cached: true },
    ]);
    const dat = (offline.reply.body as { dat: TrObj[] }).dat;
    expect(dat.filter((t) => t.text).map((t) => t.rid).sort()).toEqual(['a.ts', 'b.ts']);
    expect(requests()).toBe(before);
  });

  it('a text the memory does not hold fails explicitly, and cached texts still answer after it', async () => {
    const { requests, goOffline, popup } = offlineSetup();
    await popup('Good morning');
    await new Promise((r) => setTimeout(r, 0));
    goOffline();

    const fresh = await popup('Good night');
    expect(requests()).toBeGreaterThan(2); // the providers were asked, and failed
    // Each route fails explicitly (err, no text, not cached): the popup shows why.
    expect(fresh.seen).toEqual([
      { rid: 'a.ts', err: true, cached: false },
      { rid: 'b.ts', err: true, cached: false },
    ]);

    // Failures (and any health "down" they cause) do not stand between the memory and the popup.
    const before = requests();
    const again = await popup('Good morning');
    expect(again.reply.status).toBe(200);
    expect(again.seen.map((s) => [s.rid, s.cached])).toEqual([['a.ts', true], ['b.ts', true]]);
    expect(requests()).toBe(before);
  });
});

describe('offline past the language lists', () => {
  // In the extension this is the usual offline case: the catalog is rebuilt every 60 s (5 s while a
  // provider is unavailable), and the worker stops after 30 s idle, so a new one starts with no
  // language lists. The catalog keeps an unreachable provider's last known support (persisted in
  // the store), so its routes, and the memory behind them, stay.
  function listsSwitch() {
    const options: FakeOptions = { id: 'a.ts', transform: (s) => `a:${s}` };
    const a = fakeProvider(options);
    const state = { listsDown: false };
    const module = {
      ...a.module,
      create: (...args: Parameters<typeof a.module.create>) => {
        const p = a.module.create(...args);
        return { ...p, languages: (signal?: AbortSignal) => (state.listsDown ? Promise.reject(new Error('fetch failed')) : p.languages(signal)) };
      },
    };
    const goOffline = () => {
      options.failWith = 503;
      state.listsDown = true;
    };
    return { module, goOffline, stats: a.stats };
  }
  const ask = (service: ReturnType<typeof createService>) =>
    service.call('Translate', { src: 'en', trg: 'es', dat: ['Good morning'] }, { trusted: true });
  const translated = (reply: { body: unknown }) => (reply.body as { dat: TrObj[] }).dat[0]?.text;

  it('a cached text still answers once the catalog is rebuilt with the language lists unreachable', async () => {
    const { module, goOffline } = listsSwitch();
    let clock = 0;
    const settings = settingsFor([module], { interlinguas: [] });
    const service = createService({ settings: async () => settings, providers: [module], store: memoryStore(), fetch, memory: createMemory(), now: () => clock });
    expect((await ask(service)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 0));
    goOffline();
    clock += 61_000; // past the catalog's TTL
    const reply = await ask(service);
    expect(reply.status).toBe(200);
    expect(translated(reply)).toEqual(['a:Good morning']);
    // Health still says the provider is down, with why.
    expect(service.health()['a.ts']).toMatchObject({ state: 'down', last_error: expect.stringContaining('fetch failed') });
  });

  it('a new worker (same store and memory, lists unreachable from its start) answers from the memory', async () => {
    const { module, goOffline, stats } = listsSwitch();
    const store = memoryStore();
    const memory = createMemory();
    const settings = settingsFor([module], { interlinguas: [] });
    const first = createService({ settings: async () => settings, providers: [module], store, fetch, memory });
    expect((await ask(first)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 0));

    goOffline();
    const second = createService({ settings: async () => settings, providers: [module], store, fetch, memory });
    const before = stats.requests.length;
    const reply = await ask(second);
    expect(reply.status).toBe(200);
    expect(translated(reply)).toEqual(['a:Good morning']);
    expect(stats.requests.length).toBe(before);
    // A text the memory does not hold fails with the provider's reason, not "no route".
    const other = await second.call('Translate', { src: 'en', trg: 'es', dat: ['Good night'] }, { trusted: true });
    expect(JSON.stringify(other.body)).toMatch(/503|unavailable|failed/i);
  });

  it('a provider never reached has no routes, and a rid naming it says why', async () => {
    const { module, goOffline } = listsSwitch();
    goOffline();
    const b = fakeProvider({ id: 'b.ts', transform: (s) => `b:${s}` });
    const settings = settingsFor([module, b.module], { interlinguas: [] });
    const service = createService({ settings: async () => settings, providers: [module, b.module], store: memoryStore(), fetch, memory: createMemory() });
    const routes = await service.call('GetRoutes', { src: 'en', trg: 'es' }, { trusted: true });
    expect(routes.body).toEqual(['b.ts']);
    const reply = await service.call('Translate', { src: 'en', trg: 'es', dat: ['x'], rid: ['a.ts'] }, { trusted: true });
    expect(reply.status).toBe(400);
    expect((reply.body as { err: string }).err).toMatch(/a\.ts is unavailable: .*fetch failed/);
  });
});

describe('a woken worker and the language lists', () => {
  // The worker stops after 30 s idle; the click that wakes it should not wait one round trip per
  // provider for language lists the store already holds.
  function listsControl() {
    const a = fakeProvider({ id: 'a.ts', transform: (s) => `a:${s}` });
    const state: { next: () => Promise<{ src: string[]; trg: string[] }>; asked: number } = {
      next: () => Promise.resolve({ src: ['en', 'es'], trg: ['en', 'es'] }),
      asked: 0,
    };
    const module = {
      ...a.module,
      create: (...args: Parameters<typeof a.module.create>) => ({
        ...a.module.create(...args),
        languages: () => {
          state.asked++;
          return state.next();
        },
      }),
    };
    const store = memoryStore();
    const settings = settingsFor([module], { interlinguas: [] });
    const worker = () => createService({ settings: async () => settings, providers: [module], store, fetch, memory: createMemory() });
    return { module, state, worker, stats: a.stats };
  }
  const ask = (service: ReturnType<typeof createService>, trg = 'es') =>
    service.call('Translate', { src: 'en', trg, dat: ['Good morning'] }, { trusted: true });

  it('translates at once from the last known list while the list is fetched again behind it', async () => {
    const { state, worker, stats } = listsControl();
    expect((await ask(worker())).status).toBe(200);
    await new Promise((r) => setTimeout(r, 0)); // the list is remembered
    state.next = () => new Promise(() => {}); // never answers
    const woken = worker();
    const reply = await ask(woken);
    expect(reply.status).toBe(200);
    expect((reply.body as { dat: TrObj[] }).dat[0]?.text).toEqual(['a:Good morning']);
    expect(stats.requests.length).toBe(2);
    expect(state.asked).toBe(2); // asked again, not waited for
    expect(woken.health()['a.ts']?.state).toBe('ok');
  });

  it('a list that cannot be fetched again makes the provider down, with its routes kept', async () => {
    const { state, worker } = listsControl();
    await ask(worker());
    await new Promise((r) => setTimeout(r, 0));
    state.next = () => Promise.reject(new Error('fetch failed'));
    const woken = worker();
    expect((await ask(woken)).status).toBe(200);
    expect(woken.health()['a.ts']).toMatchObject({ state: 'down', last_error: expect.stringContaining('fetch failed') });
    expect((await woken.call('GetRoutes', { src: 'en', trg: 'es' }, { trusted: true })).body).toEqual(['a.ts']);
  });

  it('a list that changed is used from the next call on', async () => {
    const { state, worker } = listsControl();
    await ask(worker());
    await new Promise((r) => setTimeout(r, 0));
    state.next = () => Promise.resolve({ src: ['en', 'es'], trg: ['en', 'es', 'fr'] });
    const woken = worker();
    const routes = () => woken.call('GetRoutes', { src: 'en', trg: 'fr' }, { trusted: true });
    // Served from what was known: French is not a target yet.
    expect(await routes()).toMatchObject({ status: 400, body: { err: expect.stringContaining('fr') } });
    await new Promise((r) => setTimeout(r, 0));
    expect(await routes()).toEqual({ status: 200, body: ['a.ts'] });
    expect((await ask(woken, 'fr')).status).toBe(200);
  });

  it('a provider never reached is waited for', async () => {
    const { state, worker } = listsControl();
    let answer: (v: { src: string[]; trg: string[] }) => void = () => {};
    state.next = () => new Promise((r) => (answer = r));
    const pending = ask(worker());
    let done = false;
    void pending.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    answer({ src: ['en', 'es'], trg: ['en', 'es'] });
    expect((await pending).status).toBe(200);
  });
});
