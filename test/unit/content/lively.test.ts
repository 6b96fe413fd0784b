/**
 * The places a page keeps changing (content/lively.ts), by the clock: what is translated at once,
 * what waits and until when, and what comes back. The page-level behaviour is in
 * test/dom/page-lively.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ACTED_MS, FIRST_GAP_MS, Lively, QUIET_MS, SETTLE_MS, type Clock } from '../../../src/content/lively';
import type { RangeUnit, Unit } from '../../../src/content/units';
import { manualClock } from '../../dom/page-fakes';

/** A parent with runs of one text each (cut by blocks: not the parent's whole content). */
function runs(n: number): { parent: Element; texts: Node[]; run(i: number): RangeUnit } {
  const parent = { nodeType: 1 } as unknown as Element;
  const texts = Array.from({ length: n }, () => ({ nodeType: 3, parentNode: parent }) as unknown as Node);
  return { parent, texts, run: (i) => ({ kind: 'range', parent, nodes: [texts[i]!], anchor: null, whole: false, hidden: false }) };
}

function lively(clock: Clock) {
  const released: Node[][] = [];
  const l = new Lively(clock, (roots) => void released.push([...roots]));
  return { l, released };
}

describe('Lively', () => {
  it('three changes in a row at once, the fourth waits until the place is still', () => {
    const clock = manualClock();
    const { l, released } = lively(clock);
    const { run, texts } = runs(1);
    for (let i = 0; i < 3; i++) {
      expect(l.admit([run(0)])).toHaveLength(1);
      clock.advance(100);
    }
    expect(l.admit([run(0)])).toEqual([]);
    clock.advance(SETTLE_MS - 1);
    expect(released).toEqual([]);
    clock.advance(1);
    expect(released).toEqual([[texts[0]]]);
    expect(clock.timers).toBe(0);
  });

  it('content just added goes at once and keeps no place; its own changes count from the first, a redraw counts at the element redrawn', () => {
    const clock = manualClock();
    const { l } = lively(clock);
    const { parent, run } = runs(1);
    for (let i = 0; i < 5; i++) expect(l.admit([run(0)], new Map([[parent, null]]))).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect(l.admit([run(0)])).toHaveLength(1);
    expect(l.admit([run(0)])).toEqual([]);
    // Redrawn into another element four times: its place is that element.
    const list = { nodeType: 1 } as unknown as Element;
    const redraw = () => {
      const fresh = runs(1);
      return l.admit([fresh.run(0)], new Map([[fresh.parent, list]]));
    };
    for (let i = 0; i < 3; i++) expect(redraw()).toHaveLength(1);
    expect(redraw()).toEqual([]);
  });

  it('two runs of one place found in one batch are one change', () => {
    const clock = manualClock();
    const { l } = lively(clock);
    const { run } = runs(2);
    for (let i = 0; i < 3; i++) expect(l.admit([run(0), run(1)])).toHaveLength(2);
    expect(l.admit([run(0), run(1)])).toEqual([]);
  });

  it('a run sent because the gap ran out brings the place\'s other waiting run back at once', () => {
    const clock = manualClock();
    const { l, released } = lively(clock);
    const { run, texts } = runs(2);
    for (let i = 0; i < 3; i++) l.admit([run(0)]);
    // Run 1 waits; the place keeps changing (never still for SETTLE_MS) until its gap runs out.
    expect(l.admit([run(1)])).toEqual([]);
    for (let t = 1000; t < FIRST_GAP_MS; t += 1000) {
      clock.advance(1000);
      expect(l.admit([run(0)])).toEqual([]);
    }
    expect(released).toEqual([]);
    clock.advance(1000);
    // The gap's end: the runs held (run 1, and run 0's last change) come back together.
    expect(released).toEqual([[texts[1], texts[0]]]);
  });

  it('a change past the gap goes at once, and a place still for QUIET_MS starts afresh', () => {
    const clock = manualClock();
    const { l, released } = lively(clock);
    const { run } = runs(1);
    for (let i = 0; i < 3; i++) l.admit([run(0)]);
    clock.advance(FIRST_GAP_MS);
    expect(l.admit([run(0)])).toHaveLength(1);
    clock.advance(QUIET_MS);
    for (let i = 0; i < 3; i++) expect(l.admit([run(0)])).toHaveLength(1);
    expect(released).toEqual([]);
  });

  it('a change within a second of the user\'s click is theirs: sent at once, the gap left as it was', () => {
    const clock = manualClock();
    const { l } = lively(clock);
    const { run } = runs(1);
    for (let i = 0; i < 3; i++) l.admit([run(0)]);
    l.acted();
    clock.advance(ACTED_MS - 1);
    expect(l.admit([run(0)])).toHaveLength(1);
    clock.advance(1);
    expect(l.admit([run(0)])).toEqual([]);
  });

  it('an attribute\'s place is its element and name; clear lets what waits go and starts every place afresh', () => {
    const clock = manualClock();
    const released: [Element, string][][] = [];
    const l = new Lively(clock, (_, attrs) => void released.push([...attrs]));
    const el = {} as Element;
    const attr = (name: string, value: string): Unit => ({ kind: 'attr', el, name, value, hidden: false });
    for (let i = 0; i < 3; i++) l.admit([attr('title', `t${i}`)]);
    expect(l.admit([attr('title', 't3')])).toEqual([]);
    expect(l.admit([attr('aria-label', 'other')])).toHaveLength(1);
    clock.advance(SETTLE_MS);
    expect(released).toEqual([[[el, 'title']]]);
    expect(l.admit([attr('title', 't4')])).toEqual([]);
    l.clear();
    expect(clock.timers).toBe(0);
    expect(l.admit([attr('title', 't5')])).toHaveLength(1);
  });
});
