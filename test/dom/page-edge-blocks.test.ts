/**
 * Blocks the page puts in or takes out at the edge of a translated run (edge-blocks.ts): a submenu a
 * menu item renders beside its label on hover, a reply under a comment's text. The run stays as
 * written: nothing of it is sent again, and it never reads in the page's language meanwhile (it
 * was undone and sent again at each one); also where a framework marks the block's place with a
 * silent node (Vue's comment, Svelte's anchor). A block between two runs, or inside one, or beside a
 * run the translation reordered, still has them found again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PageTranslator } from '../../src/content/page';
import { fakeTranslator, marker, reverseUpper, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

/** Every value the texts under `el` took, once the observer's records are read (what a reader may have seen). */
function textsSeen(el: Element) {
  const seen: string[] = [];
  const mo = new MutationObserver(() => seen.push(el.textContent ?? ''));
  mo.observe(el, { subtree: true, characterData: true, childList: true });
  return { seen: () => (mo.takeRecords().length ? [...seen, el.textContent ?? ''] : seen), stop: () => mo.disconnect() };
}

describe('blocks the page puts at the edge of a translated run', () => {
  it("a submenu put into a menu item and taken out, three times: only the submenu's words are sent, the label never reads in English again; restore exact", async () => {
    const fake = marker();
    const html = '<ul><li id="item">Our products <a href="/x">and more</a></li><li>About us</li></ul>';
    const { page, frames } = startPage(html, fake.translate, pages);
    await frames.settle();
    const item = document.getElementById('item')!;
    const label = '⟦Our products ⟧⟦and more⟧';
    expect(item.textContent).toBe(label);
    const calls = fake.calls.length;
    const watch = textsSeen(item.querySelector('a')!.parentElement!);
    for (let i = 0; i < 3; i++) {
      item.insertAdjacentHTML('beforeend', '<ul class="sub"><li>Garden tools</li></ul>');
      await frames.settle();
      expect(item.querySelector('.sub')!.textContent).toBe('⟦Garden tools⟧');
      item.querySelector('.sub')!.remove();
      await frames.settle();
      expect(item.textContent).toBe(label);
    }
    // The label's texts were never written again (undone to English, then translated anew).
    expect(watch.seen().filter((t) => !t.startsWith(label))).toEqual([]);
    watch.stop();
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(Array(3).fill('<p i=1>Garden tools</p>'));
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(html);
  });

  it('a block put first in an item, before its run, and a reply under a comment whose run is the whole of its element: left as written; restore keeps the blocks', async () => {
    const fake = marker();
    const html = '<div id="c">A comment with <b>bold</b> words</div><p id="p">Another paragraph here</p>';
    const { page, frames } = startPage(html, fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    const c = document.getElementById('c')!;
    c.insertAdjacentHTML('afterbegin', '<div class="badge">New reply badge</div>');
    c.insertAdjacentHTML('beforeend', '<div class="reply">A reply to it</div>');
    await frames.settle();
    expect(fake.calls.slice(calls).map((x) => x.markup)).toEqual(['<p i=1>New reply badge</p><p i=2>A reply to it</p>']);
    expect(c.innerHTML).toBe('<div class="badge">⟦New reply badge⟧</div>⟦A comment with ⟧<b>⟦bold⟧</b>⟦ words⟧<div class="reply">⟦A reply to it⟧</div>');
    page.restore();
    expect(document.body.innerHTML).toBe(html.replace('<div id="c">', '<div id="c"><div class="badge">New reply badge</div>').replace(' words</div>', ' words<div class="reply">A reply to it</div></div>'));
  });

  it("a framework's placeholder where the submenu is not shown: Vue's empty comment, replaced by the submenu and put back before it goes; Svelte's empty anchor after the label, the submenu put before it: the label is not sent again; restore exact", async () => {
    for (const framework of ['vue', 'svelte'] as const) {
      const fake = marker();
      const mark = framework === 'vue' ? '<!--v-if-->' : '';
      const html = `<ul><li id="item"><a href="/x">Our products</a>${mark}</li></ul>`;
      const { page, frames } = startPage(html, fake.translate, pages);
      const item = document.getElementById('item')!;
      if (framework === 'svelte') item.append(document.createTextNode(''));
      await frames.settle();
      const calls = fake.calls.length;
      const sub = () => Object.assign(document.createElement('ul'), { innerHTML: '<li>Garden tools</li>' });
      for (let i = 0; i < 2; i++) {
        if (framework === 'vue') {
          // Vue: the comment out, the element in its place; then a new comment before it, and it out.
          const comment = item.lastChild!;
          comment.remove();
          item.append(sub());
          await frames.settle();
          item.insertBefore(document.createComment('v-if'), item.lastChild);
          item.lastChild!.remove();
        } else {
          // Svelte: the block before its anchor, then out.
          item.insertBefore(sub(), item.lastChild);
          await frames.settle();
          item.querySelector('ul')!.remove();
        }
        await frames.settle();
        expect(item.querySelector('a')!.textContent, framework).toBe('⟦Our products⟧');
      }
      expect(fake.calls.slice(calls).map((c) => c.markup), framework).toEqual(Array(2).fill('<p i=1>Garden tools</p>'));
      page.restore();
      pages = [];
      expect(document.getElementById('item')!.innerHTML, framework).toBe(`<a href="/x">Our products</a>${mark}`);
    }
  });

  it("bilingual: a submenu put into a menu item after the label's copy and taken out, three times: only the submenu's words are sent, the label's copy stays as it was; restore exact", async () => {
    const fake = marker();
    const html = '<ul><li id="item">Our products <a href="/x">and more</a></li><li>About us</li></ul>';
    const { page, frames } = startPage(html, fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    const item = document.getElementById('item')!;
    const copy = item.lastElementChild!;
    const translated = copy.outerHTML;
    expect(copy.textContent).toBe('⟦Our products ⟧⟦and more⟧');
    const calls = fake.calls.length;
    for (let i = 0; i < 3; i++) {
      item.insertAdjacentHTML('beforeend', '<ul class="sub"><li>Garden tools</li></ul>');
      await frames.settle();
      expect(item.querySelector('.sub')!.textContent).toBe('Garden tools⟦Garden tools⟧');
      item.querySelector('.sub')!.remove();
      await frames.settle();
      // The same copy, as it was: not taken out and made again.
      expect(item.lastElementChild).toBe(copy);
      expect(copy.outerHTML).toBe(translated);
    }
    expect(item.childNodes[0]!.textContent).toBe('Our products ');
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(Array(3).fill('<p i=1>Garden tools</p>'));
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(html);
  });

  it("bilingual: a reply put under a comment's text (its copy after the comment) and a Vue submenu in the place of its empty comment: the copies stay as they were; restore exact", async () => {
    const fake = marker();
    const html = '<div id="c">A comment with <b>bold</b> words</div><ul><li id="item"><a href="/x">Our products</a><!--v-if--></li></ul>';
    const { page, frames } = startPage(html, fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    const c = document.getElementById('c')!;
    const item = document.getElementById('item')!;
    const copies = [c.nextElementSibling!, item.lastElementChild!];
    const shown = copies.map((x) => x.outerHTML);
    expect(copies.map((x) => x.textContent)).toEqual(['⟦A comment with ⟧⟦bold⟧⟦ words⟧', '⟦Our products⟧']);
    const calls = fake.calls.length;
    c.insertAdjacentHTML('beforeend', '<div class="reply">A reply to it</div>');
    const mark = [...item.childNodes].find((n) => n.nodeType === 8)!;
    const sub = document.createElement('ul');
    sub.innerHTML = '<li>Garden tools</li>';
    mark.replaceWith(sub);
    await frames.settle();
    sub.replaceWith(mark);
    await frames.settle();
    expect(fake.calls.slice(calls).map((x) => x.markup)).toEqual(['<p i=1>A reply to it</p><p i=2>Garden tools</p>']);
    expect([c.nextElementSibling, item.lastElementChild]).toEqual(copies);
    expect(copies.map((x) => x.outerHTML)).toEqual(shown);
    page.restore();
    expect(document.body.innerHTML).toBe(html.replace(' words</div>', ' words<div class="reply">A reply to it</div></div>'));
  });

  it('a block taken out from between two runs joins them: sent again as one sentence', async () => {
    const fake = marker();
    const { frames } = startPage('<div id="d">Read this <div id="ad">An advert here</div> and that too</div>', fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    document.getElementById('ad')!.remove();
    await frames.settle();
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(['<p i=1>Read this  and that too</p>']);
    expect(document.getElementById('d')!.textContent).toBe('⟦Read this  and that too⟧');
  });

  it("a block beside a run whose elements the translation put in another order: its edge in the page's order is not known, and the run is sent again; restore keeps the block where the page put it", async () => {
    const { translate, calls } = fakeTranslator({ transform: reverseUpper });
    const html = '<div id="d"><a href="/a">one link</a> and <b>two words</b></div>';
    const { page, frames } = startPage(html, translate, pages);
    await frames.settle();
    const d = document.getElementById('d')!;
    expect(d.innerHTML).toBe('<b>TWO WORDS</b> AND <a href="/a">ONE LINK</a>');
    const before = calls.length;
    d.insertAdjacentHTML('beforeend', '<div>Added block</div>');
    await frames.settle();
    expect(calls.slice(before).map((c) => c.markup)).toEqual(['<p i=1>Added block</p><p i=2><a i=3>one link</a> and <b i=4>two words</b></p>']);
    page.restore();
    expect(document.body.innerHTML).toBe(html.replace('</b></div>', '</b><div>Added block</div></div>'));
  });
});
