/**
 * A page asked again as it is goes on: translated with failures, only what failed is sent again;
 * stopped (by the user, or after calls failed in a row), what was queued or in flight is sent and
 * the rest of the page found. What was written stays and is never asked for again; restore is exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COPY_ATTR } from '../../src/content/bilingual';
import { STOP_AFTER_FAILED_CALLS } from '../../src/content/calls';
import { LOST_CALL_TRIES } from '../../src/content/retries';
import { PortClosedError } from '../../src/shared/messages';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualFrames, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

/** Paragraphs each long enough to fill a call of its own. */
const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `<p>Paragraph number ${i} says: ${'word '.repeat(150)}</p>`).join('');
/** The paragraph numbers a call carried. */
const numbers = (markup: string) => [...markup.matchAll(/Paragraph number (\d+)/g)].map((m) => Number(m[1]));
const upperText = (markup: string) => markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);
const translated = () => [...document.querySelectorAll('p')].map((p) => p.textContent!.startsWith('PARAGRAPH'));

const start = (body: string, fake: ReturnType<typeof fakeTranslator>, maxInFlight = 4) => startPage(body, fake.translate, pages, { maxInFlight });

/** A provider failing the calls `failsOn` says yes to while `state.down`, else upper-casing. */
function flaky(failsOn: (markup: string) => boolean) {
  const state = { down: true };
  const fake = fakeTranslator({
    reply: (markup) => {
      if (state.down && failsOn(markup)) throw new Error('503 provider unavailable');
      return upperText(markup);
    },
  });
  return { fake, state };
}

describe('a page asked again as it is', () => {
  it('translated with failures: only what failed is sent again, and written', async () => {
    const { fake, state } = flaky((markup) => numbers(markup).includes(2));
    const body = paragraphs(5);
    const { page, frames } = start(body, fake);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 4, total: 5, errors: 1, error: '503 provider unavailable' });
    expect(translated()).toEqual([true, true, false, true, true]);

    state.down = false;
    const sent = fake.calls.length;
    expect(page.start('en', 'es').state).toBe('translating');
    await frames.settle();
    expect(fake.calls.slice(sent).map((c) => numbers(c.markup))).toEqual([[2]]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 5, total: 5, errors: 0 });
    expect(page.status().error).toBeUndefined();
    expect(translated()).toEqual([true, true, true, true, true]);

    // Nothing failed: asked again, nothing is sent.
    expect(page.start('en', 'es').state).toBe('translated');
    await frames.settle();
    expect(fake.calls).toHaveLength(sent + 1);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a title that failed on several elements is sent again once and written on each', async () => {
    const { fake, state } = flaky((markup) => markup.includes('Read the whole story'));
    const body = `<p>News</p><ul>${[1, 2, 3].map((i) => `<li><a href="/s${i}" title="Read the whole story">Story ${i}</a></li>`).join('')}</ul>`;
    const { page, frames } = start(body, fake);
    await frames.settle();
    // The call held the whole page: its four texts and the three titles (two following the first).
    expect(page.status()).toMatchObject({ state: 'translated', done: 0, total: 7, errors: 7 });
    state.down = false;
    const sent = fake.calls.length;
    page.start('en', 'es');
    await frames.settle();
    const again = fake.calls.slice(sent).map((c) => c.markup);
    expect(again).toHaveLength(1);
    expect(again[0]!.split('Read the whole story')).toHaveLength(2);
    expect([...document.querySelectorAll('a')].map((a) => a.title)).toEqual(Array(3).fill('READ THE WHOLE STORY'));
    expect(page.status()).toMatchObject({ state: 'translated', done: 7, total: 7, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('stopped by the user: what was queued or in flight is sent, not what was answered, then the page is done', async () => {
    const fake = fakeTranslator({ hold: true, reply: upperText });
    const body = paragraphs(12);
    const { page, frames } = start(body, fake, 2);
    await frames.settle();
    expect(fake.calls.map((c) => numbers(c.markup))).toEqual([[0], [1]]);
    fake.calls[0]!.release();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translating', done: 1 });
    page.cancel();
    expect(fake.calls[2]!.signal?.aborted).toBe(true);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'cancelled', done: 1, total: 12, errors: 0 });

    const sent = fake.calls.length;
    expect(page.start('en', 'es').state).toBe('translating');
    for (let i = 0; i < 20 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(page.status()).toMatchObject({ state: 'translated', done: 12, total: 12, errors: 0 });
    expect(translated()).toEqual(Array(12).fill(true));
    // Every paragraph but the one answered before the stop is asked once more; that one never.
    const again = fake.calls.slice(sent).flatMap((c) => numbers(c.markup)).sort((a, b) => a - b);
    expect(again).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('stopped, then resumed: a text too long for one call, written in pieces, is not sent again nor translated over itself', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} of the long link ends here.`).join(' ');
    const fake = fakeTranslator({ hold: true, reply: upperText });
    const body = `<p><a href="/x">${long}</a></p>${paragraphs(4)}`;
    const { page, frames } = start(body, fake, 2);
    await frames.settle();
    // The link's text in pieces, each a call; both answered, then the user stops the page.
    expect(fake.calls.map((c) => c.markup.includes('Sentence number'))).toEqual([true, true]);
    for (const c of fake.calls) c.release();
    await frames.settle();
    page.cancel();
    await frames.settle();
    const link = document.querySelector('a')!;
    expect(link.textContent).toBe(long.toUpperCase());
    const sent = fake.calls.length;
    page.start('en', 'es');
    for (let i = 0; i < 20 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(fake.calls.slice(sent).some((c) => c.markup.includes('SENTENCE NUMBER') || c.markup.includes('Sentence number'))).toBe(false);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('stopped during discovery: the rest of the page is found, and what the page added meanwhile', async () => {
    const fake = fakeTranslator({ reply: upperText });
    document.head.innerHTML = '';
    const body = paragraphs(30);
    document.body.innerHTML = body;
    const frames = manualFrames();
    const slices: ((budget: number) => void)[] = [];
    // Only the first screen (three paragraphs) at the trigger; the rest in slices run by hand.
    const page = new PageTranslator({
      translate: fake.translate,
      frame: frames.frame,
      maxInFlight: 4,
      near: (el) => numbers(el.textContent ?? '').some((n) => n < 3),
      idle: (cb) => void slices.push(cb),
    });
    pages.push(page);
    page.start('en', 'es');
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translating', done: 3, total: 3 });
    page.cancel();
    document.body.insertAdjacentHTML('beforeend', '<p>Added while stopped.</p>');
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'cancelled', done: 3 });

    page.start('en', 'es');
    for (let i = 0; i < 50 && page.status().state === 'translating'; i++) {
      for (const cb of slices.splice(0)) cb(1000);
      await frames.settle();
    }
    expect(page.status()).toMatchObject({ state: 'translated', done: 31, total: 31, errors: 0 });
    expect(document.body.lastElementChild!.textContent).toBe('ADDED WHILE STOPPED.');
    expect(fake.calls.flatMap((c) => numbers(c.markup)).filter((n) => n < 3).sort()).toEqual([0, 1, 2]);
    page.restore();
    expect(document.body.innerHTML).toBe(`${body}<p>Added while stopped.</p>`);
  });

  it('stopped after calls failed in a row: once the provider is back, it goes on from there', async () => {
    let down = false;
    let answered = 0;
    const fake = fakeTranslator({
      reply: (markup) => {
        if (answered >= 3) down = true;
        if (down) throw new Error('503 provider unavailable');
        answered++;
        return upperText(markup);
      },
    });
    const body = paragraphs(40);
    const { page, frames } = start(body, fake, 4);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'cancelled', done: 3, errors: STOP_AFTER_FAILED_CALLS, error: '503 provider unavailable' });
    const written = translated();

    down = false;
    answered = -Infinity;
    const sent = fake.calls.length;
    page.start('en', 'es');
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 40, total: 40, errors: 0 });
    const again = fake.calls.slice(sent).flatMap((c) => numbers(c.markup));
    // The three answered before the failures are not asked again; every other paragraph once.
    expect(again.filter((n) => written[n])).toEqual([]);
    expect(again.sort((a, b) => a - b)).toEqual(written.flatMap((w, i) => (w ? [] : [i])));
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('bilingual: a copy that failed is shown under its block once retried', async () => {
    const { fake, state } = flaky((markup) => numbers(markup).includes(1));
    const body = paragraphs(3);
    const { page, frames } = startPage(body, fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    const copies = () => [...document.querySelectorAll(`[${COPY_ATTR}]`)].map((c) => numbers(c.textContent!.replace('PARAGRAPH NUMBER', 'Paragraph number'))[0]);
    expect(copies()).toEqual([0, 2]);
    state.down = false;
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    expect(copies()).toEqual([0, 1, 2]);
    expect(document.querySelectorAll(`p:not([${COPY_ATTR}])`)[1]!.nextElementSibling!.hasAttribute(COPY_ATTR)).toBe(true);
    expect(page.status()).toMatchObject({ state: 'translated', mode: 'bilingual', done: 3, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('in another target or mode, the page is translated afresh', async () => {
    const fake = fakeTranslator({ reply: (markup) => (numbers(markup).includes(1) ? (() => { throw new Error('503'); })() : upperText(markup)) });
    const { page, frames } = start(paragraphs(3), fake);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 1 });
    const sent = fake.calls.length;
    page.start('en', 'fr');
    await frames.settle();
    expect(fake.calls.slice(sent).flatMap((c) => numbers(c.markup)).sort()).toEqual([0, 1, 2]);
    expect(page.status()).toMatchObject({ state: 'translated', trg: 'fr', errors: 1 });
  });
});

describe('calls lost with the worker', () => {
  it('are sent again at once, not counted as failures; a unit lost every time fails after a few tries', async () => {
    // The worker stops while the first two calls run (their port closes); later calls reach a new one.
    let lose = 2;
    const fake = fakeTranslator({
      reply: (markup) => {
        if (lose > 0) {
          lose--;
          throw new PortClosedError();
        }
        return upperText(markup);
      },
    });
    const body = paragraphs(6);
    const { page, frames } = start(body, fake, 2);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 6, total: 6, errors: 0 });
    expect(translated()).toEqual(Array(6).fill(true));
    // Paragraphs 0 and 1 twice (lost, then answered), the others once.
    expect(fake.calls.flatMap((c) => numbers(c.markup)).sort((a, b) => a - b)).toEqual([0, 0, 1, 1, 2, 3, 4, 5]);
    page.restore();
    expect(document.body.innerHTML).toBe(body);

    // A call that never comes back: sent 1 + LOST_CALL_TRIES times, then failed with why.
    const never = fakeTranslator({ reply: (markup) => (numbers(markup).includes(1) ? (() => { throw new PortClosedError(); })() : upperText(markup)) });
    const again = start(paragraphs(3), never, 2);
    await again.frames.settle();
    expect(never.calls.filter((c) => numbers(c.markup).includes(1))).toHaveLength(1 + LOST_CALL_TRIES);
    expect(again.page.status()).toMatchObject({ state: 'translated', done: 2, errors: 1, error: 'the background closed the translate port' });
  });
});

describe('a start that throws', () => {
  it("gives the page back as it was and says why; the tab is not left translating, and a start after it works", async () => {
    document.body.innerHTML = '<p>First words</p><div id="boom" class="x"><p>Second words</p></div>';
    const original = document.body.innerHTML;
    const fake = fakeTranslator();
    const frames = manualFrames();
    let broken = true;
    // What the page holds that we did not foresee: reading an element throws.
    const display = (el: Element) => {
      if (broken && el.id === 'boom') throw new Error('no style for this element');
      return getComputedStyle(el).display;
    };
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, display });
    pages.push(page);
    expect(() => page.start('en', 'es')).toThrow('no style for this element');
    expect(page.status()).toMatchObject({ state: 'original', done: 0 });
    await frames.settle();
    expect(fake.calls).toHaveLength(0);
    // Nothing follows the page: a paragraph it adds stays as it is.
    document.body.insertAdjacentHTML('beforeend', '<p>Added words</p>');
    await frames.settle();
    expect(fake.calls).toHaveLength(0);
    document.body.lastElementChild!.remove();
    expect(document.body.innerHTML).toBe(original);
    broken = false;
    page.start('en', 'es');
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(document.body.textContent).toBe('FIRST WORDSSECOND WORDS');
    page.restore();
    expect(document.body.innerHTML).toBe(original);
  });
});
