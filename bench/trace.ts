/**
 * The first unit's path by process: a Chromium trace (every process: the browser, the page's
 * renderer, the extension's worker and popup) over the popup's "Translate this page", with the
 * worker stopped first, as `page.ts --triggers` measures it. Prints each thread's tasks of 1 ms or
 * more between the click and the first unit written (ms after the click), with the script each
 * ran, and writes the trace to bench/profiles/<page>.trace.json (opens in DevTools' Performance
 * panel). Build with `npx vite build --minify false` first for readable names.
 *
 * `tsx bench/trace.ts [--latency 200] [--cpu] [--menu] [page.html]` (readability-001.html by default); `--cpu`:
 * with each thread's sampled self time by function (the sampling slows every thread); `--menu`: the
 * context menu's way instead of the popup's (a right-click, then the item 300 ms later).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, stopServiceWorkers } from '../test/e2e/browser';
import { storageSet } from '../test/e2e/ui-helpers';
import { startMarkerApy } from '../test/fakes/marker-apy';
import { tabDriver, useApertiumAt } from '../test/fakes/page-e2e';
import { startPageServer } from '../test/fakes/page-server';
import { requireShared } from '../test/support/shared';
import { POPUP_KEY } from '../src/ui/shared/store';
import { pullTrigger } from './trigger';

const args = process.argv.slice(2);
const latencyAt = args.indexOf('--latency');
const latency = latencyAt >= 0 ? Number(args[latencyAt + 1]) : 200;
const name = args.find((a, i) => a.endsWith('.html') && args[i - 1] !== '--latency') ?? 'readability-001.html';
const folder = requireShared('pages');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number; type?: string; startTime?: number; cpuProfile?: CpuChunk; timeDeltas?: number[] } };
}
interface CpuChunk {
  nodes?: { id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber?: number } }[];
  samples?: number[];
}

/**
 * Each JS thread's sampled self time by function between `from` and `to` (trace µs), the most
 * first: the V8 CPU profiler's chunks in the trace, one profile per thread.
 */
function selfTimes(events: TraceEvent[], from: number, to: number): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const profiles = new Map<string, { key: string; t: number; frames: Map<number, string> }>();
  for (const e of events) {
    if (e.name === 'Profile') profiles.set(`${e.pid}:${e.id}`, { key: `${e.pid}:${e.tid}`, t: e.args?.data?.startTime ?? e.ts, frames: new Map() });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    const chunk = e.args?.data?.cpuProfile;
    if (!p || !chunk) continue;
    for (const n of chunk.nodes ?? []) {
      const f = n.callFrame;
      p.frames.set(n.id, `${f.functionName || '(anonymous)'} ${(f.url ?? '').replace(/^.*\//, '')}${f.lineNumber !== undefined && f.url ? `:${f.lineNumber + 1}` : ''}`);
    }
    const deltas = e.args?.data?.timeDeltas ?? [];
    (chunk.samples ?? []).forEach((node, i) => {
      const dt = deltas[i] ?? 0;
      p.t += dt;
      if (p.t < from || p.t > to) return;
      const by = out.get(p.key) ?? new Map<string, number>();
      out.set(p.key, by);
      const name = p.frames.get(node) ?? String(node);
      // A sample stands for the time until the next one; the delta before it is the best guess.
      by.set(name, (by.get(name) ?? 0) + dt);
    });
  }
  return out;
}

const sampled = args.includes('--cpu');
const menu = args.includes('--menu');
const CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'blink.user_timing', 'disabled-by-default-devtools.timeline', ...(sampled ? ['disabled-by-default-v8.cpu_profiler'] : [])].join(',');

async function record(session: CDPSession, during: () => Promise<{ click: number; first: number }>): Promise<{ events: TraceEvent[]; click: number; first: number }> {
  const events: TraceEvent[] = [];
  session.on("Tracing.dataCollected", ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const complete = new Promise<void>((done) => session.once('Tracing.tracingComplete', () => done()));
  await session.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  const times = await during();
  await session.send('Tracing.end');
  await complete;
  return { events, ...times };
}

/** What a task ran: its scripts' functions and URLs, the longest first. */
function scriptsIn(task: TraceEvent, inner: TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0);
  const calls = inner.filter((e) => e.ts >= task.ts && e.ts < end && (e.dur ?? 0) >= 500 && (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'TimerFire' || e.name === 'EventDispatch' || e.name === 'Layout' || e.name === 'UpdateLayoutTree' || e.name === 'Paint'));
  return calls
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 4)
    .map((e) => {
      const d = e.args?.data;
      const what = d?.functionName || (d?.url ? d.url.replace(/^.*\//, '') : '') || d?.type || '';
      return `${e.name}${what ? ` ${what}${d?.lineNumber !== undefined ? `:${d.lineNumber}` : ''}` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
    })
    .join('; ');
}

function summarize(events: TraceEvent[], clickTs: number, firstTs: number): void {
  const self = selfTimes(events, clickTs, firstTs);
  const names = new Map<string, string>();
  const procs = new Map<number, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
    if (e.ph === 'M' && e.name === 'process_labels') procs.set(e.pid, e.args?.data?.url ?? (e.args as { labels?: string })?.labels ?? '');
    if (e.ph === 'M' && e.name === 'process_name' && !procs.has(e.pid)) procs.set(e.pid, e.args?.name ?? '');
  }
  const from = clickTs - 5_000;
  const to = firstTs + 5_000;
  const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.ts + (e.dur ?? 0) >= from && e.ts <= to && (e.dur ?? 0) >= 1_000);
  const byThread = new Map<string, TraceEvent[]>();
  for (const t of tasks) byThread.set(`${t.pid}:${t.tid}`, [...(byThread.get(`${t.pid}:${t.tid}`) ?? []), t]);
  console.log(`first unit ${((firstTs - clickTs) / 1000).toFixed(1)} ms after the click`);
  for (const [key, list] of byThread) {
    const [pid] = key.split(':').map(Number);
    console.log(`\n${procs.get(pid!) ?? pid} / ${names.get(key) ?? key}`);
    const inner = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === key);
    for (const t of list.sort((a, b) => a.ts - b.ts).filter((t, i, all) => i === 0 || t.ts !== all[i - 1]!.ts)) {
      console.log(`  ${((t.ts - clickTs) / 1000).toFixed(1).padStart(7)} +${((t.dur ?? 0) / 1000).toFixed(1).padStart(5)}  ${scriptsIn(t, inner)}`);
    }
    const top = [...(self.get(key) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1]).slice(0, 15);
    if (top.length) console.log(`  self time, click to first unit: ${top.map(([f, us]) => `${f} ${(us / 1000).toFixed(1)}`).join('; ')}`);
  }
}

const [apy, server] = await Promise.all([startMarkerApy(latency, []), startPageServer(folder)]);
const browser = await launchExtension();
try {
  await useApertiumAt(browser, apy.url);
  const control = await browser.openExtensionPage(OPTIONS_PATH);
  const drive = tabDriver(() => browser, () => control);
  const { page, tabId } = await drive.open(`${server.origin}/${name}`);
  await storageSet(control, { [POPUP_KEY]: { src: 'en', trg: 'pt' } });
  await stopServiceWorkers(page);
  const session = await browser.context.newCDPSession(page);
  const { events, click, first } = await record(session, async () => {
    const { at: click, popup } = await pullTrigger(browser, control, page, tabId, menu ? 'menu' : 'popup', 'pt');
    const first = await evaluateInContentScript<number>(page, browser.id, `(async () => {
      const P = polyglot.page;
      for (let i = 0; i < 3000 && !(P.metrics.firstWriteMs >= 0); i++) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 300));
      return performance.timeOrigin + P.metrics.startedAt + P.metrics.firstWriteMs;
    })()`);
    await popup?.close();
    return { click, first };
  });
  const mark = events.find((e) => e.name === 'polyglot-click');
  if (!mark) throw new Error('no click mark in the trace');
  const profiles = new URL('./profiles/', import.meta.url);
  mkdirSync(profiles, { recursive: true });
  writeFileSync(new URL(`${name}.trace.json`, profiles), JSON.stringify({ traceEvents: events }));
  summarize(events, mark.ts, mark.ts + (first - click) * 1000);
  console.log(`\nprovider requests arrived at ${apy.arrivals.map((a) => (a - click).toFixed(1)).join(', ')} ms after the click`);
} finally {
  await browser.close();
  await Promise.all([apy.close(), server.close()]);
}
