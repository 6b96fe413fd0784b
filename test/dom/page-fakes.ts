/**
 * Fakes for the page-translation DOM tests: a translator at the content script's boundary (it
 * parses the frm=html markup it is sent and transforms each unit wrapper), the real engine over a
 * fake provider, and frames the test runs by hand.
 */
import { createService } from '../../src/core/service';
import { memoryStore } from '../../src/core/storage';
import type { TrdObj } from '../../src/core/types';
import type { Clock } from '../../src/content/lively';
import { PageTranslator, type TranslateFn } from '../../src/content/page';
import { fakeProvider, upperOutsideTags } from '../fakes/fake-provider';

export interface SentCall {
  markup: string;
  params: Record<string, unknown>;
  signal: AbortSignal | undefined;
  /** Sent as background work (nothing of it in or near the viewport). */
  background: boolean;
  /** A background call the page then said it waits for in the foreground (the reader jumped to it). */
  hurried: boolean;
  /** Lets a held call answer (manual mode). */
  release(): void;
}

/** Upper-cases every text node (the fake's "translation"). */
export function upper(wrapper: Element): void {
  const walk = (n: Node) => {
    if (n.nodeType === 3) (n as Text).data = (n as Text).data.toUpperCase();
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
  };
  walk(wrapper);
}

/** A "translation" word by word through `words`, other words upper-cased, the markup as it came. */
export function wordsBy(words: Record<string, string>): (wrapper: Element) => void {
  const walk = (n: Node) => {
    if (n.nodeType === 3) (n as Text).data = (n as Text).data.replace(/\p{L}+/gu, (w) => words[w] ?? w.toUpperCase());
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
  };
  return walk;
}

/** Upper-cases a wrapper and reverses the order of every element's children (a translator moving words and tags around). */
export function reverseUpper(wrapper: Element): void {
  upper(wrapper);
  const flip = (el: Element) => {
    el.replaceChildren(...[...el.childNodes].reverse());
    for (const c of el.children) flip(c);
  };
  flip(wrapper);
}

/** A fake that marks each text it translates: ⟦text⟧ (twice for a text translated twice), in the order it came. */
export const marker = () =>
  fakeTranslator({
    transform: (p) => {
      const walk = (n: Node) => {
        if (n.nodeType === 3 && (n as Text).data.trim()) (n as Text).data = `⟦${(n as Text).data}⟧`;
        n.childNodes.forEach(walk);
      };
      walk(p);
    },
  });

export function fakeTranslator(opts: { transform?: (wrapper: Element) => void; hold?: boolean; reply?: (markup: string) => string } = {}) {
  const calls: SentCall[] = [];
  const transform = opts.transform ?? upper;
  const translate: TranslateFn = (params, onItem, { signal, background, foreground }) => {
    const markup = String((params.dat as string[])[0]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const call: SentCall = { markup, params: params as Record<string, unknown>, signal, background: background === true, hurried: false, release };
    calls.push(call);
    void foreground?.then(() => (call.hurried = true));
    if (!opts.hold) release();
    return gate.then(() => {
      if (signal?.aborted) throw signal.reason;
      let dat: string;
      if (opts.reply) dat = opts.reply(markup);
      else {
        const t = document.createElement('template');
        t.innerHTML = markup;
        for (const p of t.content.querySelectorAll('p[i]')) transform(p);
        dat = t.innerHTML;
      }
      const item: TrdObj = { dat, rid: 'fake.ts', cnt: 1, sum: 1, length: markup.length };
      onItem(item);
      return { status: 200, body: [item] };
    });
  };
  return { translate, calls };
}

/** The real engine (frm=html chunking, placeholders, safe rebuild) over a provider that upper-cases. */
export function engineTranslator() {
  const { module, stats } = fakeProvider({ transform: (s) => upperOutsideTags(s) });
  const settings = {
    providers: { [module.id]: { enabled: true } },
    ranking: [module.id],
    interlinguas: ['en'],
    keys: [],
    limits: { textSize: 1000 },
  };
  const service = createService({ settings: async () => settings, providers: [module], store: memoryStore(), fetch: globalThis.fetch });
  const sent: string[] = [];
  const translate: TranslateFn = (params, onItem, { signal }) => {
    sent.push(String((params.dat as string[])[0]));
    return service.call('Translate', params, { trusted: true, ...(signal ? { signal } : {}), onResult: onItem });
  };
  return { translate, stats, sent };
}

/** Frames run by the test: `settle()` runs frames and microtasks until nothing is left. */
export function manualFrames() {
  const queue: ((framed?: boolean) => void)[] = [];
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    frame: (cb: (framed?: boolean) => void) => void queue.push(cb),
    get queued() {
      return queue.length;
    },
    /**
     * Runs one frame's callbacks (after pending microtasks and observer deliveries); `framed`: as
     * an animation frame (true) or the frame's fallback timer (false) runs them (unsaid: neither).
     */
    async runFrame(framed?: boolean) {
      await tick();
      for (const cb of queue.splice(0)) cb(framed);
    },
    async settle() {
      for (let i = 0; i < 100; i++) {
        await tick();
        await tick();
        if (queue.length === 0) return;
        for (const cb of queue.splice(0)) cb();
      }
      throw new Error('frames never settled');
    },
  };
}

/** A clock the test moves: `advance(ms)` runs each timer due on the way, at its time. */
export function manualClock(): Clock & { advance(ms: number): void; readonly timers: number } {
  let t = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => t,
    after(ms, fn) {
      const timer = { at: t + ms, fn };
      timers.push(timer);
      return () => void (timers = timers.filter((x) => x !== timer));
    },
    advance(ms) {
      const end = t + ms;
      for (;;) {
        const next = timers.reduce<(typeof timers)[number] | undefined>((a, b) => (a && a.at <= b.at ? a : b), undefined);
        if (!next || next.at > end) break;
        timers = timers.filter((x) => x !== next);
        t = Math.max(t, next.at);
        next.fn();
      }
      t = end;
    },
    get timers() {
      return timers.length;
    },
  };
}

/**
 * `body` in the document (its head emptied) and a translator on it, started en -> es with no
 * viewport order and frames run by hand; kept in `pages` for the test's cleanup. `clock`: the
 * places the page keeps changing wait by it (lively.ts). `heldIdle`: the
 * page's idle callbacks wait in `idles` until the test runs them; `near`: which blocks the first
 * pass segments (the rest waits for idle time); `flows`: layout's word on lines (split-lines.ts).
 */
export function startPage(
  body: string,
  translate: TranslateFn,
  pages: PageTranslator[],
  opts: { maxInFlight?: number; mode?: 'replace' | 'bilingual'; heldIdle?: boolean; near?: (el: Element) => boolean; clock?: Clock; flows?: (lines: readonly Element[]) => boolean } = {},
) {
  document.head.innerHTML = '';
  document.body.innerHTML = body;
  const frames = manualFrames();
  const idles: (() => void)[] = [];
  const page = new PageTranslator({
    translate,
    frame: frames.frame,
    viewport: false,
    maxInFlight: opts.maxInFlight ?? 4,
    ...(opts.heldIdle ? { idle: (cb: (budgetMs: number) => void) => void idles.push(() => cb(1000)) } : {}),
    ...(opts.near ? { near: opts.near } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.flows ? { flows: opts.flows } : {}),
  });
  pages.push(page);
  page.start('en', 'es', opts.mode ? { mode: opts.mode } : {});
  return { page, frames, idles };
}

/** Every shadow root attached from now on, closed ones too (our overlays'), until `release`. */
export function captureRoots() {
  const roots: ShadowRoot[] = [];
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const r = attach.call(this, init);
    roots.push(r);
    return r;
  };
  return { roots, release: () => void (Element.prototype.attachShadow = attach) };
}
