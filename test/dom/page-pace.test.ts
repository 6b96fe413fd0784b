/**
 * Pacing of writes (pace.ts): answers for the viewport go at the next frame; answers for units
 * away from it wait until the browser's rendering of the last write is a tenth of the time since
 * it, then go together; a scroll or the page's last answer writes what is held at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Pacer } from '../../src/content/pace';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualFrames } from './page-fakes';

/** Delays the test runs by hand, and the last hold asked. */
function manualDelays() {
  const held: { done: () => void; ms: number }[] = [];
  return {
    held,
    delay: (done: () => void, ms: number) => {
      const h = { done, ms };
      held.push(h);
      return () => held.splice(held.indexOf(h), 1);
    },
    run() {
      for (const h of held.splice(0)) h.done();
    },
  };
}

describe('Pacer', () => {
  it('holds a write for nine times its last rendering (a tenth of the time), at most a second', () => {
    const frames: ((framed?: boolean) => void)[] = [];
    const delays = manualDelays();
    let t = 0;
    let render = 40;
    const pacer = new Pacer({ frame: (cb) => void frames.push(cb), delay: delays.delay, now: () => t, measure: (_, done) => done(render) });
    const writes: string[] = [];
    // Nothing measured yet: the next frame.
    pacer.schedule(() => writes.push('a'), false);
    expect(frames).toHaveLength(1);
    frames.shift()!(true);
    expect(writes).toEqual(['a']);
    expect(pacer.holdMs).toBe(360);
    // 100 ms later, a write for a far unit waits the remaining 260 ms; a second one joins it.
    t = 100;
    pacer.schedule(() => writes.push('b'), false);
    pacer.schedule(() => writes.push('c'), false);
    expect(frames).toHaveLength(0);
    expect(delays.held.map((h) => h.ms)).toEqual([260]);
    expect(pacer.holding).toBe(true);
    delays.run();
    frames.shift()!(true);
    // One write: the last one scheduled holds everything pending.
    expect(writes).toEqual(['a', 'c']);
    // An urgent write cuts the hold short.
    render = 400;
    t = 200;
    frames.length = 0;
    pacer.schedule(() => writes.push('d'), false);
    expect(delays.held).toHaveLength(1);
    pacer.schedule(() => writes.push('e'), true);
    expect(delays.held).toHaveLength(0);
    frames.shift()!(true);
    expect(writes.at(-1)).toBe('e');
    // Smoothed: (40 + 40 + 400) / ... capped at a second.
    expect(pacer.holdMs).toBe(1000);
    // hurry() writes what is held at the next frame; cancel() drops it.
    pacer.schedule(() => writes.push('f'), false);
    pacer.hurry();
    expect(delays.held).toHaveLength(0);
    frames.shift()!(true);
    expect(writes.at(-1)).toBe('f');
    pacer.schedule(() => writes.push('g'), false);
    pacer.cancel();
    expect(delays.held).toHaveLength(0);
    expect(pacer.holding).toBe(false);
    expect(writes.at(-1)).toBe('f');
  });

  it('measures nothing when the write ran outside an animation frame (a hidden tab) unless told', () => {
    const frames: ((framed?: boolean) => void)[] = [];
    const pacer = new Pacer({ frame: (cb) => void frames.push(cb) });
    pacer.schedule(() => undefined, false);
    frames.shift()!(false);
    expect(pacer.holdMs).toBe(0);
  });
});

describe('page writes paced', () => {
  const tops = new Map<string, number>();
  const original = Element.prototype.getBoundingClientRect;
  beforeEach(() => {
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const top = tops.get(this.id) ?? 5000;
      return { top, bottom: top + 20, left: 0, right: 500, width: 500, height: 20, x: 0, y: top } as DOMRect;
    };
  });
  let page: PageTranslator | undefined;
  afterEach(() => {
    page?.restore();
    Element.prototype.getBoundingClientRect = original;
    tops.clear();
  });

  /**
   * `#n1` in the viewport, `#far` segmented later (idle slices run by the test); render cost 50 ms,
   * and the pacer's clock stands still (on a busy machine, real time between two steps of a test
   * ate the hold: CI saw the held answer written early).
   */
  function setup(far: string, limit: number) {
    document.head.innerHTML = '';
    document.body.innerHTML = `<p id="n1">Near one</p><section id="far">${far}</section>`;
    tops.set('n1', 10);
    const fake = fakeTranslator({ hold: true });
    const frames = manualFrames();
    const delays = manualDelays();
    const idles: ((ms: number) => void)[] = [];
    const pacer = new Pacer({ frame: frames.frame, delay: delays.delay, now: () => 0, measure: (_, done) => done(50) });
    page = new PageTranslator({
      translate: fake.translate,
      frame: frames.frame,
      pacer,
      viewport: false,
      limit,
      near: (el) => el.id !== 'far',
      idle: (cb) => void idles.push(cb),
    });
    return { page, fake, frames, delays, idles };
  }

  it('writes the viewport at the next frame, holds the rest, and writes held answers on scroll, on time, and at the end', async () => {
    const far = (i: number) => `<p id="f${i}">Far paragraph ${i}, long enough that each one fills a call of its own here.</p>`;
    const { page, fake, frames, delays, idles } = setup([0, 1, 2, 3].map(far).join(''), 120);
    const text = (id: string) => document.getElementById(id)!.textContent;
    page.start('en', 'es');
    expect(fake.calls).toHaveLength(1);
    fake.calls[0]!.release();
    await frames.settle();
    expect(text('n1')).toBe('NEAR ONE');
    // The rest of the page: one call per paragraph.
    idles.shift()!(1000);
    expect(fake.calls).toHaveLength(5);
    // A far answer is held: no frame writes it.
    fake.calls[1]!.release();
    await frames.settle();
    expect(text('f0')).toMatch(/^Far paragraph 0/);
    expect(delays.held).toHaveLength(1);
    expect(delays.held[0]!.ms).toBeGreaterThan(400);
    // A scroll may have brought it into view: written at the next frame.
    dispatchEvent(new Event('scroll'));
    await frames.settle();
    expect(text('f0')).toMatch(/^FAR PARAGRAPH 0/);
    expect(delays.held).toHaveLength(0);
    // Two more far answers wait together, and go when the hold is over.
    fake.calls[2]!.release();
    fake.calls[3]!.release();
    await frames.settle();
    expect([text('f1'), text('f2')].map((t) => t!.slice(0, 3))).toEqual(['Far', 'Far']);
    expect(delays.held).toHaveLength(1);
    delays.run();
    await frames.settle();
    expect([text('f1'), text('f2')].map((t) => t!.slice(0, 3))).toEqual(['FAR', 'FAR']);
    // The page's last answer is not held.
    fake.calls[4]!.release();
    await frames.settle();
    expect(text('f3')).toMatch(/^FAR PARAGRAPH 3/);
    expect(delays.held).toHaveLength(0);
    // (Each paragraph is longer than a call: two pieces each, one call per paragraph.)
    expect(page.status()).toMatchObject({ state: 'translated', done: 9, total: 9, errors: 0 });
  });

  it('cancel writes the answers it holds (nothing that arrived is lost) and sends nothing more', async () => {
    const { page, fake, frames, delays, idles } = setup('<p id="f0">Far paragraph zero, with some words.</p><p id="f1">Far paragraph one, with more words.</p>', 90);
    page.start('en', 'es');
    fake.calls[0]!.release();
    await frames.settle();
    idles.shift()!(1000);
    expect(fake.calls).toHaveLength(3);
    fake.calls[1]!.release();
    await frames.settle();
    expect(document.getElementById('f0')!.textContent).toBe('Far paragraph zero, with some words.');
    expect(delays.held).toHaveLength(1);
    expect(page.cancel()).toMatchObject({ state: 'cancelled', done: 2, total: 3 });
    expect(document.getElementById('f0')!.textContent).toBe('FAR PARAGRAPH ZERO, WITH SOME WORDS.');
    expect(delays.held).toHaveLength(0);
    expect(fake.calls[2]!.signal?.aborted).toBe(true);
    expect(fake.calls).toHaveLength(3);
    // Restore still gives the page back.
    page.restore();
    expect(document.getElementById('f0')!.textContent).toBe('Far paragraph zero, with some words.');
  });
});
