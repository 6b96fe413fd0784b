/**
 * A reader who jumps into a long list while the page translates: what comes into view goes next,
 * row by row, not the list from its top (prioritize.ts `rank`); the far turn waits until it has
 * gone; calls holding nothing near the viewport are sent as background work, which the worker
 * serves after everything else; and a jump while the page is still being segmented is segmented
 * next (discover.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IN_VIEW_EXTRA } from '../../src/content/calls';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualFrames } from './page-fakes';

let pages: PageTranslator[] = [];
const boxes = new Map<string, { top: number; height: number }>();
const original = Element.prototype.getBoundingClientRect;
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
  boxes.clear();
  Element.prototype.getBoundingClientRect = original;
  scrolledTo(0);
});

/** Where the window says it is scrolled to (the boxes say where things are). */
function scrolledTo(y: number): void {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
}

/** Each element's box by its id (others: a small box at the top of the page). */
function layout(): void {
  Element.prototype.getBoundingClientRect = function (this: Element) {
    const b = boxes.get(this.id) ?? { top: 0, height: 20 };
    return { top: b.top, bottom: b.top + b.height, left: 0, right: 500, width: 500, height: b.height, x: 0, y: b.top, toJSON: () => ({}) } as DOMRect;
  };
}

/** The list's rows where the page puts them with the list's top at `top` (each `gap` px tall). */
function placeList(top: number, rows: number, gap = 100): void {
  boxes.set('list', { top, height: rows * gap });
  for (let i = 0; i < rows; i++) boxes.set(`r${i}`, { top: top + i * gap, height: 20 });
}

const items = (markup: string) => [...markup.matchAll(/Row (\d+)/g)].map((m) => Number(m[1]));

/**
 * A paragraph at the top and a list of `rows` rows from `top` down, translated one call at a time
 * (three rows to a call), every call held: the order the queue gives is the order they go.
 */
async function listPage(rows: number, top: number, maxInFlight = 1) {
  document.head.innerHTML = '';
  document.body.innerHTML = `<p id="top">Top words</p><div id="list">${Array.from({ length: rows }, (_, i) => `<p id="r${i}">Row ${i} words</p>`).join('')}</div>`;
  boxes.set('top', { top: 10, height: 20 });
  placeList(top, rows);
  layout();
  const fake = fakeTranslator({ hold: true });
  const frames = manualFrames();
  const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewportHeight: () => 800, idle: (cb) => cb(1000), maxInFlight, limit: 80 });
  pages.push(page);
  page.start('en', 'es');
  await frames.settle();
  return { fake, frames };
}

/**
 * `listPage` with two calls in flight at most: the top paragraph's is answered, then the list's
 * first rows, far below, are sent as background work and held.
 */
async function twoInBackground(rows: number) {
  const { fake, frames } = await listPage(rows, 5000, 2);
  fake.calls[0]!.release();
  await frames.settle();
  expect(fake.calls.slice(1).map((c) => [items(c.markup), c.background])).toEqual([[[0, 1, 2], true], [[3, 4, 5], true]]);
  return { fake, frames };
}

/** The reader scrolls to `y`: the top paragraph and the list (its top at `listTop`, rows `gap` px apart) move with it. */
function jumpTo(y: number, listTop: number, rows: number, gap = 100): void {
  placeList(listTop, rows, gap);
  boxes.set('top', { top: 10 - y, height: 20 });
  scrolledTo(y);
  dispatchEvent(new Event('scroll'));
}

describe('a jump into a long list while the page translates', () => {
  it('translates the rows in view next, then those near, and sends the far ones as background work', async () => {
    const rows = 30;
    const { fake, frames } = await listPage(rows, 5000);
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Top words</p>']);
    expect(fake.calls[0]!.background).toBe(false);

    // The reader jumps: rows 10 to 18 are in view, 2 to 26 within a screen of it.
    placeList(-1000, rows);
    boxes.set('top', { top: -6000, height: 20 });
    dispatchEvent(new Event('scroll'));
    for (let i = 0; i < 12; i++) {
      fake.calls.at(-1)!.release();
      await frames.settle();
    }
    const sent = fake.calls.slice(1).map((c) => items(c.markup));
    // In view (rows 10 to 18) first, in order, with no far turn among them; then within a screen.
    expect(sent.slice(0, 4)).toEqual([[10, 11, 12], [13, 14, 15], [16, 17, 18], [2, 3, 4]]);
    expect(sent.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i));
    // What holds a row in or within a screen of the view (2 to 26) is not background; what holds only far rows is.
    const far = (r: number) => r < 2 || r > 26;
    for (const c of fake.calls.slice(1)) expect({ rows: items(c.markup), background: c.background }).toEqual({ rows: items(c.markup), background: items(c.markup).every(far) });
    expect(fake.calls.some((c) => c.background)).toBe(true);
    expect(document.getElementById('r29')!.textContent).toBe('ROW 29 WORDS');
  });

  it('hurries the calls already sent for what the reader jumps to, and sends the rest of the screen at once, beyond the calls in flight', async () => {
    const rows = 30;
    const { fake, frames } = await twoInBackground(rows);

    // The reader jumps down the page: rows 3 to 11 are in view (row 2 just above it).
    jumpTo(5300, -300, rows);
    await frames.settle();
    // The call holding rows 3 to 5 is hurried (the worker serves it among the foreground work);
    // the one holding only rows above the view is not.
    expect(fake.calls.slice(1, 3).map((c) => [items(c.markup), c.hurried])).toEqual([[[0, 1, 2], false], [[3, 4, 5], true]]);
    // The rest of the screen goes at once, though both calls are still in flight; then nothing more.
    expect(fake.calls.slice(3).map((c) => [items(c.markup), c.background])).toEqual([[[6, 7, 8], false], [[9, 10, 11], false]]);
    for (let i = 0; i < 20; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(document.getElementById('r29')!.textContent).toBe('ROW 29 WORDS');
    expect(fake.calls.slice(1).flatMap((c) => items(c.markup)).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i));
  });

  it('sends the screen it jumps to in as many calls as the viewport may take, the background calls in flight not counted', async () => {
    const rows = 60;
    const { fake, frames } = await twoInBackground(rows);

    // The reader jumps to a screen of small rows: 9 to 28 are in view (seven calls), 0 to 5 above it.
    jumpTo(5300, -360, rows, 40);
    await frames.settle();
    // Both slots are held by background calls; the screen still takes 2 + IN_VIEW_EXTRA calls at once.
    const screen = () => fake.calls.slice(3).map((c) => items(c.markup));
    expect(IN_VIEW_EXTRA).toBe(4);
    expect(screen()).toEqual([[9, 10, 11], [12, 13, 14], [15, 16, 17], [18, 19, 20], [21, 22, 23], [24, 25, 26]]);
    expect(fake.calls.slice(3).every((c) => !c.background)).toBe(true);
    // A background call's end gives the screen nothing more; the end of one of its own calls does.
    fake.calls[1]!.release();
    await frames.settle();
    expect(screen()).toHaveLength(6);
    fake.calls[3]!.release();
    await frames.settle();
    expect(screen().at(-1)).toEqual([27, 28, 29]);
    expect(document.getElementById('r9')!.textContent).toBe('ROW 9 WORDS');
    for (let i = 0; i < 40; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(document.getElementById('r59')!.textContent).toBe('ROW 59 WORDS');
  });

  it("sends the texts in view before the tooltips and screen readers' labels there; a field's hint and a button's words go with the texts", async () => {
    // Every element in view (a small box at the top): six links with tooltips, a search field with
    // a hint and a label, a button. One call at a time, three units to a call.
    document.head.innerHTML = '';
    document.body.innerHTML =
      Array.from({ length: 6 }, (_, i) => `<p><a href="#${i}" title="Tip ${i}">Row ${i} words</a></p>`).join('') +
      '<form><input placeholder="Row 6 words" aria-label="Tip 6"><input type="submit" value="Row 7 words"></form>';
    const original = document.body.innerHTML;
    layout();
    const fake = fakeTranslator({ hold: true });
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewportHeight: () => 800, idle: (cb) => cb(1000), maxInFlight: 1, limit: 80 });
    pages.push(page);
    page.start('en', 'es');
    await frames.settle();
    for (let i = 0; i < 12 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    // In the order sent: every text the reader sees there (the hint and the button's words too),
    // then the tooltips and the field's label.
    const sent = fake.calls.flatMap((c) => [...c.markup.matchAll(/(Row|Tip) \d/g)].map((m) => m[0]));
    expect(sent).toEqual([...Array.from({ length: 8 }, (_, i) => `Row ${i}`), ...Array.from({ length: 7 }, (_, i) => `Tip ${i}`)]);
    expect(page.status()).toMatchObject({ state: 'translated' });
    expect(document.querySelector('a')!.title).toBe('TIP 0');
    expect(document.querySelector('input')!.getAttribute('aria-label')).toBe('TIP 6');
    expect(document.querySelector('input')!.placeholder).toBe('ROW 6 WORDS');
    pages.pop()!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it("says the target's language on the page once what is in view is written, not with the first write", async () => {
    // Restyling the whole page for its new `lang` held the rest of a long page's first screen back.
    const rows = 30;
    document.documentElement.setAttribute('lang', 'en');
    // The top paragraph and rows 0 to 7 in view, three to a call: three calls for the screen (the
    // third beyond the two in flight at once: it holds units in view).
    const { fake, frames } = await listPage(rows, 50, 2);
    const lang = () => document.documentElement.getAttribute('lang');
    expect(fake.calls.map((c) => items(c.markup))).toEqual([[0, 1], [2, 3, 4], [5, 6, 7]]);
    fake.calls[0]!.release();
    await frames.settle();
    expect(document.getElementById('r1')!.textContent).toBe('ROW 1 WORDS');
    expect(lang()).toBe('en');
    fake.calls[1]!.release();
    await frames.settle();
    expect(document.getElementById('r4')!.textContent).toBe('ROW 4 WORDS');
    expect(lang()).toBe('en');
    // The screen's last call answers: its rows are written, and the page says Spanish at the next frame.
    fake.calls[2]!.release();
    await frames.settle();
    expect(document.getElementById('r7')!.textContent).toBe('ROW 7 WORDS');
    expect(lang()).toBe('es');
    pages.pop()!.restore();
    expect(lang()).toBe('en');
    document.documentElement.removeAttribute('lang');
  });

  it("says it once the frame that shows the screen's last words is painted, also when a frame's timer wrote them", async () => {
    // A busy page's animation frame comes late, and the write runs in the frame's fallback timer:
    // relabelled in the next animation frame, the restyle went into the frame that paints the
    // screen's last words (460 ms on aows-nba before they showed).
    document.documentElement.setAttribute('lang', 'en');
    document.head.innerHTML = '';
    document.body.innerHTML = `<p id="top">Top words</p><div id="list">${Array.from({ length: 30 }, (_, i) => `<p id="r${i}">Row ${i} words</p>`).join('')}</div>`;
    boxes.set('top', { top: 10, height: 20 });
    placeList(50, 30);
    layout();
    const fake = fakeTranslator({ hold: true });
    const frames = manualFrames();
    /** The tasks after a frame (its paint comes first). */
    const tasks = async () => {
      for (let i = 0; i < 4; i++) await new Promise((r) => setTimeout(r, 0));
    };
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewportHeight: () => 800, idle: (cb) => cb(1000), maxInFlight: 2, limit: 80 });
    pages.push(page);
    page.start('en', 'es');
    const lang = () => document.documentElement.getAttribute('lang');
    for (let i = 0; i < 5 && fake.calls.length < 3; i++) {
      await frames.runFrame(true);
      await tasks();
    }
    expect(fake.calls.map((c) => items(c.markup))).toEqual([[0, 1], [2, 3, 4], [5, 6, 7]]);
    for (const call of fake.calls.slice(0, 2)) call.release();
    await frames.runFrame(true);
    await tasks();
    fake.calls[2]!.release();
    await tasks();
    // Written by the frame's timer: not painted yet.
    await frames.runFrame(false);
    expect(document.getElementById('r7')!.textContent).toBe('ROW 7 WORDS');
    expect(lang()).toBe('en');
    await tasks();
    expect(lang()).toBe('en');
    // The animation frame that paints them: the page still says English while it does.
    await frames.runFrame(true);
    expect(lang()).toBe('en');
    await tasks();
    expect(lang()).toBe('es');
    pages.pop()!.restore();
    expect(lang()).toBe('en');
    document.documentElement.removeAttribute('lang');
  });

  it('segments the part of the page the reader jumped to next, while the rest waits', async () => {
    // Six sections of five rows below the first screen, each 500 px tall: sections 0 and 1 within
    // a screen of the first, so segmented first, were the reader not to move.
    const sections = 6;
    document.head.innerHTML = '';
    document.body.innerHTML =
      '<p id="top">Top words</p>' +
      Array.from({ length: sections }, (_, k) => `<div id="s${k}">${Array.from({ length: 5 }, (_, j) => `<p id="r${k}-${j}">Row ${k * 5 + j} words</p>`).join('')}</div>`).join('');
    const place = (shift: number) => {
      boxes.set('top', { top: 10 - shift, height: 20 });
      for (let k = 0; k < sections; k++) {
        boxes.set(`s${k}`, { top: 1000 + k * 500 - shift, height: 500 });
        for (let j = 0; j < 5; j++) boxes.set(`r${k}-${j}`, { top: 1000 + k * 500 + j * 100 - shift, height: 20 });
      }
    };
    place(0);
    layout();
    const fake = fakeTranslator({ hold: true });
    const frames = manualFrames();
    // The idle slices run by hand, with no time to spare: each walks one subtree, or leaves its blocks for later.
    const slices: ((budget: number) => void)[] = [];
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewportHeight: () => 800, idle: (cb) => void slices.push(cb), maxInFlight: 1, limit: 80 });
    pages.push(page);
    page.start('en', 'es');
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Top words</p>']);
    // The reader jumps to section 4 before the rest is segmented: rows 20 to 28 are in view, 15 to
    // 19 above it and 29 below, within a screen.
    place(3000);
    scrolledTo(3000);
    dispatchEvent(new Event('scroll'));
    fake.calls[0]!.release();
    for (let i = 0; i < 20 && fake.calls.length < 2 && slices.length; i++) {
      slices.shift()!(0);
      await frames.settle();
    }
    expect(items(fake.calls[1]!.markup)).toEqual([20, 21, 22]);
    // Everything is segmented and sent in the end.
    for (let i = 0; i < 100 && (slices.length || page.status().state === 'translating'); i++) {
      slices.shift()?.(0);
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(fake.calls.slice(1).flatMap((c) => items(c.markup)).sort((a, b) => a - b)).toEqual(Array.from({ length: sections * 5 }, (_, i) => i));
    expect(page.status()).toMatchObject({ state: 'translated' });
  });

  it.each(['page', 'near'] as const)('segments and sends the screen a jump went to in the frame after it, though the page leaves no idle time (%s)', async (scope) => {
    // A list of 60 rows, 100 px apart, from just below the first screen: left for later. A long
    // page's writes leave no idle time, and a task waits behind each frame (Chromium): both held.
    const rows = 60;
    document.head.innerHTML = '';
    document.body.innerHTML = `<p id="top">Top words</p><div id="list">${Array.from({ length: rows }, (_, i) => `<p id="r${i}">Row ${i} words</p>`).join('')}</div>`;
    boxes.set('top', { top: 10, height: 20 });
    placeList(900, rows);
    layout();
    const fake = fakeTranslator({ hold: true });
    const frames = manualFrames();
    const idle: ((budget: number) => void)[] = [];
    const tasks: ((budget: number) => void)[] = [];
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewportHeight: () => 800, idle: (cb) => void idle.push(cb), urgent: (cb) => void tasks.push(cb), maxInFlight: 1, limit: 80 });
    pages.push(page);
    page.start('en', 'es', { scope });
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Top words</p>']);
    expect(page.status().total).toBe(1);
    // The reader jumps into the list's middle: rows 30 to 37 are in view.
    jumpTo(3000, -2990, rows);
    await frames.runFrame(true);
    // In that frame, with no slice nor task run: the rows in view are found, and only they (the
    // list walked by where its rows are, not from its top), and sent beyond the call in flight.
    expect(page.status().total).toBe(1 + 8);
    expect(fake.calls.slice(1).map((c) => [items(c.markup), c.background])).toEqual([
      [[30, 31, 32], false],
      [[33, 34, 35], false],
      [[36, 37], false],
    ]);
    // The rest of the page follows in slices, the rows near the view first (near the viewport
    // only: those within a screen of it, rows 22 to 45, and no others).
    for (let i = 0; i < 200 && (idle.length || tasks.length || page.status().state === 'translating'); i++) {
      (tasks.shift() ?? idle.shift())?.(1000);
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(items(fake.calls[4]!.markup)).toEqual([22, 23, 24]);
    const sent = scope === 'page' ? Array.from({ length: rows }, (_, i) => i) : Array.from({ length: 24 }, (_, i) => 22 + i);
    expect(fake.calls.slice(1).flatMap((c) => items(c.markup)).sort((a, b) => a - b)).toEqual(sent);
    expect(document.getElementById('r45')!.textContent).toBe('ROW 45 WORDS');
    expect(document.getElementById('r59')!.textContent).toBe(scope === 'page' ? 'ROW 59 WORDS' : 'Row 59 words');
  });

  it('ranks the rows of a long list found below the first screen by where each is, not by the list', async () => {
    const rows = 30;
    // The list starts just below the viewport: within a screen of it, so near; rows 0 to 7 are.
    const { fake, frames } = await listPage(rows, 900);
    for (let i = 0; i < 12; i++) {
      fake.calls.at(-1)!.release();
      await frames.settle();
    }
    // The rows more than a screen below go as background work, as any far unit.
    const far = (r: number) => r > 7;
    for (const c of fake.calls.slice(1)) expect({ rows: items(c.markup), background: c.background }).toEqual({ rows: items(c.markup), background: items(c.markup).every(far) });
    expect(items(fake.calls[1]!.markup)).toEqual([0, 1, 2]);
    expect(fake.calls.slice(1).flatMap((c) => items(c.markup)).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i));
  });
});
