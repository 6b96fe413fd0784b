/**
 * When answers are written. A write that changes text makes the browser lay out, pre-paint and
 * paint in its next frame, and on a long page that costs nearly the same however little changed:
 * aows-nba (251k characters) spent ~45 ms per frame, 29 s of its main thread over a 45 s
 * translation, when every answer had a frame of its own. Answers for the viewport and the screen
 * around it are written at the next frame; the others (nobody sees them yet) are held until the
 * browser's rendering of the last write is at most `share` of the time since it, then written
 * together. A scroll, the page's last answer or a visible unit's answer writes what is held at the
 * next frame.
 */
import { nextFrame, type Frame } from './observe';

export interface PacerOptions {
  frame?: Frame;
  /** Calls `done` after `ms`; returns a cancel. */
  delay?: (done: () => void, ms: number) => () => void;
  /** After a write: calls `done` with the rendering time it cost (not when it ran outside a frame). */
  measure?: (framed: boolean, done: (ms: number) => void) => void;
  now?: () => number;
  /** The most of the main thread the rendering of held writes may take (0.1: one tenth). */
  share?: number;
  /** The longest an answer is held. */
  maxHoldMs?: number;
  /** Where a scroll writes what is held (default: the window). */
  scrolls?: EventTarget | null;
}

const SCROLL: AddEventListenerOptions = { once: true, passive: true, capture: true };

const timeout = (done: () => void, ms: number) => {
  const t = setTimeout(done, ms);
  return () => clearTimeout(t);
};

/**
 * A task posted after a write made in an animation frame runs once the browser has rendered that
 * frame (style, layout, pre-paint, paint run in the frame's own task): the time until then is what
 * the write cost to render. Outside a frame (a hidden tab's timer) nothing is measured.
 */
function renderTime(framed: boolean, done: (ms: number) => void): void {
  if (!framed) return;
  const t0 = performance.now();
  setTimeout(() => done(performance.now() - t0), 0);
}

export class Pacer {
  private readonly frame: Frame;
  private readonly delay: NonNullable<PacerOptions['delay']>;
  private readonly measure: NonNullable<PacerOptions['measure']>;
  private readonly now: () => number;
  private readonly share: number;
  private readonly maxHold: number;
  /** Rendering ms of recent writes (smoothed), and when the last one was rendered. */
  private cost = 0;
  private renderedAt = -Infinity;
  private framed = false;
  private cancelHold: (() => void) | null = null;
  private run: (() => void) | null = null;
  private readonly scrolls: EventTarget | null;
  /** The scroll listener is on (once: it is added again by the next hold after it fired). */
  private armed = false;
  private readonly onScroll = () => {
    this.armed = false;
    this.hurry();
  };

  constructor(opts: PacerOptions = {}) {
    this.frame = opts.frame ?? nextFrame;
    this.delay = opts.delay ?? timeout;
    this.measure = opts.measure ?? renderTime;
    this.now = opts.now ?? (() => performance.now());
    this.share = opts.share ?? 0.1;
    this.maxHold = opts.maxHoldMs ?? 1000;
    this.scrolls = opts.scrolls !== undefined ? opts.scrolls : typeof addEventListener === 'function' ? globalThis : null;
  }

  /** How long after the last rendering a held write may go. */
  get holdMs(): number {
    return Math.min(this.maxHold, (this.cost * (1 - this.share)) / this.share);
  }

  /** `write` at the next frame when `urgent`, else when the hold has passed; one write at a time. */
  schedule(write: () => void, urgent: boolean): void {
    this.run = write;
    if (this.framed) return;
    const wait = urgent ? 0 : this.renderedAt + this.holdMs - this.now();
    if (wait <= 0) {
      this.cancelHold?.();
      this.cancelHold = null;
      this.toFrame();
    } else {
      this.cancelHold ??= this.delay(() => {
        this.cancelHold = null;
        this.toFrame();
      }, wait);
      // A scroll may bring what is held into view. Added once until it fires: adding the same
      // listener again is a no-op, but not a free one (~45 ms over aows-nba's 825 answers).
      if (!this.armed && this.scrolls) {
        this.armed = true;
        this.scrolls.addEventListener('scroll', this.onScroll, SCROLL);
      }
    }
  }

  /** What is held goes at the next frame (a scroll may have brought it into view). */
  hurry(): void {
    if (this.cancelHold && this.run) this.schedule(this.run, true);
  }

  /** Nothing held is written. */
  cancel(): void {
    this.cancelHold?.();
    this.cancelHold = null;
    this.run = null;
  }

  get holding(): boolean {
    return this.cancelHold !== null;
  }

  private toFrame(): void {
    this.framed = true;
    this.frame((framed) => {
      this.framed = false;
      const write = this.run;
      this.run = null;
      if (!write) return;
      write();
      this.renderedAt = this.now();
      this.measure(framed === true, (ms) => {
        this.cost = this.cost === 0 ? ms : (this.cost + ms) / 2;
        this.renderedAt = this.now();
      });
    });
  }
}
