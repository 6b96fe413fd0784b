/**
 * Words of ours the page copies after they are written (written.ts): a clone of a translated row,
 * a widget that shows a translated option's text in an element of its own. They are in the
 * target's language already: left as they are, not sent as the page's language (a second
 * translation of them was marked twice here, and changes a real page's words).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PageTranslator } from '../../src/content/page';
import { WrittenTexts } from '../../src/content/written';
import { marker, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const PAGE = `<table id="scores"><thead><tr id="head"><th>Points per game</th><th>Home team</th></tr></thead>
<tbody><tr><td>Most points in a season</td><td>Bulls</td></tr></tbody></table>
<select id="pick"><option value="a">Eastern conference</option><option value="b">Western conference</option></select>
<div id="shown"></div><div id="sticky"></div>`;

describe("words of ours the page copies", () => {
  it("a clone of a translated row and an option's text a widget shows are not sent, and read as we wrote them; what the page adds of its own is; restore leaves the page's copies", async () => {
    const fake = marker();
    const { page, frames } = startPage(PAGE, fake.translate, pages);
    const original = document.body.innerHTML;
    await frames.settle();
    const calls = fake.calls.length;
    expect(document.getElementById('head')!.textContent).toBe('⟦Points per game⟧⟦Home team⟧');
    // The page clones the translated header for a sticky copy, and shows the chosen option's text
    // in a widget of its own; and adds a sentence of its own.
    const sticky = document.getElementById('sticky')!;
    sticky.append(document.getElementById('head')!.cloneNode(true));
    document.getElementById('shown')!.textContent = (document.getElementById('pick') as HTMLSelectElement).options[1]!.text;
    document.body.insertAdjacentHTML('beforeend', '<p id="own">Scores updated tonight</p>');
    await frames.settle();
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(['<p i=1>Scores updated tonight</p>']);
    expect(sticky.textContent).toBe('⟦Points per game⟧⟦Home team⟧');
    expect(document.getElementById('shown')!.textContent).toBe('⟦Western conference⟧');
    expect(document.getElementById('own')!.textContent).toBe('⟦Scores updated tonight⟧');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    // The page's own sentence reads as the page wrote it; its copies of our words are the page's.
    const copies = '<tr id="head"><th>⟦Points per game⟧</th><th>⟦Home team⟧</th></tr>';
    expect(document.body.innerHTML).toBe(
      original.replace('<div id="shown"></div><div id="sticky"></div>', `<div id="shown">⟦Western conference⟧</div><div id="sticky">${copies}</div>`) + '<p id="own">Scores updated tonight</p>',
    );
  });

  it('a copy the page makes in a part the first walk has not reached yet is not sent when the walk gets there', async () => {
    const fake = marker();
    const body = '<table><tr id="head"><th>Points per game</th><th>Home team</th></tr></table><section id="far"><p>Scores of the night</p><div id="sticky"></div></section>';
    const { page, frames, idles } = startPage(body, fake.translate, pages, { heldIdle: true, near: (el) => el.id !== 'far' });
    await frames.settle();
    expect(document.getElementById('head')!.textContent).toBe('⟦Points per game⟧⟦Home team⟧');
    // The page clones the translated header into the part of the page not walked yet.
    document.getElementById('sticky')!.append(document.getElementById('head')!.cloneNode(true));
    await frames.settle();
    while (idles.length) idles.shift()!();
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Points per game</p><p i=2>Home team</p>', '<p i=1>Scores of the night</p>']);
    expect(document.getElementById('sticky')!.textContent).toBe('⟦Points per game⟧⟦Home team⟧');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
  });

  it('a single word of ours the page copies is sent: it may be a word of the page\'s language too', async () => {
    const fake = marker();
    const { frames } = startPage('<p><b id="team">Team</b> and more words</p><div id="copy"></div>', fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    document.getElementById('copy')!.textContent = document.getElementById('team')!.textContent;
    await frames.settle();
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(['<p i=1>⟦Team⟧</p>']);
  });
});

describe('a copy of a paragraph too long for one call', () => {
  const sentences = (n: number, what: string) => Array.from({ length: n }, (_, i) => `The ${what} sentence number ${i} tells the reader a little more about the season.`).join(' ');

  it('a clone of a long paragraph sent in parts (a run cut between its nodes, a text cut at sentences) is not sent: its whole text is ours once every part is written', async () => {
    const fake = marker();
    const long = `<p id="runs">${sentences(12, 'first')} <a href="#a">${sentences(4, 'linked')}</a> ${sentences(12, 'last')}</p><p id="text">${sentences(30, 'plain')}</p><div id="copies"></div>`;
    const { page, frames } = startPage(long, fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    // Each paragraph went in several calls' worth of parts.
    expect(calls).toBeGreaterThan(4);
    const runs = document.getElementById('runs')!;
    const text = document.getElementById('text')!;
    expect(runs.textContent).toMatch(/^⟦The first sentence number 0 .*⟧$/);
    expect(text.textContent).toMatch(/^⟦The plain sentence number 0 .*⟧$/);
    const [runsRead, textRead] = [runs.textContent, text.textContent];
    // The page clones both translated paragraphs (a "read more" panel, a carousel's copy).
    const copies = document.getElementById('copies')!;
    copies.append(runs.cloneNode(true), text.cloneNode(true));
    await frames.settle();
    expect(fake.calls.length).toBe(calls);
    expect(copies.children[0]!.textContent).toBe(runsRead);
    expect(copies.children[1]!.textContent).toBe(textRead);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    // A long paragraph of the page's own is still sent.
    copies.insertAdjacentHTML('beforeend', `<p id="own">${sentences(14, 'new')}</p>`);
    await frames.settle();
    expect(fake.calls.length).toBeGreaterThan(calls);
    expect(document.getElementById('own')!.textContent).toMatch(/^⟦The new sentence number 0 .*⟧$/);
  });
});

describe('the texts our translations wrote, as a filter', () => {
  it('knows every text added, as read (white space aside), through filters that grow; seldom one it was not given; never a single word', () => {
    const texts = new WrittenTexts();
    const ours = Array.from({ length: 3000 }, (_, i) => `translated sentence number ${i}`);
    for (const t of ours) texts.add(t);
    expect(ours.every((t) => texts.has(t))).toBe(true);
    expect(texts.has('  translated\nsentence   number 12 ')).toBe(true);
    const others = Array.from({ length: 20_000 }, (_, i) => `another text of the page ${i}`);
    expect(others.filter((t) => texts.has(t)).length).toBeLessThan(20);
    texts.add('Come');
    expect(texts.has('Come')).toBe(false);
    texts.clear();
    expect(texts.has(ours[0]!)).toBe(false);
  });
});
