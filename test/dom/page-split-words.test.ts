/**
 * A heading a script split into an element per letter for an animation (Splitting.js, SplitType,
 * GSAP's SplitText): each word is sent whole, as one tag, and its translation written back into
 * the same letters, a character each, the animation's elements kept; restore gives the page back
 * exactly. The real libraries, through the built extension and the real Apertium: e2e
 * page-apertium.test.ts (Chromium) and firefox-split.test.ts (Firefox).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage, wordsBy } from './page-fakes';

/** Each letter as the page's script writes it. */
const split = (word: string, tag = 'span', cls = 'char') =>
  [...word].map((c) => `<${tag} class="${cls}" style="display: inline-block">${c}</${tag}>`).join('');

/** Splitting.js: a word element around each word's letters, a space element between words. */
const splitting = (words: string[]) => words.map((w) => `<span class="word">${split(w)}</span>`).join('<span class="whitespace"> </span>');

/** Splitting.js's own markup: its word element and letters with their copies (`data-word`, `data-char`, which its style draws), `extra` on each letter. */
const splittingWord = (w: string, extra = '') =>
  `<span class="word" data-word="${w}">${[...w].map((c) => `<span class="char" data-char="${c}"${extra}>${c}</span>`).join('')}</span>`;

/** SplitType with `types: 'chars'`: the letters straight in the heading, the spaces as texts. */
const charsOnly = (words: string[]) => words.map((w) => split(w, 'div')).join(' ');

/** The fake's translation of a word sent whole, in the tag it came in; other texts upper-cased. */
const WORDS: Record<string, string> = { Welcome: 'Bienvenido', to: 'a', our: 'nuestro', garden: 'jardín', é: 'è' };
const translateWords = wordsBy(WORDS);

describe('a heading split into a letter per element', () => {
  const pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages.splice(0)) p.restore();
  });
  let page: PageTranslator | undefined;

  function translate(body: string, transform: (w: Element) => void = translateWords) {
    const { translate: fn, calls } = fakeTranslator({ transform });
    const started = startPage(body, fn, pages);
    page = started.page;
    return { calls, original: body, settle: () => started.frames.settle() };
  }
  /** The heading's text, and each letter element's. */
  const read = () => {
    const h = document.querySelector('h1')!;
    return { text: h.textContent, letters: [...h.querySelectorAll('.char')].map((c) => c.textContent) };
  };

  it('sends each word of Splitting.js whole and writes its translation into its letters', async () => {
    const { calls, original, settle } = translate(`<h1>${splitting(['Welcome', 'to', 'our', 'garden'])}</h1>`);
    const letters = [...document.querySelectorAll('.char')];
    await settle();
    expect(calls[0]!.markup).toBe(
      '<p i=1><span i=2><span i=3>Welcome</span></span><span i=4> </span><span i=5><span i=6>to</span></span>' +
        '<span i=7> </span><span i=8><span i=9>our</span></span><span i=10> </span><span i=11><span i=12>garden</span></span></p>',
    );
    // "Bienvenido" in the 7 letters of "Welcome": one a letter, the last the rest; "a" in the 2 of "to".
    expect(read()).toEqual({
      text: 'Bienvenido a nuestro jardín',
      letters: ['B', 'i', 'e', 'n', 'v', 'e', 'nido', 'a', '', 'n', 'u', 'estro', 'j', 'a', 'r', 'd', 'í', 'n'],
    });
    // The same elements, for the animation.
    expect([...document.querySelectorAll('.char')]).toEqual(letters);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('writes the translation into what Splitting.js copies of each letter and word for its style (data-char, data-word), and restores them', async () => {
    // Its style draws `attr(data-char)` again over each letter; `data-note` is no copy.
    const word = (w: string) => splittingWord(w, ' data-note="x"');
    const { original, settle } = translate(`<h1 class="splitting">${word('Welcome')}<span class="whitespace"> </span>${word('to')}</h1>`);
    await settle();
    const chars = [...document.querySelectorAll('.char')];
    expect(read().text).toBe('Bienvenido a');
    // Each letter's copy reads as the letter does, the last of "Welcome" holding the rest, an emptied one empty.
    expect(chars.map((c) => [c.textContent, c.getAttribute('data-char')])).toEqual(
      ['B', 'i', 'e', 'n', 'v', 'e', 'nido', 'a', ''].map((c) => [c, c]),
    );
    expect([...document.querySelectorAll('.word')].map((w) => w.getAttribute('data-word'))).toEqual(['Bienvenido', 'a']);
    // What does not repeat the text is the page's, untouched.
    expect(chars.every((c) => c.getAttribute('data-note') === 'x')).toBe(true);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('sends the letters of SplitType written straight into the heading as words, and moves them as the translation does', async () => {
    // The provider puts the last word first, as a translation may.
    const lastFirst = (w: Element) => {
      translateWords(w);
      const tags = [...w.children];
      w.prepend(tags.at(-1)!, ' ');
    };
    const { calls, original, settle } = translate(`<h1>${charsOnly(['Welcome', 'to', 'our', 'garden'])}</h1>`, lastFirst);
    await settle();
    expect(calls[0]!.markup).toBe('<p i=1><span i=2>Welcome</span> <span i=3>to</span> <span i=4>our</span> <span i=5>garden</span></p>');
    expect(read().text).toBe('jardín Bienvenido a nuestro ');
    expect(document.querySelector('h1')!.firstElementChild!.textContent).toBe('j');
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('sends the letters of Lettering.js, each class numbered and each space an element too, as words', async () => {
    const sentence = 'Welcome to our';
    const lettering = [...sentence].map((c, i) => `<span class="char${i + 1}" aria-hidden="true">${c}</span>`).join('');
    const { calls, original, settle } = translate(`<h1 aria-label="${sentence}">${lettering}</h1>`);
    await settle();
    // The label it puts on the heading, for screen readers, then the heading.
    expect(calls[0]!.markup).toBe('<p i=1>Welcome to our</p><p i=2><span i=3>Welcome</span><span i=4> </span><span i=5>to</span><span i=6> </span><span i=7>our</span></p>');
    expect(document.querySelector('h1')!.textContent).toBe('Bienvenido a nuestro');
    expect(document.querySelector('h1')!.getAttribute('aria-label')).toBe('Bienvenido a nuestro');
    expect(document.querySelectorAll('h1 > span')).toHaveLength(sentence.length);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('keeps a translation of two words apart with a no-break space, and a letter with its accents one character', async () => {
    const { original, settle } = translate(
      `<h1>${splitting(['Welcome', 'home'])}</h1>`,
      (w) => {
        translateWords(w);
        // "home" as two words; "Welcome" as a word with a letter and a combining accent.
        w.querySelector('[i="3"]')!.textContent = 'Bie\u0301n';
        w.querySelector('[i="6"]')!.textContent = 'a casa';
      },
    );
    await settle();
    expect(read().letters).toEqual(['B', 'i', 'e\u0301', 'n', '', '', '', 'a', '\u00a0', 'c', 'asa']);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('empties the letters of a word the provider left out, its words being in the sentence', async () => {
    const dropTags = (w: Element) => {
      translateWords(w);
      for (const el of [...w.querySelectorAll('[i]')]) el.replaceWith(...el.childNodes);
    };
    const { original, settle } = translate(`<h1>${charsOnly(['Welcome', 'to', 'our', 'garden'])}</h1>`, dropTags);
    await settle();
    expect(read().text).toBe('Bienvenido a nuestro jardín');
    expect(document.querySelectorAll('.char')).toHaveLength(18);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it("empties Splitting.js's copies of the letters of a word the provider left out with them", async () => {
    const dropTags = (w: Element) => {
      translateWords(w);
      for (const el of [...w.querySelectorAll('[i]')]) el.replaceWith(...el.childNodes);
    };
    const { original, settle } = translate(`<h1>${splittingWord('Welcome')}<span class="whitespace"> </span>${splittingWord('garden')}</h1>`, dropTags);
    await settle();
    // The words in the heading's text, after the empty letters and the space's element; no letter
    // nor word drawn again from its copy.
    expect(read()).toEqual({ text: ' Bienvenido jardín', letters: Array(13).fill('') });
    expect([...document.querySelectorAll('[data-char], [data-word]')].map((c) => c.getAttribute('data-char') ?? c.getAttribute('data-word'))).toEqual(Array(15).fill(''));
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('sends as they are what is not a split word: a drop cap, a name in two colours, links side by side, stars', async () => {
    const { calls, settle } = translate(
      '<h1>Hi</h1><p><span class="cap">T</span>he end <span class="a">Y</span><span class="b">T</span> is <b>a</b><i>b</i> here ' +
        '<a href="/1">1</a><a href="/2">2</a> and <span class="s">★</span><span class="s">★</span> stars.</p>',
    );
    await settle();
    expect(calls[0]!.markup).toBe(
      '<p i=1>Hi</p><p i=2><span i=3>T</span>he end <span i=4>Y</span><span i=5>T</span> is <b i=6>a</b><i i=7>b</i> here ' +
        '<a i=8>1</a><a i=9>2</a> and <span i=10>★</span><span i=11>★</span> stars.</p>',
    );
  });
});
