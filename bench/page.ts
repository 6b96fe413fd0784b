/**
 * Page-translation figures per real page (issue 5 "Speed"), in headless Chromium with the built
 * extension (dist/: run `npx vite build` first) and an APy-compatible fake answering after L ms:
 * - dom_ms: DOM extraction + write-back time in the content script (metrics.domMs: segmenting,
 *   serializing and packing every call, reading answers, merging, following the page's own
 *   changes), and per 100k chars of text; send_ms: time spent
 *   handing calls to the messaging layer (runtime ports), apart; restore_ms: the restore's undo;
 *   dom2_ms: dom_ms of the second translation, into French (code compiled and warm, the same DOM
 *   work; nothing from the translation memory); dom_segment_ms, dom_pack_ms, dom_write_ms,
 *   dom_follow_ms: dom_ms by phase (finding and serializing units, packing calls, reading and
 *   writing answers, following the page's changes), dom2_segment_ms and dom2_write_ms the second's;
 * - first_send_ms: trigger -> first call sent; segmented_ms: trigger -> whole page segmented;
 * - first_request_ms: trigger -> first request at the provider: the worker's start (when woken)
 *   and its part of the first call, without L (the fake's clock and the page's, both the epoch's);
 * - first_answer_ms: trigger -> first answer back in the content script (L + the messaging and
 *   engine overhead); first_unit_ms: trigger -> first unit written (the first viewport's go first).
 *   The service worker is stopped before each page's first translation, as Chromium stops it after
 *   30 s idle: the click that translates a page usually wakes it (`--warm`: a live worker).
 *   first_unit2_ms: the same for the second translation, into French: the worker awake, the code
 *   warm, every answer from the provider; first_unit_popup_ms, first_unit_menu_ms,
 *   first_unit_key_ms: click -> first unit written for the real triggers, in a fresh tab with the
 *   worker stopped (`triggerFirstUnit`): the popup (its page opens, which wakes the worker, and
 *   "Translate this page" is clicked 300 ms later), the context menu (a right-click, which wakes
 *   it, and the item 300 ms later), the keyboard shortcut (its event starts the worker);
 *   first_screen_popup_ms: click -> the last text of the first screen translated, by the popup
 *   (`SCREEN_WATCH`; the issue's popular extension: 500-980 ms, cold);
 * - wall_s: trigger -> whole page translated; provider_requests: requests the fake answered for
 *   it; bound_s: the scheduler's bound for the page's calls with Apertium's budget
 *   (scheduler/rates.ts: K = 4 at once, 20 requests/s; each call is one text, one request for the
 *   scheduler): max(ceil(calls / K) x L, calls / rps). wall_s above it is time the page, not the
 *   provider's budget, took. provider_requests is higher than calls where the APy adapter sent a
 *   text over 1000 characters (after shortening its ids) in parts (apertium.ts `cutHtml`, at
 *   once: one L for them); provider_chars: the characters of text those requests carried
 *   (markup included: Google and Microsoft bill it), and sent_ratio: provider_chars / text_chars
 *   (the issue's popular extension sent 2.5x the page's visible text);
 * - heap_growth_ratio: (JS heap when translated - heap before) / text size in UTF-16 bytes, and
 *   heap_restored_ratio: heap after restore / heap before, heap_cycle2_ratio: heap after a second
 *   translate + restore / heap after the first restore (a leak shows here; the first cycle also
 *   holds the content script's newly compiled code and one JS wrapper per node it touched);
 *   heap_growth2_ratio: as heap_growth_ratio, on the second translation (its code compiled and
 *   the DOM wrappers made by the first: what the bookkeeping holds per page). CDP
 *   Performance.getMetrics JSHeapUsedSize, each reading after two HeapProfiler.collectGarbage;
 *   the original body.innerHTML is compared in Node, never kept in the page's heap;
 * - restored_identical: body.innerHTML after restore === before;
 * - renderer_cpu_s: the renderer main thread's busy time over the first translation (CDP
 *   Performance.getMetrics TaskDuration: both worlds' scripts, style, layout, paint), with its
 *   script_s, layout_s and style_s: what translating the page costs the page's own thread beyond
 *   our DOM work (the issue's popular extension burned 21 s on a 236k-character list page).
 * - floor_dom_ms (and per 100k), floor_heap_growth_ratio, floor_heap_restored_ratio: the same
 *   figures for the least a live-node translator must do on the page (floor.ts: visit the body,
 *   write each text once, keep its original for the restore), in a fresh tab: where a floor is
 *   above an aim, no such design meets that aim on that page.
 * - scroll_ms, scroll_screen_ms, selection_busy_ms: a reader skimming the page while it translates
 *   (scroll.ts): how late each screen they jump to is translated, and a selection's first
 *   alternative meanwhile.
 * Written to bench/page-results.json, and into bench/results.json as `page`. `tsx bench/page.ts [--latency 200] [--repeat N] [--warm] [--profile] [--alloc] [--heap] [--floor] [--scroll] [--all | page.html ...]`.
 * `--floor`: only the floors, printed (nothing written). `--scroll`: only the scroll figures,
 * printed (`SCROLL_DETAIL=1`: each jump's texts' times too).
 * `--repeat N`: every page measured N times (each time in a fresh browser profile, so nothing comes
 * from the translation memory), each figure the median of the N.
 *
 * `--profile`: a CPU profile of the page's renderer (both worlds) over the first translation,
 * bench/profiles/<page>.cpuprofile (opens in DevTools' Performance panel), and its functions with
 * the most self time printed; and one over the second (<page>.2.cpuprofile: the same work, our
 * code warm). `--heap`: heap snapshots of the page before, translated and restored
 * (bench/profiles/<page>.before.heapsnapshot, <page>.heapsnapshot, <page>.restored.heapsnapshot).
 * `--alloc`: a sampling allocation profile over the first translation (bench/profiles/
 * <page>.heapprofile), with the functions that allocated the most bytes printed: what the garbage
 * collector has to clear.
 * Either perturbs the figures of its run (the profiler keeps source positions, snapshots allocate).
 * Build with `npx vite build --minify false` first for readable names.
 * `--triggers`: only the first unit by real trigger (popup, menu, key), each page's three in turn,
 * printed and not written to the results: a quick before/after of a trigger's path (with
 * `E2E_DIST`, builds run alternately).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { launchExtension, type ExtensionBrowser } from '../test/e2e/browser';
import { startMarkerApy, type MarkerApy } from '../test/fakes/marker-apy';
import { tabDriver, useApertiumAt } from '../test/fakes/page-e2e';
import { startPageServer } from '../test/fakes/page-server';
import { storageGet, storageSet } from '../test/e2e/ui-helpers';
import { POPUP_KEY } from '../src/ui/shared/store';
import { FRAMES_ASK_KEY } from '../src/shared/messages';
import { evaluateInContentScript, OPTIONS_PATH, stopServiceWorkers } from '../test/e2e/browser';
import type { runMetrics } from '../src/content/metrics';
import { rateFor } from '../src/core/scheduler/rates';
import { requireShared } from '../test/support/shared';
import { floorFigures, type Floor } from './floor';
import { PAINTED, scrollFigures, SCROLL_PAIR, SHOWS_UNMARKED, type Scroll } from './scroll';
import { pullTrigger, type Trigger } from './trigger';

/** The budget the scheduler gives the Apertium provider the bench's fake stands for. */
const APERTIUM = rateFor('apertium.ts', undefined);

const DEFAULT_PAGES = [
  // The largest page (251k visible characters): "the whole of the largest page within the scheduler's bound".
  'aows-nba.html',
  'readability-001.html', 'readability-bbc-1.html', 'readability-nytimes-1.html', 'readability-wikipedia.html',
  'readability-wikipedia-3.html', 'trafilatura-en.wikipedia.org.tsne.html', 'postlight-github.com.html',
  'postlight-www.macrumors.com.html', 'readability-lemonde-1.html', 'postlight-www.asahi.com.html',
];

const args = process.argv.slice(2);
const latencyAt = args.indexOf('--latency');
const latency = latencyAt >= 0 ? Number(args[latencyAt + 1]) : 200;
const named = args.filter((a) => a.endsWith('.html'));
const folder = requireShared('pages');
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Math.max(1, Number(args[repeatAt + 1])) : 1;
const profile = args.includes('--profile');
const allocs = args.includes('--alloc');
const warm = args.includes('--warm');
const snapshots = args.includes('--heap');
const triggersOnly = args.includes('--triggers');
const floorOnly = args.includes('--floor');
const scrollOnly = args.includes('--scroll');
const profiles = new URL('./profiles/', import.meta.url);
if (profile || snapshots || allocs) mkdirSync(profiles, { recursive: true });
const pages = args.includes('--all') ? readdirSync(folder).filter((f) => f.endsWith('.html')).sort() : named.length ? named : DEFAULT_PAGES;

async function heap(session: CDPSession): Promise<number> {
  // Twice: the first pass frees what the evaluation left; weak maps need a second to let go.
  await session.send('HeapProfiler.collectGarbage');
  await session.send('HeapProfiler.collectGarbage');
  const { metrics } = await session.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
}

/** The renderer's main-thread time so far, in seconds (CDP Performance.getMetrics, both worlds). */
interface Cpu { task: number; script: number; layout: number; style: number }
async function cpu(session: CDPSession): Promise<Cpu> {
  const { metrics } = await session.send('Performance.getMetrics');
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
  return { task: m('TaskDuration'), script: m('ScriptDuration'), layout: m('LayoutDuration'), style: m('RecalcStyleDuration') };
}

interface Row extends Floor, Scroll {
  page: string;
  text_chars: number;
  units: number;
  calls: number;
  provider_requests: number;
  provider_chars: number;
  sent_ratio: number;
  bound_s: number;
  dom_ms: number;
  dom_ms_per_100k: number;
  dom2_ms: number;
  /** dom_ms by phase (metrics.ts `Phase`): segmenting and serializing, packing calls, writing answers, following changes. */
  dom_segment_ms: number;
  dom_pack_ms: number;
  dom_write_ms: number;
  dom_follow_ms: number;
  dom2_segment_ms: number;
  dom2_write_ms: number;
  send_ms: number;
  restore_ms: number;
  first_send_ms: number;
  first_request_ms: number;
  first_request2_ms: number;
  first_answer_ms: number;
  first_unit_ms: number;
  first_unit2_ms: number;
  first_unit_popup_ms: number;
  first_unit_menu_ms: number;
  first_unit_key_ms: number;
  first_screen_popup_ms: number;
  segmented_ms: number;
  wall_s: number;
  heap_growth_ratio: number;
  heap_growth2_ratio: number;
  heap_restored_ratio: number;
  heap_cycle2_ratio: number;
  restored_identical: boolean;
  errors: number;
  renderer_cpu_s: number;
  script_s: number;
  layout_s: number;
  style_s: number;
}

interface Run {
  status: { total: number; errors: number };
  calls: number;
  m: ReturnType<typeof runMetrics>;
  wall: number;
  /** When the trigger was, ms since the epoch. */
  at: number;
}

const TRANSLATE = (trg: string) => `(async () => {
  const P = polyglot.page;
  const calls0 = P.calls;
  const t0 = performance.now();
  const at = performance.timeOrigin + t0;
  await polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: '${trg}' } });
  while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 10));
  return { status: P.status(), calls: P.calls - calls0, m: { ...P.metrics }, wall: performance.now() - t0, at };
})()`;
const RESTORE = '(polyglot.page.restore(), document.body.innerHTML)';
const RESTORE_MS = 'polyglot.page.metrics.restoreMs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a CPU profile, as lines to print. */
function topSelf(prof: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, count = 25): string[] {
  const byNode = new Map<number, number>();
  prof.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  let total = 0;
  for (const n of prof.nodes) {
    const us = byNode.get(n.id) ?? 0;
    total += us;
    const f = n.callFrame;
    const where = f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
  }
  const idle = (byFn.get('(idle) ') ?? 0) + (byFn.get('(program) ') ?? 0);
  return [`total ${(total / 1000).toFixed(1)} ms sampled, ${((total - idle) / 1000).toFixed(1)} ms not idle`]
    .concat([...byFn].filter(([k]) => k !== '(idle) ').sort((a, b) => b[1] - a[1]).slice(0, count).map(([k, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`));
}

/** To a tenth. */
const tenth = (x: number): number => Math.round(x * 10) / 10;

/** Trigger -> the first provider request of that translation. */
function firstRequest(apy: MarkerApy, run: Run): number {
  const t = apy.arrivals.find((a) => a >= run.at);
  return t === undefined ? NaN : Math.round(t - run.at);
}

interface AllocNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: AllocNode[];
}

/** The functions that allocated the most in a sampling heap profile, as lines to print. */
function topAllocs(head: AllocNode, count = 25): string[] {
  const byFn = new Map<string, number>();
  let total = 0;
  const walk = (n: AllocNode) => {
    const f = n.callFrame;
    const where = f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    byFn.set(key, (byFn.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk(head);
  return [`total ${(total / 1024).toFixed(0)} kB sampled`].concat(
    [...byFn].sort((a, b) => b[1] - a[1]).slice(0, count).map(([k, b]) => `${(b / 1024).toFixed(0).padStart(8)} kB  ${k}`),
  );
}

async function snapshot(session: CDPSession, file: URL): Promise<void> {
  const chunks: string[] = [];
  const onChunk = (p: { chunk: string }) => chunks.push(p.chunk);
  session.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  session.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  writeFileSync(file, chunks.join(''));
}

/** Starts sampling the page's renderer CPU (both worlds). */
async function startProfile(session: CDPSession): Promise<void> {
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 250 });
  await session.send('Profiler.start');
}

/** Stops it and writes the profile to `file` (opens in DevTools' Performance panel). */
async function stopProfile(session: CDPSession, file: URL): Promise<unknown> {
  const { profile: prof } = await session.send('Profiler.stop');
  await session.send('Profiler.disable');
  writeFileSync(file, JSON.stringify(prof));
  return prof;
}

async function measure(
  page: Page,
  id: string,
  session: CDPSession,
  apy: MarkerApy,
): Promise<Omit<Row, 'page' | 'heap_growth_ratio' | 'heap_growth2_ratio' | 'heap_restored_ratio' | 'heap_cycle2_ratio' | keyof Floor | keyof Scroll> & { heaps: number[] }> {
  const [before, text] = await evaluateInContentScript<[string, number]>(page, id, '[document.body.innerHTML, document.body.innerText.length]');
  const h0 = await heap(session);
  const name = page.url().split('/').pop() ?? 'page';
  if (snapshots) await snapshot(session, new URL(`${name}.before.heapsnapshot`, profiles));
  if (!warm) await stopServiceWorkers(page);
  if (profile) await startProfile(session);
  if (allocs) {
    await session.send('HeapProfiler.enable');
    await session.send('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  const requests0 = apy.requests;
  const chars0 = apy.chars;
  const cpu0 = await cpu(session);
  const run = await evaluateInContentScript<Run>(page, id, TRANSLATE('es'));
  const cpu1 = await cpu(session);
  const requests = apy.requests - requests0;
  const chars = apy.chars - chars0;
  if (profile) {
    const prof = await stopProfile(session, new URL(`${name}.cpuprofile`, profiles));
    console.log(`${name}: ${topSelf(prof as unknown as Parameters<typeof topSelf>[0]).join('\n')}`);
  }
  if (allocs) {
    const { profile: prof } = await session.send('HeapProfiler.stopSampling');
    writeFileSync(new URL(`${name}.heapprofile`, profiles), JSON.stringify(prof));
    console.log(`${name} allocations: ${topAllocs(prof.head as unknown as AllocNode).join('\n')}`);
  }
  const h1 = await heap(session);
  if (snapshots) await snapshot(session, new URL(`${name}.heapsnapshot`, profiles));
  const identical = (await evaluateInContentScript<string>(page, id, RESTORE)) === before;
  const restoreMs = await evaluateInContentScript<number>(page, id, RESTORE_MS);
  const h2 = await heap(session);
  if (snapshots) await snapshot(session, new URL(`${name}.restored.heapsnapshot`, profiles));
  if (profile) await startProfile(session);
  const run2 = await evaluateInContentScript<Run>(page, id, TRANSLATE('fr'));
  if (profile) await stopProfile(session, new URL(`${name}.2.cpuprofile`, profiles));
  const h2t = await heap(session);
  const again = (await evaluateInContentScript<string>(page, id, RESTORE)) === before;
  const h3 = await heap(session);
  return {
    text_chars: text,
    units: run.status.total,
    calls: run.calls,
    provider_requests: requests,
    provider_chars: chars,
    sent_ratio: Math.round((chars / Math.max(1, text)) * 100) / 100,
    bound_s: Math.round(Math.max((Math.ceil(run.calls / APERTIUM.concurrency) * latency) / 1000, run.calls / APERTIUM.rps) * 100) / 100,
    dom_ms: tenth(run.m.domMs),
    dom_ms_per_100k: tenth((run.m.domMs / Math.max(1, text)) * 100_000),
    dom2_ms: tenth(run2.m.domMs),
    dom_segment_ms: tenth(run.m.phaseMs.segment),
    dom_pack_ms: tenth(run.m.phaseMs.pack),
    dom_write_ms: tenth(run.m.phaseMs.write),
    dom_follow_ms: tenth(run.m.phaseMs.follow),
    dom2_segment_ms: tenth(run2.m.phaseMs.segment),
    dom2_write_ms: tenth(run2.m.phaseMs.write),
    send_ms: tenth(run.m.sendMs),
    restore_ms: tenth(restoreMs),
    first_send_ms: tenth(run.m.firstSendMs),
    first_request_ms: firstRequest(apy, run),
    first_request2_ms: firstRequest(apy, run2),
    first_answer_ms: Math.round(run.m.firstAnswerMs),
    first_unit_ms: Math.round(run.m.firstWriteMs),
    first_unit2_ms: Math.round(run2.m.firstWriteMs),
    first_unit_popup_ms: NaN,
    first_unit_menu_ms: NaN,
    first_unit_key_ms: NaN,
    first_screen_popup_ms: NaN,
    segmented_ms: Math.round(run.m.segmentedMs),
    wall_s: Math.round(run.wall) / 1000,
    restored_identical: identical && again,
    errors: run.status.errors,
    renderer_cpu_s: Math.round((cpu1.task - cpu0.task) * 1000) / 1000,
    script_s: Math.round((cpu1.script - cpu0.script) * 1000) / 1000,
    layout_s: Math.round((cpu1.layout - cpu0.layout) * 1000) / 1000,
    style_s: Math.round((cpu1.style - cpu0.style) * 1000) / 1000,
    heaps: [h0, h1, h2, h3, h2t],
  };
}

/**
 * The first screen's texts, watched from the page's own world (its DOM wrappers and its reads are
 * not the content script's, whose first run is measured): before the trigger, every text with a
 * letter whose box meets the viewport (in document order, until twenty in a row start below it);
 * then, as the page changes, when each no longer shows a letter the fake's marks do not cover (as
 * scroll.ts), stamped once the frame that shows it is painted (scroll.ts `PAINTED`). Until stop 71
 * it was stamped at the start of the next frame, before that frame's style, layout and paint: a
 * write made in a task was counted shown before a long frame painted it. `SCREEN_DONE` stops it
 * once the page is translated (or 10 s after the trigger): the texts still unmarked then are ones
 * the extension leaves alone (a number, code), left out.
 */
const SCREEN_WATCH = `(() => {${SHOWS_UNMARKED}
  const range = document.createRange();
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(), below = 0; t && below < 20; t = walker.nextNode()) {
    if (!letter.test(t.data)) continue;
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.top >= innerHeight) { below++; continue; }
    below = 0;
    if (r.bottom > 0) texts.push(t);
  }
  // -1: shows the page's words; -2: translated, not painted yet; 0: never shown (left out).
  const done = texts.map((t) => (shows(t) ? -1 : 0));
  const w = { texts, done, stop: () => { ticking = false; watch.disconnect(); } };${PAINTED}
  const watch = watchShown([w], () => performance.timeOrigin + performance.now());
  globalThis.__polyglotScreen = w;
})()`;
/** When the last first-screen text that was translated was (epoch ms), and how many were left alone. */
const SCREEN_DONE = `(() => {
  const w = globalThis.__polyglotScreen;
  w.stop();
  const times = w.done.filter((d) => d > 0);
  return { last: times.length ? Math.max(...times) : NaN, left: w.done.filter((d) => d < 0).length, texts: w.texts.length };
})()`;
/** Each trigger into its own language: the translation memory has seen none of them. */
const TRIGGER_TARGET: Record<Trigger, string> = { popup: 'pt', menu: 'ca', key: 'ar' };

/**
 * Click -> first unit written for a real trigger, in a fresh tab of the page (its content script's
 * code not yet run) with the worker stopped, by the epoch clocks of both pages; restored once the
 * first unit is written. Each trigger is pulled as a user pulls it (trigger.ts `pullTrigger`):
 * the popup opened 300 ms before its click (its opening wakes the worker), the menu's right-click
 * 300 ms before the item, the shortcut's chord `CHORD_TO_KEY_MS` before its last key.
 */
async function triggerFirstUnit(browser: ExtensionBrowser, origin: string, name: string, how: Trigger): Promise<{ first: number; screen: number }> {
  // Opened for this only, and closed after: left open, an extension page could wake the worker
  // again before the next page's "woken" first translation.
  const control = await browser.openExtensionPage(OPTIONS_PATH);
  const drive = tabDriver(() => browser, () => control);
  const { page, tabId } = await drive.open(`${origin}/${name}?${how}`);
  const trg = TRIGGER_TARGET[how];
  let popup: Page | undefined;
  try {
    // Before the worker is stopped: a storage change is an event that would start it again.
    if (how === 'popup') await storageSet(control, { [POPUP_KEY]: { src: 'en', trg } });
    // While some tab is listed translated, a page's load asks the worker (`page:loaded`, a
    // translated tab going on): that could start it after the stop, ahead of the trigger. The
    // previous page's restore unlists its tab; its write is waited for.
    for (let i = 0; i < 60 && (await storageGet(control, FRAMES_ASK_KEY)) === true; i++) await new Promise((r) => setTimeout(r, 50));
    if ((await storageGet(control, FRAMES_ASK_KEY)) === true) console.log(`${name} ${how}: page:framesAsk still up; the load may have woken the worker`);
    await stopServiceWorkers(page);
    const screen = how === 'popup';
    if (screen) await page.evaluate(SCREEN_WATCH);
    const pulled = await pullTrigger(browser, control, page, tabId, how, trg);
    popup = pulled.popup;
    const clickAt = pulled.at;
    const firstAt = await evaluateInContentScript<number>(
      page,
      browser.id,
      `(async () => {
        const P = polyglot.page;
        for (let i = 0; i < 3000 && !(P.metrics.firstWriteMs >= 0); i++) await new Promise((r) => setTimeout(r, 5));
        const at = performance.timeOrigin + P.metrics.startedAt + P.metrics.firstWriteMs;
        // The first screen is watched until the page is translated (at most 10 s), then restored.
        if (${screen}) for (let i = 0; i < 200 && P.status().state === 'translating'; i++) await new Promise((r) => setTimeout(r, 50));
        if (${screen}) await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        if (!${screen}) P.restore();
        return P.metrics.firstWriteMs >= 0 ? at : NaN;
      })()`,
    );
    let screenAt = NaN;
    if (screen) {
      screenAt = (await page.evaluate(SCREEN_DONE) as { last: number }).last;
      await evaluateInContentScript(page, browser.id, 'polyglot.page.restore()');
    }
    return { first: Math.round(firstAt - clickAt), screen: Math.round(screenAt - clickAt) };
  } finally {
    await Promise.all([page.close(), control.close(), popup?.close()]);
  }
}

/** One fresh tab: translate, restore, translate (its answers from the memory), restore. */
async function measurePage(browser: ExtensionBrowser, origin: string, name: string, apy: MarkerApy): Promise<Omit<Row, keyof Floor | keyof Scroll> | undefined> {
  const page = await browser.context.newPage();
  const session = await browser.context.newCDPSession(page);
  await session.send('Performance.enable');
  try {
    await page.goto(`${origin}/${name}`, { waitUntil: 'load', timeout: 30_000 });
    const { heaps, ...m } = await measure(page, browser.id, session, apy);
    const [h0, h1, h2, h3, h2t] = heaps as [number, number, number, number, number];
    return {
      page: name,
      ...m,
      heap_growth_ratio: Math.round(((h1 - h0) / Math.max(1, 2 * m.text_chars)) * 100) / 100,
      heap_growth2_ratio: Math.round(((h2t - h2) / Math.max(1, 2 * m.text_chars)) * 100) / 100,
      heap_restored_ratio: Math.round((h2 / h0) * 1000) / 1000,
      heap_cycle2_ratio: Math.round((h3 / h2) * 1000) / 1000,
    };
  } catch (e) {
    console.log(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  } finally {
    await session.detach().catch(() => undefined);
    await page.close();
  }
}

function noScroll(e: unknown): Scroll {
  console.log(`scroll: ${e instanceof Error ? e.message : String(e)}`);
  return { scroll_ms: [], scroll_screen_ms: NaN, selection_busy_ms: NaN };
}

function noFloor(e: unknown): Floor {
  console.log(`floor: ${e instanceof Error ? e.message : String(e)}`);
  return { floor_dom_ms: NaN, floor_dom_ms_per_100k: NaN, floor_heap_growth_ratio: NaN, floor_heap_restored_ratio: NaN };
}

/** Each figure's median over the tries (the machine is shared: one slow try says little). */
function median(tries: Row[]): Row | undefined {
  const first = tries[0];
  if (!first || tries.length === 1) return first;
  const out: Record<string, unknown> = { ...first };
  for (const [k, v] of Object.entries(first)) {
    if (typeof v === 'number') {
      const xs = tries.map((t) => (t as unknown as Record<string, number>)[k]!).sort((a, b) => a - b);
      out[k] = xs[(xs.length - 1) >> 1];
    } else if (typeof v === 'boolean') out[k] = tries.every((t) => (t as unknown as Record<string, boolean>)[k]);
    else if (Array.isArray(v)) out[k] = v.map((_, i) => {
      const xs = tries.map((t) => (t as unknown as Record<string, number[]>)[k]![i] ?? NaN).sort((a, b) => a - b);
      return xs[(xs.length - 1) >> 1];
    });
  }
  return out as unknown as Row;
}

async function main(): Promise<void> {
  // The popup translates a page from the page's own language (readability-lemonde-1 is French,
  // postlight-www.asahi.com says `lang="ja"`), the bench's other triggers from English: a direct
  // pair into each trigger's target from those too, so every trigger's first unit is one leg, as
  // from English (without Japanese the popup's asahi figure was no unit at all: no route).
  const pairs = ['fra', 'jpn'].flatMap((from) => ['por', 'cat', 'ara'].map((to) => `${from}-${to}`));
  // The scroll's target, which nothing else here translates into (scroll.ts).
  pairs.push(SCROLL_PAIR);
  const [apy, server] = await Promise.all([startMarkerApy(latency, pairs), startPageServer(folder)]);
  const tries = new Map<string, Row[]>(pages.map((p) => [p, []]));
  try {
    // A browser (a fresh profile) per round: the worker's translation memory would answer a page
    // it has seen at once.
    for (let i = 0; i < repeat; i++) {
      const browser = await launchExtension();
      try {
        await useApertiumAt(browser, apy.url);
        for (const name of pages) {
          if (floorOnly) {
            console.log(JSON.stringify({ page: name, ...(await floorFigures(browser, `${server.origin}/${name}`, heap)) }));
            continue;
          }
          if (scrollOnly) {
            console.log(JSON.stringify({ page: name, ...(await scrollFigures(browser, `${server.origin}/${name}`)) }));
            continue;
          }
          if (triggersOnly) {
            const t: Record<string, number | string> = { page: name };
            for (const how of ['popup', 'menu', 'key'] as const) {
              const r = await triggerFirstUnit(browser, server.origin, name, how).catch(() => ({ first: NaN, screen: NaN }));
              t[how] = r.first;
              if (how === 'popup') t.screen = r.screen;
            }
            console.log(JSON.stringify(t));
            continue;
          }
          const measured = await measurePage(browser, server.origin, name, apy);
          const row: Row | undefined = measured && { ...measured, ...(await floorFigures(browser, `${server.origin}/${name}`, heap).catch(noFloor)), scroll_ms: [], scroll_screen_ms: NaN, selection_busy_ms: NaN };
          if (row) {
            const popup = await triggerFirstUnit(browser, server.origin, name, 'popup').catch(() => ({ first: NaN, screen: NaN }));
            row.first_unit_popup_ms = popup.first;
            row.first_screen_popup_ms = popup.screen;
            row.first_unit_menu_ms = (await triggerFirstUnit(browser, server.origin, name, 'menu').catch(() => ({ first: NaN }))).first;
            row.first_unit_key_ms = (await triggerFirstUnit(browser, server.origin, name, 'key').catch(() => ({ first: NaN }))).first;
            Object.assign(row, await scrollFigures(browser, `${server.origin}/${name}`).catch(noScroll));
          }
          if (row) tries.get(name)!.push(row);
          if (row && repeat === 1) console.log(JSON.stringify(row));
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await Promise.all([apy.close(), server.close()]);
  }
  if (triggersOnly || floorOnly || scrollOnly) return;
  const rows = pages.map((p) => median(tries.get(p)!)).filter((r): r is Row => r !== undefined);
  if (repeat > 1) for (const r of rows) console.log(JSON.stringify(r));
  const out = { date: new Date().toISOString(), latency_ms: latency, pages: rows };
  writeFileSync(new URL('./page-results.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
  // And in results.json beside the engine's and the memory figures (issue 5: "per page"), as `page`.
  const file = new URL('./results.json', import.meta.url);
  const results = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  results.page = out;
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.table(rows.map((r) => ({
    page: r.page.slice(0, 32), text: r.text_chars, dom: r.dom_ms, 'dom/100k': r.dom_ms_per_100k, dom2: r.dom2_ms, 'seg/pack/wr': `${Math.round(r.dom_segment_ms)}/${Math.round(r.dom_pack_ms)}/${Math.round(r.dom_write_ms)}`, msg: r.send_ms, send: r.first_send_ms, req1: r.first_request_ms, req1b: r.first_request2_ms,
    answer: r.first_answer_ms, first: r.first_unit_ms, first2: r.first_unit2_ms, popup: r.first_unit_popup_ms, screen: r.first_screen_popup_ms, menu: r.first_unit_menu_ms, key: r.first_unit_key_ms, seg: r.segmented_ms, req: r.provider_requests, sent: r.sent_ratio, wall: r.wall_s, bound: r.bound_s, growth: r.heap_growth_ratio,
    cpu: r.renderer_cpu_s, layout: r.layout_s, style: r.style_s, growth2: r.heap_growth2_ratio, restored: r.heap_restored_ratio, cycle2: r.heap_cycle2_ratio, same: r.restored_identical,
    scroll: r.scroll_screen_ms, 'sel busy': r.selection_busy_ms, 'floor dom/100k': r.floor_dom_ms_per_100k, 'floor growth': r.floor_heap_growth_ratio, 'floor restored': r.floor_heap_restored_ratio,
  })));
}

await main();
