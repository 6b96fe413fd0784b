/**
 * Deep pages: block nesting deeper than a JavaScript stack holds. Segmentation must neither
 * overflow (an exception left discovery unfinished and the page "translating" for ever: seen in CI
 * on the 10,000-level e2e page) nor lose the innermost text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { Segmenter } from '../../src/content/segment';
import { fakeTranslator, manualFrames } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

/** Built one level at a time under a connected element (happy-dom connects a whole subtree recursively). */
function nest(root: Element, depth: number, text: string): Element {
  let el = root;
  for (let i = 0; i < depth; i++) el = el.appendChild(document.createElement(i % 3 ? 'div' : 'section'));
  el.appendChild(document.createTextNode(text));
  return el;
}

/** Taken down leaf first: happy-dom disconnects a removed subtree recursively too. */
function unnest(root: Element): void {
  let el: Element = root;
  while (el.lastElementChild) el = el.lastElementChild;
  while (el !== root) {
    const parent = el.parentElement!;
    el.remove();
    el = parent;
  }
}

describe('deep pages', () => {
  it('an 8,000-level block tree is segmented without overflowing the stack, its text found', () => {
    // Segmented from the subtree: happy-dom's own querySelector overflows near 4,000 levels.
    document.body.innerHTML = '<div id="deep"><p>Top</p></div>';
    const deep = document.getElementById('deep')!;
    nest(deep, 8000, 'Bottom of the tree');
    const units = new Segmenter({ src: 'en', display: () => 'block' }).subtree(deep, false);
    unnest(deep);
    expect(units.map((u) => (u.kind === 'range' ? u.nodes.map((n) => n.textContent).join('') : ''))).toEqual(['Top', 'Bottom of the tree']);
  });

  it('a page 1,500 levels deep is translated to the end: what nesting leaves for later, first screen and idle slices alike', async () => {
    document.head.innerHTML = '';
    document.body.innerHTML = '<p>Top</p><div id="shown"></div><div id="hidden" style="display:none"></div>';
    const shown = nest(document.getElementById('shown')!, 1500, 'Bottom shown');
    const hidden = nest(document.getElementById('hidden')!, 1500, 'Bottom hidden');
    const fake = fakeTranslator();
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, idle: (cb) => setTimeout(() => cb(8), 0) });
    pages.push(page);
    page.start('en', 'es');
    for (let i = 0; i < 50 && page.status().state === 'translating'; i++) await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0, done: 3, total: 3 });
    expect([shown.textContent, hidden.textContent]).toEqual(['BOTTOM SHOWN', 'BOTTOM HIDDEN']);
  });
});
