/**
 * Words of ours the page copies (written.ts), on generated pages: once a page is translated, the
 * page clones some of its translated blocks (a sticky header, a "read more" panel, a carousel's
 * copy). Nothing of the clones is sent again but single words (which may be the page's own words
 * too: sent by design), whatever the blocks hold (inline markup, excluded content, attributes,
 * options, texts too long for one call) and whichever translator wrote them (one that keeps the
 * order, one that reverses every element's content); restore leaves the clones as the page made
 * them and gives back the rest exactly.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage } from './page-fakes';
import { pageBody } from '../fakes/page-markup';

// A run is cut into units by the order of what it holds: two elements side by side, a small
// letter's end against a capital's start (runs.ts `glued`), and links with a label first or last
// (`listItems`). A translation that reorders may make or break such a seam: its copy is then cut
// into other units than its original was, and sent (docs/page-translation.md, Not done yet). So
// here small letters only, and no links or buttons.
const WORD = fc.constantFrom('alpha', 'beta', 'gamma and delta', 'big news', 'read on', 'ox', '1', ' ', '\n  ', '|');
const words = fc.array(WORD, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
/** A text longer than a call: sent in sentence pieces. */
const long = fc.integer({ min: 30, max: 80 }).map((n) => Array.from({ length: n }, (_, i) => `sentence number ${'x'.repeat(i % 7)} ends here.`).join(' '));
const LEAF = fc.oneof(
  { weight: 10, arbitrary: words },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '<code>keep me</code>',
      '<span class="notranslate">keep me</span>',
      '<span translate="no">keep <b translate="yes">open me</b></span>',
      '<br>',
      '<img alt="a dog">',
      '<select><option value="v">one option</option><option>two</option></select>',
    ),
  },
  { weight: 1, arbitrary: long },
);
const INLINE = fc.constantFrom('b', 'em', 'span title="a tip"', 'abbr title="more"');
const BLOCK_TAGS = ['div', 'p', 'section', 'li', 'h2', 'td'];
const BLOCK = fc.constantFrom(...BLOCK_TAGS, 'div style="display:flex"');
const body = pageBody({ leaf: LEAF, inline: INLINE, block: BLOCK, depth: 3, maxLength: 4 });

/**
 * A translation that keeps each letter's case (rot13). `flip`: each element's content reversed
 * too (a translator that reorders).
 */
const rot13 = (flip: boolean) => (p: Element) => {
  const walk = (n: Node) => {
    if (n.nodeType === 3) (n as Text).data = (n as Text).data.replace(/[a-z]/gi, (c) => String.fromCharCode((c <= 'Z' ? 65 : 97) + ((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26)));
    n.childNodes.forEach(walk);
    if (flip && n.nodeType === 1) (n as Element).replaceChildren(...[...n.childNodes].reverse());
  };
  walk(p);
};

/** The texts of the units a call's markup holds (its top-level wrappers), white space as one space. */
const unitTexts = (markup: string): string[] => {
  const t = document.createElement('template');
  t.innerHTML = markup;
  return [...t.content.children].map((w) => (w.textContent ?? '').replace(/\s+/g, ' ').trim());
};

describe('a translated page that clones its blocks', () => {
  let pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages) p.restore();
    pages = [];
  });

  it('sends nothing of the clones but single words; restore leaves the clones as made and the rest exact', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.constantFrom('keeps', 'reverses'), async (html, picks, how) => {
        document.documentElement.removeAttribute('lang');
        const fake = fakeTranslator({ transform: rot13(how === 'reverses') });
        // In a block of its own: the clones go beside it, not beside a run of the page's (a run a
        // block is put beside is left as it is only where the write kept its order: edge-blocks.ts).
        const { page, frames } = startPage(`<main>${html}</main>`, fake.translate, pages);
        const original = document.body.innerHTML;
        await frames.settle();
        expect(page.status(), html).toMatchObject({ state: 'translated', errors: 0 });
        const blocks = [...document.body.querySelectorAll(BLOCK_TAGS.join(','))];
        if (blocks.length === 0) return;
        const before = fake.calls.length;
        // The page's copies, as it makes them (before anything of ours can touch them).
        const copies = document.createElement('div');
        for (const k of picks) copies.append(blocks[k % blocks.length]!.cloneNode(true));
        const made = copies.outerHTML;
        document.body.append(copies);
        await frames.settle();
        expect(page.status(), html).toMatchObject({ state: 'translated', errors: 0 });
        const sent = fake.calls.slice(before).flatMap((c) => unitTexts(c.markup));
        expect(
          sent.filter((t) => t.split(' ').length > 1),
          html,
        ).toEqual([]);
        page.restore();
        pages = [];
        expect(document.body.innerHTML, html).toBe(original + made);
      }),
      { numRuns: 200, seed: 67 },
    );
  }, 240_000);
});
