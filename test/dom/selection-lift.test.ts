/**
 * Where a frame's selection is, passed up through the frames (content/lift.ts): taken only from a
 * frame element of the document, moved by that frame's place, border and padding; the top keeps it
 * for the background's `selection:lift`. happy-dom loads no frame: each frame element here is
 * given a window of its own, as a browser's has.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiftRelay, type Lifted } from '../../src/content/lift';

const KEY = 'polyglot:lift';
let controller: AbortController;
beforeEach(() => {
  controller = new AbortController();
});
afterEach(() => {
  controller.abort();
  document.body.replaceChildren();
});

/** A frame element at (x, y) with a 2 px border and 3 px of padding, and its window. */
function frameAt(x: number, y: number): { frame: HTMLElement; win: object } {
  // A <frame>: happy-dom would try to load an <iframe>'s page, and say it may not.
  const frame = document.createElement('frame');
  frame.style.cssText = 'border: 2px solid; padding: 3px';
  const win = {};
  Object.defineProperty(frame, 'contentWindow', { value: win });
  Object.defineProperty(frame, 'clientLeft', { value: 2 });
  Object.defineProperty(frame, 'clientTop', { value: 2 });
  frame.getBoundingClientRect = () => ({ left: x, top: y, right: x + 100, bottom: y + 50, width: 100, height: 50, x, y, toJSON: () => ({}) }) as DOMRect;
  document.body.append(frame);
  return { frame, win };
}

const post = (data: unknown, source: object | null) => window.dispatchEvent(new MessageEvent('message', { data, source: source as MessageEventSource }));

describe("a frame's selection lifted to the top frame", () => {
  it("keeps where a frame's selection is, in the top's viewport, under its key; a window that is not one of its frames is not heard", async () => {
    const closed: string[] = [];
    const relay = new LiftRelay(window, (key) => closed.push(key), controller.signal);
    const { frame, win } = frameAt(60, 20);
    post({ [KEY]: { at: 'k1', rect: { left: 8, top: 4, bottom: 24 } } }, win);
    const kept = await relay.take('k1');
    expect(kept).toEqual<Lifted>({ rect: { left: 73, top: 29, bottom: 49 }, frame });
    // Taken once.
    expect(await relay.take('k1', 20)).toBeUndefined();
    // The page itself, a window of no frame here, a rectangle that is not one, another key: nothing kept.
    post({ [KEY]: { at: 'k2', rect: { left: 1, top: 1, bottom: 2 } } }, window);
    post({ [KEY]: { at: 'k2', rect: { left: 1, top: 1, bottom: 2 } } }, {});
    post({ [KEY]: { at: 'k2', rect: { left: 'x', top: 1, bottom: 2 } } }, win);
    post({ [KEY]: { at: 'k2', rect: { left: 1, top: 1, bottom: 2 } } }, null);
    expect(await relay.take('k2', 20)).toBeUndefined();
    // A click or Esc in the frame, told by the frame: the bubble shown for its key closes.
    post({ [KEY]: { close: 'k1' } }, window);
    post({ [KEY]: { close: 'k1' } }, win);
    expect(closed).toEqual(['k1']);
  });

  it('waits for a place posted after the background asked, and not forever', async () => {
    const relay = new LiftRelay(window, () => undefined, controller.signal);
    const { win } = frameAt(0, 0);
    const late = relay.take('late', 1000);
    setTimeout(() => post({ [KEY]: { at: 'late', rect: { left: 0, top: 0, bottom: 10 } } }, win), 10);
    expect((await late)?.rect).toEqual({ left: 5, top: 5, bottom: 15 });
    expect(await relay.take('never', 30)).toBeUndefined();
  });

  it('in a frame, passes its own frames\' places and clicks on to its parent, moved by its frame\'s place', () => {
    const parent = { postMessage: vi.fn() };
    const win = { addEventListener: window.addEventListener.bind(window), document, parent } as unknown as Window;
    new LiftRelay(win, () => undefined, controller.signal);
    const { win: inner } = frameAt(100, 200);
    post({ [KEY]: { at: 'k', rect: { left: 1, top: 2, bottom: 3 } } }, inner);
    post({ [KEY]: { close: 'k' } }, inner);
    expect(parent.postMessage.mock.calls).toEqual([
      [{ [KEY]: { at: 'k', rect: { left: 106, top: 207, bottom: 208 } } }, '*'],
      [{ [KEY]: { close: 'k' } }, '*'],
    ]);
  });
});
