/**
 * Page-translation figures per real page (issue 5 "Speed"), in headless Chromium with the built
 * extension (dist/: run `npx vite build` first) and an APy-compatible fake answering after L ms:
 * - dom_ms: DOM extraction + write-back time in the content script, and per 100k chars of text;
 * - first_send_ms: trigger -> first call sent; segmented_ms: trigger -> whole page segmented;
 * - first_unit_ms: trigger -> first unit written (the first viewport's units go first);
 * - wall_s: trigger -> whole page translated;
 * - heap_growth_ratio: (JS heap when translated - heap before) / text size in UTF-16 bytes, and
 *   heap_restored_ratio: heap after restore / heap before, heap_cycle2_ratio: heap after a second
 *   translate + restore / heap after the first restore (a leak shows here; the first cycle also
 *   holds the content script's newly compiled code and one JS wrapper per node it touched). CDP
 *   Performance.getMetrics JSHeapUsedSize, each reading after two HeapProfiler.collectGarbage;
 *   the original body.innerHTML is compared in Node, never kept in the page's heap;
 * - restored_identical: body.innerHTML after restore === before.
 * Written to bench/page-results.json. `tsx bench/page.ts [--latency 200] [--all | page.html ...]`.
 */
import { writeFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { launchExtension } from '../test/e2e/browser';
import { startMarkerApy } from '../test/fakes/marker-apy';
import { useApertiumAt } from '../test/fakes/page-e2e';
import { startPageServer } from '../test/fakes/page-server';
import { evaluateInContentScript } from '../test/e2e/browser';
import { requireShared } from '../test/support/shared';

const DEFAULT_PAGES = [
  'readability-001.html', 'readability-bbc-1.html', 'readability-nytimes-1.html', 'readability-wikipedia.html',
  'readability-wikipedia-3.html', 'trafilatura-en.wikipedia.org.tsne.html', 'postlight-github.com.html',
  'postlight-www.macrumors.com.html', 'readability-lemonde-1.html', 'postlight-www.asahi.com.html',
];

const args = process.argv.slice(2);
const latencyAt = args.indexOf('--latency');
const latency = latencyAt >= 0 ? Number(args[latencyAt + 1]) : 200;
const named = args.filter((a, i) => a.endsWith('.html') && args[i - 1] !== '--latency');
const folder = requireShared('pages');
const pages = args.includes('--all') ? readdirSync(folder).filter((f) => f.endsWith('.html')).sort() : named.length ? named : DEFAULT_PAGES;

async function heap(session: CDPSession): Promise<number> {
  // Twice: the first pass frees what the evaluation left; weak maps need a second to let go.
  await session.send('HeapProfiler.collectGarbage');
  await session.send('HeapProfiler.collectGarbage');
  const { metrics } = await session.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
}

interface Row {
  page: string;
  text_chars: number;
  units: number;
  calls: number;
  dom_ms: number;
  dom_ms_per_100k: number;
  first_send_ms: number;
  first_unit_ms: number;
  segmented_ms: number;
  wall_s: number;
  heap_growth_ratio: number;
  heap_restored_ratio: number;
  heap_cycle2_ratio: number;
  restored_identical: boolean;
  errors: number;
}

interface Run {
  status: { total: number; errors: number };
  calls: number;
  m: { domMs: number; firstSendMs: number; segmentedMs: number; firstWriteMs: number };
  wall: number;
}

const TRANSLATE = `(async () => {
  const P = polyglot.page;
  const calls0 = P.calls;
  const t0 = performance.now();
  await polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } });
  while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 10));
  return { status: P.status(), calls: P.calls - calls0, m: { ...P.metrics }, wall: performance.now() - t0 };
})()`;
const RESTORE = '(polyglot.page.restore(), document.body.innerHTML)';

async function measure(page: Page, id: string, session: CDPSession): Promise<Omit<Row, 'page' | 'heap_growth_ratio' | 'heap_restored_ratio' | 'heap_cycle2_ratio'> & { heaps: number[] }> {
  const [before, text] = await evaluateInContentScript<[string, number]>(page, id, '[document.body.innerHTML, document.body.innerText.length]');
  const h0 = await heap(session);
  const run = await evaluateInContentScript<Run>(page, id, TRANSLATE);
  const h1 = await heap(session);
  const identical = (await evaluateInContentScript<string>(page, id, RESTORE)) === before;
  const h2 = await heap(session);
  await evaluateInContentScript<Run>(page, id, TRANSLATE);
  const again = (await evaluateInContentScript<string>(page, id, RESTORE)) === before;
  const h3 = await heap(session);
  return {
    text_chars: text,
    units: run.status.total,
    calls: run.calls,
    dom_ms: Math.round(run.m.domMs * 10) / 10,
    dom_ms_per_100k: Math.round((run.m.domMs / Math.max(1, text)) * 100_000 * 10) / 10,
    first_send_ms: Math.round(run.m.firstSendMs * 10) / 10,
    first_unit_ms: Math.round(run.m.firstWriteMs),
    segmented_ms: Math.round(run.m.segmentedMs),
    wall_s: Math.round(run.wall) / 1000,
    restored_identical: identical && again,
    errors: run.status.errors,
    heaps: [h0, h1, h2, h3],
  };
}

async function main(): Promise<void> {
  const [browser, apy, server] = await Promise.all([launchExtension(), startMarkerApy(latency), startPageServer(folder)]);
  const rows: Row[] = [];
  try {
    await useApertiumAt(browser, apy.url);
    for (const name of pages) {
      const page = await browser.context.newPage();
      const session = await browser.context.newCDPSession(page);
      await session.send('Performance.enable');
      try {
        await page.goto(`${server.origin}/${name}`, { waitUntil: 'load', timeout: 30_000 });
        const { heaps, ...m } = await measure(page, browser.id, session);
        const [h0, h1, h2, h3] = heaps as [number, number, number, number];
        const row: Row = {
          page: name,
          ...m,
          heap_growth_ratio: Math.round(((h1 - h0) / Math.max(1, 2 * m.text_chars)) * 100) / 100,
          heap_restored_ratio: Math.round((h2 / h0) * 1000) / 1000,
          heap_cycle2_ratio: Math.round((h3 / h2) * 1000) / 1000,
        };
        rows.push(row);
        console.log(JSON.stringify(row));
      } catch (e) {
        console.log(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        await session.detach().catch(() => undefined);
        await page.close();
      }
    }
  } finally {
    await Promise.all([browser.close(), apy.close(), server.close()]);
  }
  const out = { date: new Date().toISOString(), latency_ms: latency, pages: rows };
  writeFileSync(new URL('./page-results.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
  console.table(rows.map((r) => ({
    page: r.page.slice(0, 32), text: r.text_chars, 'dom/100k': r.dom_ms_per_100k, send: r.first_send_ms, first: r.first_unit_ms,
    seg: r.segmented_ms, wall: r.wall_s, growth: r.heap_growth_ratio, restored: r.heap_restored_ratio, cycle2: r.heap_cycle2_ratio, same: r.restored_identical,
  })));
}

await main();
