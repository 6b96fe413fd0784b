/**
 * Attribute values that repeat across a page (a link's title on every link to the same article)
 * are translated once: the other elements follow the job that sends the value, and are written,
 * failed or restored with it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualFrames } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const LINKS = '<ul>' + [1, 2, 3, 4, 5].map((i) => `<li><a href="/t${i}" title="Indiana Pacers">Team ${i}</a></li>`).join('') + '<li><abbr title="National Basketball Association">NBA</abbr></li></ul>';

function start(fake: ReturnType<typeof fakeTranslator>, html = LINKS) {
  document.head.innerHTML = '';
  document.body.innerHTML = html;
  const frames = manualFrames();
  const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, maxInFlight: 4 });
  pages.push(page);
  page.start('en', 'es');
  return { page, frames };
}
const titles = () => [...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title'));
const sentTitles = (fake: ReturnType<typeof fakeTranslator>) =>
  fake.calls.flatMap((c) => [...c.markup.matchAll(/<p i=\d+>([^<]*(?:Pacers|Association)[^<]*)<\/p>/g)].map((m) => m[1]));

describe('repeated attribute values', () => {
  it('are sent once and written on every element; restore puts each back', async () => {
    const fake = fakeTranslator();
    const { page, frames } = start(fake);
    const before = document.body.innerHTML;
    await frames.settle();
    expect(sentTitles(fake)).toEqual(['Indiana Pacers', 'National Basketball Association']);
    expect(titles()).toEqual([...Array(5).fill('INDIANA PACERS'), 'NATIONAL BASKETBALL ASSOCIATION']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 12, total: 12, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(before);
  });

  it('follow on their own when the page changes the element whose job sends the value', async () => {
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = start(fake);
    await frames.settle();
    expect(sentTitles(fake)).toEqual(['Indiana Pacers', 'National Basketball Association']);
    // The page rewrites the first link's title while its call is in flight.
    document.querySelector('a')!.setAttribute('title', 'Pacers of Indiana');
    await frames.settle();
    for (let i = 0; i < 10 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(titles()).toEqual(['PACERS OF INDIANA', ...Array(4).fill('INDIANA PACERS'), 'NATIONAL BASKETBALL ASSOCIATION']);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(sentTitles(fake).filter((t) => t === 'Indiana Pacers')).toHaveLength(2);
    page.restore();
    expect(titles()).toEqual(['Pacers of Indiana', ...Array(4).fill('Indiana Pacers'), 'National Basketball Association']);
  });

  it('fail with the job that sends them', async () => {
    const fake = fakeTranslator({ reply: (markup) => markup.replace(/<p i=(\d+)>Indiana Pacers<\/p>/, '') });
    const { page, frames } = start(fake);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 5, done: 7, total: 12 });
    expect(titles()).toEqual([...Array(5).fill('Indiana Pacers'), 'National Basketball Association']);
  });
});

describe('attributes of images and form controls', () => {
  it('are translated when found and when the page changes them later; not where the page says translate="no"', async () => {
    document.head.innerHTML = '';
    document.body.innerHTML =
      '<p>See <img src="a.png" alt="A dog"> here</p><img src="b.png" alt="Our logo" translate="no"><img src="c.png" class="notranslate" alt="Brand name">' +
      '<input placeholder="Search here">';
    const fake = fakeTranslator();
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false });
    pages.push(page);
    page.start('en', 'es');
    await frames.settle();
    const [dog, logo, brand] = [...document.querySelectorAll('img')];
    const input = document.querySelector('input')!;
    expect([dog!.alt, logo!.alt, brand!.alt, input.placeholder]).toEqual(['A DOG', 'Our logo', 'Brand name', 'SEARCH HERE']);
    // A page that changes them as it goes (a framework re-rendering a form).
    input.placeholder = 'Type a city';
    dog!.alt = 'A cat';
    logo!.alt = 'Our new logo';
    await frames.settle();
    expect([dog!.alt, logo!.alt, input.placeholder]).toEqual(['A CAT', 'Our new logo', 'TYPE A CITY']);
    page.restore();
    expect([dog!.alt, logo!.alt, brand!.alt, input.placeholder]).toEqual(['A cat', 'Our new logo', 'Brand name', 'Type a city']);
  });
});

describe('what assistive technology reads', () => {
  const A11Y =
    '<section aria-roledescription="slide" aria-label="Summer sale"><p>Shoes for everyone.</p>' +
    '<button aria-description="Adds the shoes to your basket">Buy</button>' +
    '<div role="textbox" contenteditable="false" aria-placeholder="Write a review">&nbsp;</div>' +
    '<div role="slider" aria-valuenow="3" aria-valuetext="Three stars" tabindex="0">***</div>' +
    '<div role="slider" aria-valuenow="50" aria-valuetext="50%" tabindex="0">|</div>' +
    '<div aria-braillelabel="shs">Shoes</div></section>' +
    '<table><tr><th abbr="Pop.">Population</th><td abbr="Ignored">12</td></tr></table>';
  const read = () => ({
    role: document.querySelector('section')!.getAttribute('aria-roledescription'),
    description: document.querySelector('button')!.getAttribute('aria-description'),
    placeholder: document.querySelector('[aria-placeholder]')!.getAttribute('aria-placeholder'),
    values: [...document.querySelectorAll('[aria-valuetext]')].map((e) => e.getAttribute('aria-valuetext')),
    braille: document.querySelector('[aria-braillelabel]')!.getAttribute('aria-braillelabel'),
    abbrs: [...document.querySelectorAll('[abbr]')].map((e) => e.getAttribute('abbr')),
  });

  it('descriptions, role names, placeholders, values in words and header abbreviations are translated; braille labels and values without words are not', async () => {
    const fake = fakeTranslator();
    const { page, frames } = start(fake, A11Y);
    const before = document.body.innerHTML;
    await frames.settle();
    expect(read()).toEqual({
      role: 'SLIDE',
      description: 'ADDS THE SHOES TO YOUR BASKET',
      placeholder: 'WRITE A REVIEW',
      values: ['THREE STARS', '50%'],
      braille: 'shs',
      abbrs: ['POP.', 'Ignored'],
    });
    expect(fake.calls.some((c) => /shs|50%|Ignored/.test(c.markup))).toBe(false);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(before);
  });

  it("a slider's value in words that the page changes is translated again, and restore gives back the page's last one", async () => {
    const fake = fakeTranslator();
    const { page, frames } = start(fake, A11Y);
    await frames.settle();
    const slider = document.querySelector('[aria-valuetext]')!;
    slider.setAttribute('aria-valuetext', 'Four stars');
    await frames.settle();
    expect(slider.getAttribute('aria-valuetext')).toBe('FOUR STARS');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(slider.getAttribute('aria-valuetext')).toBe('Four stars');
  });
});

describe('values that are not prose', () => {
  it("a formula's image keeps its TeX source as alt, unsent, while the sentence around it and a picture's alt are translated", async () => {
    const fake = fakeTranslator();
    const { page, frames } = start(
      fake,
      '<p>A matrix <img class="mwe-math-fallback-image-inline" aria-hidden="true" alt="{\\displaystyle A=A^{\\mathsf {H}}}"> is Hermitian.</p>' +
        '<p><img alt="A square matrix drawn on a board"></p>',
    );
    const before = document.body.innerHTML;
    await frames.settle();
    const alts = () => [...document.querySelectorAll('img')].map((e) => e.getAttribute('alt'));
    expect(alts()).toEqual(['{\\displaystyle A=A^{\\mathsf {H}}}', 'A SQUARE MATRIX DRAWN ON A BOARD']);
    expect(document.querySelector('p')!.textContent).toBe('A MATRIX  IS HERMITIAN.');
    expect(fake.calls.some((c) => c.markup.includes('displaystyle'))).toBe(false);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(before);
  });
});
