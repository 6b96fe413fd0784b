/**
 * Content the page removes while translated (an app's view replaced, a feed's old items, a tab
 * panel taken out and put back): what was not sent yet is never sent, a call left carrying none of
 * the page's units is cancelled, the counts are the page's; what was written is kept only with its
 * nodes, stays translated if put back, and restore still gives the page as its own changes left it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COPY_ATTR } from '../../src/content/bilingual';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

/** Paragraphs each long enough to fill a call of its own. */
const paragraphs = (n: number, what = 'Old') => Array.from({ length: n }, (_, i) => `<p>${what} paragraph ${i} says: ${'word '.repeat(150)}</p>`).join('');
const items = (n: number) => Array.from({ length: n }, (_, i) => `<p>Item ${i}</p>`).join('');
const numbers = (markup: string) => [...markup.matchAll(/paragraph (\d+)/gi)].map((m) => Number(m[1]));

describe('content the page removes', () => {
  it('a view replaced before it was sent is never sent; the call in flight for it is cancelled; the new view goes at once', async () => {
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = startPage(`<main>${paragraphs(8)}</main>`, fake.translate, pages, { maxInFlight: 2 });
    await frames.settle();
    expect(fake.calls.map((c) => numbers(c.markup))).toEqual([[0], [1]]);
    expect(page.status()).toMatchObject({ state: 'translating', done: 0, total: 8 });

    const main = document.querySelector('main')!;
    main.innerHTML = '<h1>The next view</h1><p>Its only paragraph.</p>';
    await frames.settle();
    // Both slots were the old view's: cancelled, and the new view sent in one call at once.
    expect(fake.calls[0]!.signal?.aborted).toBe(true);
    expect(fake.calls[1]!.signal?.aborted).toBe(true);
    expect(fake.calls).toHaveLength(3);
    expect(fake.calls[2]!.markup).toBe('<p i=1>The next view</p><p i=2>Its only paragraph.</p>');
    expect(page.status()).toMatchObject({ state: 'translating', done: 0, total: 2, errors: 0 });

    for (const c of fake.calls) c.release();
    await frames.settle();
    // None of the old view's six other paragraphs was ever sent, and the cancelled calls are no failure.
    expect(fake.calls).toHaveLength(3);
    expect(main.innerHTML).toBe('<h1>THE NEXT VIEW</h1><p>ITS ONLY PARAGRAPH.</p>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(main.innerHTML).toBe('<h1>The next view</h1><p>Its only paragraph.</p>');
  });

  it('a view too large to walk when removed: packing skips what is gone, and a sweep when the page is idle takes it out of the counts', async () => {
    const fake = fakeTranslator({ hold: true });
    // 1 500 paragraphs: 3 000 nodes, more than a removal's walk visits.
    const { page, frames, idles } = startPage(`<main>${items(1500)}</main>`, fake.translate, pages, { maxInFlight: 1, heldIdle: true });
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    expect(page.status().total).toBe(1500);
    const main = document.querySelector('main')!;
    const kept = [...main.children];
    main.innerHTML = '<p>The next view</p>';
    await frames.settle();
    // The call in flight is cancelled at once; the new view goes next, nothing of the old one.
    expect(fake.calls[0]!.signal?.aborted).toBe(true);
    expect(fake.calls.slice(1).map((c) => c.markup)).toEqual(['<p i=1>The next view</p>']);
    fake.calls[1]!.release();
    await frames.settle();
    expect(main.innerHTML).toBe('<p>THE NEXT VIEW</p>');
    // Not swept yet (the page not idle): what was queued of the old view was dropped when packed.
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1 });
    await new Promise((r) => setTimeout(r, 0));
    expect(idles).toHaveLength(1);
    idles.shift()!();
    expect(fake.calls).toHaveLength(2);
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1, errors: 0 });
    page.restore();
    expect(kept.every((p, i) => p.textContent === `Item ${i}`)).toBe(true);
  });

  it('a written view too large to walk, removed and put back: swept aside, back translated and counted', async () => {
    const body = `<main><section>${items(1500)}</section></main>`;
    const fake = fakeTranslator();
    const { page, frames, idles } = startPage(body, fake.translate, pages, { heldIdle: true });
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 1500, total: 1500 });
    const sent = fake.calls.length;
    const section = document.querySelector('section')!;
    section.remove();
    await frames.settle();
    await new Promise((r) => setTimeout(r, 0));
    idles.shift()!();
    expect(page.status()).toMatchObject({ done: 0, total: 0 });
    document.querySelector('main')!.append(section);
    await frames.settle();
    expect(fake.calls).toHaveLength(sent);
    expect(section.lastElementChild!.textContent).toBe('ITEM 1499');
    expect(page.status()).toMatchObject({ state: 'translated', done: 1500, total: 1500 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it.each([
    ['put back before the sweep', false, false],
    ['swept after the change was seen', true, false],
    ['swept before the change reached a frame', true, true],
  ])('a written view too large to walk, changed while out of the page (%s): the change is translated when put back, nothing else sent again; restore keeps it', async (_, sweep, early) => {
    const body = `<main><section>${items(1500)}</section></main>`;
    const fake = fakeTranslator();
    const { page, frames, idles } = startPage(body, fake.translate, pages, { heldIdle: true });
    await frames.settle();
    const sent = fake.calls.length;
    const section = document.querySelector('section')!;
    section.remove();
    await frames.settle();
    await new Promise((r) => setTimeout(r, 0));
    expect(idles).toHaveLength(1);
    // A later task: the browser's own report of a removed node's changes has ended.
    (section.children[3]!.firstChild as Text).data = 'Changed meanwhile';
    section.children[7]!.setAttribute('title', 'A tip added meanwhile');
    if (!early) await frames.settle();
    if (sweep) idles.shift()!();
    await frames.settle();
    document.querySelector('main')!.append(section);
    await frames.settle();
    expect(fake.calls.slice(sent).map((c) => c.markup)).toEqual(['<p i=1>Changed meanwhile</p><p i=2>A tip added meanwhile</p>']);
    expect([3, 4, 7].map((i) => section.children[i]!.outerHTML)).toEqual(['<p>CHANGED MEANWHILE</p>', '<p>ITEM 4</p>', '<p title="A TIP ADDED MEANWHILE">ITEM 7</p>']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 1501, total: 1501, errors: 0 });
    page.restore();
    expect([3, 4, 7].map((i) => section.children[i]!.outerHTML)).toEqual(['<p>Changed meanwhile</p>', '<p>Item 4</p>', '<p title="A tip added meanwhile">Item 7</p>']);
  });

  it('a view too large to walk whose paragraph the page marks notranslate while it is out: that paragraph is its own again when put back; restore exact', async () => {
    const body = `<main><section>${items(1500)}</section></main>`;
    const fake = fakeTranslator();
    const { page, frames } = startPage(body, fake.translate, pages, { heldIdle: true });
    await frames.settle();
    const section = document.querySelector('section')!;
    section.remove();
    await frames.settle();
    await new Promise((r) => setTimeout(r, 0));
    section.children[5]!.className = 'notranslate';
    document.querySelector('main')!.append(section);
    await frames.settle();
    expect([4, 5, 6].map((i) => section.children[i]!.outerHTML)).toEqual(['<p>ITEM 4</p>', '<p class="notranslate">Item 5</p>', '<p>ITEM 6</p>']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 1499, total: 1499 });
    page.restore();
    section.children[5]!.removeAttribute('class');
    expect(document.body.innerHTML).toBe(body);
  });

  it('a panel the page changes just after removing it, before the next frame: translated again when put back; restore keeps the change', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><section id="one"><p>First panel</p><p>Unchanged</p></section></main>', fake.translate, pages);
    await frames.settle();
    const sent = fake.calls.length;
    const panel = document.getElementById('one')!;
    panel.remove();
    await new Promise((r) => setTimeout(r, 0));
    (panel.firstElementChild!.firstChild as Text).data = 'Edited meanwhile';
    await frames.settle();
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(fake.calls.slice(sent).map((c) => c.markup)).toEqual(['<p i=1>Edited meanwhile</p>']);
    expect(panel.innerHTML).toBe('<p>EDITED MEANWHILE</p><p>UNCHANGED</p>');
    page.restore();
    expect(panel.innerHTML).toBe('<p>Edited meanwhile</p><p>Unchanged</p>');
  });

  it('a call still carrying a unit on the page goes on; only the removed one is dropped from its answer', async () => {
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = startPage('<p id="a">Stays here</p><p id="b">Goes away</p>', fake.translate, pages);
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    const b = document.getElementById('b')!;
    b.remove();
    await frames.settle();
    expect(fake.calls[0]!.signal?.aborted).toBe(false);
    expect(page.status()).toMatchObject({ total: 1 });
    fake.calls[0]!.release();
    await frames.settle();
    expect(document.body.innerHTML).toBe('<p id="a">STAYS HERE</p>');
    expect(b.textContent).toBe('Goes away');
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1 });
    expect(page.dropped).toBe(1);
  });

  it('a tab panel taken out and put back stays translated, counted again, nothing sent again; restore undoes it', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><section id="one"><p>First panel</p><p title="A tip">Its text</p></section></main>', fake.translate, pages);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 3, total: 3 });
    const sent = fake.calls.length;
    const panel = document.getElementById('one')!;
    panel.remove();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 0, total: 0 });

    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(fake.calls).toHaveLength(sent);
    expect(panel.outerHTML).toBe('<section id="one"><p>FIRST PANEL</p><p title="A TIP">ITS TEXT</p></section>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 3, total: 3 });
    page.restore();
    expect(document.body.innerHTML).toBe('<main><section id="one"><p>First panel</p><p title="A tip">Its text</p></section></main>');
  });

  it('a panel the page changed while out of the page is translated again when put back; restore keeps the change', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><section id="one"><p>First panel</p><p>Unchanged</p></section></main>', fake.translate, pages);
    await frames.settle();
    const panel = document.getElementById('one')!;
    panel.remove();
    await frames.settle();
    // No change is seen out of the page.
    panel.querySelector('p')!.firstChild!.textContent = 'Edited meanwhile';
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(fake.calls.at(-1)!.markup).toBe('<p i=1>Edited meanwhile</p>');
    expect(panel.innerHTML).toBe('<p>EDITED MEANWHILE</p><p>UNCHANGED</p>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2 });
    page.restore();
    expect(panel.innerHTML).toBe('<p>Edited meanwhile</p><p>Unchanged</p>');
  });


  it('a panel where the page stopped, or started, saying no while it was out of the page: translated as it says now when put back; restore exact', async () => {
    const fake = fakeTranslator();
    const html =
      '<main><section id="one"><p id="buy">Buy the <span id="brand" translate="no">blue wheels</span> now</p><p id="name" class="title">Rocket skates</p><p id="note">A note</p></section></main>';
    const { page, frames } = startPage(html, fake.translate, pages);
    await frames.settle();
    const panel = document.getElementById('one')!;
    expect(panel.textContent).toBe('BUY THE blue wheels NOWROCKET SKATESA NOTE');
    panel.remove();
    await frames.settle();
    // Out of the page, no change is seen as it is made.
    panel.querySelector('#brand')!.removeAttribute('translate');
    panel.querySelector('#name')!.classList.add('notranslate');
    panel.querySelector('#note')!.setAttribute('contenteditable', 'true');
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(panel.textContent).toBe('BUY THE BLUE WHEELS NOWRocket skatesA note');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe(
      html.replace(' translate="no"', '').replace('class="title"', 'class="title notranslate"').replace('id="note"', 'id="note" contenteditable="true"'),
    );
  });
  it('a panel the page added to while out of the page: what it added is translated when put back', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><section id="one"><p>First <a href="/x">panel</a></p></section></main>', fake.translate, pages);
    await frames.settle();
    const panel = document.getElementById('one')!;
    panel.remove();
    await frames.settle();
    // Into the paragraph, and into its link: no text we wrote changed, only what it holds.
    panel.querySelector('p')!.insertAdjacentHTML('beforeend', ' <b>and more</b>');
    panel.querySelector('a')!.append(' link');
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(fake.calls.at(-1)!.markup).toBe('<p i=1>First <a i=2>panel link</a> <b i=3>and more</b></p>');
    expect(panel.innerHTML).toBe('<p>FIRST <a href="/x">PANEL LINK</a> <b>AND MORE</b></p>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1 });
    page.restore();
    expect(panel.innerHTML).toBe('<p>First <a href="/x">panel link</a> <b>and more</b></p>');
  });

  it('a panel put back holding a link too long for one call (written in pieces): not translated again over itself; restore exact', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} of the long link ends here.`).join(' ');
    const fake = fakeTranslator();
    const body = `<main><section id="one"><a href="/x"><div>A block in the link</div><b>${long}</b></a></section></main>`;
    const { page, frames } = startPage(body, fake.translate, pages);
    await frames.settle();
    const panel = document.getElementById('one')!;
    const sent = fake.calls.length;
    panel.remove();
    await frames.settle();
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(fake.calls.length).toBe(sent);
    expect(panel.querySelector('b')!.textContent).toBe(long.toUpperCase());
    // A change beside it now: the link's text is translated again from its own words, once.
    panel.querySelector('a')!.insertAdjacentHTML('beforeend', '<b>added words</b>');
    await frames.settle();
    expect(fake.calls.slice(sent).map((c) => c.markup).join('')).not.toContain('SENTENCE');
    page.restore();
    expect(document.body.innerHTML).toBe(body.replace('</b></a>', '</b><b>added words</b></a>'));
  });

  it('a link taken out and put back elsewhere, then changed: translated where it is now; restore keeps the change', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<div><p>First block</p><a href="/x">alpha</a></div>', fake.translate, pages);
    await frames.settle();
    const link = document.querySelector('a')!;
    link.remove();
    await frames.settle();
    document.body.append(link);
    await frames.settle();
    expect(link.textContent).toBe('ALPHA');
    (link.firstChild as Text).data = 'new words';
    await frames.settle();
    expect(link.textContent).toBe('NEW WORDS');
    page.restore();
    expect(document.body.innerHTML).toBe('<div><p>First block</p></div><a href="/x">new words</a>');
  });

  // Found by the dynamic property test (seed 3023): the link was the whole of its paragraph's
  // unit, whose reading was taken of the paragraph, emptied by then, not of the link.
  it('a link that was all its paragraph held, added to while out of the page and put back elsewhere: what it holds now is translated; restore exact', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<div><p><a href="/x">alpha</a></p></div>', fake.translate, pages);
    await frames.settle();
    const link = document.querySelector('a')!;
    link.remove();
    await frames.settle();
    link.insertAdjacentHTML('beforeend', '<b>added words</b>');
    document.body.append(link);
    await frames.settle();
    expect(link.innerHTML).toBe('ALPHA<b>ADDED WORDS</b>');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe('<div><p></p></div><a href="/x">alpha<b>added words</b></a>');
  });

  it('a panel whose text our write left as it was (a separator) is given words while out of the page: translated when put back', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><div id="one"><div>|<b>more words</b></div></div></main>', fake.translate, pages);
    await frames.settle();
    const panel = document.getElementById('one')!;
    const bar = panel.querySelector('div')!.firstChild as Text;
    expect(panel.innerHTML).toBe('<div>|<b>MORE WORDS</b></div>');
    panel.remove();
    await frames.settle();
    bar.data = 'new words';
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(panel.innerHTML).toBe('<div>NEW WORDS<b>MORE WORDS</b></div>');
    page.restore();
    expect(panel.innerHTML).toBe('<div>new words<b>more words</b></div>');
  });

  it('a panel the page added to, beside a text too long for one call, while out of the page: all of it translated when put back; restore exact', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} of the long text ends here.`).join(' ');
    const fake = fakeTranslator();
    const { page, frames } = startPage(`<main><section id="one"><div>${long}</div></section></main>`, fake.translate, pages);
    await frames.settle();
    const panel = document.getElementById('one')!;
    panel.remove();
    await frames.settle();
    panel.querySelector('div')!.insertAdjacentHTML('beforeend', '<b>added words</b>');
    document.querySelector('main')!.append(panel);
    await frames.settle();
    expect(panel.innerHTML).toBe(`<div>${long.toUpperCase()}<b>ADDED WORDS</b></div>`);
    page.restore();
    expect(panel.innerHTML).toBe(`<div>${long}<b>added words</b></div>`);
  });

  it('a view the page removed and still keeps is restored with the page, what it changed there kept', async () => {
    const fake = fakeTranslator();
    const long = Array.from({ length: 60 }, (_, i) => `Sentence ${i} ends here.`).join(' ');
    const { page, frames } = startPage(`<div id="view"><p>${long}</p><p>Short one</p><p title="A tip">Tipped</p></div><p>Stays</p>`, fake.translate, pages);
    await frames.settle();
    // The long text went in pieces.
    expect(fake.calls.length).toBeGreaterThan(1);
    const view = document.getElementById('view')!;
    view.remove();
    await frames.settle();
    // The same Text node the translation was written into (a framework's update).
    (view.children[1]!.firstChild as Text).data = 'Changed out of the page';
    page.restore();
    expect(view.outerHTML).toBe(`<div id="view"><p>${long}</p><p>Changed out of the page</p><p title="A tip">Tipped</p></div>`);
    expect(document.body.innerHTML).toBe('<p>Stays</p>');
  });


  it('a text our write left empty, emptied by the page too while out of the page, stays empty after restore; put back, too', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<div id="a"></div><div id="b"></div><p>Stays</p>', fake.translate, pages);
    // Two Text nodes side by side (a framework's): one unit; its answer goes into the first, the second is left empty.
    const views = ['a', 'b'].map((id) => {
      const view = document.getElementById(id)!;
      view.append('Hello ', 'world');
      return view;
    });
    page.restore();
    page.start('en', 'es');
    await frames.settle();
    for (const view of views) expect([...view.childNodes].map((t) => (t as Text).data)).toEqual(['HELLO WORLD', '']);
    for (const view of views) {
      view.remove();
      await frames.settle();
      // The page sets it to what our write left there: no new value to tell the change by.
      (view.lastChild as Text).data = '';
    }
    // One view back: translated again where the page changed it; the other stays out.
    document.body.prepend(views[0]!);
    await frames.settle();
    page.restore();
    for (const view of views) expect([...view.childNodes].map((t) => (t as Text).data)).toEqual(['Hello ', '']);
  });
  it('a failed unit the page removed no longer counts as failed, and asking again sends nothing for it', async () => {
    const fake = fakeTranslator({
      reply: (markup) => {
        if (markup.includes('Broken')) throw new Error('503 provider unavailable');
        return markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);
      },
    });
    const { page, frames } = startPage(`${paragraphs(1, 'Fine')}<aside>${paragraphs(1, 'Broken')}</aside>`, fake.translate, pages);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 2, errors: 1 });
    document.querySelector('aside')!.remove();
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1, errors: 0 });
    const sent = fake.calls.length;
    page.retry();
    await frames.settle();
    expect(fake.calls).toHaveLength(sent);
  });

  it('the rest of a long page that the page removes before its idle turn is never segmented or sent', async () => {
    const fake = fakeTranslator();
    const body = `<main><p>Top one</p></main><section id="far">${paragraphs(6)}</section>`;
    const { page, frames, idles } = startPage(body, fake.translate, pages, { heldIdle: true, near: (el) => el.id !== 'far' });
    await frames.settle();
    expect(fake.calls.map((c) => c.markup)).toEqual(['<p i=1>Top one</p>']);
    document.getElementById('far')!.remove();
    await frames.settle();
    while (idles.length) idles.shift()!();
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1 });
  });

  it('bilingual: the translation shown under a paragraph goes when the page removes the paragraph', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><p id="a">Stays here</p><p id="b">Goes away</p></main>', fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    expect(document.querySelectorAll(`[${COPY_ATTR}]`)).toHaveLength(2);
    document.getElementById('b')!.remove();
    await frames.settle();
    expect([...document.querySelectorAll(`[${COPY_ATTR}]`)].map((c) => c.textContent)).toEqual(['STAYS HERE']);
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1 });
    page.restore();
    expect(document.body.innerHTML).toBe('<main><p id="a">Stays here</p></main>');
  });

  it('a node moved within the page (removed and added in one batch) keeps its translation and is not sent again', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<ul><li>First item</li><li>Second item</li></ul>', fake.translate, pages);
    await frames.settle();
    const sent = fake.calls.length;
    const ul = document.querySelector('ul')!;
    ul.append(ul.firstElementChild!);
    await frames.settle();
    expect(fake.calls).toHaveLength(sent);
    expect(ul.innerHTML).toBe('<li>SECOND ITEM</li><li>FIRST ITEM</li>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2 });
  });

  it('bilingual: a block the page moves elsewhere takes its translation with it, under it; what it left is removed cleanly; restore exact', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><section id="s"><p id="a">Stays here</p><p id="b">Moves up</p></section></main>', fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    const sent = fake.calls.length;
    const section = document.getElementById('s')!;
    // A post brought to the top of the page, out of its section.
    section.before(document.getElementById('b')!);
    await frames.settle();
    const shown = (el: Element) => [...el.children].map((c) => (c.hasAttribute(COPY_ATTR) ? `copy: ${c.textContent}` : c.id));
    expect(shown(document.querySelector('main')!)).toEqual(['b', 'copy: MOVES UP', 's']);
    expect(shown(section)).toEqual(['a', 'copy: STAYS HERE']);
    expect(fake.calls).toHaveLength(sent);
    // The section the post left is taken out, and kept by the page: nothing of ours in it.
    section.remove();
    await frames.settle();
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe('<main><p id="b">Moves up</p></main>');
    expect(section.outerHTML).toBe('<section id="s"><p id="a">Stays here</p></section>');
  });

  it('bilingual: a part of a line the page moves out of its block leaves no copy behind; it is translated where it is now; restore exact', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<main><section id="s"><a id="l" href="/x">Read more</a><div id="d">Below it</div></section></main>', fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    const section = document.getElementById('s')!;
    const copies = (el: Element) => [...el.querySelectorAll(`[${COPY_ATTR}]`)].map((c) => c.textContent);
    expect(copies(section)).toEqual(['READ MORE', 'BELOW IT']);
    section.before(document.getElementById('l')!);
    await frames.settle();
    expect(copies(section)).toEqual(['BELOW IT']);
    expect(copies(document.querySelector('main')!)).toEqual(['READ MORE', 'BELOW IT']);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    section.remove();
    await frames.settle();
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe('<main><a id="l" href="/x">Read more</a></main>');
    expect(section.outerHTML).toBe('<section id="s"><div id="d">Below it</div></section>');
  });
});
