/**
 * How late a screen the reader jumps to while the page translates is translated (issue 5: the
 * popular extension wrote each new screen 300-480 ms after it was scrolled to).
 *
 * In a fresh tab of the page, the content script is told to translate it into German (a target
 * nothing else in the bench uses, so the worker's translation memory answers nothing). 200 ms
 * after the first unit is written the page jumps to the middle of its height (on a long page,
 * while it is still being segmented), two seconds later to nine tenths, two seconds later to a
 * quarter: a reader skimming a long page. For each jump, the texts with a letter then in the
 * viewport (of those with a box before the trigger) are noted; each is stamped when it no longer
 * shows a letter the fake's marks do not cover (translated, or emptied by the merge, its words
 * written into a text beside it), once the frame that shows it is painted (`PAINTED`; until
 * stop 71, at the start of the next frame, before its style, layout and paint). Once the page is
 * translated, the texts that still show unmarked letters are ones the extension leaves alone
 * (code, a `translate="no"`, a number), and are left out. A jump's figure is the last of its texts to be translated, from the
 * jump (0: all of them were already), at most until the next jump (2 000: the reader left that
 * screen with some of it untranslated; the queue then serves the screen they went to).
 * - scroll_ms: the three jumps' figures; scroll_screen_ms: the slowest of them.
 * - selection_busy_ms: a second after the first unit, a selection's translation is asked as the
 *   bubble asks it (three alternatives, the same tab's content script): the time to its first
 *   alternative, while the page's calls keep the provider busy (NaN if the page was translated by
 *   then).
 * A page no taller than two screens has nowhere to jump to: NaN.
 */
import { evaluateInContentScript, type ExtensionBrowser } from '../test/e2e/browser';
import { MARK_CLOSE, MARK_OPEN } from '../test/fakes/marker-apy';

export interface Scroll {
  scroll_ms: number[];
  scroll_screen_ms: number;
  selection_busy_ms: number;
}

/** Where each jump goes, as a fraction of the page's scrollable height, and when, after the one before (the first: after the first unit is written). */
const JUMPS: readonly (readonly [number, number])[] = [
  [0.5, 200],
  [0.9, 2000],
  [0.25, 2000],
];
/** When the reader asks a selection's translation, after the first unit is written (between the first two jumps). */
const SELECTION_AT = 1000;

const SCROLL_TARGET = 'de';
/** The fake's pair for it (APy's codes). */
export const SCROLL_PAIR = 'eng-deu';

/**
 * In-page script (a page's world or the content script's): `letter`, and `shows(t)`: whether the
 * text node `t` still shows a letter the fake's marks do not cover (not translated yet).
 */
export const SHOWS_UNMARKED = `
  const letter = /\\p{L}/u;
  const marked = /${MARK_OPEN}[^${MARK_CLOSE}]*${MARK_CLOSE}/gu;
  const shows = (t) => letter.test(t.data.replace(marked, ''));`;

/**
 * In-page script (after `SHOWS_UNMARKED`): `whenPainted(f)` runs `f` in a task after the frame that
 * paints the page as it is now. A change made in an animation frame's callbacks is painted in that
 * frame, one made in a task in the next; tasks wait for a frame's style, layout and paint. `tick`
 * runs first in each frame (asked a frame ahead), so a change seen while `inFrame` was made in a
 * frame's callbacks. `ticking = false` stops it. `watchShown(groups, clock)`: each text of each
 * group (`{texts, done}`, `done[i]` -1 while it shows the page's words) seen translated is marked
 * -2, then stamped with `clock()` once painted; returns the observer.
 */
export const PAINTED = `
  const afterTasks = [];
  const paintChannel = new MessageChannel();
  paintChannel.port1.onmessage = () => afterTasks.shift()();
  const afterFrame = (f) => { afterTasks.push(f); paintChannel.port2.postMessage(0); };
  let inFrame = false, ticking = true;
  const tick = () => { inFrame = true; afterFrame(() => (inFrame = false)); if (ticking) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const whenPainted = (f) => { if (inFrame) afterFrame(f); else requestAnimationFrame(() => afterFrame(f)); };
  const watchShown = (groups, clock) => {
    const watch = new MutationObserver(() => {
      const seen = [];
      for (const g of groups) for (let i = 0; i < g.texts.length; i++) if (g.done[i] === -1 && !shows(g.texts[i])) { g.done[i] = -2; seen.push([g, i]); }
      if (seen.length) whenPainted(() => { const now = clock(); for (const [g, i] of seen) g.done[i] = now; });
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    return watch;
  };`;

const MEASURE = `(async () => {
  const P = polyglot.page;
  const jumps = ${JSON.stringify(JUMPS)};${SHOWS_UNMARKED}
  const range = document.createRange();
  const rectOf = (t) => { range.selectNodeContents(t); return range.getBoundingClientRect(); };
  // Every text with a letter that has a box, in document order, read before the trigger (not timed).
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!letter.test(t.data)) continue;
    const r = rectOf(t);
    if (r.width > 0 && r.height > 0) texts.push(t);
  }
  // The texts in the viewport: a binary search for the first whose box ends below its top, then
  // forward until twenty in a row start below its bottom (document order follows the page down).
  const inView = () => {
    const h = innerHeight;
    let lo = 0, hi = texts.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (rectOf(texts[mid]).bottom <= 0) lo = mid + 1; else hi = mid; }
    const out = [];
    for (let i = Math.max(0, lo - 20), below = 0; i < texts.length && below < 20; i++) {
      const r = rectOf(texts[i]);
      if (r.top >= h) { below++; continue; }
      below = 0;
      if (r.bottom > 0 && r.width > 0 && r.height > 0) out.push(texts[i]);
    }
    return out;
  };
  const views = [];${PAINTED}
  if (document.documentElement.scrollHeight <= 2 * innerHeight) return null;
  scrollTo(0, 0);
  void polyglot.handle({ type: 'page:translate', data: { src: 'en', trg: '${SCROLL_TARGET}' } });
  for (let i = 0; i < 3000 && !(P.metrics.firstWriteMs >= 0); i++) await new Promise((r) => setTimeout(r, 5));
  const firstAt = performance.now();
  // A text seen translated is stamped once the frame that shows it is painted.
  const watch = watchShown(views, () => performance.now());
  const until = (t) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));
  // The reader translates a selection, as the bubble asks (three alternatives), while the page
  // translates: the time to the first alternative.
  let busy = false, selection = NaN;
  const select = async () => {
    await until(firstAt + ${SELECTION_AT});
    busy = P.status().state === 'translating';
    const asked = performance.now();
    await polyglot.translateStream({ src: 'en', trg: '${SCROLL_TARGET}', dat: ['A sentence the reader selected on ' + location.pathname], min: 3, max: 3 }, () => {
      if (Number.isNaN(selection)) selection = performance.now() - asked;
    }).catch(() => undefined);
  };
  const selected = select();
  let due = firstAt;
  for (const [at, after] of jumps) {
    due += after;
    await until(due);
    scrollTo(0, at * (document.documentElement.scrollHeight - innerHeight));
    const jumpedAt = performance.now();
    const seen = inView();
    views.push({ at: jumpedAt, texts: seen, done: seen.map((t) => (shows(t) ? -1 : jumpedAt)) });
  }
  await selected;
  for (let i = 0; i < 1200 && P.status().state === 'translating'; i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => requestAnimationFrame(() => afterFrame(r)));
  ticking = false;
  watch.disconnect();
  // Each text's time from its jump (-1: left alone), the latest first, with where it is; at most
  // until the next jump: the reader has left that screen (the queue serves the new one first).
  const timed = views.map((v, k) => {
    const left = k + 1 < views.length ? views[k + 1].at : Infinity;
    return v.texts.map((t, i) => [v.done[i] < 0 ? -1 : Math.round(Math.max(0, Math.min(v.done[i], left) - v.at)), t.parentElement.tagName + ': ' + t.data.slice(0, 40)]).sort((a, b) => b[0] - a[0]);
  });
  P.restore();
  return {
    jumps: timed.map((v) => Math.max(0, ...v.map(([ms]) => ms))),
    selection: busy ? Math.round(selection) : NaN,
    detail: timed.map((v) => ({ texts: v.length, left: v.filter(([ms]) => ms < 0).length, times: [...new Set(v.map(([ms]) => ms))], last: v.slice(0, 5) })),
  };
})()`;

/** The jumps' figures on the page at `url`, in a fresh tab (`SCROLL_DETAIL=1`: each jump's texts' times printed too). */
export async function scrollFigures(browser: ExtensionBrowser, url: string): Promise<Scroll> {
  const page = await browser.context.newPage();
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    const r = await evaluateInContentScript<{ jumps: number[]; selection: number; detail: unknown[] } | null>(page, browser.id, MEASURE);
    if (r && process.env.SCROLL_DETAIL) console.log(JSON.stringify(r.detail));
    return r ? { scroll_ms: r.jumps, scroll_screen_ms: Math.max(...r.jumps), selection_busy_ms: r.selection } : { scroll_ms: [], scroll_screen_ms: NaN, selection_busy_ms: NaN };
  } finally {
    await page.close();
  }
}
