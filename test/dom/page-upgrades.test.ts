/**
 * Web components defined after the page was segmented (upgrades.ts): the page world says when a
 * name the walk waited for is defined, and what the new shadow roots hold is translated, followed
 * and restored. Here both worlds are one (happy-dom), so the page world's side runs beside ours;
 * happy-dom has no `:defined`, so the test says which elements wait by the registry.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { shadowReader } from '../../src/content/shadow';
import { ASK_UPGRADE, serveUpgrades, UPGRADED } from '../../src/content/upgrades';
import { fakeTranslator, manualFrames } from './page-fakes';

const awaitsDefinition = (el: Element) => el.localName.includes('-') && !customElements.get(el.localName);

/** Every root our components made, by host: closed roots as the browser hands them to the extension (happy-dom has no such API). */
const made = new Map<Element, ShadowRoot>();

/** Defines `name` with a root of `mode` holding `html`. */
function define(name: string, html: string, mode: ShadowRootMode = 'open'): { roots: ShadowRoot[] } {
  const roots: ShadowRoot[] = [];
  customElements.define(
    name,
    class extends HTMLElement {
      constructor() {
        super();
        const root = this.attachShadow({ mode });
        root.innerHTML = html;
        roots.push(root);
        made.set(this, root);
      }
    },
  );
  return { roots };
}

/** Names asked of the page world. */
const asked: string[] = [];

async function translated(body: string) {
  document.body.innerHTML = body;
  const fake = fakeTranslator();
  const frames = manualFrames();
  const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, display: () => 'block', awaitsDefinition, shadow: shadowReader((el) => made.get(el) ?? null) });
  pages.push(page);
  const before = document.body.innerHTML;
  page.start('en', 'es');
  await frames.settle();
  return { page, frames, fake, before };
}

/** The registry's answer, and what it set off, written. */
async function settled(frames: ReturnType<typeof manualFrames>) {
  await new Promise((r) => setTimeout(r, 0));
  await frames.settle();
}

let pages: PageTranslator[] = [];
beforeAll(() => {
  serveUpgrades(document, customElements);
  document.addEventListener(ASK_UPGRADE, (e) => asked.push(String((e as CustomEvent).detail)));
});
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
  asked.length = 0;
  document.body.innerHTML = '';
});

describe('the page world: when a name is defined', () => {
  it('answers once the registry has the name, at once if it has it already; once per wait; nothing for what is not a name', async () => {
    const answers: unknown[] = [];
    const listen = (e: Event) => answers.push((e as CustomEvent).detail);
    document.addEventListener(UPGRADED, listen);
    const ask = (detail: unknown) => document.dispatchEvent(new CustomEvent(ASK_UPGRADE, { detail }));
    ask('x-answer-later');
    ask('x-answer-later');
    ask({ name: 'x-answer-later' });
    ask('no_hyphen');
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toEqual([]);
    define('x-answer-later', '');
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toEqual(['x-answer-later']);
    // Asked again (a later translation of the page): answered at once.
    ask('x-answer-later');
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toEqual(['x-answer-later', 'x-answer-later']);
    document.removeEventListener(UPGRADED, listen);
  });

  it("answers with what it took at the start, whatever the page's scripts replace later", async () => {
    const doc = document.implementation.createHTMLDocument('');
    let resolve!: () => void;
    const registry = { whenDefined: () => new Promise<void>((r) => (resolve = r)) };
    serveUpgrades(doc, registry);
    const answers: unknown[] = [];
    doc.addEventListener(UPGRADED, (e) => answers.push((e as CustomEvent).detail));
    const saved = globalThis.CustomEvent;
    doc.dispatchEvent(new saved(ASK_UPGRADE, { detail: 'x-patched' }));
    // The page's scripts, later: a broken polyfill and a patched registry. (Not a patched
    // `dispatchEvent`: happy-dom's own dispatch calls it on each node of the path.)
    registry.whenDefined = () => Promise.reject(new Error('patched'));
    Object.assign(globalThis, { CustomEvent: function Broken() { throw new Error('polyfill'); } });
    try {
      resolve();
      await new Promise((r) => setTimeout(r, 0));
    } finally {
      Object.assign(globalThis, { CustomEvent: saved });
    }
    expect(answers).toEqual(['x-patched']);
  });

  it('with no registry (a page world without custom elements), nothing is listened for', () => {
    const doc = document.implementation.createHTMLDocument('');
    expect(() => serveUpgrades(doc, null)).not.toThrow();
  });
});

describe('a web component defined after the page was translated', () => {
  it("its new shadow root is translated in one more call (its light DOM was already), followed, and restored exactly", async () => {
    const { page, frames, fake, before } = await translated('<main><p>Page text</p><x-late-card><b>Light words</b></x-late-card></main>');
    expect(asked).toEqual(['x-late-card']);
    expect(document.querySelector('x-late-card')!.innerHTML).toBe('<b>LIGHT WORDS</b>');
    const sent = fake.calls.length;
    const { roots } = define('x-late-card', '<h2>Card title</h2><slot></slot>', 'closed');
    await settled(frames);
    const root = roots[0]!;
    expect(root.innerHTML).toBe('<h2>CARD TITLE</h2><slot></slot>');
    expect(fake.calls.slice(sent).map((c) => c.markup)).toEqual(['<p i=1>Card title</p>']);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    // What it renders next into its root is followed (the root is observed now).
    root.append(Object.assign(document.createElement('p'), { textContent: 'Rendered a moment later' }));
    await frames.settle();
    expect(root.innerHTML).toBe('<h2>CARD TITLE</h2><slot></slot><p>RENDERED A MOMENT LATER</p>');
    page.restore();
    expect(root.innerHTML).toBe('<h2>Card title</h2><slot></slot><p>Rendered a moment later</p>');
    expect(document.body.innerHTML).toBe(before);
  });

  it('an inline host in a translated paragraph: only its root is sent, the paragraph stays as written', async () => {
    const { page, frames, fake, before } = await translated('<p>Rated <x-late-stars></x-late-stars> by readers</p>');
    const sent = fake.calls.length;
    const p = document.querySelector('p')!.innerHTML;
    const { roots } = define('x-late-stars', '<span>Five stars</span>');
    await settled(frames);
    expect(roots[0]!.innerHTML).toBe('<span>FIVE STARS</span>');
    expect(fake.calls.slice(sent).map((c) => c.markup)).toEqual(['<p i=1>Five stars</p>']);
    expect(document.querySelector('p')!.innerHTML).toBe(p);
    page.restore();
    expect(roots[0]!.innerHTML).toBe('<span>Five stars</span>');
    expect(document.body.innerHTML).toBe(before);
  });

  it('an answer the page sends before the definition changes nothing; the real one is still heard', async () => {
    const { frames, fake } = await translated('<main><p>Page text</p><x-late-note></x-late-note></main>');
    const sent = fake.calls.length;
    document.dispatchEvent(new CustomEvent(UPGRADED, { detail: 'x-late-note' }));
    document.dispatchEvent(new CustomEvent(UPGRADED, { detail: 'x-never-met' }));
    await settled(frames);
    expect(fake.calls.length).toBe(sent);
    const { roots } = define('x-late-note', '<p>Note text</p>');
    await settled(frames);
    expect(roots[0]!.innerHTML).toBe('<p>NOTE TEXT</p>');
  });

  it('defined after a restore: nothing is translated; elements defined already and plain elements are not asked about', async () => {
    define('x-ready-made', '');
    const { page, frames, fake } = await translated('<main><p>Page text</p><x-ready-made>Light</x-ready-made><x-late-after>Words</x-late-after></main>');
    expect(asked).toEqual(['x-late-after']);
    page.restore();
    const sent = fake.calls.length;
    const { roots } = define('x-late-after', '<p>Shadow text</p>');
    await settled(frames);
    expect(fake.calls.length).toBe(sent);
    expect(roots[0]!.innerHTML).toBe('<p>Shadow text</p>');
  });
});
