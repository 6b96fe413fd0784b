/**
 * `npm run bench`: reproducible figures written to bench/results.json and printed as a table.
 * - engine.overhead_ms_median: one Translate through the whole service with an instant in-process
 *   provider (parameter parsing, validation, routes, orchestration, usage), median of many calls;
 * - server.requests_per_s: GET /api/Translate on loopback against the Node server, K keep-alive
 *   clients for a fixed time, same instant provider.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createService } from '../src/core/service';
import type { ProviderModule } from '../src/core/provider';
import { memoryStore } from '../src/core/storage';
import { createHttpServer } from '../src/server/http';

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
  providers: { 'instant.ts': { enabled: true } },
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
const results = { date: new Date().toISOString(), node: process.version, engine, server };
writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.table({
  'engine overhead, median (ms)': engine.overhead_ms_median.toFixed(4),
  'engine overhead, p99 (ms)': engine.overhead_ms_p99.toFixed(4),
  'server requests/s (16 clients, loopback)': server.requests_per_s,
  'server errors': server.errors,
});
