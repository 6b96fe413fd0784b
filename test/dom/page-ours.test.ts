/**
 * Our words the page reshapes (ours.ts): cut to fit (a line clamped with an ellipsis, as Clamp.js
 * does: the last Text node's value shortened word by word), laid out (soft hyphens), or split and
 * wrapped by a highlighter (as mark.js does). What shows stays translated, nothing is sent for it,
 * a clamp that watches its line does not fight us, and restore puts the original words back. A
 * new text of the page's, or its own original cut, is translated as any change is.
 */
import Mark from 'mark.js';
import rangy from 'rangy';
import 'rangy/lib/rangy-classapplier';
import { afterEach, describe, expect, it } from 'vitest';
import { cutOf } from '../../src/content/ours';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, manualClock, reverseUpper, startPage, upper } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

/** Cuts `el`'s last text word by word until it is at most `max` characters with its ellipsis (Clamp.js's way). */
function clamp(el: Element, max: number): void {
  const t = el.lastChild as Text;
  let s = t.data;
  while (s.length > max && s.includes(' ')) {
    s = s.slice(0, s.lastIndexOf(' ')).trimEnd();
    t.data = s + '…';
    s = t.data;
  }
}

const ORIGINAL = '<h2 id="line">A walk in the mountains</h2><p>A still paragraph.</p>';

async function translated(body = ORIGINAL, fake = fakeTranslator()) {
  const clock = manualClock();
  const { page, frames } = startPage(body, fake.translate, pages, { clock });
  await frames.settle();
  expect(fake.calls).toHaveLength(1);
  const line = document.getElementById('line')!;
  return { fake, clock, page, frames, line, sent: () => fake.calls.slice(1).map((c) => c.markup.replace(/<[^>]*>/g, '')) };
}

describe('our words the page cuts to fit, or lays out', () => {
  it('a clamp run again (a resize) cuts the translated line: the cut shows, nothing is sent, the page stays translated, and restore puts the whole original back', async () => {
    const { line, frames, page, sent } = await translated();
    expect(line.textContent).toBe('A WALK IN THE MOUNTAINS');
    clamp(line, 14);
    await frames.settle();
    expect(line.textContent).toBe('A WALK IN THE…');
    // The previous build sent the cut as the page's own words and wrote their "translation".
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    // Not our cut words: the previous build left "A WALK IN THE…" in the page.
    expect(document.body.innerHTML).toBe(ORIGINAL);
  });

  it('a clamp that watches its line cuts each answer as it is written: one call, no fight over a minute, restore exact', async () => {
    const body = '<h2 id="line">A walk uphill</h2><p>A still paragraph.</p>';
    // The translation is longer than the original, and the page's clamp (14 characters) cuts it.
    const fake = fakeTranslator({
      transform: (w) => {
        upper(w);
        if (w.textContent!.startsWith('A WALK')) w.append(' AND BACK');
      },
    });
    document.body.innerHTML = body;
    const watch = new MutationObserver(() => clamp(document.getElementById('line')!, 14));
    watch.observe(document.body, { subtree: true, characterData: true, childList: true });
    try {
      const { line, frames, page, sent, clock } = await translated(body, fake);
      await frames.settle();
      expect(line.textContent).toBe('A WALK UPHILL…');
      for (let s = 0; s < 60; s++) {
        clock.advance(1000);
        await frames.settle();
      }
      // The previous build sent the cut again and again, at a changing place's pace.
      expect(sent()).toEqual([]);
      expect(line.textContent).toBe('A WALK UPHILL…');
      expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
      page.restore();
      await frames.settle();
      expect(document.body.innerHTML).toBe(body);
    } finally {
      watch.disconnect();
    }
  });

  it('a clamp that keeps the whole it cut shows more of it when wider, and all of it: still ours, nothing sent, restore exact', async () => {
    const { line, frames, page, sent } = await translated();
    const t = line.firstChild as Text;
    const whole = t.data;
    clamp(line, 8);
    await frames.settle();
    expect(line.textContent).toBe('A WALK…');
    // Wider: the clamp cuts its kept whole again, now at 16.
    t.data = whole;
    clamp(line, 16);
    await frames.settle();
    expect(line.textContent).toBe('A WALK IN THE…');
    t.data = whole;
    await frames.settle();
    expect(line.textContent).toBe('A WALK IN THE MOUNTAINS');
    expect(sent()).toEqual([]);
    page.restore();
    expect(document.body.innerHTML).toBe(ORIGINAL);
  });

  it('a hyphenation script puts soft hyphens into the translated line\'s long words (and evens its spaces): still ours, nothing sent, restore exact', async () => {
    const { line, frames, page, sent } = await translated();
    const t = line.firstChild as Text;
    t.data = t.data.replace(/(\p{L}{4})(\p{L}{3,})/gu, '$1\u00AD$2').replace(/ /g, '  ');
    await frames.settle();
    expect(line.textContent).toBe('A  WALK  IN  THE  MOUN\u00ADTAINS');
    // The previous build sent the laid-out words as the page's, and restore kept them.
    expect(sent()).toEqual([]);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(ORIGINAL);
  });

  it.each([
    ['a new text with an ellipsis', 'Loading…', 'LOADING…'],
    ['its own original cut (a clamp that kept the original)', 'A walk in the…', 'A WALK IN THE…'],
  ])('the page writes %s: its own words, translated, and restore keeps them', async (_, text, shown) => {
    const { line, frames, page, sent } = await translated();
    (line.firstChild as Text).data = text;
    await frames.settle();
    expect(sent()).toEqual([text]);
    expect(line.textContent).toBe(shown);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(`<h2 id="line">${text}</h2><p>A still paragraph.</p>`);
  });

  it('bilingual: the page cuts its own line, not ours: the copy under it says the cut', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(ORIGINAL, fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    const line = document.getElementById('line')!;
    clamp(line, 14);
    await frames.settle();
    expect(fake.calls.at(-1)!.markup.replace(/<[^>]*>/g, '')).toBe('A walk in the…');
    expect(document.body.textContent).toContain('A WALK IN THE…');
    expect(document.body.textContent).not.toContain('MOUNTAINS');
    page.restore();
    expect(document.body.innerHTML).toBe('<h2 id="line">A walk in the…</h2><p>A still paragraph.</p>');
  });
});

/** Wraps each `word` in the texts under `root` in a `<mark>`, as mark.js does (the text split around it). */
function mark(root: Element, word: string): void {
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) if ((n as Text).data.includes(word)) hits.push(n as Text);
  for (let t of hits) {
    for (let at = t.data.indexOf(word); at >= 0; at = t.data.indexOf(word)) {
      const hit = t.splitText(at);
      t = hit.splitText(word.length);
      const m = document.createElement('mark');
      hit.parentNode!.insertBefore(m, hit);
      m.appendChild(hit);
    }
  }
}

/** Takes every mark out, its words left where it was, and joins the texts again (mark.js's `unmark`). */
function unmark(root: Element): void {
  for (const m of root.querySelectorAll('mark')) {
    const parent = m.parentNode!;
    while (m.firstChild) parent.insertBefore(m.firstChild, m);
    m.remove();
    parent.normalize();
  }
}

describe('our words the page splits and wraps (a highlighter)', () => {
  const BODY = '<p id="a">The walk in the <b>big walk</b> hills, a walk today.</p><p>Another one.</p>';

  /** `BODY` translated, and `word` marked in its first paragraph (not yet seen), by `marker`. */
  async function marked(word: string, marker: (p: HTMLElement, word: string) => void = mark) {
    const fake = fakeTranslator();
    const { page, frames } = startPage(BODY, fake.translate, pages);
    await frames.settle();
    const p = document.getElementById('a')!;
    marker(p, word);
    return { fake, page, frames, p };
  }

  it('marks put on the translation: shown, nothing sent, the page translated; restore puts the original words back (the marks left empty), and the marks taken out then leave the page exact', async () => {
    const { fake, page, frames, p } = await marked('WALK');
    await frames.settle();
    expect(p.innerHTML).toBe('THE <mark>WALK</mark> IN THE <b>BIG <mark>WALK</mark></b> HILLS, A <mark>WALK</mark> TODAY.');
    // The previous build sent the paragraph again, its words half original, half translated.
    expect(fake.calls).toHaveLength(1);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    // Not "…A <mark>WALK</mark> TODAY." among the original words, as the previous build left.
    expect(p.textContent).toBe('The walk in the big walk hills, a walk today.');
    expect(p.innerHTML).toBe('The walk in the <mark></mark><b>big walk<mark></mark></b> hills, a walk today.<mark></mark>');
    unmark(p);
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('marks the real mark.js puts on the translation (each word copied into a new mark that takes the place of the part split off): shown, nothing sent; restore puts the original words back', async () => {
    const { fake, page, frames, p } = await marked('WALK', (el, word) => new Mark(el).mark(word, { separateWordSearch: false }));
    await frames.settle();
    expect(p.innerHTML).toBe('THE <mark data-markjs="true">WALK</mark> IN THE <b>BIG <mark data-markjs="true">WALK</mark></b> HILLS, A <mark data-markjs="true">WALK</mark> TODAY.');
    // The previous build took the part taken out for the page's change: the paragraph sent again,
    // and the marks emptied.
    expect(fake.calls).toHaveLength(1);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(p.textContent).toBe('The walk in the big walk hills, a walk today.');
    // mark.js's own unmark misreads happy-dom's tree walker (a mark inside the bold stays, on an
    // untranslated page too): the marks are taken out as it does, by `unmark` (Chromium runs mark.js's own: e2e).
    unmark(p);
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('marks put on and taken out again while translated: nothing sent, the translation as it was, restore exact', async () => {
    const { fake, page, frames, p } = await marked('WALK');
    await frames.settle();
    unmark(p);
    await frames.settle();
    expect(p.innerHTML).toBe('THE WALK IN THE <b>BIG WALK</b> HILLS, A WALK TODAY.');
    mark(p, 'HILLS');
    await frames.settle();
    expect(p.innerHTML).toBe('THE WALK IN THE <b>BIG WALK</b> <mark>HILLS</mark>, A WALK TODAY.');
    expect(fake.calls).toHaveLength(1);
    page.restore();
    unmark(p);
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('marks put on the translation with words of the page\'s own beside them: the page\'s change, the paragraph translated again with its words; restore puts the original back whole and keeps them', async () => {
    const { fake, page, frames, p } = await marked('TODAY');
    const badge = document.createElement('sup');
    badge.textContent = 'new';
    p.querySelector('mark')!.after(badge);
    await frames.settle();
    // The paragraph is undone (its words split off emptied) and sent again with the badge: our
    // words and the page's cannot be told apart in one text, so the original's are whole again.
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup.replace(/<[^>]*>/g, '')).toBe('The walk in the big walk hills, a walk today.new');
    expect(p.innerHTML).toBe('THE WALK IN THE <b>BIG WALK</b> HILLS, A WALK TODAY.<mark></mark><sup>NEW</sup>');
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(p.innerHTML).toBe('The walk in the <b>big walk</b> hills, a walk today.<mark></mark><sup>new</sup>');
  });
});

/** rangy's class applier, as an annotator uses it: each highlight a `<mark class="hl">` around a whole text (split first where the highlight starts or ends inside it). */
function highlighter() {
  rangy.init();
  // Added to rangy by rangy-classapplier.js (its types do not resolve through the package's exports).
  const { createClassApplier } = rangy as unknown as { createClassApplier(name: string, opts: { elementTagName: string }): { applyToRange(r: Range): void; undoToRange(r: Range): void } };
  const applier = createClassApplier('hl', { elementTagName: 'mark' });
  const range = (p: Element, from?: [Node, number], to?: [Node, number]) => {
    const r = rangy.createRange();
    r.selectNodeContents(p);
    if (from) r.setStart(...from);
    if (to) r.setEnd(...to);
    return r;
  };
  return {
    /** Highlights `p`'s content, from and to where given. */
    on: (p: Element, from?: [Node, number], to?: [Node, number]) => applier.applyToRange(range(p, from, to)),
    /** Takes every highlight in `p` away, its texts joined again. */
    off: (p: Element) => applier.undoToRange(range(p)),
  };
}

describe('a long text of ours, sent in pieces, the page splits and wraps (a highlighter)', () => {
  const sentence = (i: number) => `Sentence ${i} tells of the walk in the hills of the north, where the path goes on. `;
  /** One text of ~2 500 characters: sent in pieces at its sentences, each piece's answer written into it. */
  const LONG = Array.from({ length: 30 }, (_, i) => sentence(i)).join('');
  const BODY = `<p id="a">${LONG}</p><p>Another one.</p>`;

  it('the real mark.js marks a word through it: shown, nothing sent, the page translated; restore puts the original words back (the marks left empty), and the marks taken out then leave the page exact', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(BODY, fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    expect(calls).toBeGreaterThan(1);
    const p = document.getElementById('a')!;
    new Mark(p).mark('WALK', { separateWordSearch: false });
    await frames.settle();
    expect(p.querySelectorAll('mark')).toHaveLength(30);
    expect(p.textContent).toBe(LONG.toUpperCase());
    // The previous build sent the paragraph again, our words in it as the page's, and restore left them.
    expect(fake.calls).toHaveLength(calls);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(p.textContent).toBe(LONG);
    unmark(p);
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('rangy highlights a phrase across it, takes it away, and highlights another: nothing sent; restore gives the original words (the mark left empty)', async () => {
    const fake = fakeTranslator();
    const { page, frames } = startPage(BODY, fake.translate, pages);
    await frames.settle();
    const calls = fake.calls.length;
    const p = document.getElementById('a')!;
    const hl = highlighter();
    hl.on(p, [p.firstChild!, 100], [p.firstChild!, 1800]);
    await frames.settle();
    expect(p.querySelector('mark')!.textContent).toBe(LONG.toUpperCase().slice(100, 1800));
    expect(fake.calls).toHaveLength(calls);
    hl.off(p);
    await frames.settle();
    expect(p.textContent).toBe(LONG.toUpperCase());
    hl.on(p, [p.firstChild!, 10], [p.firstChild!, 20]);
    await frames.settle();
    expect(fake.calls).toHaveLength(calls);
    page.restore();
    // The original words whole in our text; the part split off emptied, its mark left, empty.
    expect(p.innerHTML).toBe(`${LONG}<mark class="hl"></mark>`);
    p.querySelector('mark')!.remove();
    p.normalize();
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('marked while a piece is still on its way: the page\'s change, the text sent again as the page shows it, its words not doubled when the piece comes', async () => {
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = startPage(BODY, fake.translate, pages);
    await frames.settle();
    const [first, ...rest] = fake.calls;
    first!.release();
    await frames.settle();
    const p = document.getElementById('a')!;
    mark(p, 'WALK');
    for (const c of rest) c.release();
    await frames.settle();
    for (const c of fake.calls) c.release();
    await frames.settle();
    // Each sentence once, translated.
    expect(p.textContent).toBe(LONG.toUpperCase());
    page.restore();
    expect(p.textContent!.toLowerCase()).toBe(LONG.toLowerCase());
  });
});

describe('our whole texts a highlighter puts marks around (the real rangy class applier)', () => {
  const BODY = '<p id="a">The walk in the <b>big</b> hills of the north.</p><p>Another one.</p>';

  async function translated(body = BODY, fake = fakeTranslator()) {
    const { page, frames } = startPage(body, fake.translate, pages);
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    return { fake, page, frames, p: document.getElementById('a')! };
  }

  it('the whole paragraph highlighted, the highlight taken away and put on again while translated: nothing sent, the page translated; restore keeps the page\'s marks around the original words, and taken away they leave the page exact', async () => {
    const { fake, page, frames, p } = await translated();
    const hl = highlighter();
    hl.on(p);
    await frames.settle();
    expect(p.innerHTML).toBe('<mark class="hl">THE WALK IN THE </mark><b><mark class="hl">BIG</mark></b><mark class="hl"> HILLS OF THE NORTH.</mark>');
    // The previous build sent our words again as the page's own, here and at each change below.
    expect(fake.calls).toHaveLength(1);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    hl.off(p);
    await frames.settle();
    expect(p.innerHTML).toBe('THE WALK IN THE <b>BIG</b> HILLS OF THE NORTH.');
    hl.on(p);
    await frames.settle();
    // The previous build showed the original words here, "translated" over themselves.
    expect(p.innerHTML).toBe('<mark class="hl">THE WALK IN THE </mark><b><mark class="hl">BIG</mark></b><mark class="hl"> HILLS OF THE NORTH.</mark>');
    expect(fake.calls).toHaveLength(1);
    page.restore();
    expect(p.innerHTML).toBe('<mark class="hl">The walk in the </mark><b><mark class="hl">big</mark></b><mark class="hl"> hills of the north.</mark>');
    hl.off(p);
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('a phrase highlighted (its first and last texts split, the whole ones between marked as they are), taken away, then another: nothing sent; restore and the highlight taken away leave the page exact', async () => {
    const { fake, page, frames, p } = await translated();
    const hl = highlighter();
    hl.on(p, [p.firstChild!, 4], [p.lastChild!, 6]);
    await frames.settle();
    expect(p.innerHTML).toBe('THE <mark class="hl">WALK IN THE </mark><b><mark class="hl">BIG</mark></b><mark class="hl"> HILLS</mark> OF THE NORTH.');
    expect(fake.calls).toHaveLength(1);
    hl.off(p);
    await frames.settle();
    expect(p.innerHTML).toBe('THE WALK IN THE <b>BIG</b> HILLS OF THE NORTH.');
    hl.on(p, [p.querySelector('b')!.firstChild!, 0], [p.lastChild!, 6]);
    await frames.settle();
    expect(p.innerHTML).toBe('THE WALK IN THE <b><mark class="hl">BIG</mark></b><mark class="hl"> HILLS</mark> OF THE NORTH.');
    expect(fake.calls).toHaveLength(1);
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(p.textContent).toBe('The walk in the big hills of the north.');
    hl.off(p);
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('a translation that moved the paragraph\'s elements, and one of them put into a span of the page\'s: nothing sent; restore puts them back in the original order, the span in the place of the element it holds', async () => {
    const body = '<p id="a">Go up the <b>big</b><i>north</i> hill.</p><p>Another one.</p>';
    const { fake, page, frames, p } = await translated(body, fakeTranslator({ transform: reverseUpper }));
    expect(p.innerHTML).toBe('HILL.<i>NORTH</i><b>BIG</b>GO UP THE');
    const tip = document.createElement('span');
    tip.className = 'tip';
    const b = p.querySelector('b')!;
    p.insertBefore(tip, b);
    tip.append(b);
    await frames.settle();
    expect(p.innerHTML).toBe('HILL.<i>NORTH</i><span class="tip"><b>BIG</b></span>GO UP THE');
    expect(fake.calls).toHaveLength(1);
    page.restore();
    // Without the span standing in for the element it holds, the write's undo left it last, where
    // the translation had put the bold: "Go up the <i>north</i> hill.<span class="tip">…".
    expect(p.innerHTML).toBe('Go up the <span class="tip"><b>big</b></span><i>north</i> hill.');
  });

  it('nodes of ours the page only moves about in the paragraph, or an image it adds there: its change, the paragraph translated again; restore keeps them', async () => {
    const { fake, page, frames, p } = await translated();
    p.append(p.querySelector('b')!);
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup.replace(/<[^>]*>/g, '')).toBe('The walk in the  hills of the north.big');
    const img = document.createElement('img');
    img.alt = 'a map';
    p.prepend(img);
    await frames.settle();
    expect(fake.calls).toHaveLength(3);
    expect(p.innerHTML).toBe('<img alt="A MAP">THE WALK IN THE  HILLS OF THE NORTH.<b>BIG</b>');
    page.restore();
    expect(p.innerHTML).toBe('<img alt="a map">The walk in the  hills of the north.<b>big</b>');
  });

  it('a mark put around our text with words of the page\'s own in it: the page\'s change, the paragraph translated again with them; restore keeps them', async () => {
    const { fake, page, frames, p } = await translated();
    const mark = document.createElement('mark');
    mark.textContent = 'Note: ';
    const t = p.firstChild!;
    p.insertBefore(mark, t);
    mark.append(t);
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup.replace(/<[^>]*>/g, '')).toBe('Note: The walk in the big hills of the north.');
    expect(p.innerHTML).toBe('<mark>NOTE: THE WALK IN THE </mark><b>BIG</b> HILLS OF THE NORTH.');
    page.restore();
    expect(p.innerHTML).toBe('<mark>Note: The walk in the </mark><b>big</b> hills of the north.');
  });
});

describe('bilingual: our copies the page marks', () => {
  const BODY = '<p id="a">The walk in the <b>big</b> hills.</p><p>Another one.</p>';

  async function copied() {
    const fake = fakeTranslator();
    const { page, frames } = startPage(BODY, fake.translate, pages, { mode: 'bilingual' });
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    const copy = document.getElementById('a')!.nextElementSibling as HTMLElement;
    expect(copy.outerHTML).toBe('<p data-polyglot-bilingual="" lang="es">THE WALK IN THE <b>BIG</b> HILLS.</p>');
    return { fake, page, frames, copy };
  }

  it('the reader highlights the translation (rangy, whole) and marks a word in it (mark.js): the copy keeps the marks, nothing sent, no alternatives there; taken away, the copy as it was; restore takes the copy out, the page exact', async () => {
    const { fake, page, frames, copy } = await copied();
    const hl = highlighter();
    hl.on(copy);
    await frames.settle();
    // The previous build made the copy again from its original at once: the highlight gone, a call sent.
    expect(copy.innerHTML).toBe('<mark class="hl">THE WALK IN THE </mark><b><mark class="hl">BIG</mark></b><mark class="hl"> HILLS.</mark>');
    expect(fake.calls).toHaveLength(1);
    hl.off(copy);
    new Mark(copy).mark('WALK', { separateWordSearch: false });
    await frames.settle();
    expect(copy.innerHTML).toBe('THE <mark data-markjs="true">WALK</mark> IN THE <b>BIG</b> HILLS.');
    expect(fake.calls).toHaveLength(1);
    // No alternatives: a route picked would be written beside the words the mark holds.
    expect(page.translatedAt(copy.querySelector('b')!)).toBeNull();
    expect(page.translatedAt(document.body.lastElementChild!)).not.toBeNull();
    expect(page.status()).toMatchObject({ state: 'translated', done: 2, total: 2, errors: 0 });
    page.restore();
    expect(document.body.innerHTML).toBe(BODY);
  });

  it('words of the page\'s own written into a copy: the copy is made again from its original', async () => {
    const { fake, page, frames, copy } = await copied();
    copy.querySelector('b')!.textContent = 'Loading';
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(document.getElementById('a')!.nextElementSibling!.innerHTML).toBe('THE WALK IN THE <b>BIG</b> HILLS.');
    page.restore();
    expect(document.body.innerHTML).toBe(BODY);
  });
});

describe('cutOf', () => {
  it('is a cut of the whole with an ellipsis after what is kept, and nothing else', () => {
    expect(cutOf('Un paseo por la montaña', 'Un paseo…')).toBe(true);
    expect(cutOf('Un paseo por la montaña', 'Un paseo por...')).toBe(true);
    expect(cutOf('Un paseo por la montaña', 'Un paseo …')).toBe(true);
    expect(cutOf('Un paseo por la montaña', '…')).toBe(true);
    // No ellipsis, another text, or not shorter.
    expect(cutOf('Un paseo por la montaña', 'Un paseo')).toBe(false);
    expect(cutOf('Un paseo por la montaña', 'Cargando…')).toBe(false);
    expect(cutOf('Un paseo', 'Un paseo…')).toBe(false);
    expect(cutOf('Un paseo ', 'Un paseo…')).toBe(false);
  });
});
