/** Where an overlay's box goes beside a paragraph or a selection (content/overlay.ts `placeBox`): always in view. */
import { describe, expect, it } from 'vitest';
import { placeBox, viewportSize, type Placement } from '../../../src/content/overlay';

const W = 1100;
const H = 900;
/** The box's vertical extent at its tallest. */
const extent = (p: Placement) => (p.top !== undefined ? [p.top, p.top + p.maxHeight] : [H - p.bottom! - p.maxHeight, H - p.bottom!]);

describe('placeBox', () => {
  it('goes under a paragraph with half the screen free below it', () => {
    expect(placeBox({ top: 100, bottom: 200, left: 8 }, W, H)).toEqual({ top: 204, left: 8, maxHeight: 450, maxWidth: 448 });
  });

  it('goes over a paragraph low on the screen, growing upward from it', () => {
    const p = placeBox({ top: 600, bottom: 700, left: 8 }, W, H);
    expect(p).toEqual({ bottom: 304, left: 8, maxHeight: 450, maxWidth: 448 });
    const [top, bottom] = extent(p);
    expect(top).toBeGreaterThanOrEqual(4);
    expect(bottom).toBe(600 - 4);
  });

  it('never runs past the bottom of the screen (the old guess of 200 px put four translations past it)', () => {
    // The paragraph of the screenshot: its bottom 490 px down; the box was 450 px tall from 494.
    const p = placeBox({ top: 410, bottom: 490, left: 8 }, W, H);
    expect(extent(p)[1]).toBeLessThanOrEqual(H - 4);
    expect(extent(p)[0]).toBeGreaterThanOrEqual(4);
  });

  it('takes the roomier side when neither has half the screen, and stays within it', () => {
    const p = placeBox({ top: 300, bottom: 560, left: 8 }, W, H);
    expect(p.top).toBe(564);
    expect(extent(p)[1]).toBeLessThanOrEqual(H - 4);
  });

  it('covers the top of a paragraph that fills the screen, as it cannot go beside it', () => {
    expect(placeBox({ top: -300, bottom: 1500, left: 8 }, W, H)).toEqual({ top: 4, left: 8, maxHeight: 450, maxWidth: 448 });
  });

  it('stays inside the viewport on the right, and on a narrow one', () => {
    expect(placeBox({ top: 100, bottom: 200, left: 1000 }, W, H).left).toBe(W - 448 - 4);
    const narrow = placeBox({ top: 100, bottom: 200, left: 200 }, 320, H);
    expect(narrow.maxWidth).toBe(288);
    expect(narrow.left + narrow.maxWidth).toBeLessThanOrEqual(320 - 4);
  });
});

describe('viewportSize', () => {
  const doc = (mode: 'CSS1Compat' | 'BackCompat', root: [number, number], body: [number, number]) =>
    ({
      compatMode: mode,
      documentElement: { clientWidth: root[0], clientHeight: root[1] },
      body: { clientWidth: body[0], clientHeight: body[1] },
      defaultView: { innerWidth: 1100, innerHeight: 900 },
    }) as unknown as Document;

  it("is the root's client size, without a classic scrollbar's 15 px; the body's in quirks mode, where the root reports the page", () => {
    expect(viewportSize(doc('CSS1Compat', [1085, 900], [1069, 4000]))).toEqual({ w: 1085, h: 900 });
    expect(viewportSize(doc('BackCompat', [1085, 4000], [1085, 900]))).toEqual({ w: 1085, h: 900 });
  });

  it("is the window's where the element reports nothing (no layout yet)", () => {
    expect(viewportSize(doc('CSS1Compat', [0, 0], [0, 0]))).toEqual({ w: 1100, h: 900 });
  });
});
