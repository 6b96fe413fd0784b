/**
 * One page workload against a local fake provider with fixed latency L, batch limit B (characters
 * per request) and concurrency K, through the whole service (the scheduler, memory and engine as
 * shipped). Every Translate call of the page is issued at once, as a content script translating a
 * whole page would; the figures are compared with T* = ceil(C/(B*K)) * L and ceil(C/B).
 */
import { performance } from 'node:perf_hooks';
import { ProviderError } from '../src/core/errors';
import type { Provider, ProviderModule } from '../src/core/provider';
import { createMemory } from '../src/core/scheduler/index';
import { createService } from '../src/core/service';
import { memoryStore } from '../src/core/storage';
import type { TrdObj } from '../src/core/types';
import type { Workload } from './pages';

export interface Setup {
  latencyMs: number;
  batchChars: number;
  batchSegments: number;
  concurrency: number;
  windowMs: number;
  /** Fault mix per request: shares of 429, 500 and never answering. */
  faults?: { r429: number; r500: number; hang: number };
}

export interface WorkloadResult {
  name: string;
  /** C: characters the provider received (markup reduced to placeholders, as the engine sends). */
  chars: number;
  page_chars: number;
  calls: number;
  requests: number;
  requests_bound: number;
  wall_s: number;
  bound_s: number;
  rerun_requests: number;
  rerun_wall_s: number;
  lost: number;
  duplicated: number;
  /** Chunks explicitly failed (err set, original kept). */
  failed: number;
  /** Longest single Translate call, s (must stay under its timeout). */
  max_call_s: number;
  rss_mb: number;
}

/** Deterministic PRNG (mulberry32), so a fault mix is the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const upper = (s: string) => s.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) => tag ?? (text ?? '').toUpperCase());

function fakeModule(setup: Setup, counter: { requests: number; chars: number }): ProviderModule {
  const rand = prng(42);
  const provider: Provider = {
    id: 'fake.ts',
    name: 'Fake (bench)',
    limits: { chars: setup.batchChars, segments: setup.batchSegments },
    html: true,
    languages: async () => ({ src: ['en', 'es'], trg: ['en', 'es'] }),
    translateBatch: (segments, _pair, _o, signal) =>
      new Promise<string[]>((resolve, reject) => {
        counter.requests += 1;
        for (const s of segments) counter.chars += [...s].length;
        const f = setup.faults;
        const r = rand();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const onAbort = () => {
          clearTimeout(timer);
          reject(new ProviderError(408, 'aborted'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        if (f && r < f.hang) return; // never answers: the scheduler's timeout must catch it
        timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          if (f && r < f.hang + f.r429) reject(new ProviderError(429, 'rate limit', 200));
          else if (f && r < f.hang + f.r429 + f.r500) reject(new ProviderError(502, 'HTTP 500'));
          else resolve(segments.map(upper));
        }, setup.latencyMs);
      }),
  };
  return { id: 'fake.ts', name: provider.name, needsKey: false, enabledByDefault: true, create: () => provider };
}

export async function runWorkload(w: Workload, setup: Setup): Promise<WorkloadResult> {
  const counter = { requests: 0, chars: 0 };
  const module = fakeModule(setup, counter);
  const settings = {
    providers: { 'fake.ts': { enabled: true, rate: { concurrency: setup.concurrency, rps: 100_000, windowMs: setup.windowMs } } },
    ranking: ['fake.ts'],
    interlinguas: [],
    keys: [],
    limits: { textSize: 1000 },
  };
  const service = createService({ settings: async () => settings, providers: [module], store: memoryStore(), fetch, memory: createMemory(500_000) });
  await service.call('GetLanguages', {}, { trusted: true }); // the catalog, outside the timing

  const pass = async () => {
    const before = counter.requests;
    let lost = 0;
    let duplicated = 0;
    let failed = 0;
    let maxCall = 0;
    const t0 = performance.now();
    const started: Promise<void>[] = [];
    for (const dat of w.calls) {
      started.push(one(dat));
      // Each call arrives as its own message (a macrotask), as from a content script; started all
      // in one tick, the engine's CPU work would hold every provider answer back until the end.
      await new Promise<void>((r) => setImmediate(r));
    }
    await Promise.all(started);
    async function one(dat: string): Promise<void> {
      {
        const c0 = performance.now();
        const r = await service.call('Translate', { src: 'en', trg: 'es', frm: 'html', timeout: 120, dat }, { trusted: true });
        maxCall = Math.max(maxCall, performance.now() - c0);
        const chunks = (Array.isArray(r.body) ? r.body : ((r.body as { dat?: TrdObj[] }).dat ?? [])) as TrdObj[];
        const sum = chunks[0]?.sum ?? 0;
        const seen = new Set<number>();
        for (const c of chunks) {
          if (seen.has(c.cnt)) duplicated += 1;
          seen.add(c.cnt);
          if (c.err) failed += 1;
        }
        lost += sum === 0 ? 1 : sum - seen.size;
        if (chunks.map((c) => c.dat).join('').length === 0) lost += 1;
      }
    }
    return { wall: (performance.now() - t0) / 1000, requests: counter.requests - before, lost, duplicated, failed, maxCall: maxCall / 1000 };
  };

  const first = await pass();
  const chars = counter.chars;
  const rerun = await pass();
  const L = setup.latencyMs / 1000;
  return {
    name: w.name,
    chars,
    page_chars: w.calls.reduce((n, c) => n + [...c].length, 0),
    calls: w.calls.length,
    requests: first.requests,
    requests_bound: Math.ceil(chars / setup.batchChars),
    wall_s: round(first.wall),
    bound_s: round(Math.ceil(chars / (setup.batchChars * setup.concurrency)) * L),
    rerun_requests: rerun.requests,
    rerun_wall_s: round(rerun.wall),
    lost: first.lost + rerun.lost,
    duplicated: first.duplicated + rerun.duplicated,
    failed: first.failed,
    max_call_s: round(first.maxCall),
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
