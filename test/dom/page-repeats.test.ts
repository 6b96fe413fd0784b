/**
 * Texts a page repeats (a team's name in a table's every row, a date, a link's title that reads as
 * its text) are sent once while the page is being translated: the others follow the answer of the
 * call carrying them, or are written from it once it came, each into its own nodes; restore is
 * exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { PortClosedError } from '../../src/shared/messages';
import { fakeTranslator, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const TEAMS = ['Brooklyn Nets', 'Phoenix Suns', 'Brooklyn Nets', 'Indiana Pacers', 'Phoenix Suns', 'Brooklyn Nets'];
const table = (rows: readonly string[]) => `<table><tbody>${rows.map((t, i) => `<tr><td>Row ${i}</td><td><a href="/t${i}" title="${t}">${t}</a></td></tr>`).join('')}</tbody></table>`;

describe('texts a page repeats', () => {
  it('go once per call in flight; every copy of them reads translated, each link keeps its own element; restore exact', async () => {
    const fake = fakeTranslator();
    const body = table(TEAMS);
    const { page, frames } = startPage(body, fake.translate, pages);
    const links = [...document.querySelectorAll('a')];
    await frames.settle();
    // One call: each team's name once (as text and as title alike), each row number once.
    expect(fake.calls.map((c) => c.markup)).toEqual([
      '<p i=1>Row 0</p><p i=2>Brooklyn Nets</p><p i=3>Row 1</p><p i=4>Phoenix Suns</p><p i=5>Row 2</p><p i=6>Row 3</p><p i=7>Indiana Pacers</p><p i=8>Row 4</p><p i=9>Row 5</p>',
    ]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 18, total: 18, errors: 0 });
    expect([...document.querySelectorAll('a')]).toEqual(links);
    expect(links.map((a) => [a.textContent, a.title])).toEqual(TEAMS.map((t) => [t.toUpperCase(), t.toUpperCase()]));
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a repeat found after its first answer was written is sent again: nothing waits on a call already done', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<p>Brooklyn Nets</p>', fake.translate, pages);
    await frames.settle();
    document.body.insertAdjacentHTML('beforeend', '<p>Brooklyn Nets</p>');
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Brooklyn Nets</p>', '<p i=1>Brooklyn Nets</p>']);
    expect([...document.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['BROOKLYN NETS', 'BROOKLYN NETS']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2 });
  });

  it('a repeat packed after its first answer was written, while the page is being translated, is written from that answer and not sent; restore exact', async () => {
    const fake = fakeTranslator({ hold: true });
    // A name too long for the room the calls before leave (calls take a short unit from further on
    // into the room a long one left): its repeats are packed only once its answer is written.
    const tail = 'play in the city '.repeat(24).trim();
    const name = `Brooklyn Nets ${tail}`;
    const [first, second, third] = [40, 70, 70].map((n, i) => `The ${['first', 'second', 'third'][i]} long paragraph ${'says a word '.repeat(n).trim()}.`);
    const body = `<p>${name}</p><p>${first}</p><p>${second}</p><p>${third}</p><p>Brooklyn <b>Nets ${tail}</b></p><p title="${name}"><a href="/n">${name}</a></p>`;
    const { page, frames } = startPage(body, fake.translate, pages, { maxInFlight: 1 });
    const link = document.querySelector('a')!;
    await frames.settle();
    fake.calls[0]!.release();
    await frames.settle();
    // Packed as the first call ended, before its answer was written.
    expect(fake.calls.map((c) => c.markup)).toEqual([`<p i=1>${name}</p><p i=2>${first}</p>`, `<p i=1>${second}</p>`]);
    fake.calls[1]!.release();
    await frames.settle();
    // The third paragraph; the link and the title are written from the first answer.
    expect(fake.calls.map((c) => c.markup).slice(2)).toEqual([`<p i=1>${third}</p>`]);
    expect(document.body.lastElementChild!.outerHTML).toBe(`<p title="${name.toUpperCase()}"><a href="/n">${name.toUpperCase()}</a></p>`);
    expect(document.querySelector('a')).toBe(link);
    fake.calls[2]!.release();
    await frames.settle();
    // The one whose words markup splits.
    expect(fake.calls.map((c) => c.markup).slice(3)).toEqual([`<p i=1>Brooklyn <b i=2>Nets ${tail}</b></p>`]);
    fake.calls[3]!.release();
    await frames.settle();
    expect(fake.calls).toHaveLength(4);
    expect(page.status()).toMatchObject({ state: 'translated', done: 7, total: 7, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a call lost with the worker takes its repeats with it, and its answer, sent again, writes them all', async () => {
    let lose = 1;
    const fake = fakeTranslator({
      reply: (markup) => {
        if (lose-- > 0) throw new PortClosedError();
        return markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);
      },
    });
    const body = table(TEAMS);
    const { page, frames } = startPage(body, fake.translate, pages);
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup).toBe(fake.calls[0]!.markup);
    expect(page.status()).toMatchObject({ state: 'translated', done: 18, total: 18, errors: 0 });
    expect([...document.querySelectorAll('a')].map((a) => a.textContent + '|' + a.title)).toEqual(TEAMS.map((t) => `${t.toUpperCase()}|${t.toUpperCase()}`));
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a failed call fails its repeats too, and a retry sends the text once more for all of them', async () => {
    let down = true;
    const fake = fakeTranslator({
      reply: (markup) => {
        if (down) throw new Error('503 provider unavailable');
        return markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);
      },
    });
    const { page, frames } = startPage('<p>Brooklyn Nets</p><p>Brooklyn Nets</p><p>Brooklyn Nets</p>', fake.translate, pages);
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Brooklyn Nets</p>']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 0, total: 3, errors: 3 });
    down = false;
    page.retry();
    await frames.settle();
    expect(fake.calls.slice(1).map((c) => c.markup)).toEqual(['<p i=1>Brooklyn Nets</p>']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
    expect(document.body.textContent).toBe('BROOKLYN NETSBROOKLYN NETSBROOKLYN NETS');
  });

  it('the pieces of a long text are each sent, even where they read the same (each write rewrites the whole text)', async () => {
    const fake = fakeTranslator();
    const long = 'This is a rather long sentence about nothing in particular. '.repeat(64);
    const { page, frames } = startPage(`<p>${long}</p>`, fake.translate, pages, { maxInFlight: 8 });
    await frames.settle();
    const pieces = fake.calls.flatMap((c) => [...c.markup.matchAll(/<p i=\d+>/g)]).length;
    expect(pieces).toBeGreaterThanOrEqual(4);
    expect(page.status()).toMatchObject({ state: 'translated', done: pieces, total: pieces, errors: 0 });
    expect(document.querySelector('p')!.textContent).toBe(long.toUpperCase());
  });

  it('a repeat the page changes while it waits is translated as it now reads; restore keeps the change', async () => {
    const fake = fakeTranslator({ hold: true });
    const body = '<p>Brooklyn Nets</p><p>Brooklyn Nets</p>';
    const { page, frames } = startPage(body, fake.translate, pages);
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    (document.querySelectorAll('p')[1]!.firstChild as Text).data = 'Phoenix Suns';
    await frames.settle();
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Brooklyn Nets</p>', '<p i=1>Phoenix Suns</p>']);
    expect(document.body.innerHTML).toBe('<p>BROOKLYN NETS</p><p>PHOENIX SUNS</p>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe('<p>Brooklyn Nets</p><p>Phoenix Suns</p>');
  });

  it('with markup: "To <a>team</a>" goes once; every copy is written into its own link, which the answer moves; restore exact', async () => {
    // A translator that puts the link first, as a language with another word order would.
    const fake = fakeTranslator({
      reply: (markup) =>
        markup
          .replace(/<p i=(\d+)>To (<a i=\d+>)([^<]*)<\/a><\/p>/g, (_, p: string, a: string, t: string) => `<p i=${p}>${a}${t.toUpperCase()}</a> A</p>`)
          .replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`),
    });
    const rows = ['Boston Celtics', 'Boston Celtics', 'Utah Jazz', 'Boston Celtics'];
    const body = `<ul>${rows.map((t, i) => `<li>To <a href="/t${i}" class="team">${t}</a></li>`).join('')}</ul>`;
    const { page, frames } = startPage(body, fake.translate, pages);
    const links = [...document.querySelectorAll('a')];
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>To <a i=2>Boston Celtics</a></p><p i=3>To <a i=4>Utah Jazz</a></p>']);
    expect([...document.querySelectorAll('li')].map((li) => li.innerHTML)).toEqual(
      rows.map((t, i) => `<a href="/t${i}" class="team">${t.toUpperCase()}</a> A`),
    );
    expect([...document.querySelectorAll('a')]).toEqual(links);
    expect(page.status()).toMatchObject({ state: 'translated', done: 4, total: 4, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('with markup, packed after its first answer was written: written from that answer into its own nodes, not sent; restore exact', async () => {
    const fake = fakeTranslator({ hold: true });
    const [first, second, third] = ['first', 'second', 'third'].map((w) => `The ${w} long paragraph ${'says a word '.repeat(50).trim()}.`);
    const body = `<p>To <a href="/b">Boston</a>, <i>traded</i></p><p>${first}</p><p>${second}</p><p>${third}</p><p>To <a href="/b2">Boston</a>, <i>traded</i></p>`;
    const { page, frames } = startPage(body, fake.translate, pages, { maxInFlight: 1 });
    const link = document.querySelector('a[href="/b2"]');
    await frames.settle();
    fake.calls[0]!.release();
    await frames.settle();
    fake.calls[1]!.release();
    await frames.settle();
    for (let i = 0; i < 5 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(fake.calls.filter((c) => c.markup.includes('Boston'))).toHaveLength(1);
    expect(fake.calls.map((c) => c.markup).at(-1)).not.toContain('Boston');
    const last = document.body.lastElementChild!;
    expect(last.outerHTML).toBe('<p>TO <a href="/b2">BOSTON</a>, <i>TRADED</i></p>');
    expect(last.querySelector('a')).toBe(link);
    expect(page.status()).toMatchObject({ state: 'translated', done: 5, total: 5, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });
});
