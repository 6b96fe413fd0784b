/**
 * A heading or paragraph a script split into a block per line for an animation (SplitType's and
 * GSAP SplitText's `lines`, with a mask around each line or not): its lines are sent as the one
 * sentence they are, a space between them, and the translation written back into the same lines;
 * restore gives the page back exactly. Blocks of one kind that layout says do not flow from one
 * into the next (a list of messages) stay units of their own. Layout is stated here (`flows`); the
 * real check, with the real libraries, the built extension and the real Apertium: e2e
 * page-apertium.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage, wordsBy } from './page-fakes';
import { textFlows } from '../../src/content/split-lines';

const LINE = 'style="display: block; text-align: start; width: 100%;"';
/** SplitType with `types: 'lines, words, chars'`: a block per line, an inline block per word and per letter, a space between words. */
const splitType = (lines: string[][]) =>
  lines
    .map(
      (words) =>
        `<div class="line" ${LINE}>` +
        words.map((w) => `<div class="word" style="display: inline-block;">${[...w].map((c) => `<div class="char" style="display: inline-block;">${c}</div>`).join('')}</div>`).join(' ') +
        '</div>',
    )
    .join('');
/** GSAP SplitText with `type: 'lines', mask: 'lines'`: each line's text in a block, in a mask. */
const masked = (lines: string[]) => lines.map((l) => `<div class="line-mask" style="display: block; overflow: clip;"><div class="line" ${LINE}>${l}</div></div>`).join('');

const WORDS: Record<string, string> = { Welcome: 'Bienvenido', to: 'a', our: 'nuestro', beautiful: 'bello', garden: 'jardín', and: 'y', its: 'sus', flowers: 'flores' };
const translateWords = wordsBy(WORDS);

describe('a text split into a block per line', () => {
  const pages: PageTranslator[] = [];
  afterEach(() => {
    for (const p of pages.splice(0)) p.restore();
  });
  let page: PageTranslator | undefined;

  function translate(body: string, flows: (lines: readonly Element[]) => boolean = () => true, transform: (w: Element) => void = translateWords) {
    const { translate: fn, calls } = fakeTranslator({ transform });
    const started = startPage(body, fn, pages, { flows });
    page = started.page;
    return { calls, original: body, settle: () => started.frames.settle() };
  }
  const lineTexts = () => [...document.querySelectorAll('.line')].map((l) => l.textContent);

  it('sends the lines of SplitType as one sentence, a space between them, and writes each line back in its own block', async () => {
    const { calls, original, settle } = translate(`<h1>${splitType([['Welcome', 'to', 'our'], ['beautiful', 'garden', 'and'], ['its', 'flowers']])}</h1>`);
    const lines = [...document.querySelectorAll('.line')];
    await settle();
    expect(calls).toHaveLength(1);
    // The words of a line, then a space, then the next line's: not "ourbeautiful".
    const text = calls[0]!.markup.replace(/<[^>]*>/g, '');
    expect(text).toBe('Welcome to our beautiful garden and its flowers');
    expect(calls[0]!.markup).toMatch(/^<p i=1><span i=2><span i=3><span i=4>Welcome<\/span><\/span> /);
    expect(lineTexts()).toEqual(['Bienvenido a nuestro', 'bello jardín y', 'sus flores']);
    // The script's blocks, for its animation.
    expect([...document.querySelectorAll('.line')]).toEqual(lines);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('lets the translation move a word into another line, as the sentence reads', async () => {
    // "beautiful garden" as "jardín bello": the provider moves the line's first word after its second.
    const reorder = (w: Element) => {
      w.innerHTML = w.innerHTML.replace('<span i="2">Welcome to our</span> <span i="3">beautiful garden and</span>', '<span i="2">Welcome to our garden</span> <span i="3">beautiful and</span>');
      translateWords(w);
    };
    const { calls, original, settle } = translate(`<h2>${masked(['Welcome to our', 'beautiful garden and', 'its flowers'])}</h2>`, () => true, reorder);
    await settle();
    // A mask and its line are one tag: nothing of the mask is sent.
    expect(calls[0]!.markup).toBe('<p i=1><span i=2>Welcome to our</span> <span i=3>beautiful garden and</span> <span i=4>its flowers</span></p>');
    expect(lineTexts()).toEqual(['Bienvenido a nuestro jardín', 'bello y', 'sus flores']);
    expect(document.querySelectorAll('.line-mask > .line')).toHaveLength(3);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('reads the lines of anime.js beside its text for screen readers, visually hidden before them, of their kind or not', async () => {
    // A block, as a browser lays out what is positioned absolutely (happy-dom does not).
    const hidden = (text: string) => `<span style="position: absolute; display: block; overflow: hidden; width: 1px; height: 1px; white-space: nowrap;">${text}</span>`;
    const line = (i: number, text: string, cls = '') => `<span${cls} data-line="${i}" aria-hidden="true" style="display: block;">${text}</span>`;
    const { calls, original, settle } = translate(
      `<h1>${hidden('Welcome to our garden')}${line(0, 'Welcome to our')}${line(1, 'garden')}</h1>` +
        `<h2>${hidden('its flowers')}${line(0, 'its', ' class="line"')}${line(1, 'flowers', ' class="line"')}</h2>`,
    );
    await settle();
    expect(calls.map((c) => c.markup)).toEqual([
      '<p i=1>Welcome to our garden</p><p i=2><span i=3>Welcome to our</span> <span i=4>garden</span></p>' +
        '<p i=5>its flowers</p><p i=6><span i=7>its</span> <span i=8>flowers</span></p>',
    ]);
    expect(lineTexts()).toEqual(['sus', 'flores']);
    expect([...document.querySelectorAll('[data-line]')].map((l) => l.textContent)).toEqual(['Bienvenido a nuestro', 'jardín', 'sus', 'flores']);
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('keeps blocks of one kind that do not flow into one another as units of their own: a list of messages', async () => {
    const asked: string[][] = [];
    const { calls, settle } = translate('<div class="chat"><div class="msg">Welcome to our garden</div><div class="msg">its flowers</div></div><h1>Welcome</h1>', (lines) => {
      asked.push(lines.map((l) => l.textContent!));
      return false;
    });
    await settle();
    expect(asked).toEqual([['Welcome to our garden', 'its flowers']]);
    expect(calls.map((c) => c.markup)).toEqual(['<p i=1>Welcome to our garden</p><p i=2>its flowers</p><p i=3>Welcome</p>']);
    expect(document.body.textContent).toBe('Bienvenido a nuestro jardínsus floresBienvenido');
  });

  it('does not ask layout of blocks of different kinds, of paragraphs or list items, nor of one with a block or no letter in it', async () => {
    const asked: string[][] = [];
    const { calls, settle } = translate(
      '<div><div class="a">Welcome to</div><div class="b">our garden</div></div>' +
        '<div><div class="a">Welcome to</div><div class="a"><p>our</p><p>garden</p></div></div>' +
        '<div><div class="a">Welcome to</div><div class="a">42</div></div>' +
        '<div><p>Welcome to</p><p>our garden</p></div><ul><li>Welcome to</li><li>our garden</li></ul>',
      (lines) => {
        asked.push(lines.map((l) => l.textContent!));
        return true;
      },
    );
    await settle();
    expect(asked).toEqual([]);
    // Each block alone (a text the page repeats is sent once).
    expect(calls.map((c) => c.markup)).toEqual(['<p i=1>Welcome to</p><p i=2>our garden</p><p i=3>our</p><p i=4>garden</p>']);
  });

  it('reads a block alone in a block beside its like without asking of it again (what a property test found)', async () => {
    // The first block's content is read as a line might be; its block, alone in it, asked if it is a line's mask.
    const { calls, original, settle } = translate('<div><div><a href="/x">Welcome</a></div>to</div><div>our garden</div>', textFlows);
    await settle();
    expect(calls.map((c) => c.markup)).toEqual(['<p i=1>Welcome</p><p i=2>to</p><p i=3>our garden</p>']);
    expect(document.body.textContent).toBe('Bienvenidoanuestro jardín');
    page!.restore();
    expect(document.body.innerHTML).toBe(original);
  });

  it('sends a heading the script splits again (a resize) as one sentence again', async () => {
    const { calls, original, settle } = translate(`<h2>${masked(['Welcome to our', 'garden'])}</h2>`);
    await settle();
    expect(lineTexts()).toEqual(['Bienvenido a nuestro', 'jardín']);
    // The script puts the text back and splits it in other lines.
    document.querySelector('h2')!.innerHTML = masked(['Welcome to', 'our garden']);
    await settle();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.markup.replace(/<[^>]*>/g, '')).toBe('Welcome to our garden');
    expect(lineTexts()).toEqual(['Bienvenido a', 'nuestro jardín']);
    page!.restore();
    expect(document.querySelector('h2')!.innerHTML).toBe(masked(['Welcome to', 'our garden']));
    expect(original).toContain('Welcome to our');
  });
});
