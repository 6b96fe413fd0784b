/**
 * Copies of a text the page's style draws again (`content: attr(data-text)`): a glitch heading's
 * layers, a menu link's double shown on hover. They say the translation once the text is
 * translated, and the original after restore; a script's data no style draws (a custom select's
 * value) stays as the page wrote it. In Chromium with real layout and styles: e2e
 * page-apertium.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PageTranslator } from '../../src/content/page';
import { soon } from '../../src/content/observe';
import { fakeTranslator, startPage } from './page-fakes';

describe("copies of a text the page's style draws", () => {
  const pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages.splice(0)) p.restore();
  });

  it('a glitch heading and a menu link with a hover double say the translation; a value no style draws stays; restore exact', async () => {
    const body =
      // The page's style: the heading's two layers, and a menu link's double on hover.
      '<style>.glitch::before, .glitch::after { content: attr(data-text); } nav a:hover::after { content: attr(data-hover); }</style>' +
      '<h1 class="glitch" data-text="Welcome  home">Welcome <b>home</b></h1>' +
      '<nav><a href="/about" data-hover="About us">About us</a> <a href="/shop" data-hover="Shop">Shop</a></nav>' +
      '<ul class="select"><li data-value="Dark red" data-id="7">Dark red</li></ul>' +
      // Its own text, not the element's: no copy.
      '<p data-text="Welcome">Welcome to the shop</p>' +
      // The names the style draws, on elements it does not draw them on (not a glitch heading, not a menu's link): the page's.
      '<p class="note" data-text="Open every day">Open every day</p><footer><a href="/c" data-hover="Contact">Contact</a></footer>';
    const { translate } = fakeTranslator();
    const started = startPage(body, translate, pages);
    await started.frames.settle();
    const h1 = document.querySelector('h1')!;
    expect(h1.textContent).toBe('WELCOME HOME');
    expect(h1.getAttribute('data-text')).toBe('WELCOME HOME');
    expect([...document.querySelectorAll('nav a')].map((a) => [a.textContent, a.getAttribute('data-hover')])).toEqual([
      ['ABOUT US', 'ABOUT US'],
      ['SHOP', 'SHOP'],
    ]);
    // The page may send it (a custom select's value): no style draws it.
    const li = document.querySelector('li')!;
    expect([li.textContent, li.getAttribute('data-value')]).toEqual(['DARK RED', 'Dark red']);
    expect(document.querySelector('p')!.getAttribute('data-text')).toBe('Welcome');
    expect([document.querySelector('.note')!.textContent, document.querySelector('.note')!.getAttribute('data-text')]).toEqual(['OPEN EVERY DAY', 'Open every day']);
    expect([document.querySelector('footer a')!.textContent, document.querySelector('footer a')!.getAttribute('data-hover')]).toEqual(['CONTACT', 'Contact']);
    started.page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it("reads what the page's sheets draw while the first call is on its way, not in the frame that writes its answer", async () => {
    const body =
      '<style>.glitch::before, .glitch::after { content: attr(data-text); }</style>' + '<h1 class="glitch" data-text="Welcome home">Welcome home</h1>';
    const fake = fakeTranslator({ hold: true });
    const started = startPage(body, fake.translate, pages);
    // Each read of the sheet's rules, from here on.
    const sheet = document.styleSheets[0]!;
    const rules = sheet.cssRules;
    let reads = 0;
    Object.defineProperty(sheet, 'cssRules', { configurable: true, get: () => (reads++, rules) });
    expect(fake.calls).toHaveLength(1);
    expect(reads).toBe(0);
    // A task after the trigger's (which sent the call).
    await new Promise<void>((r) => soon(r));
    // The call is still on its way: the rules were read meanwhile.
    expect(reads).toBeGreaterThan(0);
    const before = reads;
    fake.calls[0]!.release();
    await started.frames.settle();
    const h1 = document.querySelector('h1')!;
    expect([h1.textContent, h1.getAttribute('data-text')]).toEqual(['WELCOME HOME', 'WELCOME HOME']);
    // The write found them read.
    expect(reads).toBe(before);
    started.page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a sheet the page adds later, with a heading that draws its copy, is read: the copy says the translation', async () => {
    const body = '<style>p { color: black; }</style><p>Open every day</p>';
    const { translate } = fakeTranslator();
    const started = startPage(body, translate, pages);
    await started.frames.settle();
    expect(document.querySelector('p')!.textContent).toBe('OPEN EVERY DAY');
    // An app's next view: its sheet and its glitch heading.
    const style = document.createElement('style');
    style.textContent = '.glitch::before { content: attr(data-text); }';
    document.head.append(style);
    document.body.insertAdjacentHTML('beforeend', '<h1 class="glitch" data-text="Welcome home">Welcome home</h1>');
    await started.frames.settle();
    const h1 = document.querySelector('h1')!;
    expect([h1.textContent, h1.getAttribute('data-text')]).toEqual(['WELCOME HOME', 'WELCOME HOME']);
    started.page.restore();
    expect(h1.getAttribute('data-text')).toBe('Welcome home');
  });

  it("Splitting.js's words, where the page's style draws their data-word: each says the word it shows", async () => {
    const body =
      '<style>.word::after { content: attr(data-word); }</style>' +
      '<h1 class="words splitting"><span class="word" data-word="Welcome">Welcome</span><span class="whitespace"> </span><span class="word" data-word="home">home</span></h1>';
    const { translate } = fakeTranslator();
    const started = startPage(body, translate, pages);
    await started.frames.settle();
    expect([...document.querySelectorAll('.word')].map((w) => [w.textContent, w.getAttribute('data-word')])).toEqual([
      ['WELCOME', 'WELCOME'],
      ['HOME', 'HOME'],
    ]);
    started.page.restore();
    expect(document.body.innerHTML).toBe(body);
  });
});
