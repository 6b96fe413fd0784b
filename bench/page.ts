/**
 * Page-translation figures per real page (issue 5 "Speed"), in headless Chromium with the built
 * extension (dist/: run `npx vite build` first) and an APy-compatible fake answering after L ms:
 * - dom_ms: DOM extraction + write-back time in the content script, and per 100k chars of text;
 * - first_unit_ms: trigger -> first unit written (the first viewport's units go first);
 * - wall_s: trigger -> whole page translated;
 * - heap_growth_ratio: (JS heap when translated - heap before) / text size in UTF-16 bytes, and
 *   heap_restored_ratio: heap after restore / heap before (both after a forced GC, CDP
 *   Performance.getMetrics JSHeapUsedSize);
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
  first_unit_ms: number;
  wall_s: number;
  heap_growth_ratio: number;
  heap_restored_ratio: number;
  restored_identical: boolean;
  errors: number;
}

async function measure(page: Page, id: string, session: CDPSession): Promise<Omit<Row, 'page' | 'heap_growth_ratio' | 'heap_restored_ratio'> & { heaps: number[] }> {
  const h0 = await heap(session);
  const run = await evaluateInContentScript<{ text: number; status: { total: number; errors: number }; calls: number; domMs: number; first: number; wall: number }>(
    page,
    id,
    `(async () => {
      const P = polyglot.page;
      globalThis.__before = document.body.innerHTML;
      const text = document.body.innerText.length;
      const calls0 = P.calls;
      const t0 = performance.now();
      await polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: 'es' } });
      while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 10));
      return { text, status: P.status(), calls: P.calls - calls0, domMs: P.metrics.domMs, first: P.metrics.firstWriteMs, wall: performance.now() - t0 };
    })()`,
  );
  const h1 = await heap(session);
  const identical = await evaluateInContentScript<boolean>(
    page,
    id,
    `(() => { polyglot.page.restore(); const same = document.body.innerHTML === globalThis.__before; delete globalThis.__before; return same; })()`,
  );
  const h2 = await heap(session);
  return {
    text_chars: run.text,
    units: run.status.total,
    calls: run.calls,
    dom_ms: Math.round(run.domMs * 10) / 10,
    dom_ms_per_100k: Math.round((run.domMs / Math.max(1, run.text)) * 100_000 * 10) / 10,
    first_unit_ms: Math.round(run.first),
    wall_s: Math.round(run.wall) / 1000,
    restored_identical: identical,
    errors: run.status.errors,
    heaps: [h0, h1, h2],
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
        const [h0, h1, h2] = heaps as [number, number, number];
        const row: Row = {
          page: name,
          ...m,
          heap_growth_ratio: Math.round(((h1 - h0) / Math.max(1, 2 * m.text_chars)) * 100) / 100,
          heap_restored_ratio: Math.round((h2 / h0) * 1000) / 1000,
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
  console.table(rows.map(({ page, text_chars, dom_ms_per_100k, first_unit_ms, wall_s, heap_growth_ratio, heap_restored_ratio, restored_identical }) => ({
    page: page.slice(0, 40), text_chars, dom_ms_per_100k, first_unit_ms, wall_s, heap_growth_ratio, heap_restored_ratio, restored_identical,
  })));
}

await main();
