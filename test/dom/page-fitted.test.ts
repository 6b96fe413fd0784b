/**
 * Our words the page lays out anew (fitted.ts), with the real libraries over a model of the layout
 * (so many characters a line, 20 pixels each: happy-dom lays nothing out): shave writes the card's
 * words again, cut at a word, with the ellipsis and the hidden rest in spans of its own; Clamp.js
 * takes the card's last nodes out and cuts the one left; linkify-element puts a text holding an
 * address again as a text, a link and a text. The card stays translated, nothing is sent, and
 * restore puts its nodes back whole. What the page writes there of its own afterwards is its
 * change, translated, and kept at restore.
 */
import clamp from 'clamp-js';
import linkifyElement from 'linkify-element';
import shave from 'shave';
import { afterEach, describe, expect, it } from 'vitest';
import { fitOf } from '../../src/content/fitted';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const BODY = '<p id="card" style="line-height: 20px">Find the walk in the <b>big walk</b> hills of the north.</p><p>A still paragraph.</p>';
const TRANSLATED = 'FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.';

/** `el` laid out `perLine` characters a line, 20 pixels each: its heights as shave and Clamp.js read them. */
function layOut(el: HTMLElement, perLine: number): void {
  const height = () => {
    // What shows: not a part the page hid.
    let shown = 0;
    for (const t of textsIn(el)) if (!(t.parentElement as HTMLElement).closest('[style*="display: none"]')) shown += t.data.length;
    return Math.ceil(shown / perLine) * 20;
  };
  Object.defineProperty(el, 'offsetHeight', { configurable: true, get: height });
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: height });
}

function textsIn(el: Element): Text[] {
  const out: Text[] = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) out.push(n as Text);
  return out;
}

/** `body` translated, its card reading `shown`: the card, the fake's calls, and what was sent after the first call (plain text). */
async function translated(body = BODY, shown = TRANSLATED) {
  const fake = fakeTranslator();
  const { page, frames } = startPage(body, fake.translate, pages);
  await frames.settle();
  const card = document.getElementById('card')!;
  expect(card.innerHTML).toBe(shown);
  return { fake, page, frames, card, sent: () => fake.calls.slice(1).map((c) => c.markup.replace(/<[^>]*>/g, '')) };
}

describe('our words shave lays out anew', () => {
  /** `BODY` translated, and its card shaved to one line (24 characters). */
  async function shaved() {
    const t = await translated();
    layOut(t.card, 24);
    shave(t.card, 20);
    await t.frames.settle();
    return t;
  }

  it('cut to one line and again narrower: our words in its nodes, nothing sent, the page translated; restore puts the card back whole', async () => {
    const { page, frames, card, sent } = await translated();
    layOut(card, 24);
    shave(card, 20);
    await frames.settle();
    expect(card.innerHTML).toBe('FIND THE WALK IN THE<span class="js-shave-char">…</span><span class="js-shave" style="display: none;"> BIG WALK HILLS OF THE NORTH.</span>');
    // The previous build sent these words again as the page's, and restore left them.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    layOut(card, 12);
    shave(card, 20);
    await frames.settle();
    expect(card.innerHTML).toBe('FIND THE<span class="js-shave-char">…</span><span class="js-shave" style="display: none;"> WALK IN THE BIG WALK HILLS OF THE NORTH.</span>');
    expect(sent()).toEqual([]);
    page.restore();
    // The style attribute is shave's: it sets the card's height and takes it off again.
    expect(document.body.innerHTML).toBe(BODY.replace('style="line-height: 20px"', 'style="line-height: 20px;"'));
  });

  it('a card shave fitted as the page loaded, translated, then fitted again narrower: still ours, nothing sent; restore gives the card as the page loaded it', async () => {
    const fake = fakeTranslator();
    document.body.innerHTML = BODY;
    const card = document.getElementById('card')!;
    layOut(card, 24);
    shave(card, 20);
    const loaded = document.body.innerHTML;
    expect(card.innerHTML).toBe('Find the walk in the<span class="js-shave-char">…</span><span class="js-shave" style="display: none;"> big walk hills of the north.</span>');
    const { page, frames } = startPage(loaded, fake.translate, pages);
    await frames.settle();
    const shown = document.getElementById('card')!;
    expect(shown.innerHTML).toBe('FIND THE WALK IN THE<span class="js-shave-char">…</span><span class="js-shave" style="display: none;"> BIG WALK HILLS OF THE NORTH.</span>');
    const calls = fake.calls.length;
    layOut(shown, 12);
    shave(shown, 20);
    await frames.settle();
    expect(shown.innerHTML).toBe('FIND THE<span class="js-shave-char">…</span><span class="js-shave" style="display: none;"> WALK IN THE BIG WALK HILLS OF THE NORTH.</span>');
    expect(fake.calls).toHaveLength(calls);
    page.restore();
    expect(document.body.innerHTML).toBe(loaded);
  });

  it("shave's words put back whole in one text (its own undo): still ours, nothing sent; restore puts the card back whole", async () => {
    const { frames, card, page, sent } = await shaved();
    card.removeChild(card.querySelector('.js-shave-char')!);
    card.textContent = card.textContent;
    await frames.settle();
    expect(card.innerHTML).toBe('FIND THE WALK IN THE BIG WALK HILLS OF THE NORTH.');
    expect(sent()).toEqual([]);
    page.restore();
    expect(card.innerHTML).toBe('Find the walk in the <b>big walk</b> hills of the north.');
  });

  it("the page's own words written into the card it shaved: its change, translated; restore keeps them", async () => {
    const { frames, card, page, sent } = await shaved();
    card.textContent = 'Sold out today';
    await frames.settle();
    expect(sent()).toEqual(['Sold out today']);
    expect(card.innerHTML).toBe('SOLD OUT TODAY');
    page.restore();
    // Not the original put back over the page's words.
    expect(card.innerHTML).toBe('Sold out today');
  });

  it("the page's own words written into the text shave made: its change, translated; restore keeps them", async () => {
    const { frames, card, page, sent } = await shaved();
    (card.firstChild as Text).data = 'Sold out';
    await frames.settle();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toContain('Sold out');
    expect((card.firstChild as Text).data).toBe('SOLD OUT');
    page.restore();
    expect((card.firstChild as Text).data).toBe('Sold out');
    expect(card.textContent).not.toContain('Find the walk');
  });
});

describe('our markup written again', () => {
  it('as it is (`innerHTML = innerHTML`, as a script does to bind its handlers again): our words in nodes of the page\'s, nothing sent; restore puts the card back whole', async () => {
    const { frames, card, page, sent } = await translated();
    const b = card.querySelector('b');
    card.innerHTML = card.innerHTML;
    await frames.settle();
    expect(card.innerHTML).toBe(TRANSLATED);
    expect(card.querySelector('b')).not.toBe(b);
    expect(sent()).toEqual([]);
    page.restore();
    expect(document.body.innerHTML).toBe(BODY);
    expect(card.querySelector('b')).toBe(b);
  });
});

describe('our nodes a script wraps', () => {
  it('the card\'s nodes put into a span of the page\'s (to measure them): still our words, nothing sent, and the span kept at restore', async () => {
    const { frames, card, page, sent } = await translated();
    const wrap = document.createElement('span');
    wrap.className = 'measure';
    wrap.append(...card.childNodes);
    card.append(wrap);
    await frames.settle();
    expect(card.innerHTML).toBe(`<span class="measure">${TRANSLATED}</span>`);
    // The previous build sent our words again as the page's own.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    // Its wrapper stays, with the card's own nodes in it, their original words back.
    expect(card.innerHTML).toBe('<span class="measure">Find the walk in the <b>big walk</b> hills of the north.</span>');
  });
});

describe('our words Clamp.js cuts through', () => {
  it('its last nodes of ours taken out and the one left cut: nothing sent, the page translated; restore puts the card back whole', async () => {
    const { page, frames, card, sent } = await translated();
    layOut(card, 24);
    clamp(card, { clamp: 1, useNativeClamp: false });
    await frames.settle();
    // Clamp.js took the last text and the bold words out, and cut the first text.
    expect(card.innerHTML).toBe('FIND THE WALK IN THE…');
    // The previous build sent "FIND THE WALK IN THE…" as the page's words, and restore left it.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(BODY);
  });
});

describe('our words Clamp.js cuts through, a part that says no among them', () => {
  it('the card is one unit with its no: its last nodes taken out, the one left cut; nothing sent; restore puts the card back whole', async () => {
    const body = '<p id="card" style="line-height: 20px">Find the walk in the <b>big walk</b> hills, <span translate="no">Zermatt</span> of the north.</p><p>A still paragraph.</p>';
    const { fake, page, frames, card } = await translated(body, 'FIND THE WALK IN THE <b>BIG WALK</b> HILLS, <span translate="no">Zermatt</span> OF THE NORTH.');
    layOut(card, 24);
    clamp(card, { clamp: 1, useNativeClamp: false });
    await frames.settle();
    expect(card.innerHTML).toBe('FIND THE WALK IN THE…');
    expect(fake.calls).toHaveLength(1);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });
});

describe('our words Clamp.js and shave fit in a card of several units, or in a part of one', () => {
  /** `body` translated (its card reading `shown`), then the card fitted to one line (24 characters) by `fit`. */
  async function fitted(body: string, shown: string, fit: (card: HTMLElement) => void) {
    const t = await translated(body, shown);
    layOut(t.card, 24);
    fit(t.card);
    await t.frames.settle();
    return t;
  }
  const clampOne = (card: HTMLElement) => clamp(card, { clamp: 1, useNativeClamp: false });

  it("a run and a paragraph of its own: Clamp.js takes the paragraph out and cuts the run; nothing sent, the page translated; restore puts the card back whole", async () => {
    const body = '<div id="card" style="line-height: 20px">Find the walk in the <b>big walk</b> hills of the north.<p>Second <i>paragraph</i> of the card.</p></div><p>A still paragraph.</p>';
    const { page, card, sent } = await fitted(body, 'FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.<p>SECOND <i>PARAGRAPH</i> OF THE CARD.</p>', clampOne);
    expect(card.innerHTML).toBe('FIND THE WALK IN THE…');
    // The previous build sent "FIND THE WALK IN THE…" as the page's words, and restore left them.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a run and a paragraph that says no (the page\'s words, kept as they are): Clamp.js takes it out; nothing sent; restore puts the card back whole', async () => {
    const body = '<div id="card" style="line-height: 20px">Find the walk in the <b>big walk</b> hills of the north.<p translate="no">Zermatt and Saas-Fee.</p></div><p>A still paragraph.</p>';
    const { page, card, sent } = await fitted(body, 'FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.<p translate="no">Zermatt and Saas-Fee.</p>', clampOne);
    expect(card.innerHTML).toBe('FIND THE WALK IN THE…');
    expect(sent()).toEqual([]);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('a span of a paragraph: Clamp.js takes its last nodes out and cuts the one left; nothing sent; restore puts the span back whole', async () => {
    const body = '<p>Before it: <span id="card" style="line-height: 20px">find the walk in the <b>big walk</b> hills of the north.</span> After it.</p><p>A still paragraph.</p>';
    const { page, card, sent } = await fitted(body, 'FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.', clampOne);
    expect(card.innerHTML).toBe('FIND THE WALK IN THE…');
    // The previous build sent the paragraph again with the cut span as the page's words.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('two paragraphs: shave writes the card\'s words again as one text, cut; nothing sent; restore gives both paragraphs back', async () => {
    const body = '<div id="card" style="line-height: 20px"><p>Find the walk in the <b>big walk</b> hills of the north.</p><p>Second paragraph of the card.</p></div><p>A still paragraph.</p>';
    const { page, card, sent } = await fitted(body, '<p>FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.</p><p>SECOND PARAGRAPH OF THE CARD.</p>', (c) => shave(c, 20));
    expect(card.querySelector('p')).toBeNull();
    expect(card.textContent).toMatch(/^FIND THE WALK IN THE…/);
    // The previous build sent the card's words as the page's, and restore left them.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
    page.restore();
    // shave writes the card's style (its height), which stays: the page's.
    expect(card.innerHTML).toBe('<p>Find the walk in the <b>big walk</b> hills of the north.</p><p>Second paragraph of the card.</p>');
  });

  it('a list of more than 400 nodes (a feed) is not read as a card: the item the page takes out is its change, out at restore; the one it cuts with an ellipsis shows our words, and its original at restore', async () => {
    const items = Array.from({ length: 250 }, (_, i) => `<p>Item ${i} of the list.</p>`).join('');
    const { fake, page, frames, card } = await translated(`<div id="card">${items}</div>`, items.toUpperCase().replace(/<(\/?)P>/g, '<$1p>'));
    const calls = fake.calls.length;
    card.lastElementChild!.remove();
    (card.lastElementChild!.firstChild as Text).data = 'ITEM 248 OF…';
    await frames.settle();
    // The cut is ours (ours.ts): nothing sent.
    expect(fake.calls).toHaveLength(calls);
    page.restore();
    expect(card.children).toHaveLength(249);
    expect(card.lastElementChild!.textContent).toBe('Item 248 of the list.');
  });

  it("the page takes a card's last paragraph out and puts a link of its own with an ellipsis in its place: its change, translated; kept at restore", async () => {
    const body = '<div id="card" style="line-height: 20px">Find the walk in the <b>big walk</b> hills of the north.<p>Second paragraph of the card.</p></div><p>A still paragraph.</p>';
    const { page, frames, card, sent } = await translated(body, 'FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.<p>SECOND PARAGRAPH OF THE CARD.</p>');
    const more = document.createElement('a');
    more.textContent = 'More…';
    card.querySelector('p')!.replaceWith(more);
    await frames.settle();
    // The run is sent again, as it was, with the page's link.
    expect(sent()).toEqual(['Find the walk in the big walk hills of the north.More…']);
    expect(card.innerHTML).toBe('FIND THE WALK IN THE <b>BIG WALK</b> HILLS OF THE NORTH.<a>MORE…</a>');
    page.restore();
    expect(card.innerHTML).toBe('Find the walk in the <b>big walk</b> hills of the north.<a>More…</a>');
  });
});

describe('our words the page writes again in a part of their place', () => {
  const POST = '<p id="post">Visit example.com for <b>more news about example.org</b> today.</p><p>A still paragraph.</p>';

  async function post() {
    const fake = fakeTranslator();
    const { page, frames } = startPage(POST, fake.translate, pages);
    await frames.settle();
    const p = document.getElementById('post')!;
    expect(p.innerHTML).toBe('VISIT EXAMPLE.COM FOR <b>MORE NEWS ABOUT EXAMPLE.ORG</b> TODAY.');
    return { fake, page, frames, p, sent: () => fake.calls.slice(1).map((c) => c.markup.replace(/<[^>]*>/g, '')) };
  }

  it('the real linkify-element makes links of the addresses in our text, in the bold one too: shown, nothing sent; restore puts the original back whole', async () => {
    const { page, frames, p, sent } = await post();
    linkifyElement(p);
    await frames.settle();
    expect(p.innerHTML).toBe('VISIT <a href="http://EXAMPLE.COM">EXAMPLE.COM</a> FOR <b>MORE NEWS ABOUT <a href="http://EXAMPLE.ORG">EXAMPLE.ORG</a></b> TODAY.');
    // The previous build sent the linked paragraph as the page's words, and restore left them.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(POST);
  });

  it('a highlighter that writes our text again as a span of its own with its marks: shown, nothing sent; restore puts the original back whole', async () => {
    const { page, frames, p, sent } = await post();
    const t = p.firstChild as Text;
    const span = document.createElement('span');
    span.innerHTML = t.data.replace(/EXAMPLE/g, '<mark>$&</mark>');
    t.replaceWith(span);
    await frames.settle();
    expect(p.innerHTML).toBe('<span>VISIT <mark>EXAMPLE</mark>.COM FOR </span><b>MORE NEWS ABOUT EXAMPLE.ORG</b> TODAY.');
    expect(sent()).toEqual([]);
    page.restore();
    expect(document.body.innerHTML).toBe(POST);
  });

  it('our text replaced by words of the page\'s own: its change, translated; restore keeps them', async () => {
    const { frames, page, p, sent } = await post();
    (p.firstChild as Text).replaceWith(document.createTextNode('Read '), document.createElement('br'));
    await frames.settle();
    expect(sent()).toEqual(['Read more news about example.org today.']);
    page.restore();
    expect(p.innerHTML).toBe('Read <br><b>more news about example.org</b> today.');
  });

  it('a link the page made of our words, then given words of its own: its change, translated; kept at restore', async () => {
    const { page, frames, p, sent } = await post();
    linkifyElement(p);
    await frames.settle();
    (p.querySelector('a')!.firstChild as Text).data = 'our site';
    await frames.settle();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toContain('our site');
    expect(p.querySelector('a')!.textContent).toBe('OUR SITE');
    page.restore();
    // Not the original put back over the page's link (our words beside it, which the page wrote
    // again, stay as it wrote them).
    expect(p.querySelector('a')!.textContent).toBe('our site');
  });

  it('another text of the paragraph changed by the page after its links were made: the paragraph translated again, the links kept', async () => {
    const { page, frames, p, sent } = await post();
    linkifyElement(p);
    await frames.settle();
    (p.lastChild as Text).data = ' tomorrow.';
    await frames.settle();
    expect(sent()).toHaveLength(1);
    // The page's links stay where it made them while translated.
    expect(p.querySelectorAll('a')).toHaveLength(2);
    expect(p.textContent).toContain('TOMORROW.');
    page.restore();
    expect(p.querySelectorAll('a')).toHaveLength(2);
    expect(p.lastChild!.textContent).toBe(' tomorrow.');
  });

  it('in code the unit keeps as it is, the page\'s links are its own: kept at restore', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage('<p id="post">See <code>example.com</code> now.</p>', fake.translate, pages);
    await frames.settle();
    const code = document.querySelector('code')!;
    linkifyElement(code);
    await frames.settle();
    page.restore();
    expect(document.getElementById('post')!.innerHTML).toBe('See <code><a href="http://example.com">example.com</a></code> now.');
  });
});

describe('fitOf', () => {
  it('is our words written anew, laid out or cut short with an ellipsis of the page\'s, and nothing else', () => {
    const was = 'UN PASEO por la montaña';
    // Written anew in nodes of the page's: as they were, laid out, or with the rest after an ellipsis (shave).
    expect(fitOf(was, 'UN PASEO por la montaña', true)).toBe(true);
    expect(fitOf(was, 'UN  PASEO por la mon\u00ADtaña', true)).toBe(true);
    expect(fitOf(was, 'UN PASEO por... la montaña', true)).toBe(true);
    expect(fitOf(was, 'UN PASEO por… la montaña', true)).toBe(true);
    // The same words in some of our nodes still: the page took out a node with no words (an image).
    expect(fitOf(was, 'UN PASEO por la montaña', false)).toBe(false);
    // Cut short (Clamp.js), in our nodes or the page's; cut before, cut further now.
    expect(fitOf(was, 'UN PASEO por…', false)).toBe(true);
    expect(fitOf(was, 'UN PASEO…', true)).toBe(true);
    expect(fitOf('UN PASEO por la…', 'UN PASEO…', false)).toBe(true);
    // Not ours: a start with no ellipsis, or with our own ("Wait..." before a link the page took
    // out), other words, no words, an ellipsis alone.
    expect(fitOf(was, 'UN PASEO', false)).toBe(false);
    expect(fitOf('ESPERA... y LEE MÁS', 'ESPERA...', false)).toBe(false);
    expect(fitOf(was, 'Cargando…', true)).toBe(false);
    expect(fitOf(was, '…', true)).toBe(false);
    expect(fitOf(was, '', true)).toBe(false);
    expect(fitOf('   ', '…', true)).toBe(false);
  });
});
