/**
 * Shadow roots attached after the page was translated to an element the walk met without one
 * (late-roots.ts): an empty mount point a widget renders into, a defined custom element that
 * attaches its root later. No mutation reports them; a change of the host's size does, and the
 * host is asked for its root again. happy-dom has no layout, so the test says how elements lay out
 * and whose size changed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import type { SizeWatch } from '../../src/content/late-roots';
import { shadowReader } from '../../src/content/shadow';
import { fakeTranslator, manualFrames } from './page-fakes';

/** A size watch the test drives: `resize(el)` reports a change of `el`'s box, if it is watched. */
function manualSizes() {
  const watched = new Set<Element>();
  let changed: ((els: readonly Element[]) => void) | null = null;
  const sizes: SizeWatch = (cb) => {
    changed = cb;
    return { observe: (el) => watched.add(el), unobserve: (el) => watched.delete(el), disconnect: () => watched.clear() };
  };
  const resize = (...els: Element[]) => changed?.(els.filter((el) => watched.has(el)));
  return { sizes, watched, resize };
}

/** Closed roots as the browser hands them to the extension (happy-dom has no such API). */
const roots = new Map<Element, ShadowRoot>();
function attach(host: Element, html: string, mode: ShadowRootMode = 'closed'): ShadowRoot {
  const root = host.attachShadow({ mode });
  root.innerHTML = html;
  roots.set(host, root);
  return root;
}

async function translated(body: string, display: (el: Element) => string = () => 'block') {
  document.body.innerHTML = body;
  const fake = fakeTranslator();
  const frames = manualFrames();
  const size = manualSizes();
  const page = new PageTranslator({
    translate: fake.translate,
    frame: frames.frame,
    viewport: false,
    display,
    awaitsDefinition: () => false,
    shadow: shadowReader((el) => roots.get(el) ?? null),
    sizes: size.sizes,
  });
  pages.push(page);
  const before = document.body.innerHTML;
  page.start('en', 'es');
  await frames.settle();
  return { page, frames, fake, before, ...size };
}

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
  roots.clear();
  document.body.innerHTML = '';
});

describe('a shadow root attached after the page was translated', () => {
  it("a widget renders into an empty div: its root is translated in one more call, followed, and restored exactly", async () => {
    const { page, frames, fake, before, watched, resize } = await translated('<main><p>Page text</p><div id="widget"></div><p>More <span class="icon"></span> text</p></main>');
    const widget = document.getElementById('widget')!;
    const icon = document.querySelector('.icon')!;
    // The empty elements that can host a root are watched; those with text are not.
    expect([...watched]).toEqual([widget, icon]);
    const calls = fake.calls.length;
    const root = attach(widget, '<h2>Subscribe</h2><p>Get the <b>news</b> by mail</p>');
    // Until its size changes nothing tells us.
    await frames.settle();
    expect(root.innerHTML).toBe('<h2>Subscribe</h2><p>Get the <b>news</b> by mail</p>');
    resize(widget);
    await frames.settle();
    expect(fake.calls.length).toBe(calls + 1);
    expect(root.innerHTML).toBe('<h2>SUBSCRIBE</h2><p>GET THE <b>NEWS</b> BY MAIL</p>');
    // Found, it is no longer watched; its root is followed like any other.
    expect(watched.has(widget)).toBe(false);
    root.querySelector('h2')!.textContent = 'Thank you';
    await frames.settle();
    expect(root.querySelector('h2')!.textContent).toBe('THANK YOU');
    expect(document.querySelector('main > p')!.textContent).toBe('PAGE TEXT');
    page.restore();
    expect(root.innerHTML).toBe('<h2>Thank you</h2><p>Get the <b>news</b> by mail</p>');
    expect(document.body.innerHTML).toBe(before);
    expect(watched.size).toBe(0);
  });

  it('a defined custom element that attaches its root later, an inline-block in a paragraph: only its root is sent; an inline host is not watched', async () => {
    const display = (el: Element) => ({ 'x-stars': 'inline-block', 'x-tip': 'inline', p: 'block' })[el.localName] ?? 'block';
    const { frames, fake, resize, watched } = await translated('<p>Rated <x-stars></x-stars> by readers <x-tip></x-tip></p>', display);
    const stars = document.querySelector('x-stars')!;
    expect(document.querySelector('p')!.textContent).toBe('RATED  BY READERS ');
    // A ResizeObserver does not report an inline box's size: watching it would find nothing.
    expect([...watched]).toEqual([stars]);
    const calls = fake.calls.length;
    const root = attach(stars, 'Four stars', 'open');
    resize(stars);
    await frames.settle();
    expect(fake.calls.length).toBe(calls + 1);
    expect(fake.calls.at(-1)!.markup).not.toContain('RATED');
    expect(root.innerHTML).toBe('FOUR STARS');
  });

  it('a size change with no root yet changes nothing and keeps watching; a host the page removes is let go', async () => {
    const { frames, fake, watched, resize } = await translated('<p>Page text</p><div id="a"></div><div id="b"></div>');
    const [a, b] = [document.getElementById('a')!, document.getElementById('b')!];
    const calls = fake.calls.length;
    resize(a, b);
    await frames.settle();
    expect(fake.calls.length).toBe(calls);
    expect(watched.has(a) && watched.has(b)).toBe(true);
    b.remove();
    resize(b);
    expect(watched.has(b)).toBe(false);
    // Put back later, it is the page's added content (walked then), not a watched host.
    attach(b, '<p>Back again</p>');
    document.body.append(b);
    await frames.settle();
    expect(roots.get(b)!.innerHTML).toBe('<p>BACK AGAIN</p>');
  });

  it('after a restore, a root attached and a size changed translate nothing', async () => {
    const { page, frames, fake, before, resize } = await translated('<p>Page text</p><div id="widget"></div>');
    const widget = document.getElementById('widget')!;
    page.restore();
    const calls = fake.calls.length;
    const root = attach(widget, '<p>Late text</p>');
    resize(widget);
    await frames.settle();
    expect(fake.calls.length).toBe(calls);
    expect(root.innerHTML).toBe('<p>Late text</p>');
    expect(document.body.innerHTML).toBe(before);
  });
});
