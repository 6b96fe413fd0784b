/**
 * A frame's progress reports (content/reporter.ts): when they go to the background, and what the
 * top frame's indicator shows with its frames' units.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Reporter } from '../../../src/content/reporter';
import type { FrameCounts, PageStatus } from '../../../src/shared/messages';

const status = (state: PageStatus['state'], done: number, total: number, errors = 0): PageStatus => ({ state, done, total, errors });
const frames = (c: Partial<FrameCounts>): FrameCounts => ({ done: 0, total: 0, errors: 0, translating: false, stopped: false, ...c });

function setup(top: boolean) {
  let now = status('original', 0, 0);
  const sent: PageStatus[] = [];
  const shown: PageStatus[] = [];
  let onPage = false;
  const reporter = new Reporter({
    top,
    send: (s) => void sent.push(s),
    status: () => now,
    show: (s) => {
      onPage = true;
      shown.push(s);
    },
    shown: () => onPage,
  });
  const report = (s: PageStatus) => {
    now = s;
    reporter.report(s);
  };
  return { reporter, report, sent, shown, hide: () => (onPage = false) };
}

describe('Reporter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a frame\'s report only once it has units, each change of state at once, progress at most once a second, the latest', () => {
    const { report, sent } = setup(false);
    // An ad frame: nothing found, nothing said.
    report(status('translating', 0, 0));
    report(status('translated', 0, 0));
    expect(sent).toEqual([]);
    report(status('translating', 0, 0));
    report(status('translating', 0, 40));
    expect(sent).toEqual([status('translating', 0, 40)]);
    for (let done = 1; done <= 5; done++) report(status('translating', done, 40));
    vi.advanceTimersByTime(999);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent.at(-1)).toEqual(status('translating', 5, 40));
    report(status('translated', 40, 40, 2));
    expect(sent.at(-1)).toEqual(status('translated', 40, 40, 2));
    // Its restore is said too: the background stops counting it.
    report(status('original', 0, 0));
    expect(sent.at(-1)).toEqual(status('original', 0, 0));
    expect(sent).toHaveLength(4);
  });

  it("shows the top frame's status with its frames' units, 4 reports a second at most", () => {
    const { reporter, report, sent, shown, hide } = setup(true);
    report(status('translating', 0, 10));
    report(status('translating', 1, 10));
    expect(sent).toEqual([status('translating', 0, 10)]);
    vi.advanceTimersByTime(250);
    expect(sent.at(-1)).toEqual(status('translating', 1, 10));
    reporter.frameCounts(frames({ done: 1, total: 4, translating: true }));
    expect(shown.at(-1)).toMatchObject({ state: 'translating', done: 2, total: 14 });
    report(status('translated', 10, 10));
    expect(shown.at(-1)).toMatchObject({ state: 'translating', done: 11, total: 14 });
    // The page's own result has gone; a frame done without failure does not bring it back...
    hide();
    reporter.frameCounts(frames({ done: 4, total: 4 }));
    expect(shown).toHaveLength(4);
    // ...a frame's failure does, with the tab's count.
    reporter.frameCounts(frames({ done: 3, total: 4, errors: 1 }));
    expect(shown.at(-1)).toMatchObject({ state: 'translated', done: 13, total: 14, errors: 1 });
    // A start afresh (another target) drops them, as the background does.
    report(status('original', 0, 0));
    report(status('translating', 0, 6));
    expect(shown.at(-1)).toEqual(status('translating', 0, 6));
  });

  it("once the page is translated, the page's own changes translated in turn do not bring the indicator back; a failure, a resume and a new start do", () => {
    const { reporter, report, shown, hide } = setup(true);
    report(status('translating', 0, 10));
    report(status('translated', 10, 10));
    expect(shown).toHaveLength(2);
    hide();
    // A chat's new message, a clock's wait let go: translated without a word on the page.
    report(status('translating', 10, 11));
    report(status('translated', 11, 11));
    expect(shown).toHaveLength(2);
    // A change that fails: back, with its Retry; while it is on the page it shows how the page goes.
    report(status('translated', 11, 12, 1));
    expect(shown.at(-1)).toEqual(status('translated', 11, 12, 1));
    report(status('translating', 11, 13, 1));
    expect(shown.at(-1)).toEqual(status('translating', 11, 13, 1));
    report(status('translated', 12, 13, 1));
    hide();
    // Gone, it stays gone for the same failure.
    report(status('translating', 12, 14, 1));
    report(status('translated', 13, 14, 1));
    expect(shown).toHaveLength(5);
    // The user's Retry (or the popup's resume): followed until done.
    reporter.asked();
    report(status('translating', 13, 14));
    report(status('translated', 14, 14));
    expect(shown.slice(-2)).toEqual([status('translating', 13, 14), status('translated', 14, 14)]);
    hide();
    // A frame's chat message translated: the same.
    reporter.frameCounts(frames({ done: 1, total: 2, translating: true }));
    reporter.frameCounts(frames({ done: 2, total: 2 }));
    expect(shown.at(-1)).toEqual(status('translated', 14, 14));
    // Restore and a new start: shown as at first.
    report(status('original', 0, 0));
    report(status('translating', 0, 5));
    expect(shown.slice(-2)).toEqual([status('original', 0, 0), status('translating', 0, 5)]);
  });

  it('in a frame, ignores frame counts (only the top frame has an indicator)', () => {
    const { reporter, shown } = setup(false);
    reporter.frameCounts(frames({ errors: 3, translating: true }));
    expect(shown).toEqual([]);
  });
});
