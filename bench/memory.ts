/**
 * Memory figures (issue 4 "Targets"), merged into bench/results.json as `memory`:
 * - worker: the extension's service worker JS heap while it translates the largest page of
 *   ../shared/pages in headless Chromium (built extension from dist/: run `npx vite build` first),
 *   against the APy-compatible marker fake on 127.0.0.1 with latency L. CDP Runtime.getHeapUsage on
 *   the worker target, sampled every SAMPLE_MS during the translation (peak, no forced GC) and
 *   after two HeapProfiler.collectGarbage (before / after); then the same page again (all from the
 *   IndexedDB memory). Target: peak < 64 MB.
 * - server: what `npm run serve` runs (scripts/serve.sh: builds dist-server/server.mjs, then plain
 *   node with its heap flags; the same pid, as the script execs node) with a config whose Apertium
 *   route points at the marker fake, a state file beside it (so the JSONL memory file is on), and
 *   200 keep-alive clients each POSTing Translate calls (page-sized HTML chunks made unique per
 *   request, so every one misses the memory and reaches the provider) for SECONDS.
 *   /proc/<pid>/status VmRSS sampled every 100 ms, VmHWM at the end; p50/p99 latency, errors, CPU.
 *   Target: RSS < 150 MB.
 * `tsx bench/memory.ts [--worker-only | --server-only] [--snapshot <file.heapsnapshot>] [--seconds <n>]`
 * (--snapshot: the worker's heap after the page; --seconds: the server's load, default 10).
 * Investigating the server: BENCH_SERVER_FLAGS (more node flags, after serve.sh's own, so they win: e.g. `--trace-gc`, `--max-semi-space-size=16`,
 * `--heapsnapshot-signal=SIGUSR2`: a snapshot at the end of the load, in the repository root) and
 * BENCH_SERVER_TSX=1 (the development path, `npm run serve:dev`: src/server/main.ts through tsx,
 * without serve.sh's flags).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CDPSession, Page } from 'playwright-core';
import { DIST, evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from '../test/e2e/browser';
import { startMarkerApy } from '../test/fakes/marker-apy';
import { startPageServer } from '../test/fakes/page-server';
import { largestPages, PAGES_DIR } from './pages';

const ROOT = resolve(import.meta.dirname, '..');
const MB = 2 ** 20;
const SAMPLE_MS = 20;
const args = process.argv.slice(2);
const snapshotAt = args.indexOf('--snapshot');
const snapshotFile = snapshotAt >= 0 ? args[snapshotAt + 1] : undefined;
const secondsAt = args.indexOf('--seconds');
const serverSeconds = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 10;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

// ---------------------------------------------------------------------------------------------
// The service worker's heap.

interface HeapUsage {
  usedSize: number;
  totalSize: number;
}

/**
 * A CDP channel to the service worker, through a page's session: Playwright opens sessions on pages
 * and frames only, so the worker target is attached in non-flattened mode and spoken to with
 * Target.sendMessageToTarget.
 */
async function workerChannel(session: CDPSession) {
  const { targetInfos } = await session.send('Target.getTargets');
  const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
  if (!sw) throw new Error('no extension service worker target');
  const { sessionId } = await session.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false });
  let next = 1;
  const waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  const listeners = new Map<string, (params: unknown) => void>();
  session.on('Target.receivedMessageFromTarget', (m) => {
    if (m.sessionId !== sessionId) return;
    const msg = JSON.parse(m.message) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: unknown };
    if (msg.id !== undefined) {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) w?.fail(new Error(msg.error.message));
      else w?.ok(msg.result);
    } else if (msg.method) listeners.get(msg.method)?.(msg.params);
  });
  const send = <T>(method: string, params: Record<string, unknown> = {}): Promise<T> =>
    new Promise<T>((ok, fail) => {
      const id = next++;
      waiting.set(id, { ok: ok as (v: unknown) => void, fail });
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(fail);
    });
  return {
    send,
    on: (method: string, fn: (params: unknown) => void) => listeners.set(method, fn),
    async heap(gc: boolean): Promise<HeapUsage> {
      if (gc) {
        await send('HeapProfiler.collectGarbage');
        await send('HeapProfiler.collectGarbage');
      }
      return send<HeapUsage>('Runtime.getHeapUsage');
    },
    detach: () => session.send('Target.detachFromTarget', { sessionId }).catch(() => undefined),
  };
}
type Channel = Awaited<ReturnType<typeof workerChannel>>;

async function writeSnapshot(channel: Channel, file: string): Promise<void> {
  const chunks: string[] = [];
  channel.on('HeapProfiler.addHeapSnapshotChunk', (p) => chunks.push((p as { chunk: string }).chunk));
  await channel.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await writeFile(file, chunks.join(''));
  console.error(`heap snapshot of the worker: ${file}`);
}

interface Translated {
  status: { total: number; errors: number; state: string };
  wall: number;
}
const TRANSLATE = `(async () => {
  const P = polyglot.page;
  const t0 = performance.now();
  await polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } });
  while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 10));
  return { status: P.status(), wall: performance.now() - t0 };
})()`;

/** Peak of the worker's used heap (and its committed heap) while `run` goes on. */
async function sampled<T>(channel: Channel, run: () => Promise<T>): Promise<{ value: T; peak_used: number; peak_total: number; samples: number }> {
  let peakUsed = 0;
  let peakTotal = 0;
  let samples = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const h = await channel.heap(false).catch(() => undefined);
      if (!h) break;
      peakUsed = Math.max(peakUsed, h.usedSize);
      peakTotal = Math.max(peakTotal, h.totalSize);
      samples += 1;
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
  })();
  try {
    return { value: await run(), peak_used: peakUsed, peak_total: peakTotal, samples };
  } finally {
    done = true;
    await sampler;
  }
}

export interface WorkerHeapResult {
  page: string;
  page_bytes: number;
  text_chars: number;
  units: number;
  errors: number;
  provider_requests: number;
  latency_ms: number;
  wall_s: number;
  heap_before_mb: number;
  heap_peak_mb: number;
  heap_peak_total_mb: number;
  heap_after_mb: number;
  rerun_provider_requests: number;
  rerun_wall_s: number;
  rerun_heap_peak_mb: number;
  rerun_heap_after_mb: number;
  samples: number;
  target_mb: number;
  met: boolean;
}

/**
 * As test/fakes/page-e2e.ts useApertiumAt, with APy's rate budget raised (its default, 20 requests/s,
 * would stretch the page over ~80 s without changing what the worker holds per request).
 */
async function useFakeApy(browser: ExtensionBrowser, url: string): Promise<void> {
  const options = await browser.openExtensionPage(OPTIONS_PATH);
  const settings = {
    providers: { 'apertium.ts': { enabled: true, url, rate: { concurrency: 8, rps: 1000 } } },
    ranking: ['apertium.ts'],
    interlinguas: ['en'],
    keys: [],
    limits: { textSize: 1000 },
  };
  const reply = await options.evaluate(
    (s) =>
      (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({
        type: 'settings:set',
        data: { settings: s },
      }),
    settings,
  );
  await options.close();
  if ((reply as { data?: { status?: number } }).data?.status !== 200) throw new Error(`settings:set failed: ${JSON.stringify(reply)}`);
}

export async function workerHeap(latencyMs = 20): Promise<WorkerHeapResult> {
  const biggest = largestPages(1)?.[0];
  if (!biggest) throw new Error(`${PAGES_DIR} is missing`);
  const name = `${biggest.name}.html`;
  const [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(latencyMs), startPageServer(PAGES_DIR)]);
  let holder: Page | undefined;
  try {
    await useFakeApy(browser, apy.url);
    holder = await browser.context.newPage();
    const channel = await workerChannel(await browser.context.newCDPSession(holder));
    const page = await browser.context.newPage();
    page.on('crash', () => console.error('worker heap: the page crashed'));
    await page.goto(`${server.origin}/${name}`, { waitUntil: 'load', timeout: 30_000 });
    const text = await evaluateInContentScript<number>(page, browser.id, 'document.body.innerText.length');
    const before = await channel.heap(true);
    console.error(`worker heap: ${name}, ${text} characters of text, before ${mb(before.usedSize)} MB`);
    const r0 = apy.requests;
    const first = await sampled(channel, () => evaluateInContentScript<Translated>(page, browser.id, TRANSLATE));
    const requests = apy.requests - r0;
    console.error(`worker heap: translated in ${Math.round(first.value.wall)} ms, ${requests} requests, peak ${mb(first.peak_used)} MB`);
    const after = await channel.heap(true);
    if (snapshotFile) await writeSnapshot(channel, snapshotFile);
    // The same page again: every segment from the IndexedDB memory.
    await evaluateInContentScript<string>(page, browser.id, 'polyglot.page.restore(), "ok"');
    const r1 = apy.requests;
    const again = await sampled(channel, () => evaluateInContentScript<Translated>(page, browser.id, TRANSLATE));
    const rerunRequests = apy.requests - r1;
    const afterRerun = await channel.heap(true);
    await channel.detach();
    const peak = Math.max(first.peak_used, after.usedSize);
    return {
      page: name,
      page_bytes: readFileSync(join(PAGES_DIR, name)).length,
      text_chars: text,
      units: first.value.status.total,
      errors: first.value.status.errors,
      provider_requests: requests,
      latency_ms: latencyMs,
      wall_s: Math.round(first.value.wall) / 1000,
      heap_before_mb: mb(before.usedSize),
      heap_peak_mb: mb(peak),
      heap_peak_total_mb: mb(first.peak_total),
      heap_after_mb: mb(after.usedSize),
      rerun_provider_requests: rerunRequests,
      rerun_wall_s: Math.round(again.value.wall) / 1000,
      rerun_heap_peak_mb: mb(again.peak_used),
      rerun_heap_after_mb: mb(afterRerun.usedSize),
      samples: first.samples + again.samples,
      target_mb: 64,
      met: peak < 64 * MB && again.peak_used < 64 * MB,
    };
  } finally {
    await Promise.all([browser.close(), apy.close(), server.close()]);
  }
}

// ---------------------------------------------------------------------------------------------
// The Node server's RSS under 200 concurrent keep-alive clients.

export interface ServerRssResult {
  clients: number;
  seconds: number;
  provider_latency_ms: number;
  requests: number;
  errors: number;
  /** Non-200 answers by status (0: the connection failed). */
  error_statuses: Record<number, number>;
  requests_per_s: number;
  latency_ms_p50: number;
  latency_ms_p99: number;
  provider_requests: number;
  latency_ms_max: number;
  /** CPU seconds per second of the run (1 = one core busy): the server, and the clients with the fake provider. */
  server_cpu_share: number;
  bench_cpu_share: number;
  /** Server CPU (all threads, GC helpers included) per answered call: less noisy than requests/s on shared cores. */
  server_cpu_ms_per_request: number;
  rss_start_mb: number;
  rss_peak_mb: number;
  rss_end_mb: number;
  hwm_mb: number;
  target_mb: number;
  met: boolean;
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function procStatus(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function serverRss(clients = 200, seconds = 10, latencyMs = 50): Promise<ServerRssResult> {
  // Room for the request number in the 1000-character text-size limit.
  const chunks = (largestPages(3) ?? []).flatMap((w) => w.calls).filter((c) => [...c].length <= 960);
  if (chunks.length === 0) chunks.push('<p>The quick brown fox jumps over the lazy dog.</p>');
  const apy = await startMarkerApy(latencyMs);
  const dir = await mkdtemp(join(tmpdir(), 'polyglot-bench-server-'));
  const config = join(dir, 'config.json');
  const KEY = 'bench-key-0001';
  await writeFile(
    config,
    JSON.stringify({
      // Room for the load: the point is the server's memory with 200 callers, not APy's default budget.
      providers: { 'apertium.ts': { enabled: true, url: apy.url, rate: { concurrency: 64, rps: 100_000 } } },
      ranking: ['apertium.ts'],
      interlinguas: ['en'],
      keys: [{ name: 'bench', key: KEY }],
      limits: { textSize: 1000 },
    }),
  );
  // As `npm run serve` without npm in between: serve.sh execs node, so child.pid is the server's.
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const serverArgs = ['--config', config, '--port', '0'];
  const child =
    process.env.BENCH_SERVER_TSX === '1'
      ? spawn(process.execPath, [...flags, '--import', 'tsx', join(ROOT, 'src/server/main.ts'), ...serverArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('sh', [join(ROOT, 'scripts/serve.sh'), ...serverArgs], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, SERVE_NODE_FLAGS: flags.join(' ') },
        });
  if (flags.length) child.stdout.on('data', (d: Buffer) => process.stderr.write(d));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    const port = await new Promise<number>((ok, fail) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
        if (m) ok(Number(m[1]));
      });
      child.on('exit', (code) => fail(new Error(`server exited ${code}: ${stderr}`)));
    });
    const pid = child.pid!;
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    let seq = 0;
    const once = () =>
      new Promise<number>((ok) => {
        const n = seq++;
        // Unique per request (a number in the text): every call misses the memory and reaches the fake.
        const dat = `<p>Request ${n}.</p>${chunks[n % chunks.length]!}`;
        const body = new URLSearchParams({ auth: KEY, src: 'en', trg: 'es', frm: 'html', dat }).toString();
        const req = request(
          { host: '127.0.0.1', port, path: '/api/Translate', method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
          (res) => {
            res.resume();
            res.on('end', () => ok(res.statusCode ?? 0));
          },
        );
        req.on('error', () => ok(0));
        req.end(body);
      });
    // Warm-up: modules, JIT, the catalog (languages of the fake).
    for (let i = 0; i < 20; i++) await once();
    const start = procStatus(pid);
    let peak = start.rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, procStatus(pid).rss);
    }, 100);
    const times: number[] = [];
    let errors = 0;
    const statuses: Record<number, number> = {};
    const r0 = apy.requests;
    const cpu0 = { server: cpuSeconds(pid), bench: cpuSeconds(process.pid) };
    const end = performance.now() + seconds * 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < end) {
          const c0 = performance.now();
          const status = await once();
          times.push(performance.now() - c0);
          if (status !== 200) {
            errors += 1;
            statuses[status] = (statuses[status] ?? 0) + 1;
          }
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    const cpu = { server: cpuSeconds(pid) - cpu0.server, bench: cpuSeconds(process.pid) - cpu0.bench };
    clearInterval(sampler);
    if (flags.some((f) => f.startsWith('--heapsnapshot-signal=SIGUSR2'))) {
      // Investigation: a heap snapshot of the server under load, written in its cwd (the repo root).
      process.kill(pid, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 5000));
    }
    const last = procStatus(pid);
    peak = Math.max(peak, last.rss);
    agent.destroy();
    times.sort((a, b) => a - b);
    return {
      clients,
      seconds,
      provider_latency_ms: latencyMs,
      requests: times.length,
      errors,
      error_statuses: statuses,
      requests_per_s: Math.round(times.length / elapsed),
      latency_ms_p50: Math.round(quantile(times, 0.5)),
      latency_ms_p99: Math.round(quantile(times, 0.99)),
      provider_requests: apy.requests - r0,
      latency_ms_max: Math.round(times.at(-1) ?? 0),
      server_cpu_share: Math.round((cpu.server / elapsed) * 100) / 100,
      bench_cpu_share: Math.round((cpu.bench / elapsed) * 100) / 100,
      server_cpu_ms_per_request: Math.round((cpu.server * 1000 * 100) / Math.max(1, times.length)) / 100,
      rss_start_mb: mb(start.rss),
      rss_peak_mb: mb(peak),
      rss_end_mb: mb(last.rss),
      hwm_mb: mb(last.hwm),
      target_mb: 150,
      met: last.hwm < 150 * MB,
    };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await apy.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

const memory: { worker?: WorkerHeapResult; server?: ServerRssResult } = {};
if (!args.includes('--server-only')) {
  if (!existsSync(join(DIST, 'manifest.json'))) throw new Error(`${DIST} is missing: run \`npx vite build\` first`);
  if (largestPages(1)) memory.worker = await workerHeap();
  else console.error(`bench: ${PAGES_DIR} is missing: the worker heap is SKIPPED.`);
}
if (!args.includes('--worker-only')) memory.server = await serverRss(200, serverSeconds);

const file = new URL('./results.json', import.meta.url);
const results = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>) : {};
const prior = (results.memory ?? {}) as Record<string, unknown>;
results.memory = { ...prior, ...memory };
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
if (memory.worker) {
  const w = memory.worker;
  console.table({
    [`worker heap, ${w.page} (${w.units} units, ${w.provider_requests} requests)`]: {
      'before MB': w.heap_before_mb, 'peak MB': w.heap_peak_mb, 'after MB': w.heap_after_mb,
      'rerun peak MB': w.rerun_heap_peak_mb, 'rerun requests': w.rerun_provider_requests, 'wall s': w.wall_s, 'met (<64 MB)': w.met,
    },
  });
}
if (memory.server) {
  const s = memory.server;
  console.table({
    [`server, ${s.clients} keep-alive clients, ${s.seconds} s`]: {
      'RSS start MB': s.rss_start_mb, 'RSS peak MB': s.rss_peak_mb, 'VmHWM MB': s.hwm_mb, 'req/s': s.requests_per_s,
      'p50 ms': s.latency_ms_p50, 'p99 ms': s.latency_ms_p99, 'CPU ms/req': s.server_cpu_ms_per_request, errors: s.errors, 'met (<150 MB)': s.met,
    },
  });
}
