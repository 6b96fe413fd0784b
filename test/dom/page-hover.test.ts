/**
 * The hover affordance for alternatives (hover.ts): a mouse resting on a translated paragraph shows
 * a button by it, named for what the chooser offers; the button opens the chooser for what is under
 * the mouse. Not for touch, not on what is not translated; gone when the pointer leaves, on a
 * scroll and on restore.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HOVER_TAG, HoverButton } from '../../src/content/hover';
import { PageTranslator } from '../../src/content/page';
import { captureRoots, fakeTranslator, manualFrames } from './page-fakes';

const ticks = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0));
};
const over = (target: Element, pointerType = 'mouse') => target.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType }));
const hosts = () => document.documentElement.querySelectorAll(HOVER_TAG).length;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function setup(routes: string[] = ['a.ts', 'b.ts']) {
  document.head.innerHTML = '';
  document.body.innerHTML = '<p id="p">Read <a id="a" href="#x">the story</a> now.</p><div id="d"><span id="s">Plain</span></div>';
  const fake = fakeTranslator();
  const frames = manualFrames();
  let asked = 0;
  const page = new PageTranslator({
    translate: fake.translate,
    frame: frames.frame,
    viewport: false,
    routes: async () => {
      asked++;
      return routes;
    },
  });
  const opened: Node[] = [];
  const hover = new HoverButton(page, { open: (n) => (opened.push(n), true) }, document, { dwellMs: 0, graceMs: 0 });
  const stop = new AbortController();
  hover.listen(stop.signal);
  cleanups.push(() => stop.abort(), () => page.restore());
  const el = (id: string) => document.getElementById(id)!;
  return { page, frames, hover, opened, el, asked: () => asked };
}

describe('hover affordance for alternatives', () => {
  it('a resting mouse shows the button by a translated paragraph; it opens the chooser for the node under the mouse', async () => {
    const { page, frames, hover, opened, el, asked } = await setup();
    // Nothing translated yet: nothing shown.
    over(el('p'));
    await ticks();
    expect(hover.shown).toBeNull();
    page.start('en', 'es');
    await frames.settle();
    expect(el('p').textContent).toBe('READ THE STORY NOW.');
    over(el('p'));
    await ticks();
    expect(hover.shown).toBe(el('p'));
    expect(hosts()).toBe(1);
    // Moving onto the paragraph's link keeps it, and the chooser opens for the link.
    over(el('a'));
    await ticks();
    expect(hover.shown).toBe(el('p'));
    expect(hover.activate()).toBe(true);
    expect(opened).toEqual([el('a')]);
    expect(hover.shown).toBeNull();
    expect(hosts()).toBe(0);
    // In replace mode the button needs no routes (the chooser has the original at least).
    over(el('p'));
    await ticks();
    expect(hover.shown).toBe(el('p'));
    expect(asked()).toBe(0);
  });

  it('leaving the paragraph, a scroll and restore hide it', async () => {
    const { page, frames, hover, el } = await setup();
    page.start('en', 'es');
    await frames.settle();
    over(el('p'));
    await ticks();
    expect(hover.shown).toBe(el('p'));
    // To an element that is no translated paragraph (the body between blocks).
    over(document.body);
    await ticks();
    expect(hover.shown).toBeNull();
    over(el('p'));
    await ticks();
    dispatchEvent(new Event('scroll'));
    expect(hover.shown).toBeNull();
    over(el('p'));
    await ticks();
    expect(hover.shown).toBe(el('p'));
    // Restored: the page's content script hides it (index.ts on 'original'); the next hover finds nothing.
    page.restore();
    hover.hide();
    over(el('p'));
    await ticks();
    expect(hover.shown).toBeNull();
    expect(hosts()).toBe(0);
  });

  it('not when the options turn it off', async () => {
    const { page, frames, el } = await setup();
    let on = false;
    const hover = new HoverButton(page, { open: () => true }, document, { dwellMs: 0, graceMs: 0, enabled: async () => on });
    const stop = new AbortController();
    hover.listen(stop.signal);
    cleanups.push(() => stop.abort());
    page.start('en', 'es');
    await frames.settle();
    over(el('p'));
    await ticks();
    expect(hover.shown).toBeNull();
    on = true;
    over(document.body);
    over(el('p'));
    await ticks();
    expect(hover.shown).toBe(el('p'));
  });

  it('with one route: shown in replace mode (the chooser has the original) and in bilingual mode (the chooser hides the translation), named for each, without asking the routes', async () => {
    const { roots, release } = captureRoots();
    cleanups.push(release);
    const named = () => {
      const button = roots.at(-1)!.querySelector('button')!;
      return [button.getAttribute('aria-label'), button.title];
    };
    const one = await setup(['a.ts']);
    one.page.start('en', 'es');
    await one.frames.settle();
    over(one.el('p'));
    await ticks();
    expect(one.hover.shown).toBe(one.el('p'));
    expect(named()).toEqual(['Original and other translations of this paragraph', 'Original and other translations (Alt+click)']);
    one.hover.hide();
    one.page.restore();
    one.page.start('en', 'es', { mode: 'bilingual' });
    await one.frames.settle();
    const copy = one.el('p').nextElementSibling!;
    expect(copy.textContent).toBe('READ THE STORY NOW.');
    over(copy);
    await ticks();
    expect(one.hover.shown).toBe(copy);
    // The original is on the page: the button says what the chooser has.
    expect(named()).toEqual(['Other translations of this paragraph, or hide this one', 'Other translations, or hide (Alt+click)']);
    // Resting asks nothing: the routes are asked when the chooser opens.
    expect(one.asked()).toBe(0);
  });

  it('bilingual with another route: shown by the copy', async () => {
    const { page, frames, hover, el } = await setup();
    page.start('en', 'es', { mode: 'bilingual' });
    await frames.settle();
    const copy = el('p').nextElementSibling!;
    over(copy);
    await ticks();
    expect(hover.shown).toBe(copy);
  });

  it('inside an open shadow root too (retargeting to the host, which happy-dom does not do, is in test/e2e/page-inplace)', async () => {
    const { page, frames, hover, opened, el } = await setup();
    const root = el('d').attachShadow({ mode: 'open' });
    root.innerHTML = '<p id="in">Inside <b id="b">a component</b></p>';
    page.start('en', 'es');
    await frames.settle();
    const inner = root.getElementById('b')!;
    expect(root.getElementById('in')!.textContent).toBe('INSIDE A COMPONENT');
    inner.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true, pointerType: 'mouse' }));
    await ticks();
    expect(hover.shown).toBe(root.getElementById('in'));
    expect(hover.activate()).toBe(true);
    expect(opened).toEqual([inner]);
  });

  it('not for touch or pen', async () => {
    const two = await setup();
    two.page.start('en', 'es');
    await two.frames.settle();
    over(two.el('p'), 'touch');
    over(two.el('p'), 'pen');
    await ticks();
    expect(two.hover.shown).toBeNull();
  });
});
