/**
 * The chooser of a paragraph in a frame too small for it, shown by the top frame
 * (content/chooser-lift.ts): in the frame, what goes up and what a choice made above writes; in the
 * top frame, what it shows and what the reader's clicks send back. The channel between them is a
 * fake here (the background and window messages are e2e's: ui-chooser-lift.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Alternative } from '../../src/content/choices';
import { Chooser } from '../../src/content/chooser';
import type { LiftChannel } from '../../src/content/chooser-lift';
import type { Lifted, Rect } from '../../src/content/lift';
import { PageTranslator, type TranslateFn } from '../../src/content/page';
import type { ChooserAct, LiftedView } from '../../src/shared/messages';
import type { TrdObj } from '../../src/core/types';
import { captureRoots, manualFrames } from './page-fakes';

const ROUTES = ['a.ts', 'b.ts'];

/** a.ts upper-cases each text, b.ts puts "B:" before it. */
const translate: TranslateFn = async (params, onItem) => {
  const markup = String((params.dat as string[])[0]);
  const rid = (params.rid as string[] | undefined)?.[0] ?? 'a.ts';
  await Promise.resolve();
  const dat = markup.replace(/>([^<]+)</g, (_, s: string) => `>${rid === 'a.ts' ? s.toUpperCase() : `B:${s}`}<`);
  const item: TrdObj = { dat, rid, cnt: 1, sum: 1, length: markup.length };
  onItem(item);
  return { status: 200, body: [item] };
};

/** A channel that records what goes through it; the top frame shows what goes up (`shows`). */
function fakeChannel(shows: boolean, where?: Lifted) {
  const sent: { up: { key: string; rect: Rect; view: LiftedView }[]; alts: (Alternative | 'done')[]; closed: string[]; acts: [string, number, ChooserAct, string?][] } = { up: [], alts: [], closed: [], acts: [] };
  const closers: ((key: string) => void)[] = [];
  const channel: LiftChannel = {
    up: async (key, rect, view) => (sent.up.push({ key, rect, view: structuredClone(view) }), shows),
    alt: (_key, alt) => void sent.alts.push(alt),
    closeUp: (key) => void sent.closed.push(key),
    take: async () => where,
    act: (key, frameId, act, rid) => void sent.acts.push(rid === undefined ? [key, frameId, act] : [key, frameId, act, rid]),
    onClose: (listener) => void closers.push(listener),
  };
  return { channel, sent, closeFromFrame: (key: string) => closers.forEach((c) => c(key)) };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** This window as a frame's (a parent of its own) with a viewport `w`×`h`. */
function asFrame(w: number, h: number): void {
  const set = (name: string, value: unknown) => {
    const had = Object.getOwnPropertyDescriptor(window, name);
    Object.defineProperty(window, name, { value, configurable: true });
    cleanups.push(() => (had ? Object.defineProperty(window, name, had) : delete (window as unknown as Record<string, unknown>)[name]));
  };
  set('parent', {});
  set('innerWidth', w);
  set('innerHeight', h);
}

/** A page translated with a.ts, a chooser with `channel` listening, and the roots of our overlays. */
async function translated(channel: LiftChannel | null) {
  const { roots, release } = captureRoots();
  const stop = new AbortController();
  document.body.innerHTML = '<p id="p">Good <b id="b">night</b></p><a id="out" href="#">out</a>';
  const frames = manualFrames();
  const page = new PageTranslator({ translate, frame: frames.frame, viewport: false, routes: async () => ROUTES });
  cleanups.push(() => {
    stop.abort();
    release();
    page.restore();
  });
  page.start('en', 'es');
  await frames.settle();
  const chooser = new Chooser(page, document, channel);
  chooser.listen(stop.signal);
  return { page, chooser, roots, p: document.getElementById('p')! };
}

const altClick = (el: Element) => el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, altKey: true }));
const settle = () => new Promise((r) => setTimeout(r, 20));
const text = (root: ShadowRoot | undefined) => [...(root?.querySelectorAll('.rid:not(.status), .text, button') ?? [])].map((e) => e.textContent).join('|');

describe("a frame's chooser shown by the top frame", () => {
  it('in a frame too small for it, the paragraph, its original and each alternative go up as they come; a choice made above is written here', async () => {
    asFrame(300, 150);
    const { channel, sent } = fakeChannel(true);
    const { roots, p } = await translated(channel);
    expect(p.innerHTML).toBe('GOOD <b id="b">NIGHT</b>');
    altClick(document.getElementById('b')!);
    await settle();
    // Nothing drawn in the frame: the top frame shows it.
    expect(roots).toHaveLength(0);
    expect(sent.up).toHaveLength(1);
    const { key, view } = sent.up[0]!;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(view).toEqual({ original: { text: 'Good night', lang: 'en', shown: false }, copy: null, trg: 'es', alts: [{ rid: 'a.ts', text: 'GOOD NIGHT', current: true }] });
    expect(sent.alts).toEqual([{ rid: 'b.ts', text: 'B:Good B:night', current: false }, 'done']);
  });

  it("writes the top frame's pick into the frame's paragraph, its nodes kept, once; a click in the frame closes the top frame's", async () => {
    asFrame(300, 150);
    const { channel, sent } = fakeChannel(true);
    const { chooser, p, page } = await translated(channel);
    const b = document.getElementById('b')!;
    altClick(b);
    await settle();
    const key = sent.up[0]!.key;
    expect(chooser.act('another key', 'pick', 'b.ts')).toBe(false);
    expect(p.innerHTML).toBe('GOOD <b id="b">NIGHT</b>');
    expect(chooser.act(key, 'prefer', 'b.ts')).toBe(true);
    expect(p.innerHTML).toBe('B:Good <b id="b">B:night</b>');
    expect(document.getElementById('b')).toBe(b);
    expect(page.status()).toMatchObject({ rid: 'b.ts' });
    // Used: the top frame closes its own, nothing more is sent up, and the key is spent.
    expect(sent.closed).toEqual([]);
    expect(chooser.act(key, 'original', undefined)).toBe(false);
    // Opened again, a click in the frame (which the top frame does not see) closes the top frame's.
    altClick(b);
    await settle();
    const again = sent.up[1]!.key;
    expect(again).not.toBe(key);
    document.getElementById('out')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(sent.closed).toEqual([again]);
    expect(chooser.act(again, 'pick', 'a.ts')).toBe(false);
    // "Show the original", chosen above.
    altClick(b);
    await settle();
    expect(chooser.act(sent.up[2]!.key, 'original', undefined)).toBe(true);
    expect(p.innerHTML).toBe('Good <b id="b">night</b>');
  });

  it('shows the chooser in the frame after all where the top frame does not, and keeps it there in a frame that holds it', async () => {
    asFrame(300, 150);
    const { channel, sent } = fakeChannel(false);
    const { roots } = await translated(channel);
    altClick(document.getElementById('b')!);
    await settle();
    expect(sent.up).toHaveLength(1);
    expect(text(roots[0])).toBe('Original (English)|Good night|Show the original|a (shown)|GOOD NIGHT|b|B:Good B:night|Use this|Use this route for the page');
    expect(sent.alts).toEqual([]);
    cleanups.splice(0).forEach((c) => c());
    // A frame 800 px wide and 600 high holds it: nothing asked of the top frame.
    asFrame(800, 600);
    const wide = fakeChannel(true);
    const held = await translated(wide.channel);
    altClick(document.getElementById('b')!);
    await settle();
    expect(wide.sent.up).toEqual([]);
    expect(text(held.roots[0])).toContain('a (shown)|GOOD NIGHT|b|B:Good B:night|Use this');
  });

  it("in the top frame, shows a frame's view beside where the frames put it; the reader's clicks go to that frame, a click there closes it", async () => {
    const iframe = document.createElement('iframe');
    const { channel, sent, closeFromFrame } = fakeChannel(true, { rect: { left: 30, top: 40, bottom: 60 }, frame: iframe });
    const { chooser, roots } = await translated(channel);
    const view: LiftedView = { original: { text: 'Good night', lang: 'en', shown: false }, copy: null, trg: 'es', alts: [{ rid: 'a.ts', text: 'GOOD NIGHT', current: true }] };
    expect(await chooser.openLifted('k1', 9, view)).toBe(true);
    const root = roots.at(-1)!;
    const box = root.querySelector<HTMLElement>('.box')!;
    expect([box.style.top, box.style.left]).toEqual(['64px', '30px']);
    expect(text(root)).toBe('Original (English)|Good night|Show the original|a (shown)|GOOD NIGHT');
    // An alternative under another key is not this one's; this one's is shown in the target's language.
    chooser.liftedAlt('k0', { rid: 'x.ts', text: 'X', current: false }, false);
    chooser.liftedAlt('k1', { rid: 'b.ts', text: 'B:Good B:night', current: false }, true);
    expect(text(root)).toBe('Original (English)|Good night|Show the original|a (shown)|GOOD NIGHT|b|B:Good B:night|Use this|Use this route for the page');
    expect(root.querySelector<HTMLElement>('.alt:last-child .text')!.lang).toBe('es');
    // "Use this route for the page": one act to the frame, which writes and closes its side itself.
    [...root.querySelectorAll('button')].find((b) => b.textContent === 'Use this route for the page')!.click();
    expect(sent.acts).toEqual([['k1', 9, 'prefer', 'b.ts']]);
    expect(root.querySelector('.box')?.isConnected ?? false).toBe(false);
    // Opened again: Esc closes it and tells the frame; a click in the frame closes it too.
    expect(await chooser.openLifted('k2', 9, view)).toBe(true);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(sent.acts.at(-1)).toEqual(['k2', 9, 'close']);
    expect(await chooser.openLifted('k3', 9, view)).toBe(true);
    closeFromFrame('k-other');
    expect(roots.at(-1)!.querySelector('.box')!.isConnected).toBe(true);
    closeFromFrame('k3');
    expect(roots.at(-1)!.querySelector('.box')?.isConnected ?? false).toBe(false);
  });

  it('in the top frame, shows nothing where the frames did not say where the paragraph is', async () => {
    const { channel } = fakeChannel(true, undefined);
    const { chooser, roots } = await translated(channel);
    expect(await chooser.openLifted('k', 3, { original: null, copy: null, trg: 'es', alts: [] })).toBe(false);
    expect(roots).toHaveLength(0);
  });
});
