/**
 * The page's language, where the page says it (`<html lang>` and the elements inside that say it
 * again, as Wikipedia's article body does), becomes the target's with the translation, so a screen
 * reader reads it with the right voice; what is left out keeps its own; restore gives it back.
 * The walk still takes what those elements hold as the page's language: what the page adds there
 * later, and a resume after a stop, are translated.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
  document.documentElement.removeAttribute('lang');
});

const ARTICLE =
  '<h1 lang="en">The garden</h1>' +
  '<div id="body" lang="en" dir="ltr"><p id="a">The cat sleeps.</p>' +
  '<blockquote lang="fr"><p>Le chat dort.</p></blockquote>' +
  '<div translate="no"><span id="brand" lang="en">Garden Tools Inc</span></div>' +
  '<p id="uk" lang="en-GB">The colour of the sky.</p></div>';

const langs = () => ({
  html: document.documentElement.getAttribute('lang'),
  h1: document.querySelector('h1')!.getAttribute('lang'),
  body: document.getElementById('body')!.getAttribute('lang'),
  quote: document.querySelector('blockquote')!.getAttribute('lang'),
  brand: document.getElementById('brand')!.getAttribute('lang'),
  uk: document.getElementById('uk')!.getAttribute('lang'),
});

describe("the page's language", () => {
  it('is the target on <html> and on every element inside that said the page language; another language and what is left out keep theirs; restore gives each back', async () => {
    document.documentElement.setAttribute('lang', 'en');
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(document.getElementById('a')!.textContent).toBe('THE CAT SLEEPS.');
    expect(document.querySelector('blockquote')!.textContent).toBe('Le chat dort.');
    expect(langs()).toEqual({ html: 'es', h1: 'es', body: 'es', quote: 'fr', brand: 'en', uk: 'es' });
    page.restore();
    expect(document.body.innerHTML).toBe(ARTICLE);
    expect(langs()).toEqual({ html: 'en', h1: 'en', body: 'en', quote: 'fr', brand: 'en', uk: 'en-GB' });
  });

  it("said again by the page where we wrote the target's (React Helmet sets <html lang> at each update): nothing is translated again, it says the target's again, and restore gives the page's last value", async () => {
    document.documentElement.setAttribute('lang', 'en');
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    // On <html> and the article's body (the page's relabelling took them), and on the heading
    // (its unit's write labelled it: it was written before the page was relabelled).
    document.documentElement.setAttribute('lang', 'en');
    document.getElementById('body')!.setAttribute('lang', 'en-US');
    document.querySelector('h1')!.setAttribute('lang', 'en');
    await frames.settle();
    expect(fake.calls.length).toBe(calls);
    expect(document.getElementById('a')!.textContent).toBe('THE CAT SLEEPS.');
    expect(document.querySelector('h1')!.textContent).toBe('THE GARDEN');
    expect(langs()).toMatchObject({ html: 'es', h1: 'es', body: 'es' });
    // One that says another language now: what it holds is that language's, its original back.
    document.querySelector('h1')!.setAttribute('lang', 'de');
    await frames.settle();
    expect(document.querySelector('h1')!.outerHTML).toBe('<h1 lang="de">The garden</h1>');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(langs()).toEqual({ html: 'en', h1: 'de', body: 'en-US', quote: 'fr', brand: 'en', uk: 'en-GB' });
    expect(document.getElementById('a')!.textContent).toBe('The cat sleeps.');
  });

  it("a page that puts its label back whenever we write ours keeps it after three tries; restore gives it back", async () => {
    document.documentElement.setAttribute('lang', 'en');
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    const html = document.documentElement;
    const puts: string[] = [];
    const mo = new MutationObserver(() => {
      puts.push(html.lang);
      if (html.lang !== 'en') html.setAttribute('lang', 'en');
    });
    mo.observe(html, { attributes: true, attributeFilter: ['lang'] });
    html.setAttribute('lang', 'en');
    for (let i = 0; i < 8; i++) await frames.settle();
    mo.disconnect();
    expect(puts.filter((l) => l === 'es')).toHaveLength(3);
    expect(html.lang).toBe('en');
    expect(document.getElementById('a')!.textContent).toBe('THE CAT SLEEPS.');
    page.restore();
    expect(document.body.innerHTML).toBe(ARTICLE);
    expect(html.lang).toBe('en');
  });

  it('is the target as soon as the page says it is translated, not a frame later', async () => {
    document.documentElement.setAttribute('lang', 'en');
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    // One frame at a time: the page's last write is the frame that says "translated".
    for (let i = 0; i < 50 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.runFrame();
    }
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(langs()).toMatchObject({ html: 'es', body: 'es' });
  });

  it('is the target on <body> too, where the page says it there', async () => {
    document.body.setAttribute('lang', 'en');
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    expect([document.body.getAttribute('lang'), document.getElementById('body')!.getAttribute('lang')]).toEqual(['es', 'es']);
    page.restore();
    expect(document.body.getAttribute('lang')).toBe('en');
    document.body.removeAttribute('lang');
  });

  it('is left as it is in bilingual mode, where the page stays in its language', async () => {
    const fake = fakeTranslator();
    const { frames } = startPage(ARTICLE, fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    expect(langs()).toMatchObject({ h1: 'en', body: 'en', uk: 'en-GB' });
  });

  it('relabelled, still holds text to translate: a paragraph the page adds there later is translated', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    const added = document.createElement('p');
    added.textContent = 'A new paragraph.';
    document.getElementById('body')!.append(added);
    await frames.settle();
    expect(added.textContent).toBe('A NEW PARAGRAPH.');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
  });

  it('a post the page adds later that says the page language says the target once its text is written; restore gives it back', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    document.body.insertAdjacentHTML('beforeend', '<div id="post" lang="en" dir="auto"><span>Loaded as you scroll.</span></div><div id="quote" lang="de">Guten Tag.</div>');
    await frames.settle();
    const post = document.getElementById('post')!;
    expect(post.textContent).toBe('LOADED AS YOU SCROLL.');
    expect(post.getAttribute('lang')).toBe('es');
    expect(document.getElementById('quote')!.getAttribute('lang')).toBe('de');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(post.outerHTML).toBe('<div id="post" lang="en" dir="auto"><span>Loaded as you scroll.</span></div>');
  });

  it('a post of several paragraphs the page adds later that says the page language says the target once its text is written, in a nested label too; restore gives each back', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(ARTICLE, fake.translate, pages);
    await frames.settle();
    const html = '<article id="post" lang="en"><div class="text" lang="en-US"><p>First paragraph.</p><p>Second paragraph.</p></div>Posted today</article><div id="quote" lang="de"><p>Guten Tag.</p><p>Wie geht es?</p></div>';
    document.body.insertAdjacentHTML('beforeend', html);
    await frames.settle();
    const post = document.getElementById('post')!;
    expect(post.textContent).toBe('FIRST PARAGRAPH.SECOND PARAGRAPH.POSTED TODAY');
    expect([post.getAttribute('lang'), post.querySelector('.text')!.getAttribute('lang')]).toEqual(['es', 'es']);
    expect(document.getElementById('quote')!.getAttribute('lang')).toBe('de');
    // The page changes one of its paragraphs: translated again, the post still says the target.
    post.querySelector('p')!.textContent = 'Edited paragraph.';
    await frames.settle();
    expect(post.querySelector('p')!.textContent).toBe('EDITED PARAGRAPH.');
    expect([post.getAttribute('lang'), post.querySelector('.text')!.getAttribute('lang')]).toEqual(['es', 'es']);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(post.outerHTML).toBe(html.slice(0, html.indexOf('<div id="quote"')).replace('First paragraph.', 'Edited paragraph.'));
  });

  it('relabelled, still holds text to translate: a paragraph the page adds there while the translation is stopped is found when it goes on', async () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} says: ${'word '.repeat(150)}</p>`).join('');
    const body = `<div id="body" lang="en">${paragraphs}</div>`;
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = startPage(body, fake.translate, pages, { maxInFlight: 2 });
    await frames.settle();
    fake.calls[0]!.release();
    await frames.settle();
    expect(document.getElementById('body')!.getAttribute('lang')).toBe('es');
    page.cancel();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'cancelled', done: 1, total: 6 });
    document.getElementById('body')!.insertAdjacentHTML('beforeend', '<p>Paragraph added while stopped.</p>');
    page.start('en', 'es');
    for (let i = 0; i < 20 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(page.status()).toMatchObject({ state: 'translated', done: 7, total: 7, errors: 0 });
    expect(document.getElementById('body')!.lastElementChild!.textContent).toBe('PARAGRAPH ADDED WHILE STOPPED.');
    page.restore();
    expect(document.body.innerHTML).toBe(`<div id="body" lang="en">${paragraphs}<p>Paragraph added while stopped.</p></div>`);
  });
});
