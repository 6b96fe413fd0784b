/**
 * Viewport first: the first call leaves before the rest of the page is segmented; the rest is
 * segmented in idle slices (held here by the test), sent in full calls, in document order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualFrames } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const far = (n: number) => Array.from({ length: n }, (_, i) => `<p>Far paragraph ${i} with a few words.</p>`).join('');

function start(body: string) {
  document.head.innerHTML = '';
  document.body.innerHTML = body;
  const fake = fakeTranslator({ hold: true });
  const frames = manualFrames();
  const idles: ((budgetMs: number) => void)[] = [];
  const page = new PageTranslator({
    translate: fake.translate,
    frame: frames.frame,
    viewport: false,
    near: (el) => el.id !== 'far',
    idle: (cb) => void idles.push(cb),
  });
  pages.push(page);
  page.start('en', 'es');
  return { page, fake, frames, idles };
}

const sentTexts = (markup: string) => [...markup.matchAll(/<p i=\d+>([^<]*)<\/p>/g)].map((m) => m[1]);

describe('first screen first', () => {
  it('the first call carries only the first screen and leaves before the rest is segmented', async () => {
    const { page, fake, frames, idles } = start(`<main><p>Top one</p><p>Top two</p></main><section id="far">${far(30)}</section>`);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.markup).toBe('<p i=1>Top one</p><p i=2>Top two</p>');
    expect(idles).toHaveLength(1);
    expect(page.status()).toMatchObject({ state: 'translating', total: 2 });
    // The first answer is written while the rest still waits for idle time.
    fake.calls[0]!.release();
    await frames.settle();
    expect(document.querySelector('main')!.textContent).toBe('TOP ONETOP TWO');
    expect(page.status()).toMatchObject({ state: 'translating', done: 2, total: 2 });
    idles.shift()!(1000);
    expect(idles).toHaveLength(0);
    expect(page.status().total).toBe(32);
    // While segmenting only full calls go; the remainder when segmentation ends: 3 calls in all.
    expect(fake.calls).toHaveLength(3);
    expect(fake.calls[1]!.markup.length).toBeGreaterThan(900);
    expect(fake.calls.slice(1).flatMap((c) => sentTexts(c.markup))).toEqual(Array.from({ length: 30 }, (_, i) => `Far paragraph ${i} with a few words.`));
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 32, total: 32, errors: 0 });
  });

  it("the bench's DOM time is split by phase, each slice counted once", async () => {
    const { page, fake, frames, idles } = start(`<main><p>Top one</p></main><section id="far">${far(30)}</section>`);
    idles.shift()!(1000);
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 31 });
    const { domMs, phaseMs } = page.metrics;
    // Segmenting, packing and writing each took some time; nothing changed on its own.
    expect(phaseMs.segment).toBeGreaterThan(0);
    expect(phaseMs.pack).toBeGreaterThan(0);
    expect(phaseMs.write).toBeGreaterThan(0);
    expect(phaseMs.follow).toBe(0);
    // Packing runs inside segmenting (a full call leaves at once): its time is not counted twice.
    expect(phaseMs.segment + phaseMs.pack + phaseMs.write).toBeCloseTo(domMs, 6);
  });

  it('a slice out of time leaves the rest of its subtree for the next ones, which go on in document order', async () => {
    const body = `<p>Top</p><section id="far"><div>${far(3)}</div><div>${far(3).replace(/Far/g, 'Next')}</div>tail words</section>`;
    const { page, fake, frames, idles } = start(body);
    expect(fake.calls).toHaveLength(1);
    let slices = 0;
    while (idles.length) {
      idles.shift()!(0);
      slices++;
    }
    expect(slices).toBeGreaterThan(1);
    expect(fake.calls).toHaveLength(2);
    // The section's own text is found when the section is walked, its blocks after it.
    expect(sentTexts(fake.calls[1]!.markup)).toEqual([
      'tail words',
      ...[0, 1, 2].map((i) => `Far paragraph ${i} with a few words.`),
      ...[0, 1, 2].map((i) => `Next paragraph ${i} with a few words.`),
    ]);
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 8, total: 8 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a short unit further on fills the room a long one left: fewer calls, each within the limit, the long one first in the next', async () => {
    const long = (i: number) => `Long paragraph ${i} ${'with many words '.repeat(42).trim()}.`;
    const short = (i: number) => `Short note ${i} with a few words.`;
    const NOTES = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const body = `<main>${[0, 1, 2].map((i) => `<p>${long(i)}</p>`).join('')}${NOTES.map((i) => `<p>${short(i)}</p>`).join('')}</main>`;
    const { page, fake, frames } = start(body);
    // In order, the three long ones and then the notes would take four calls: [0], [1], [2 and seven notes], [the last two notes].
    expect(fake.calls.map((c) => sentTexts(c.markup))).toEqual([
      [long(0), ...NOTES.slice(0, 7).map(short)],
      [long(1), short(7), short(8)],
      [long(2)],
    ]);
    for (const c of fake.calls) expect(c.markup.length).toBeLessThanOrEqual(1000);
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 12, total: 12, errors: 0 });
    expect([...document.querySelectorAll('p')].map((p) => p.textContent)).toEqual([...[0, 1, 2].map(long), ...NOTES.map(short)].map((t) => t.toUpperCase()));
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it("a call is within the limit as the provider gets it: each no-break space counts as the engine's `&#160;`", async () => {
    // French puts one before each colon, guillemet and question mark.
    const para = (i: number) => `«\u00a0Paragraphe ${i}\u00a0» dit-il\u00a0: ${'une phrase\u00a0? oui\u00a0! '.repeat(6).trim()}`;
    const body = `<main>${Array.from({ length: 12 }, (_, i) => `<p>${para(i)}</p>`).join('')}</main>`;
    const { page, fake, frames } = start(body);
    const original = document.body.innerHTML;
    const sent = fake.calls.map((c) => c.markup.replaceAll('\u00a0', '&#160;').length);
    // Counted as one code point each (the previous build), a call reached the provider with 1 350.
    for (const n of sent) expect(n).toBeLessThanOrEqual(1000);
    expect(fake.calls.flatMap((c) => sentTexts(c.markup))).toEqual(Array.from({ length: 12 }, (_, i) => para(i)));
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 12, total: 12, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('restore during segmentation stops it: no more calls, the page as it was', async () => {
    const body = `<p>Top</p><section id="far">${far(40)}</section>`;
    const { page, fake, idles } = start(body);
    page.restore();
    for (const cb of idles.splice(0)) cb(1000);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.signal?.aborted).toBe(true);
    expect(document.body.innerHTML).toBe(body);
  });

  it('a title the page adds while the rest is still being segmented is translated too', async () => {
    const { page, fake, frames, idles } = start(`<p id="top">Top one</p><section id="far">${far(3)}</section>`);
    fake.calls[0]!.release();
    await frames.settle();
    // Segmented already (and read without any title), the rest of the page still waiting.
    expect(idles).toHaveLength(1);
    document.getElementById('top')!.setAttribute('title', 'A tip');
    await frames.settle();
    // Found at once (it goes with the rest: only full calls leave while segmenting).
    expect(page.status().total).toBe(2);
    idles.shift()!(1000);
    await frames.settle();
    expect(fake.calls.flatMap((c) => sentTexts(c.markup))).toContain('A tip');
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(document.getElementById('top')!.getAttribute('title')).toBe('A TIP');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
  });
});

