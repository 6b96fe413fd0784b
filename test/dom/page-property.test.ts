/**
 * Whole pages, generated: blocks, inline markup, excluded content, translatable attributes, forms,
 * comments and whitespace, mixed at random. Translated through the page translator (a fake that
 * upper-cases and reorders, and the real engine with its placeholders and rebuild), every word
 * outside excluded content is shown translated, excluded content is untouched, and restore gives
 * back body.innerHTML exactly with the same nodes.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { engineTranslator, fakeTranslator, manualFrames, reverseUpper } from './page-fakes';
import { pageBody } from '../fakes/page-markup';

// A letter alone (chunk.ts `isLoneLetter`) and a list item's label (edges.ts `listLabel`) are
// kept as they are: upper case here, so that "nothing lowercase remains" still holds of what is
// translated.
const WORD = fc.constantFrom('alpha', 'beta', 'gamma and delta', 'Big News', 'Read on', 'ox', 'été', 'X', 'É', '&amp;', '&lt;bold&gt;', '1', ' ', ' ', '\n  ', '|', '·', '(B)', 'IV.', 'C)');
const words = fc.array(WORD, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
/** Content never translated: its lowercase stays lowercase. */
const EXCLUDED = fc.constantFrom(
  '<code>keep me</code>',
  '<pre>keep\n  me</pre>',
  '<span class="notranslate">keep me</span>',
  '<span translate="no">keep <b>me</b></span>',
  // What says yes inside a no is translated (the nearest decides); its markup alone may change.
  '<span class="notranslate">keep <b translate="yes">open me</b></span>',
  '<div contenteditable="true">keep me</div>',
  '<textarea>keep me</textarea>',
  '<script>var keep = 1;</script>',
  '<kbd>keep</kbd>',
);
const LEAF = fc.oneof(
  { weight: 6, arbitrary: words },
  { weight: 2, arbitrary: EXCLUDED },
  {
    weight: 1,
    arbitrary: fc.constantFrom('<br>', '<img src="a.png" alt="a dog">', '<input placeholder="search here">', '<!-- a comment -->', '<select><option value="v">one option</option><option>two</option></select>'),
  },
);
const INLINE = fc.constantFrom('a href="/x"', 'b', 'em', 'span class="k"', 'abbr title="a tip"', 'sub', 'span title="more"', 'button type="button"', 'span role="button"');
const BLOCK = fc.constantFrom('div', 'p', 'section', 'li', 'h2', 'blockquote', 'td', 'div style="display:flex"', 'section style="display:grid"');

const body = pageBody({ leaf: LEAF, inline: INLINE, block: BLOCK, depth: 4, maxLength: 5 });

const EXCLUDED_SELECTOR = 'code, pre, kbd, textarea, script, .notranslate, [translate="no"], [contenteditable="true"]';

/** Text outside excluded content, where nothing lowercase may remain once translated. */
function textNodes(root: Node): Text[] {
  const out: Text[] = [];
  for (let c = root.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) out.push(c as Text);
    else out.push(...textNodes(c));
  }
  return out;
}

function translatableText(root: Element | ShadowRoot, mode: 'replace' | 'bilingual' = 'replace'): string {
  let out = '';
  const walk = (n: Node, no: boolean) => {
    if (n.nodeType === 3 && !no) out += (n as Text).data;
    if (n.nodeType === 1) {
      const el = n as Element;
      // The nearest translate decides, but not in bilingual mode inside a run (segment.ts `apartYes`).
      if (el.matches('[translate="yes"]') && mode === 'replace') no = false;
      else if (el.matches(`${EXCLUDED_SELECTOR}, select`)) no = true;
    }
    if (n.nodeType === 1 || n === root) for (let c = n.firstChild; c; c = c.nextSibling) walk(c, no);
  };
  walk(root, false);
  return out;
}

/** Each excluded element and its markup (a translator may move it, never change what it holds, but for what says yes in it). */
function excludedHtml(root: Element): Map<Element, string> {
  return new Map([...root.querySelectorAll(EXCLUDED_SELECTOR)].filter((e) => !e.querySelector('[translate="yes"]')).map((e) => [e, e.outerHTML]));
}

describe('whole generated pages', () => {
  let pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages) p.restore();
    pages = [];
  });

  const check = async (html: string, translate: ConstructorParameters<typeof PageTranslator>[0]['translate'], mode: 'replace' | 'bilingual' = 'replace') => {
    document.documentElement.removeAttribute('lang');
    document.head.innerHTML = '<title>a title</title>';
    document.body.innerHTML = html;
    const original = document.body.innerHTML;
    const elements = [...document.body.querySelectorAll('*')];
    const kept = excludedHtml(document.body);
    const texts = textNodes(document.body).map((t) => [t, t.data] as const);
    const frames = manualFrames();
    const page = new PageTranslator({ translate, frame: frames.frame, viewport: false });
    pages.push(page);
    page.start('en', 'es', { mode });
    // The engine's scheduler may hold a request for its provider's rate: wait for it in real time.
    for (let i = 0; i < 500 && page.status().state === 'translating'; i++) {
      await frames.settle();
      if (page.status().state === 'translating') await new Promise((r) => setTimeout(r, 10));
    }
    expect(page.status(), html).toMatchObject({ state: 'translated', errors: 0 });
    if (mode === 'bilingual') {
      // The originals' text as it was (options have no room under them: in place), every copy translated.
      for (const [t, data] of texts) if (!t.parentElement?.closest('option')) expect(t.data, html).toBe(data);
      for (const copy of document.querySelectorAll('[data-polyglot-bilingual]')) {
        expect(translatableText(copy, 'bilingual'), html).not.toMatch(/[a-zé]/);
        // Text to read: no second form control, nothing that loads twice.
        expect(copy.querySelector('input, select, textarea, button, iframe, video'), html).toBeNull();
      }
      // Every word has its translation somewhere: no lowercase word lacks an uppercase twin.
      const shown = document.body.textContent!;
      for (const [t, data] of texts) {
        if (t.parentElement?.closest(`${EXCLUDED_SELECTOR}, select`)) continue;
        for (const w of data.match(/[a-zé]+/g) ?? []) expect(shown, html).toContain(w.toUpperCase());
      }
    } else {
      for (const [t] of texts) expect(document.body.contains(t) || t.data === '', html).toBe(true);
    }
    // Every word outside excluded content is shown translated; excluded content is as it was.
    if (mode === 'replace') expect(translatableText(document.body), html).not.toMatch(/[a-zé]/);
    for (const [el, markup] of kept) expect(el.outerHTML, html).toBe(markup);
    for (const el of elements) expect(document.body.contains(el), html).toBe(true);
    for (const img of document.querySelectorAll('img[alt]')) expect(img.getAttribute('alt'), html).toBe(img.closest('[data-polyglot-bilingual]') ? '' : 'A DOG');
    for (const opt of document.querySelectorAll('option')) expect(opt.textContent, html).not.toMatch(/[a-z]/);
    expect(document.querySelector('option[value="v"]')?.getAttribute('value') ?? 'v').toBe('v');
    page.restore();
    pages = [];
    expect(document.body.innerHTML, html).toBe(original);
    expect([...document.body.querySelectorAll('*')]).toEqual(elements);
    for (const [t, data] of texts) expect(t.data).toBe(data);
  };

  it('a translator that reorders: all shown translated, exclusions untouched, restored exactly', async () => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    await fc.assert(
      fc.asyncProperty(body, (html) => check(html, translate)),
      { numRuns: 150, seed: 11 },
    );
  }, 120_000);

  it('bilingual: the originals untouched, every copy translated, restored exactly', async () => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    await fc.assert(
      fc.asyncProperty(body, (html) => check(html, translate, 'bilingual')),
      { numRuns: 150, seed: 13 },
    );
  }, 120_000);

  it('open shadow roots: their content translated too, the page and each root restored exactly', async () => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    await fc.assert(
      fc.asyncProperty(body, body, body, async (outer, first, second) => {
        document.head.innerHTML = '';
        // One host at the end of the page, one inside a block, each with content of its own.
        document.body.innerHTML = `${outer}<x-card></x-card><div>lead <x-card></x-card></div>`;
        const roots = [...document.querySelectorAll('x-card')].map((host, i) => {
          const root = host.attachShadow({ mode: 'open' });
          root.innerHTML = i === 0 ? first : second;
          return root;
        });
        const before = [document.body.innerHTML, ...roots.map((r) => r.innerHTML)];
        const frames = manualFrames();
        const page = new PageTranslator({ translate, frame: frames.frame, viewport: false });
        pages.push(page);
        page.start('en', 'es');
        await frames.settle();
        const label = before.join(' || ');
        expect(page.status(), label).toMatchObject({ state: 'translated', errors: 0 });
        for (const root of [document.body, ...roots]) expect(translatableText(root), label).not.toMatch(/[a-zé]/);
        page.restore();
        pages = [];
        expect([document.body.innerHTML, ...roots.map((r) => r.innerHTML)], label).toEqual(before);
      }),
      { numRuns: 100, seed: 17 },
    );
  }, 120_000);

  // A provider that drops tags (every inline tag of a unit, or every other one): the words of an
  // element it left out are in the sentence, and the element, kept, shows none (left-out.ts
  // `emptyLeftOut`); before stop 53 it kept them, in the page's language.
  it('a translator that drops tags, in either mode: all shown translated, every element kept, exclusions untouched, restored exactly', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(0, 1, 2), fc.constantFrom('replace' as const, 'bilingual' as const), (html, which, mode) => {
        const transform = (w: Element) => {
          reverseUpper(w);
          for (const el of [...w.querySelectorAll('[i]')]) if (which === 0 || Number(el.getAttribute('i')) % 2 === which - 1) el.replaceWith(...el.childNodes);
        };
        return check(html, fakeTranslator({ transform }).translate, mode);
      }),
      { numRuns: 200, seed: 19 },
    );
  }, 120_000);

  it('through the real engine (chunks, placeholders, safe rebuild): the same', async () => {
    await fc.assert(
      // A service of its own per page: no rate budget or translation memory carried over.
      fc.asyncProperty(body, (html) => check(html, engineTranslator().translate)),
      { numRuns: 80, seed: 12 },
    );
  }, 120_000);
});
