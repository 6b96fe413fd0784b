/**
 * Closed shadow roots (shadow.ts): read through what the browser gives a content script (Chrome's
 * `chrome.dom.openOrClosedShadowRoot`, Firefox's `Element.openOrClosedShadowRoot`), asked of custom
 * elements only; a web component's closed root is segmented, translated, followed and restored
 * like an open one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { Segmenter, type RangeUnit } from '../../src/content/segment';
import { closedReader, deepActive, eventTarget, shadowReader } from '../../src/content/shadow';
import { fakeTranslator, manualFrames } from './page-fakes';

/** Closed roots as the browser would hand them to the extension (happy-dom has no such API). */
function closedRoots() {
  const roots = new Map<Element, ShadowRoot>();
  const attach = (host: Element, html: string) => {
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML = html;
    roots.set(host, root);
    return root;
  };
  const asked: string[] = [];
  const read = (el: Element) => {
    asked.push(el.localName);
    return roots.get(el) ?? null;
  };
  return { attach, read, asked };
}

/** `body` translated by a page translator that reads closed roots through `read` (`prepare` runs before). */
async function translated<T>(body: string, read: (el: Element) => ShadowRoot | null, prepare?: (doc: Document) => T) {
  document.head.innerHTML = '';
  document.body.innerHTML = body;
  const root = prepare?.(document);
  const fake = fakeTranslator();
  const frames = manualFrames();
  const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, display: () => 'block', shadow: shadowReader(read) });
  pages.push(page);
  const before = document.body.innerHTML;
  page.start('en', 'es');
  await frames.settle();
  return { page, frames, fake, before, root: root as T };
}

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
  document.body.innerHTML = '';
});

describe('closed shadow roots', () => {
  it("the browser's reader: Chrome's chrome.dom first, else Firefox's property, else none", () => {
    const root = document.createElement('x-a').attachShadow({ mode: 'closed' });
    const chrome = { dom: { openOrClosedShadowRoot: () => root } };
    expect(closedReader({ chrome }, {})!(document.createElement('x-b'))).toBe(root);
    const el = Object.assign(document.createElement('x-c'), { openOrClosedShadowRoot: root });
    expect(closedReader({}, { openOrClosedShadowRoot: null })!(el)).toBe(root);
    expect(closedReader({}, {})).toBeUndefined();
    // Firefox's property is asked of every element (as cheap as shadowRoot); Chrome's API call is not.
    expect(closedReader({}, { openOrClosedShadowRoot: null })!.everywhere).toBe(true);
    expect(closedReader({ chrome }, {})!.everywhere).toBeUndefined();
  });

  it('asks for a closed root only of custom elements and of empty elements that can host one, and takes an open root as it is', () => {
    const { attach, read, asked } = closedRoots();
    document.body.innerHTML = '<x-card></x-card><div id="d"></div><section id="s"><p>Light</p></section><span id="o"></span><li id="l"></li>';
    const card = document.querySelector('x-card')!;
    const closed = attach(card, '<p>Inside</p>');
    // An empty div is a widget's mount point: its closed root is read.
    const mount = attach(document.getElementById('d')!, '<p>In a div</p>');
    // One with children of its own is not asked (a call per element of a long page).
    attach(document.getElementById('s')!, '<p>In a section</p>');
    const open = document.getElementById('o')!.attachShadow({ mode: 'open' });
    const shadow = shadowReader(read);
    expect(shadow(card)).toBe(closed);
    expect(shadow(document.getElementById('d')!)).toBe(mount);
    expect(shadow(document.getElementById('s')!)).toBeNull();
    expect(shadow(document.getElementById('o')!)).toBe(open);
    // An element that cannot host a root (attachShadow's list) is not asked either.
    expect(shadow(document.getElementById('l')!)).toBeNull();
    expect(asked).toEqual(['x-card', 'div']);
    // An API that refuses the element (Chrome's, for a non-HTML element) is no root.
    expect(shadowReader(() => { throw new TypeError('not an HTMLElement'); })(card)).toBeNull();
  });

  it("a widget's closed root in an empty div is translated at the trigger; restore exact", async () => {
    const { attach, read } = closedRoots();
    const { page, before, root } = await translated('<main><p>Page text</p><div id="widget"></div></main>', read, (doc) => attach(doc.getElementById('widget')!, '<p>Widget <b>text</b></p>'));
    expect(root.innerHTML).toBe('<p>WIDGET <b>TEXT</b></p>');
    page.restore();
    expect(root.innerHTML).toBe('<p>Widget <b>text</b></p>');
    expect(document.body.innerHTML).toBe(before);
  });

  it("a widget's closed root over content of the host's own is found where a child of the host has no computed style (Chrome) or where every element is asked (Firefox), translated, followed and restored", async () => {
    for (const browser of ['chrome', 'firefox', 'neither'] as const) {
      const chrome = browser === 'chrome';
      const { attach, read, asked } = closedRoots();
      document.head.innerHTML = '';
      document.body.innerHTML = '<main><p>Page text</p><section id="widget"><p class="fallback">Loading</p></section></main>';
      const root = attach(document.getElementById('widget')!, '<p>Widget <b>text</b></p>');
      const fake = fakeTranslator();
      const frames = manualFrames();
      // Chrome computes no style for a node its host's root does not show; Firefox does.
      const display = (el: Element) => (el.localName === 'b' ? 'inline' : chrome && el.classList.contains('fallback') ? '' : 'block');
      // Firefox's reader costs what `shadowRoot` does: every element is asked.
      const reader = browser === 'firefox' ? Object.assign(read, { everywhere: true }) : read;
      const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, display, shadow: shadowReader(reader) });
      pages.push(page);
      const before = document.body.innerHTML;
      page.start('en', 'es');
      await frames.settle();
      expect(document.querySelector('main > p')!.textContent).toBe('PAGE TEXT');
      if (browser === 'neither') {
        // Nothing says the section has a root: not asked (an API call per element of a long page).
        expect(root.innerHTML).toBe('<p>Widget <b>text</b></p>');
        expect(asked).toEqual([]);
        page.restore();
        continue;
      }
      expect(root.innerHTML).toBe('<p>WIDGET <b>TEXT</b></p>');
      // In Chrome the host is the only element asked.
      if (chrome) expect(new Set(asked)).toEqual(new Set(['section']));
      else expect(asked).toEqual(expect.arrayContaining(['main', 'p', 'section', 'b']));
      // Followed: what the widget writes in its root later is translated too. (Built, not
      // `insertAdjacentHTML('afterend')` beside a root's child, which hangs happy-dom.)
      const ready = document.createElement('p');
      ready.textContent = 'Ready';
      root.append(ready);
      await frames.settle();
      expect(root.innerHTML).toBe('<p>WIDGET <b>TEXT</b></p><p>READY</p>');
      page.restore();
      expect(root.innerHTML).toBe('<p>Widget <b>text</b></p><p>Ready</p>');
      expect(document.body.innerHTML).toBe(before);
    }
  });

  it("a widget's closed root over a child whose display its tag gives (no style read) is found by that child having no box (Chrome) in the first screen; not in a subtree segmented later", async () => {
    // Chrome lays out nothing a host's root does not show: the host's own children have no box.
    const rect = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const host = document.getElementById('widget');
      const top = this.closest('.far') ? 5000 : 10;
      const shown = !(host && host !== this && host.contains(this));
      return { x: 0, y: top, top, left: 0, bottom: top + 20, right: 500, width: shown ? 500 : 0, height: shown ? 20 : 0, toJSON: () => ({}) } as DOMRect;
    };
    try {
      for (const where of ['near', 'far']) {
        const { attach, read, asked } = closedRoots();
        document.head.innerHTML = '';
        document.body.innerHTML = `<main><p>Page text</p><div class="${where}"><section id="widget"><p>Loading <span>now</span></p></section></div></main>`;
        const root = attach(document.getElementById('widget')!, '<p>Widget <b>text</b></p>');
        const fake = fakeTranslator();
        const frames = manualFrames();
        const display = (el: Element) => (el.localName === 'b' || el.localName === 'span' ? 'inline' : 'block');
        const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, display, shadow: shadowReader(read), viewportHeight: () => 800 });
        pages.push(page);
        const before = document.body.innerHTML;
        page.start('en', 'es');
        for (let i = 0; i < 20 && page.status().state === 'translating'; i++) {
          await new Promise((r) => setTimeout(r, 20));
          await frames.settle();
        }
        expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
        if (where === 'far') {
          // Left for later, its blocks are not measured one by one (a rect per block of the page).
          expect([root.innerHTML, asked]).toEqual(['<p>Widget <b>text</b></p>', []]);
          page.restore();
          continue;
        }
        expect(root.innerHTML).toBe('<p>WIDGET <b>TEXT</b></p>');
        // The host is the only element asked: the child's parent.
        expect(new Set(asked)).toEqual(new Set(['section']));
        page.restore();
        expect(root.innerHTML).toBe('<p>Widget <b>text</b></p>');
        expect(document.body.innerHTML).toBe(before);
      }
    } finally {
      Element.prototype.getBoundingClientRect = rect;
    }
  });

  it("a web component's closed root is segmented and reported for observation, an inline host as a block", () => {
    const { attach, read } = closedRoots();
    document.body.innerHTML = '<p>Before <x-tag></x-tag> after</p><x-card></x-card>';
    attach(document.querySelector('x-tag')!, 'Tag <b>label</b>');
    const root = attach(document.querySelector('x-card')!, '<h2>Card title</h2><p>Card <i>text</i></p>');
    const seen: ShadowRoot[] = [];
    const units = new Segmenter({ shadow: shadowReader(read), display: (el) => (el.localName === 'x-tag' || el.localName === 'b' || el.localName === 'i' ? 'inline' : 'block'), onShadowRoot: (r) => seen.push(r) })
      .document(document)
      .filter((u): u is RangeUnit => u.kind === 'range')
      .map((u) => u.nodes.map((n) => (n instanceof Element ? n.outerHTML : n.textContent)).join(''));
    expect(units).toEqual(['Before ', 'Tag <b>label</b>', ' after', 'Card title', 'Card <i>text</i>']);
    expect(seen).toContain(root);
    expect(seen).toHaveLength(2);
  });

  it('a web component the page adds (open or closed root) has its shadow text translated; restore exact', async () => {
    const { attach, read } = closedRoots();
    const { page, frames, before } = await translated('<main><p>Page text</p></main>', read);
    // The host itself is what the page adds (a list's new item, a lazily rendered card).
    const open = document.createElement('x-open');
    open.attachShadow({ mode: 'open' }).innerHTML = '<p>Open text</p>';
    const closed = document.createElement('x-closed');
    const root = attach(closed, '<p>Closed text</p>');
    document.querySelector('main')!.append(open, closed);
    await frames.settle();
    expect([open.shadowRoot!.innerHTML, root.innerHTML]).toEqual(['<p>OPEN TEXT</p>', '<p>CLOSED TEXT</p>']);
    // Its text changed later is followed too (its root is observed).
    root.querySelector('p')!.textContent = 'Changed text';
    await frames.settle();
    expect(root.innerHTML).toBe('<p>CHANGED TEXT</p>');
    page.restore();
    expect([open.shadowRoot!.innerHTML, root.innerHTML]).toEqual(['<p>Open text</p>', '<p>Changed text</p>']);
    open.remove();
    closed.remove();
    expect(document.body.innerHTML).toBe(before);
  });

  it('translated, followed when the component changes its text, and restored exactly', async () => {
    const { attach, read } = closedRoots();
    const { page, frames, fake, before, root } = await translated('<main><p>Page text</p><x-card></x-card></main>', read, (doc) => attach(doc.querySelector('x-card')!, '<p>Card text</p>'));
    expect(root.innerHTML).toBe('<p>CARD TEXT</p>');
    expect(document.querySelector('main > p')!.textContent).toBe('PAGE TEXT');
    // The component renders new text: one more call, written in its closed root.
    root.querySelector('p')!.textContent = 'New card text';
    await frames.settle();
    expect(fake.calls.at(-1)!.markup).toBe('<p i=1>New card text</p>');
    expect(root.innerHTML).toBe('<p>NEW CARD TEXT</p>');
    page.restore();
    expect(document.body.innerHTML).toBe(before);
    // Restore keeps what the component itself wrote last.
    expect(root.innerHTML).toBe('<p>New card text</p>');
  });
});

describe('where an event or the focus is, inside closed roots', () => {
  it("a pointer event on a closed root's host: the element at its point inside the root (nested roots too); other events keep the host", () => {
    const { attach, read } = closedRoots();
    document.body.innerHTML = '<x-outer></x-outer><x-empty></x-empty>';
    const outer = attach(document.querySelector('x-outer')!, '<p>Outer <x-inner></x-inner></p>');
    const inner = attach(outer.querySelector('x-inner')!, '<a href="#">Inner link</a>');
    const link = inner.querySelector('a')!;
    // No layout here: each root says what is at the point, as the browser would.
    const points = new Map<ShadowRoot, Element>([[outer, outer.querySelector('x-inner')!], [inner, link]]);
    for (const root of points.keys()) root.elementFromPoint = () => points.get(root)!;
    const hostEvent = (type: string, init: MouseEventInit = {}) => {
      let seen: EventTarget | null = null;
      const listen = (e: Event) => (seen = eventTarget(e, shadowReader(read)));
      document.addEventListener(type, listen, { capture: true });
      document.querySelector('x-outer')!.dispatchEvent(type === 'click' ? new MouseEvent(type, { bubbles: true, composed: true, ...init }) : new Event(type, { bubbles: true, composed: true }));
      document.removeEventListener(type, listen, { capture: true });
      return seen;
    };
    expect(hostEvent('click', { clientX: 5, clientY: 5 })).toBe(link);
    expect(hostEvent('focus')).toBe(document.querySelector('x-outer'));
    // A root with nothing of its own at the point (a slotted child is retargeted to the host): the host.
    const empty = attach(document.querySelector('x-empty')!, '<slot></slot>');
    empty.elementFromPoint = () => document.querySelector('x-empty')!;
    let seen: EventTarget | null = null;
    document.addEventListener('click', (e) => (seen = eventTarget(e, shadowReader(read))), { once: true, capture: true });
    document.querySelector('x-empty')!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    expect(seen).toBe(document.querySelector('x-empty'));
  });

  it("the focus inside a closed root: the root's own activeElement", () => {
    const { attach, read } = closedRoots();
    document.body.innerHTML = '<x-form></x-form>';
    const root = attach(document.querySelector('x-form')!, '<p>Name <input id="name"></p>');
    root.getElementById('name')!.focus();
    expect(document.activeElement).toBe(document.querySelector('x-form'));
    expect(deepActive(document, shadowReader(read))).toBe(root.getElementById('name'));
    // Without a reader of closed roots, the host.
    expect(deepActive(document, (el) => el.shadowRoot)).toBe(document.querySelector('x-form'));
  });
});
