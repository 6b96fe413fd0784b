/**
 * The floor under issue 5's DOM and heap aims: what the least a live-node page translator must do
 * costs on a page, measured in the same world and by the same metrics as the extension's figures.
 *
 * The issue asks for write-back into the page's own Text nodes and an exact restore. Whatever else
 * a translator does (layout, serializing, messaging, reading answers), it must at least visit the
 * body's nodes, take a reference to each Text node it writes (Blink then keeps a JS wrapper for that
 * node in the content script's world for the node's life), keep each original string for the
 * restore, and write each once. Nothing more is done here, in a fresh tab of the page, in the
 * content script's isolated world (its code run in a plain page, nothing translated):
 * - floor_dom_ms: main-thread time of that walk and write (and per 100k characters of text),
 *   the lower bound of `dom_ms`;
 * - floor_heap_growth_ratio: JS heap growth while the originals are held, over the text's UTF-16
 *   bytes (the lower bound of `heap_growth_ratio`);
 * - floor_heap_restored_ratio: the heap after the originals are written back and let go, over the
 *   heap before (the lower bound of `heap_restored_ratio`: what stays is the wrappers).
 * Where a floor is above an aim (DOM <= 150 ms per 100k, growth <= 3x, restored <= 1.10), no design
 * that writes into the live page can meet that aim on that page.
 */
import type { CDPSession } from 'playwright-core';
import { evaluateInContentScript, type ExtensionBrowser } from '../test/e2e/browser';

export interface Floor {
  floor_dom_ms: number;
  floor_dom_ms_per_100k: number;
  floor_heap_growth_ratio: number;
  floor_heap_restored_ratio: number;
}

/**
 * Texts with a letter outside the tags a translator leaves alone get upper-cased (a string of the
 * same length, as a translation would be); the walk keeps no other reference.
 */
const DEFINE = `(() => {
  const letter = /\\p{L}/u;
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'PRE', 'CODE', 'KBD', 'SAMP', 'VAR', 'TEXTAREA', 'SVG', 'MATH']);
  globalThis.__floorWrite = (root) => {
    const nodes = [];
    const originals = [];
    let n = root.firstChild;
    while (n) {
      if (n.nodeType === 3) {
        const d = n.data;
        if (letter.test(d)) {
          nodes.push(n);
          originals.push(d);
          n.data = d.toUpperCase();
        }
      }
      let next = n.nodeType === 1 && !skip.has(n.nodeName.toUpperCase()) ? n.firstChild : null;
      while (!next && n && n !== root) {
        next = n.nextSibling;
        if (!next) n = n.parentNode;
      }
      n = n === root ? null : next;
    }
    return { nodes, originals };
  };
  globalThis.__floorRestore = ({ nodes, originals }) => {
    for (let i = 0; i < nodes.length; i++) nodes[i].data = originals[i];
  };
  // Compiled and run once on a detached copy of a little of the page, before the baseline: the
  // floor counts what the page's size costs, not our few lines' code (a \\p{L} regexp alone is
  // tens of kB of code).
  const sample = document.createElement('div');
  sample.innerHTML = '<p>Some <b>text</b> Ünïcode</p><p>more</p>';
  for (let i = 0; i < 3; i++) __floorRestore(__floorWrite(sample));
})()`;

const WRITE = `(() => {
  const t0 = performance.now();
  globalThis.__floor = __floorWrite(document.body);
  return performance.now() - t0;
})()`;

const RESTORE = `(() => {
  __floorRestore(globalThis.__floor);
  delete globalThis.__floor;
  return document.body.innerHTML.length;
})()`;

/** The floor of the page at `url`, in a fresh tab; `heap` reads the JS heap as the bench does (after collecting garbage). */
export async function floorFigures(browser: ExtensionBrowser, url: string, heap: (session: CDPSession) => Promise<number>): Promise<Floor> {
  const page = await browser.context.newPage();
  const session = await browser.context.newCDPSession(page);
  await session.send('Performance.enable');
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    // The text size as the bench's \`text_chars\`.
    const [length, textChars] = await evaluateInContentScript<[number, number]>(page, browser.id, '[document.body.innerHTML.length, document.body.innerText.length]');
    await evaluateInContentScript<void>(page, browser.id, DEFINE);
    const h0 = await heap(session);
    const ms = await evaluateInContentScript<number>(page, browser.id, WRITE);
    const h1 = await heap(session);
    const after = await evaluateInContentScript<number>(page, browser.id, RESTORE);
    if (after !== length) throw new Error(`the floor's restore changed the page (${length} -> ${after} characters of markup)`);
    const h2 = await heap(session);
    const bytes = Math.max(1, 2 * textChars);
    return {
      floor_dom_ms: Math.round(ms * 10) / 10,
      floor_dom_ms_per_100k: Math.round((ms / Math.max(1, textChars)) * 100_000 * 10) / 10,
      floor_heap_growth_ratio: Math.round(((h1 - h0) / bytes) * 100) / 100,
      floor_heap_restored_ratio: Math.round((h2 / h0) * 1000) / 1000,
    };
  } finally {
    await session.detach().catch(() => undefined);
    await page.close();
  }
}
