/**
 * The selection bubble of a frame too small to hold it (an embedded post, a widget's strip) is
 * drawn by the top frame, beside where the selection is on the screen: in the frame it was cut by
 * the frame's box, and scrolled inside a few pixels of room. So is the chooser of a paragraph's
 * alternatives (content/chooser-lift.ts), beside the paragraph.
 *
 * Where the selection is, the frames find out among themselves: the frame posts its selection's
 * rectangle to its parent window, with a random key and nothing of the text. Each parent's
 * content script takes it only from a frame element of its own document (`event.source`, which a
 * page's script cannot forge), moves the rectangle by that element's place in its own viewport and
 * posts it on to its parent, up to the top, which keeps it under the key. The text goes through
 * the background only (`selection:lift`), which hands it to the tab's top frame with the key: a
 * window message would show it to every page script of the frames between.
 */

/** The key our window messages carry their data under. */
const KEY = 'polyglot:lift';

export interface Rect {
  left: number;
  top: number;
  bottom: number;
}

/** Where a lifted selection is, in the top frame's viewport, and the frame element it is in there. */
export interface Lifted {
  rect: Rect;
  frame: Element;
}

type Post = { at: string; rect: Rect } | { close: string };

const isRect = (r: unknown): r is Rect => {
  const { left, top, bottom } = (r ?? {}) as Partial<Rect>;
  return [left, top, bottom].every((v) => typeof v === 'number' && Number.isFinite(v));
};

function readPost(data: unknown): Post | undefined {
  const post = (typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[KEY] : undefined) as Partial<{ at: unknown; rect: unknown; close: unknown }> | undefined;
  if (!post) return undefined;
  if (typeof post.at === 'string' && post.at.length <= 64 && isRect(post.rect)) return { at: post.at, rect: post.rect };
  if (typeof post.close === 'string' && post.close.length <= 64) return { close: post.close };
  return undefined;
}

/** The frame element of `doc` (in open shadow roots too) whose window is `source`. */
function frameOf(root: Document | ShadowRoot, source: unknown): Element | null {
  const frames = root.querySelectorAll('iframe, frame');
  for (let i = 0; i < frames.length; i++) if ((frames[i] as HTMLIFrameElement).contentWindow === source) return frames[i]!;
  const all = root.querySelectorAll('*');
  for (let i = 0; i < all.length; i++) {
    const inner = all[i]!.shadowRoot;
    const found = inner && frameOf(inner, source);
    if (found) return found;
  }
  return null;
}

/** `r`, in the viewport of the frame element `frame`'s window, in the viewport `frame` is in: by its box, border and padding. */
export function throughFrame(r: Rect, frame: Element): Rect {
  const box = frame.getBoundingClientRect();
  const style = frame.ownerDocument.defaultView?.getComputedStyle(frame);
  const dx = box.left + frame.clientLeft + (parseFloat(style?.paddingLeft ?? '') || 0);
  const dy = box.top + frame.clientTop + (parseFloat(style?.paddingTop ?? '') || 0);
  return { left: r.left + dx, top: r.top + dy, bottom: r.bottom + dy };
}

/** A key no one guesses (`crypto.randomUUID` is for secure contexts only: not a page served over http). */
export const newKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Posts where the selection is (`rect`, in this frame's viewport) to the parent window, under `key`. */
export function postUp(win: Window, key: string, rect: Rect): void {
  win.parent.postMessage({ [KEY]: { at: key, rect: { left: rect.left, top: rect.top, bottom: rect.bottom } } }, '*');
}

/** Tells the frames above that the user clicked or pressed Esc in this frame: the bubble lifted under `key` closes. */
export function postClose(win: Window, key: string): void {
  win.parent.postMessage({ [KEY]: { close: key } }, '*');
}

/** How long the top keeps where a lifted selection is, waiting for its text from the background. */
const KEEP_MS = 5000;
/** The most places kept at once: a frame posting keys of its own in a loop takes no more. */
const KEPT = 8;

/** Each window's one relay (`LiftRelay.of`). */
const relays = new WeakMap<Window, LiftRelay>();

/**
 * Every frame passes on its frames' posts (their places moved into its viewport); the top keeps
 * them (`take`), and tells its listeners (`onClose`) of a frame's click or Esc. Until `signal`
 * aborts.
 */
export class LiftRelay {
  private readonly kept = new Map<string, { lifted: Lifted; at: number }>();
  private readonly waiting = new Map<string, (lifted: Lifted | undefined) => void>();
  private readonly closers = new Set<(key: string) => void>();

  /** The window's relay, shared by the selection bubble and the chooser: each post passed up once. */
  static of(win: Window): LiftRelay {
    let relay = relays.get(win);
    if (!relay) relays.set(win, (relay = new LiftRelay(win)));
    return relay;
  }

  constructor(private readonly win: Window, onClose?: (key: string) => void, signal?: AbortSignal) {
    win.addEventListener('message', (e) => this.receive(e), { signal });
    if (onClose) this.onClose(onClose, signal);
  }

  /** Calls `listener` with the key of what a frame's click or Esc closes, until `signal` aborts. */
  onClose(listener: (key: string) => void, signal?: AbortSignal): void {
    this.closers.add(listener);
    signal?.addEventListener('abort', () => this.closers.delete(listener), { once: true });
  }

  private receive(e: MessageEvent): void {
    const post = readPost(e.data);
    if (!post) return;
    const frame = frameOf(this.win.document, e.source);
    if (!frame) return;
    const up = this.win.parent !== this.win;
    if ('close' in post) {
      if (up) this.win.parent.postMessage({ [KEY]: post }, '*');
      else for (const close of this.closers) close(post.close);
      return;
    }
    const rect = throughFrame(post.rect, frame);
    if (up) {
      postUp(this.win, post.at, rect);
      return;
    }
    const now = Date.now();
    for (const [key, { at }] of this.kept) if (now - at > KEEP_MS || this.kept.size >= KEPT) this.kept.delete(key);
    const lifted = { rect, frame };
    const waiter = this.waiting.get(post.at);
    if (waiter) waiter(lifted);
    else this.kept.set(post.at, { lifted, at: now });
  }

  /** Where the selection posted under `key` is (once), waiting up to `ms` for its post; undefined if none came. */
  take(key: string, ms = 500): Promise<Lifted | undefined> {
    const kept = this.kept.get(key);
    this.kept.delete(key);
    if (kept) return Promise.resolve(kept.lifted);
    return new Promise((done) => {
      const finish = (lifted: Lifted | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        done(lifted);
      };
      const timer = setTimeout(() => finish(undefined), ms);
      this.waiting.set(key, finish);
    });
  }
}
