/**
 * `npm run bench`: reproducible figures written to bench/results.json and printed as a table.
 * - engine.overhead_ms_median: one Translate through the whole service with an instant in-process
 *   provider (parameter parsing, validation, routes, orchestration, usage), median of many calls;
 * - server.requests_per_s: GET /api/Translate on loopback against the Node server, K keep-alive
 *   clients for a fixed time, same instant provider.
 * - workloads: the largest pages of ../shared/pages against a fake provider with latency L, batch
 *   limit B and concurrency K (bench/workload.ts), with a rerun from the translation memory, and
 *   one under a fault mix (10% 429, 5% 500, 2% never answering). Chart: bench/chart.svg.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createService } from '../src/core/service';
import type { ProviderModule } from '../src/core/provider';
import { memoryStore } from '../src/core/storage';
import { createHttpServer } from '../src/server/http';
import { chart } from './chart';
import { PAGES_DIR, combined, largestPages } from './pages';
import { runWorkload, type Setup, type WorkloadResult } from './workload';

const instant: ProviderModule = {
  id: 'instant.ts',
  name: 'Instant (bench)',
  needsKey: false,
  enabledByDefault: true,
  create: () => ({
    id: 'instant.ts',
    name: 'Instant (bench)',
    limits: { chars: 5000, segments: 50 },
    html: true,
    languages: async () => ({ src: ['en', 'es', 'fr', 'de'], trg: ['en', 'es', 'fr', 'de'] }),
    translateBatch: async (segments) => segments.map((s) => s.toUpperCase()),
  }),
};

const KEY = 'bench-key-0001';
const settings = {
  // The rate budget is not what is measured here: room enough never to wait for it.
  providers: { 'instant.ts': { enabled: true, rate: { concurrency: 256, rps: 100_000 } } },
  ranking: ['instant.ts'],
  interlinguas: ['en'],
  keys: [{ name: 'bench', key: KEY }],
  limits: { textSize: 1000 },
};

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function engineOverhead(calls: number) {
  const service = createService({ settings: async () => settings, providers: [instant], store: memoryStore(), fetch });
  const params = { auth: KEY, src: 'en', trg: 'es', dat: ['The quick brown fox jumps over the lazy dog.'] };
  for (let i = 0; i < 2000; i++) await service.call('Translate', params); // warm the JIT and the catalog
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const r = await service.call('Translate', params);
    times.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`bench Translate failed: ${JSON.stringify(r.body)}`);
  }
  times.sort((a, b) => a - b);
  return { calls, overhead_ms_median: quantile(times, 0.5), overhead_ms_p99: quantile(times, 0.99) };
}

async function serverThroughput(clients: number, seconds: number) {
  const service = createService({ settings: async () => settings, providers: [instant], store: memoryStore(), fetch });
  const server = createHttpServer(service);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const path = `/api/Translate?auth=${KEY}&src=en&trg=es&dat=${encodeURIComponent('The quick brown fox.')}`;
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  let done = 0;
  let errors = 0;
  const drive = async (ms: number, count: boolean) => {
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < end) {
          const ok = (await once()) === 200;
          if (count && ok) done += 1;
          else if (count) errors += 1;
        }
      }),
    );
  };
  await drive(1000, false); // warm-up: JIT, sockets, catalog
  await drive(seconds * 1000, true);
  agent.destroy();
  await new Promise((r) => server.close(r));
  return { clients, seconds, requests: done, errors, requests_per_s: Math.round(done / seconds) };
}

const engine = await engineOverhead(20_000);
const server = await serverThroughput(16, 5);

/** L, B, K: DeepL-like latency, a 5000-character batch limit (segments not binding), 4 in flight. */
const SETUP: Setup = { latencyMs: 200, batchChars: 5000, batchSegments: 1000, concurrency: 4, windowMs: 3 };
const FAULTS = { r429: 0.1, r500: 0.05, hang: 0.02 };
const workloads: WorkloadResult[] = [];
const sweep: { window_ms: number; requests: number; wall_s: number }[] = [];
const pages = largestPages(8);
if (!pages) {
  console.error(`\nbench: ${PAGES_DIR} is missing: the page workloads are SKIPPED (only engine and server figures).\n` +
    'Check out shared/ beside the repository, or set SHARED_DIR.');
} else {
  const bySize = [...pages].sort((a, b) => b.calls.length - a.calls.length);
  const picked = bySize.slice(0, 3);
  for (const w of picked) workloads.push(await runWorkload(w, SETUP));
  // C up to ~1.2 M characters: several large pages read one after the other.
  workloads.push(await runWorkload(combined('several-pages', bySize, 2_200_000), SETUP));
  const faulty = picked[1] ?? picked[0]!;
  workloads.push(await runWorkload({ ...faulty, name: `${faulty.name}+faults` }, { ...SETUP, faults: FAULTS }));
  // The coalescing window: requests and wall time of one page for a few windows.
  for (const windowMs of [0, 1, 3, 10, 30]) {
    const r = await runWorkload(picked[2] ?? picked[0]!, { ...SETUP, windowMs });
    sweep.push({ window_ms: windowMs, requests: r.requests, wall_s: r.wall_s });
  }
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  engine,
  server,
  setup: { latency_ms: SETUP.latencyMs, batch_chars: SETUP.batchChars, concurrency: SETUP.concurrency, window_ms: SETUP.windowMs, faults: FAULTS },
  pages_missing: !pages,
  workloads,
  window_sweep: sweep,
};
writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
if (workloads.length > 0) writeFileSync(new URL('./chart.svg', import.meta.url), chart(workloads));
console.table({
  'engine overhead, median (ms)': engine.overhead_ms_median.toFixed(4),
  'engine overhead, p99 (ms)': engine.overhead_ms_p99.toFixed(4),
  'server requests/s (16 clients, loopback)': server.requests_per_s,
  'server errors': server.errors,
});
if (workloads.length > 0) {
  console.table(
    workloads.map((w) => ({
      name: w.name,
      chars: w.chars,
      requests: w.requests,
      'req/bound': (w.requests / w.requests_bound).toFixed(3),
      wall_s: w.wall_s,
      bound_s: w.bound_s,
      'wall ok (<=1.2T*+0.5)': w.wall_s <= 1.2 * w.bound_s + 0.5,
      rerun_requests: w.rerun_requests,
      lost: w.lost,
      duplicated: w.duplicated,
      failed: w.failed,
      max_call_s: w.max_call_s,
    })),
  );
  console.table(sweep);
}
