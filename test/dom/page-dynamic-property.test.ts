/**
 * A page that changes itself while translated (generated pages, generated changes): what it changes
 * or adds is translated in turn, and restore gives the page as its own changes left it, untranslated:
 * body.innerHTML equal to the same changes made to the page never translated.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator, type TranslateFn } from '../../src/content/page';
import type { Clock } from '../../src/content/lively';
import { QUIET_MS, SETTLE_MS } from '../../src/content/lively';
import { fakeTranslator, manualClock, manualFrames, reverseUpper } from './page-fakes';
import { applyChange, change as change1, markerChange, moveChange, nodesOf, pageBody, pageLangChange, saysChange, type Change } from '../fakes/page-markup';

// A letter alone (chunk.ts `isLoneLetter`) is a label, kept as it is: upper case here, as in page-property.test.ts.
const WORD = fc.constantFrom('alpha', 'beta', 'gamma and delta', 'Big News', 'Read on', 'ox', 'X', ' ', '\n  ', '|');
const words = fc.array(WORD, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
/** A text longer than a call: sent in sentence pieces. */
const long = fc.integer({ min: 40, max: 90 }).map((n) => Array.from({ length: n }, (_, i) => `sentence number ${'x'.repeat(i % 7)} ends here.`).join(' '));
const LEAF = fc.oneof(
  { weight: 12, arbitrary: words },
  // A framework's part (Lit): a comment, and the text after it that the framework writes, or a tag it shows.
  { weight: 2, arbitrary: words.map((w) => `<!--?lit-->${w}`) },
  { weight: 1, arbitrary: words.map((w) => `<!--?lit--><em>${w}</em>`) },
  // Lit's nested template of several nodes (`<!--)-->` says where it ends, and goes: page-markup.ts `nodesOf`).
  { weight: 1, arbitrary: fc.tuple(words, words).map(([a, b]) => `<!--?lit$0$--><b>${a}</b> ${b}<!--)-->`) },
  { weight: 1, arbitrary: fc.tuple(words, words).map(([a, b]) => `<!--?lit$0$-->${a} <em>${b}</em> ox<!--)-->`) },
  // Svelte's empty comment before a block it shows; React's separator between two texts.
  { weight: 1, arbitrary: words.map((w) => `<!----><b>${w}</b>`) },
  { weight: 1, arbitrary: fc.tuple(words, words).map(([a, b]) => `${a}<!-- -->${b}`) },
  // Vue's fragment (a list, a component with two roots) between two empty Text nodes (page-markup.ts `nodesOf`).
  { weight: 1, arbitrary: fc.tuple(words, words).map(([a, b]) => `<!--[-->${a}<b>${b}</b><!--]-->`) },
  { weight: 1, arbitrary: fc.tuple(words, words).map(([a, b]) => `<!--[--><em>${a}</em><!--[-->${b}<!--]--><!--]-->`) },
  { weight: 2, arbitrary: fc.constantFrom('<code>keep me</code>', '<br>', '<img alt="a dog">', '<span class="notranslate">keep</span>', '<span translate="no">keep <b translate="yes">open</b></span>') },
  { weight: 1, arbitrary: long },
);
const INLINE = fc.constantFrom('a href="/x"', 'b', 'em', 'span title="a tip"', 'span role="button"');
const BLOCK = fc.constantFrom('div', 'p', 'section', 'div style="display:flex"');
const body = pageBody({ leaf: LEAF, inline: INLINE, block: BLOCK, depth: 3, maxLength: 4 });
/**
 * The page's changes, an element made an editor, marked translate="no" or labelled French (or
 * taken back), moved elsewhere, or the page's language said again on `<html>`, among them.
 */
const changes = fc.array(
  fc.oneof({ weight: 5, arbitrary: change1 }, { weight: 1, arbitrary: saysChange }, { weight: 1, arbitrary: moveChange }, { weight: 2, arbitrary: markerChange }, { weight: 1, arbitrary: pageLangChange }),
  { minLength: 1, maxLength: 4 },
);

/**
 * Text the page keeps from translation: in code, or where the nearest `translate` (or
 * `.notranslate`) says no; in bilingual mode all of what is inside a no (a yes inside one, in a
 * run, is not copied apart: segment.ts `apartYes`).
 */
function kept(t: Text, mode: 'replace' | 'bilingual'): boolean {
  const el = t.parentElement;
  if (!el || el.closest('code, [contenteditable]:not([contenteditable="false"])')) return true;
  // What the page labels French is left as it is where it is a unit of its own, and goes with its
  // sentence where it is a part of one (as at a first translation): either way, not checked here.
  if (el.closest('[lang]')?.getAttribute('lang') === 'fr') return true;
  if (mode === 'bilingual') return el.closest('.notranslate, [translate="no"]') !== null;
  const nearest = el.closest('.notranslate, [translate]');
  return nearest !== null && (nearest.classList.contains('notranslate') || nearest.getAttribute('translate') === 'no');
}

describe('a page that changes itself while translated', () => {
  let pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages) p.restore();
    pages = [];
  });

  /**
   * A page translator started on the page as it is now (a reversing, upper-casing fake), its frames
   * run by the test, and its clock (places the page keeps changing wait by it).
   */
  /** `idles`: every removal is left to the sweep (`walkRemoved` 0), and idle callbacks wait there until the test runs them. */
  const translating = (translate = fakeTranslator({ transform: reverseUpper }).translate, mode: 'replace' | 'bilingual' = 'replace', clock?: Clock, idles?: (() => void)[]) => {
    document.documentElement.removeAttribute('lang');
    const frames = manualFrames();
    const held = idles ? { walkRemoved: 0, idle: (cb: (budgetMs: number) => void) => void idles.push(() => cb(1000)) } : {};
    const page = new PageTranslator({ translate, frame: frames.frame, viewport: false, ...(clock ? { clock } : {}), ...held });
    pages.push(page);
    page.start('en', 'es', { mode });
    return { page, frames };
  };

  /** Translates `html`, lets each change run on the translated page in turn, and returns what is shown, then restored. */
  const after = async (html: string, ...changes: (() => void)[]) => {
    document.head.innerHTML = '';
    document.body.innerHTML = html;
    const { page, frames } = translating();
    await frames.settle();
    for (const change of changes) {
      change();
      await frames.settle();
    }
    const shown = document.body.innerHTML;
    page.restore();
    pages = [];
    return { shown, restored: document.body.innerHTML };
  };

  // Each found by the property below; each failed before its fix.
  it('a link that loses the block it held joins the text beside it, and all of it is translated', async () => {
    const r = await after('alpha<a href="/x"><div>beta</div>gamma</a>', () => document.querySelector('div')!.remove());
    expect(r.shown).toBe('<a href="/x">GAMMA</a>ALPHA');
    expect(r.restored).toBe('alpha<a href="/x">gamma</a>');
  });

  it('a block added into a link cuts its run in two: the text after the link is translated again too', async () => {
    const r = await after('<a href="/x">alpha</a>beta', () => document.querySelector('a')!.insertAdjacentHTML('beforeend', '<p>a new block</p>'));
    expect(r.shown).toBe('<a href="/x">ALPHA<p>A NEW BLOCK</p></a>BETA');
    expect(r.restored).toBe('<a href="/x">alpha<p>a new block</p></a>beta');
  });

  it('content added beside a translated run joins it, even when the change names no sibling', async () => {
    const r = await after('<div><a href="/x">alpha</a></div>', () => document.querySelector('div')!.insertAdjacentHTML('beforeend', '<b>added words</b>'));
    expect(r.shown).toBe('<div><b>ADDED WORDS</b><a href="/x">ALPHA</a></div>');
    expect(r.restored).toBe('<div><a href="/x">alpha</a><b>added words</b></div>');
  });

  it('a run whose anchor the page removed goes back where it is, not to the end of its parent', async () => {
    const r = await after('<code>keep</code>alpha<div>beta</div>gamma', () => {
      document.querySelector('div')!.remove();
      (document.querySelector('code')!.firstChild as Text).data = 'new code';
    });
    expect(r.restored).toBe('<code>new code</code>alphagamma');
  });

  it("an element's content found again as a label while its own translation stands is not queued twice: restore keeps the element's order", async () => {
    const r = await after(
      '<a href="/x"></a><a href="/x">alpha</a><b><em>Big News</em><code>keep me</code></b>',
      () => document.querySelector('a')!.setAttribute('title', 'a new tip'),
      () => document.querySelector('a')!.insertAdjacentHTML('beforeend', '<b>added words</b>'),
    );
    expect(r.shown).toBe('<a href="/x" title="A NEW TIP"><b>ADDED WORDS</b></a><a href="/x">ALPHA</a><b><code>keep me</code><em>BIG NEWS</em></b>');
    expect(r.restored).toBe('<a href="/x" title="a new tip"><b>added words</b></a><a href="/x">alpha</a><b><em>Big News</em><code>keep me</code></b>');
  });

  it('a text whose words the translation moved away, emptied by the page, is the page\'s change (not our words laid out): restore keeps it empty', async () => {
    const r = await after('<div>  alpha<b>beta</b></div>gamma', () => {
      // The write left the text its spaces only: its words went after the bold one.
      const t = document.querySelector('div')!.firstChild as Text;
      expect(t.data).toBe('  ');
      t.data = '';
    });
    expect(r.restored).toBe('<div><b>beta</b></div>gamma');
  });

  it('what says yes inside a no, in a run the page keeps changing, is translated once and stays translated (found by the hunt at seed 84923)', async () => {
    document.head.innerHTML = '';
    document.body.innerHTML = '<a href="/x"><span translate="no">keep <b translate="yes">open</b></span></a>';
    const fake = fakeTranslator({ transform: reverseUpper });
    const clock = manualClock();
    const { page, frames } = translating(fake.translate, 'replace', clock);
    await frames.settle();
    const link = document.querySelector('a')!;
    const keep = document.querySelector('span')!.firstChild as Text;
    // The run around it changed four times: bold words added, the no's words changed twice, bold
    // words again; the last a moment after "open" was written again on the previous build.
    const steps: [() => void, number][] = [
      [() => link.insertAdjacentHTML('beforeend', '<b>added words</b>'), 50],
      [() => (keep.data = 'new words'), 50],
      [() => (keep.data = 'new words'), 6000],
      [() => link.insertAdjacentHTML('beforeend', '<b>added words</b>'), 50],
    ];
    for (const [change, ms] of steps) {
      change();
      await frames.settle();
      clock.advance(ms);
      await frames.settle();
    }
    clock.advance(SETTLE_MS);
    await frames.settle();
    // The previous build undid it with the run at each change and sent it again; taken then for
    // a place the page puts its words back into, it was left "open" (lively.ts).
    expect(document.querySelector('b[translate]')!.textContent).toBe('OPEN');
    expect(fake.calls.filter((c) => c.markup.includes('open'))).toHaveLength(1);
    page.restore();
    expect(document.body.innerHTML).toBe('<a href="/x"><span translate="no">new words<b translate="yes">open</b></span><b>added words</b><b>added words</b></a>');
  });

  it("a block the page moves from between two runs to before a run's last bold: the runs join, and the bold, cut off, is translated again too (found by the hunt at seed 139001)", async () => {
    // The long link's run ended with a part (Svelte's mark and the bold after it); undone with the
    // runs the block's move joined, its bold, now past the block, was found by nothing and read
    // in the page's language.
    const LONG = Array.from({ length: 40 }, (_, i) => `sentence number ${'x'.repeat(i % 7)} ends here.`).join(' ');
    const r = await after(`alpha<b>alpha</b><a href="/x"><div></div></a><a href="/x">${LONG}</a><!----><b>alpha</b>`, () => {
      [...document.querySelectorAll('b')].at(-1)!.before(document.querySelector('a')!);
    });
    expect(r.shown.replace(/<[^>]*>/g, '')).not.toMatch(/[a-z]/);
    expect(r.shown).toMatch(/<div><\/div><\/a><b>ALPHA<\/b>$/);
    expect(r.restored).toBe(`alpha<b>alpha</b><a href="/x">${LONG}</a><!----><a href="/x"><div></div></a><b>alpha</b>`);
  });

  it('a link whose words the page keeps changing, then given a block, leaves the words after it translated (found by the hunt at seed 132002)', async () => {
    document.head.innerHTML = '';
    document.body.innerHTML = '<a href="/x">alpha</a><a href="/x">beta</a>gamma';
    const second = document.querySelectorAll('a')[1]!;
    const clock = manualClock();
    const { page, frames } = translating(fakeTranslator({ transform: reverseUpper }).translate, 'replace', clock);
    await frames.settle();
    expect(document.body.innerHTML).toBe('GAMMA<a href="/x">BETA</a><a href="/x">ALPHA</a>');
    // The second link's words change three times in a row, then a block goes into it, which cuts
    // the run: the link's words, the block, then "gamma". The fourth change in a row waits until
    // the place is still, all four in the link: a part the page types into, kept as it writes it
    // (lively.ts), its sentence translated around it.
    for (const words of ['new words', 'now other words', 'new words']) {
      (second.firstChild as Text).data = words;
      await frames.settle();
      clock.advance(50);
      await frames.settle();
    }
    second.insertAdjacentHTML('beforeend', '<p>a new block</p>');
    await frames.settle();
    clock.advance(SETTLE_MS);
    await frames.settle();
    clock.advance(QUIET_MS);
    await frames.settle();
    // The previous build left "gamma", no longer in the link's run, to be found around the link:
    // it stayed in the page's words.
    expect(document.body.innerHTML).toBe('<a href="/x">ALPHA</a><a href="/x">NEW WORDS<p>A NEW BLOCK</p></a>GAMMA');
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe('<a href="/x">alpha</a><a href="/x">new words<p>a new block</p></a>gamma');
  });

  it('bilingual: a link the page takes out and keeps, its block put back before the removal is looked at, holds no copy of ours after restore (found by the hunt at seed 85126)', async () => {
    // The block taken out, then the link; the block put back; the link's title changed out of the
    // page; no idle time, so no removal swept. The previous build left the link's copy in it.
    await holds(
      '<a href="/x">alpha<div>alpha</div></a>alpha',
      [
        { kind: 'remove', at: 1 },
        { kind: 'remove', at: 0 },
        { kind: 'putBack', at: 0 },
        { kind: 'attr', at: 0, value: 'a new tip' },
      ],
      'bilingual',
      fakeTranslator({ transform: reverseUpper }).translate,
      [0, 0, 0, 0],
      [false, false, false, false],
    );
  });

  const LONG = Array.from({ length: 40 }, (_, i) => `sentence number ${'x'.repeat(i % 7)} ends here.`).join(' ');

  it('a long text sent in pieces and found again goes back to its own words, not to the first piece translated', async () => {
    const r = await after(`<div>${LONG}<a href="/x">alpha</a></div>beta`, () => document.querySelector('a')!.remove());
    expect(r.shown).toBe(`<div>${LONG.toUpperCase()}</div>BETA`);
    expect(r.restored).toBe(`<div>${LONG}</div>beta`);
  });

  it('a link whose long text became short is one unit with its neighbours; what the page then adds inside is translated', async () => {
    const r = await after(
      `alpha<a href="/x"><em><code>keep</code></em>${LONG}</a>`,
      () => ((document.querySelector('a')!.lastChild as Text).data = 'new words'),
      () => document.querySelector('em')!.insertAdjacentHTML('beforeend', '<b>added words</b>'),
    );
    expect(r.shown.replace(/<[^>]*>/g, '').replace('keep', '')).not.toMatch(/[a-z]/);
    expect(r.restored).toBe('alpha<a href="/x"><em><code>keep</code><b>added words</b></em>new words</a>');
  });

  it('an attribute found from two nodes of a changed run has one job: restore keeps the page\'s last value', async () => {
    document.head.innerHTML = '';
    document.body.innerHTML = 'alpha<code>keep</code>';
    const text = document.body.firstChild as Text;
    const code = document.querySelector('code')!;
    const { page, frames } = translating();
    await frames.settle();
    code.setAttribute('title', 'a new tip');
    await frames.settle();
    // The run changes: found again from both its nodes, with the code's title each time.
    text.data = 'beta';
    await frames.settle();
    expect(code.getAttribute('title')).toBe('A NEW TIP');
    code.setAttribute('title', 'the last tip');
    await frames.settle();
    expect(code.getAttribute('title')).toBe('THE LAST TIP');
    page.restore();
    expect(document.body.innerHTML).toBe('beta<code title="the last tip">keep</code>');
  });

  /**
   * Translates `html`, makes each change in turn (`waits`: the ms after each, 100 by default), then
   * lets `SETTLE_MS` pass: what the page added or changed reads translated, and restore gives the
   * page as its own changes left it, untranslated.
   */
  const holds = async (html: string, list: readonly Change[], mode: 'replace' | 'bilingual', translate: TranslateFn, waits: readonly number[] = [], sweeps?: readonly boolean[]) => {
    document.head.innerHTML = '';
    document.body.innerHTML = html;
    // The same page never translated, changed the same way.
    const reference = document.createElement('div');
    reference.innerHTML = html;
    const refNodes = nodesOf(reference);
    const pageNodes = nodesOf(document.body);
    const clock = manualClock();
    const idles: (() => void)[] | undefined = sweeps ? [] : undefined;
    const runIdles = async () => {
      while (idles?.length) {
        idles.shift()!();
        await frames.settle();
      }
    };
    const { page, frames } = translating(translate, mode, clock, idles);
    await frames.settle();
    await runIdles();
    for (const [i, c] of list.entries()) {
      applyChange(c, pageNodes, refNodes);
      applyChange(c, refNodes);
      await frames.settle();
      clock.advance(waits[i] ?? 100);
      await frames.settle();
      if (sweeps?.[i]) await runIdles();
    }
    // A place changed more than three times in a row waits until still (lively.ts), and a part of
    // a sentence kept as the page writes it is given back once still for QUIET_MS.
    clock.advance(SETTLE_MS);
    await frames.settle();
    await runIdles();
    clock.advance(QUIET_MS);
    await frames.settle();
    await runIdles();
    const label = `${html} ${JSON.stringify(list)} ${JSON.stringify(waits)} => ${document.body.innerHTML}`;
    expect(page.status(), label).toMatchObject({ state: 'translated', errors: 0 });
    // What the page added or changed is translated too (no lowercase word outside exclusions;
    // in bilingual mode, in the copies, the originals' words as the page left them).
    const copies = [...document.querySelectorAll('[data-polyglot-bilingual]')];
    const shown = (mode === 'replace' ? [document.body] : copies).flatMap((root) => nodesOf(root).texts).filter((t) => !kept(t, mode));
    expect(shown.map((t) => t.data).join('|'), label).not.toMatch(/[a-z]/);
    if (mode === 'bilingual') {
      // The originals read as the same page never translated.
      const originals = nodesOf(document.body).texts.filter((t) => !t.parentElement?.closest('[data-polyglot-bilingual]'));
      expect(originals.map((t) => t.data), label).toEqual(nodesOf(reference).texts.map((t) => t.data));
    }
    page.restore();
    pages = [];
    expect(document.body.innerHTML, label).toBe(reference.innerHTML);
    // <html> says what the page last said there (nothing, as `translating` left it, if it said nothing).
    expect(document.documentElement.getAttribute('lang'), label).toBe(refNodes.lang ?? null);
    // What the page removed and keeps reads as its own too (a view it may put back).
    expect(pageNodes.removed.map((e) => e.outerHTML), label).toEqual(refNodes.removed.map((e) => e.outerHTML));
  };

  it("a link's text the page keeps writing after the link took a block, then the link taken out: restore keeps the page's last words (found by the hunt at seed 222023)", async () => {
    // Its changes in a row make the span a part of the sentence kept as the page writes it; the
    // block it took makes its words a unit of their own, whose text the page then writes again.
    const { translate } = fakeTranslator({ transform: reverseUpper });
    const list: Change[] = [
      { kind: 'text', at: 0, text: 'new words' },
      { kind: 'remove', at: 1 },
      { kind: 'append', at: 0, html: '<b>added words</b>' },
      { kind: 'append', at: 0, html: '<p>a new block</p>' },
      { kind: 'text', at: 0, text: 'now other words' },
      { kind: 'remove', at: 0 },
    ];
    await holds('<span>alpha<b>alpha</b><code>keep me</code></span>alpha', list, 'replace', translate, list.map(() => 50));
  });

  it('a link the page changes four times in a row, beside a letter alone, is translated once still (found by the hunt at seed 230025)', async () => {
    // The link becomes a part kept as the page writes it; its sentence, a letter around it, has
    // nothing else to send, so no job holds the part: given back, it was never looked at again.
    const { translate } = fakeTranslator({ transform: reverseUpper });
    const html = '<span role="button">X  <a href="/x"><span title="a tip">alpha</span><span role="button"><!----><b>alpha</b><!--[--><em>alpha</em><!--[-->alpha<!--]--><!--]--><!--[--><em>alpha</em><!--[-->alpha<!--]--><!--]--></span><a href="/x"> </a></a><div>alpha</div></span>';
    const list: Change[] = [
      { kind: 'markedOut', at: 0 },
      { kind: 'append', at: 237599461, html: '<b>added words</b>' },
      { kind: 'remove', at: 14 },
      { kind: 'remove', at: 111322406 },
    ];
    await holds(html, list, 'replace', translate, list.map(() => 0), list.map(() => false));
  });

  it("bilingual: a copy goes before a run's last comment, not right after a framework's mark, so the page's write into the node after it lands (found by the hunt at seed 138001)", async () => {
    // The copy of "alpha" went before the <b> that holds a block, right after Lit's comment: once
    // the page took the <b> out, its write into the node after its comment met our copy, not its text.
    const { translate } = fakeTranslator({ transform: reverseUpper });
    const list: Change[] = [
      { kind: 'append', at: 1, html: '<p>a new block</p>' },
      { kind: 'remove', at: 1 },
      { kind: 'marked', at: 0, text: 'new words' },
    ];
    await holds('<div>alpha<!--?lit$0$--><b>alpha</b> alpha<!--)--></div>', list, 'bilingual', translate, list.map(() => 0), list.map(() => false));
  });

  it('a part of a sentence kept as the page writes it, still while its view is out of the page, reads translated once the view is back (found by the hunt at seed 140002)', async () => {
    // The bold's words changed four times in a row: kept as the page writes them, the sentence
    // translated around them. Its stillness was checked while the view was out, and it stayed kept,
    // in the page's words, after the view came back.
    document.head.innerHTML = '';
    document.body.innerHTML = '<p>one</p><div>alpha<b>alpha</b> alpha</div>';
    const clock = manualClock();
    const { page, frames } = translating(undefined, 'replace', clock);
    await frames.settle();
    const b = document.querySelector('b')!;
    const view = document.querySelector('div')!;
    const step = async (ms: number, change: () => void) => {
      change();
      await frames.settle();
      clock.advance(ms);
      await frames.settle();
    };
    for (const words of ['new0 words', 'new1 words', 'new2 words']) await step(50, () => ((b.firstChild as Text).data = words));
    await step(50, () => b.insertAdjacentHTML('beforeend', '<b>added words</b>'));
    expect(view.innerHTML).toBe('ALPHA<b>new2 words<b>added words</b></b>ALPHA');
    await step(QUIET_MS + SETTLE_MS, () => view.remove());
    await step(50, () => document.body.append(view));
    clock.advance(QUIET_MS);
    await frames.settle();
    expect(view.innerHTML).toBe('ALPHA<b><b>ADDED WORDS</b>NEW2 WORDS</b>ALPHA');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe('<p>one</p><div>alpha<b>new2 words<b>added words</b></b> alpha</div>');
  });

  it.each([
    ['replace', 21],
    ['bilingual', 22],
  ] as const)('%s: translates what it changes and restores to its own changes, untranslated', async (mode, seed) => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    await fc.assert(
      fc.asyncProperty(body, changes, (html, list) => holds(html, list, mode, translate)),
      { numRuns: 300, seed },
    );
  }, 120_000);

  // A small page changed many times, at paces from a key's to a slow feed's: places that keep
  // changing wait, and come back through the same path as any change.
  const small = pageBody({ leaf: LEAF, inline: INLINE, block: BLOCK, depth: 2, maxLength: 2 });
  // Most changes at one node (`at` the same), as a ticker's or a live count's. No text is emptied:
  // a page's write into a node it removed is unseen (no record is made out of the page), and
  // one writing there the value our write left cannot be told from none (the merge empties the
  // texts after a run's first; found by this property, with twelve changes to two nodes). Each
  // text written is the page's new words (its first word numbered): the same words written again
  // right after our writes, four times, are a page putting its own text back, which is left as
  // the page shows it (lively.ts `givenBack`; seed 140002 made one so).
  const paced = fc
    .tuple(fc.nat(), fc.array(fc.tuple(change1, fc.constantFrom(50, 50, 400, 1600, 6000, 12_000), fc.boolean()), { minLength: 4, maxLength: 12 }))
    .map(([at, list]) =>
      list.map(([c, ms, same], i) => {
        const d = c.kind === 'text' ? { ...c, text: (c.text || 'now other words').replace(/\S+/, (w) => `${w}${i}`) } : c;
        return [same && d.kind !== 'remove' ? { ...d, at } : d, ms] as const;
      }),
    );

  // Every removal left to the sweep when the page is idle (as a view of more than 2 000 nodes is):
  // idle or not after each change, at most one sweep per 500 ms of the test's clock. What the page
  // changes in what it removed, before the sweep or after it, and puts back, reads translated;
  // restore keeps its changes.
  it.each([
    ['replace', 25],
    ['bilingual', 26],
  ] as const)('%s, every removal swept: translates what it changes out of the page and restores to its own changes', async (mode, seed) => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    // Each change with the time after it, and whether the page is idle then. Removals and put-backs
    // weigh more than in `changes`: a change between a removal and its sweep is what is looked at.
    const away = fc.oneof(
      { weight: 4, arbitrary: change1 },
      { weight: 1, arbitrary: saysChange },
      { weight: 1, arbitrary: moveChange },
      { weight: 1, arbitrary: markerChange },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('putBack' as const), at: fc.nat() }) },
    );
    const steps = fc.array(fc.tuple(away, fc.constantFrom(0, 100, 600), fc.boolean()), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(body, steps, (html, list) => holds(html, list.map(([c]) => c), mode, translate, list.map(([, ms]) => ms), list.map(([, , idle]) => idle))),
      { numRuns: 200, seed },
    );
  }, 120_000);

  it.each([
    ['replace', 23],
    ['bilingual', 24],
  ] as const)('%s: a page that keeps changing its places: once still, all of it reads translated, and restore is exact', async (mode, seed) => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    await fc.assert(
      fc.asyncProperty(small, paced, (html, list) =>
        holds(
          html,
          list.map(([c]) => c),
          mode,
          translate,
          list.map(([, ms]) => ms),
        ),
      ),
      { numRuns: 200, seed },
    );
  }, 120_000);
});

describe('a translation interrupted', () => {
  let pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages) p.restore();
    pages = [];
  });

  const steps = fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('answer' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('change' as const), change: change1 }),
      fc.constantFrom({ kind: 'cancel' as const }, { kind: 'restore' as const }, { kind: 'retarget' as const }, { kind: 'start' as const }),
    ),
    { minLength: 1, maxLength: 8 },
  );

  /** `html` being translated, every call held until the test releases it (`limit`: the call size). */
  const held = (html: string, limit?: number) => {
    document.head.innerHTML = '';
    document.body.innerHTML = html;
    const fake = fakeTranslator({ transform: reverseUpper, hold: true });
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, ...(limit ? { limit } : {}) });
    pages.push(page);
    page.start('en', 'es');
    return { page, fake, frames };
  };

  // Each found by the property below; each failed before its fix.
  it('after cancel, what the page changes in a translated text is what restore keeps', async () => {
    // One call per paragraph: the second is still out when the page cancels.
    const { page, fake, frames } = held('<p>alpha beta</p><p>gamma</p>', 30);
    await frames.settle();
    fake.calls[0]!.release();
    await frames.settle();
    expect(page.cancel().state).toBe('cancelled');
    (document.querySelector('p')!.firstChild as Text).data = 'the page wrote this';
    await frames.settle();
    page.restore();
    expect(document.body.innerHTML).toBe('<p>the page wrote this</p><p>gamma</p>');
  });

  it('an answer for a run the page added a block after is written where the run is, not after the block', async () => {
    const { page, fake, frames } = held('<div>alpha<a href="/x">beta</a></div>');
    await frames.settle();
    document.querySelector('div')!.insertAdjacentHTML('beforeend', '<p>a new block</p>');
    await frames.settle();
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(document.body.innerHTML).toBe('<div><a href="/x">BETA</a>ALPHA<p>A NEW BLOCK</p></div>');
    page.restore();
    expect(document.body.innerHTML).toBe('<div>alpha<a href="/x">beta</a><p>a new block</p></div>');
  });

  it('answers in any order, changes, cancel, restore and a new target between them: the page ends as its own changes left it', async () => {
    await fc.assert(
      fc.asyncProperty(body, steps, async (html, list) => {
        const reference = document.createElement('div');
        reference.innerHTML = html;
        const refNodes = nodesOf(reference);
        const { page, fake, frames } = held(html);
        const pageNodes = nodesOf(document.body);
        await frames.settle();
        const released = new Set<number>();
        for (const s of list) {
          if (s.kind === 'answer') {
            const open = fake.calls.filter((_, i) => !released.has(i));
            if (!open.length) continue;
            const call = open[s.at % open.length]!;
            released.add(fake.calls.indexOf(call));
            call.release();
          } else if (s.kind === 'change') {
            applyChange(s.change, pageNodes);
            applyChange(s.change, refNodes);
          } else if (s.kind === 'cancel') page.cancel();
          else if (s.kind === 'restore') page.restore();
          else if (s.kind === 'retarget') page.start('en', 'fr');
          else page.start('en', 'es');
          await frames.settle();
        }
        // Every answer still out arrives late; none may write over what the page shows now.
        for (const c of fake.calls) c.release();
        await frames.settle();
        const label = `${html} ${JSON.stringify(list)} => ${document.body.innerHTML}`;
        expect(page.status().errors, label).toBe(0);
        page.restore();
        pages = [];
        expect(document.body.innerHTML, label).toBe(reference.innerHTML);
        expect(pageNodes.removed.map((e) => e.outerHTML), label).toEqual(refNodes.removed.map((e) => e.outerHTML));
      }),
      { numRuns: 300, seed: 51 },
    );
  }, 120_000);
});
