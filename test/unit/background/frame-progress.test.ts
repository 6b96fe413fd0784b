/**
 * A tab's page translation counted over its frames (background/frame-progress.ts) and the page
 * messages that use it: every frame's page:progress, the popup's page:status, the indicator's
 * page:retry.
 */
import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { FRAME_COUNTS_KEY, FrameProgress, sessionCounts } from '../../../src/background/frame-progress';
import { forgetClosedTabs, frameFlag, TRANSLATED_TABS_KEY } from '../../../src/background/frames';
import { createMessageHandler } from '../../../src/background/router';
import { createSettingsStore } from '../../../src/background/settings';
import { isFrameCounts, startsAfresh, withFrames, type FrameCounts, type PageStatus } from '../../../src/shared/messages';
import { CONTENT_SENDER, fakeStorage, PAGE_SENDER, SELF } from './fakes';

const TAB = 7;
/** The counts kept in a fake storage.session, as frameProgress() keeps them in the real one. */
const countsIn = (session: ReturnType<typeof fakeStorage>) => sessionCounts({ session: session.area } as unknown as Parameters<typeof sessionCounts>[0]);
const status = (state: PageStatus['state'], done: number, total: number, errors = 0, error?: string): PageStatus => ({
  state, done, total, errors, trg: 'es', src: 'en', ...(error ? { error } : {}),
});

describe('FrameProgress', () => {
  it("adds a tab's frames to its top frame: their parts, done and failed, and translating while one is", () => {
    const p = new FrameProgress();
    p.top(TAB, status('translating', 0, 10));
    p.frame(TAB, 3, status('translating', 1, 4));
    p.top(TAB, status('translated', 10, 10));
    expect(p.last(TAB)).toMatchObject({ state: 'translating', done: 11, total: 14, errors: 0 });
    p.frame(TAB, 3, status('translated', 2, 4, 2, '503 the provider is down'));
    p.frame(TAB, 5, status('translated', 3, 3));
    expect(p.last(TAB)).toEqual({ ...status('translated', 15, 17, 2, '503 the provider is down') });
    // A frame stopped (the indicator's Stop reached it after its top was done): the tab is stopped.
    p.frame(TAB, 6, status('cancelled', 0, 2));
    expect(p.last(TAB)).toMatchObject({ state: 'cancelled', done: 15, total: 19 });
    // Another tab is its own.
    expect(p.of(8, status('translated', 1, 1))).toEqual(status('translated', 1, 1));
  });

  it('forgets the frames of a page restored, and not those of a page going on', () => {
    const p = new FrameProgress();
    p.top(TAB, status('translating', 0, 10));
    p.frame(TAB, 3, status('translated', 2, 4, 2));
    p.top(TAB, status('translated', 10, 10));
    // Asked again as it is: the top goes on from what it has done, and the frame is still counted.
    p.top(TAB, status('translating', 10, 10));
    expect(p.last(TAB)).toMatchObject({ done: 12, total: 14, errors: 2 });
    // A top translating with nothing done yet reports again: its frames are still counted.
    const q = new FrameProgress();
    expect(q.top(TAB, status('translating', 0, 3))).toEqual([]);
    q.frame(TAB, 3, status('translating', 0, 4));
    expect(q.top(TAB, status('translating', 0, 5))).toEqual([]);
    expect(q.last(TAB)).toMatchObject({ done: 0, total: 9 });
    // A restore: the original has no frames counted, and a page translated afresh starts from its own.
    p.top(TAB, status('original', 0, 0));
    expect(p.of(TAB, status('original', 0, 0))).toEqual(status('original', 0, 0));
    expect(p.last(TAB)).toBeUndefined();
    expect(p.top(TAB, status('translating', 0, 6))).toEqual([]);
    expect(p.last(TAB)).toMatchObject({ done: 0, total: 6, errors: 0 });
    // A frame shown as it is again (its own restore) is no longer counted.
    p.frame(TAB, 4, status('translated', 1, 1));
    p.frame(TAB, 4, status('original', 0, 0));
    expect(p.last(TAB)).toMatchObject({ total: 6 });
  });

  it("at a start afresh, counts the frames known before only once each reports or answers: a frame that is gone, never", () => {
    const p = new FrameProgress();
    p.top(TAB, status('translating', 0, 4));
    p.frame(TAB, 3, status('translating', 1, 4));
    p.frame(TAB, 4, status('translating', 0, 2));
    p.top(TAB, status('translated', 4, 4));
    // A link followed in the translated tab: the next page is translated in turn (frame 3 of the
    // page before is gone, frame 4 navigated), and frame 5's report of it came before its top's.
    p.frame(TAB, 5, status('translating', 0, 2));
    expect(p.top(TAB, status('translating', 0, 6))).toEqual([3, 4, 5]);
    expect(p.last(TAB)).toEqual(status('translating', 0, 6));
    p.confirm(TAB, 3, undefined);
    p.confirm(TAB, 5, status('translating', 1, 2));
    expect(p.last(TAB)).toMatchObject({ done: 1, total: 8 });
    // Frame 4 reported before its answer came: the report stands.
    p.frame(TAB, 4, status('translated', 3, 3, 1));
    p.confirm(TAB, 4, status('translating', 0, 3));
    expect(p.last(TAB)).toMatchObject({ state: 'translating', done: 4, total: 11, errors: 1 });
    p.frame(TAB, 5, status('translated', 2, 2));
    p.top(TAB, status('translated', 6, 6));
    expect(p.last(TAB)).toMatchObject({ state: 'translated', done: 11, total: 11, errors: 1 });
  });

  it('counts a retried frame from its next report: one that is gone no longer shows failures', () => {
    const p = new FrameProgress();
    p.top(TAB, status('translated', 5, 5));
    p.frame(TAB, 3, status('translated', 2, 4, 2));
    p.frame(TAB, 4, status('translated', 3, 3));
    p.retrying(TAB);
    expect(p.last(TAB)).toMatchObject({ state: 'translated', done: 8, total: 8, errors: 0 });
    p.frame(TAB, 3, status('translated', 4, 4));
    expect(p.last(TAB)).toMatchObject({ done: 12, total: 12, errors: 0 });
  });

  it("tells the top frame its frames' sum when it changes, and once more when they are forgotten", () => {
    const p = new FrameProgress();
    p.frame(TAB, 3, status('translating', 1, 4));
    // Told before the top has reported (a worker started again): a top counting a frame translating hears it is done.
    expect(p.news(TAB)).toEqual({ done: 1, total: 4, errors: 0, translating: true, stopped: false });
    expect(p.news(TAB)).toBeUndefined();
    p.top(TAB, status('translated', 5, 5));
    p.frame(TAB, 3, status('translated', 3, 4, 1, '503 down'));
    expect(p.news(TAB)).toEqual({ done: 3, total: 4, errors: 1, error: '503 down', translating: false, stopped: false });
    p.retrying(TAB);
    expect(p.news(TAB)).toEqual({ done: 0, total: 0, errors: 0, translating: false, stopped: false });
    p.frame(TAB, 3, status('translated', 4, 4));
    expect(p.news(TAB)).toMatchObject({ done: 4, errors: 0 });
    // The top restored: it forgets its frames itself, so nothing is told.
    p.top(TAB, status('original', 0, 0));
    expect(p.news(TAB)).toBeUndefined();
  });
});

describe('withFrames, startsAfresh, isFrameCounts', () => {
  it("adds a frames' sum to a top frame's status, and nothing to a page shown as it is", () => {
    const frames = { done: 1, total: 3, errors: 2, error: '503 down', translating: false, stopped: false };
    expect(withFrames(status('translated', 4, 4), frames)).toEqual(status('translated', 5, 7, 2, '503 down'));
    expect(withFrames(status('cancelled', 2, 4, 1, '400 no route'), { ...frames, translating: true })).toEqual(status('cancelled', 3, 7, 3, '400 no route'));
    expect(withFrames(status('translated', 4, 4), { ...frames, translating: true }).state).toBe('translating');
    // A frame stopped leaves the tab stopped (its popup offers to go on), unless another still translates.
    expect(withFrames(status('translated', 4, 4), { ...frames, stopped: true }).state).toBe('cancelled');
    expect(withFrames(status('translated', 4, 4), { ...frames, stopped: true, translating: true }).state).toBe('translating');
    expect(withFrames(status('translating', 2, 4), { ...frames, stopped: true }).state).toBe('translating');
    expect(withFrames(status('original', 0, 0), frames)).toEqual(status('original', 0, 0));
    expect(withFrames(status('translated', 4, 4), undefined)).toEqual(status('translated', 4, 4));
  });

  it('tells a start afresh from a resume and from progress', () => {
    expect(startsAfresh(undefined, status('translating', 0, 3))).toBe(true);
    expect(startsAfresh('original', status('translating', 0, 3))).toBe(true);
    expect(startsAfresh('cancelled', status('translating', 0, 3))).toBe(true);
    expect(startsAfresh('translating', status('translating', 0, 9))).toBe(false);
    expect(startsAfresh('translated', status('translating', 4, 6))).toBe(false);
    expect(startsAfresh(undefined, status('translated', 0, 0))).toBe(false);
  });

  it('takes only counts that are whole numbers, a flag and a string', () => {
    expect(isFrameCounts({ done: 1, total: 2, errors: 0, translating: false, stopped: false })).toBe(true);
    expect(isFrameCounts({ done: 1, total: 2, errors: 0, translating: true, stopped: false, error: '503' })).toBe(true);
    for (const bad of [null, 'x', { done: -1, total: 2, errors: 0, translating: false, stopped: false }, { done: 1.5, total: 2, errors: 0, translating: false, stopped: false },
      { done: 1, total: 2, errors: 0, translating: false }, { done: 1, total: 2, errors: 0, translating: false, stopped: false, error: 5 }]) expect(isFrameCounts(bad)).toBe(false);
  });
});

describe('page:progress, page:status and page:retry over frames', () => {
  const TOP = { ...CONTENT_SENDER, frameId: 0 } as Runtime.MessageSender;
  const FRAME = { ...CONTENT_SENDER, url: 'http://127.0.0.1:8001/embed.html', frameId: 3 } as Runtime.MessageSender;

  function setup(session = fakeStorage({})) {
    const storage = fakeStorage({});
    const settings = createSettingsStore(storage.area, storage.onChanged);
    const service = { call: async () => ({ status: 200, body: {} }), flush: async () => undefined };
    const badges: PageStatus[] = [];
    const top: { status: PageStatus } = { status: status('translated', 10, 10) };
    const tabs = {
      translate: async () => top.status,
      status: async () => top.status,
      language: () => 'es',
      id: async (tabId?: number) => tabId ?? TAB,
    };
    const frames = { note: async () => undefined, announce: async () => undefined, translation: async () => undefined, prune: async () => undefined, reset: async () => undefined };
    const told: FrameCounts[] = [];
    const ask = createMessageHandler({
      service, settings, self: SELF, tabs, frames, progress: new FrameProgress(countsIn(session)),
      badge: async (_tabId, s) => void badges.push(s),
      tellTop: async (_tabId, counts) => void told.push(counts),
      tellMs: 20,
      // Frame 3 is gone; the others answer as translating.
      askFrame: async (_tabId, frameId) => {
        asked.push(frameId);
        if (frameId === 3) throw new Error('Could not establish connection. Receiving end does not exist.');
        return status('translating', 0, 1);
      },
    });
    const asked: number[] = [];
    return { ask, badges, top, told, asked, session };
  }

  it("asks the frames known before a start afresh whether they are there, and counts only those that answer", async () => {
    const { ask, badges, asked } = setup();
    const frame = (frameId: number) => ({ ...FRAME, frameId }) as Runtime.MessageSender;
    await ask({ type: 'page:progress', data: status('translated', 4, 4) }, TOP);
    await ask({ type: 'page:progress', data: status('translated', 1, 2, 1) }, frame(3));
    await ask({ type: 'page:progress', data: status('translated', 2, 2) }, frame(4));
    // Frames' reports shown together, a moment later.
    await expect.poll(() => badges.at(-1)).toMatchObject({ done: 7, total: 8, errors: 1 });
    // The tab's next page, translated in turn.
    await ask({ type: 'page:progress', data: status('translating', 0, 5) }, TOP);
    expect(asked).toEqual([3, 4]);
    expect(badges.at(-1)).toMatchObject({ state: 'translating', done: 0, total: 5, errors: 0 });
    await ask({ type: 'page:progress', data: status('translating', 1, 5) }, TOP);
    await expect.poll(() => badges.at(-1)).toMatchObject({ done: 1, total: 6, errors: 0 });
  });

  it("shows a frame's failures in the tab's badge, the top frame's indicator and the popup's status", async () => {
    const { ask, badges, top, told } = setup();
    expect(await ask({ type: 'page:progress', data: status('translating', 0, 10) }, TOP)).toEqual({ data: { ok: true } });
    await ask({ type: 'page:progress', data: status('translated', 10, 10) }, TOP);
    await ask({ type: 'page:progress', data: status('translating', 0, 3) }, FRAME);
    await ask({ type: 'page:progress', data: status('translated', 1, 3, 2, '503 down') }, FRAME);
    await expect.poll(() => badges.at(-1)).toMatchObject({ state: 'translated', done: 11, total: 13, errors: 2 });
    // Told once its frames' reports of the moment are in: the first as translating is not told on its own.
    await expect.poll(() => told).toEqual([{ done: 1, total: 3, errors: 2, error: '503 down', translating: false, stopped: false }]);
    expect(await ask({ type: 'page:status', data: {} }, PAGE_SENDER)).toEqual({ data: { ...top.status, done: 11, total: 13, errors: 2, error: '503 down' } });
  });

  it("a worker stopped after the page was translated (Chromium stops it 30 s idle): the next one still counts the tab's frames", async () => {
    const before = setup();
    await before.ask({ type: 'page:progress', data: status('translated', 10, 10) }, TOP);
    await before.ask({ type: 'page:progress', data: status('translated', 1, 3, 2, '503 down') }, FRAME);
    // Only storage.session is left of the first worker; the frames report nothing more.
    const after = setup(before.session);
    expect(await after.ask({ type: 'page:status', data: {} }, PAGE_SENDER)).toEqual({ data: { ...after.top.status, done: 11, total: 13, errors: 2, error: '503 down' } });
    // The popup's Retry, then the page restored: nothing of the frame is left for a third worker.
    await after.ask({ type: 'page:progress', data: status('original', 0, 0) }, TOP);
    const third = setup(before.session);
    expect(await third.ask({ type: 'page:status', data: {} }, PAGE_SENDER)).toEqual({ data: third.top.status });
  });

  it('reads back only well-formed counts, and a report made before they are read wins', async () => {
    const session = fakeStorage({ [FRAME_COUNTS_KEY]: { tops: { [TAB]: status('translated', 5, 5), x: status('translated', 1, 1) }, frames: { [TAB]: { 3: { ...status('translated', 1, 2, 1), confirmed: true }, 4: { state: 'odd', done: 1, total: 1, errors: 0, confirmed: true } } } } });
    const p = new FrameProgress(countsIn(session));
    await p.ready();
    expect(p.last(TAB)).toMatchObject({ state: 'translated', done: 6, total: 7, errors: 1 });
    const q = new FrameProgress(countsIn(session));
    q.frame(TAB, 3, status('translated', 2, 2));
    await q.ready();
    expect(q.of(TAB, status('translated', 5, 5))).toMatchObject({ done: 7, total: 7, errors: 0 });
    const broken = new FrameProgress(countsIn(fakeStorage({ [FRAME_COUNTS_KEY]: 'nonsense' })));
    await broken.ready();
    expect(broken.last(TAB)).toBeUndefined();
  });

  it('a worker started after tabs were closed forgets them, in its memory and in storage.session, and only them', async () => {
    // A first worker counted three translated tabs; the user closed 8 and 9 while it was stopped.
    const session = fakeStorage({});
    const before = new FrameProgress(countsIn(session));
    for (const tab of [TAB, 8, 9]) {
      before.top(tab, status('translated', 5, 5));
      before.frame(tab, 3, status('translated', 1, 2, 1, '503 down'));
    }
    await expect.poll(() => Object.keys((session.data.get(FRAME_COUNTS_KEY) as { tops: object }).tops)).toEqual(['7', '8', '9']);
    const flagged = fakeStorage({ [TRANSLATED_TABS_KEY]: { 7: {}, 8: {}, 9: {} } });
    const flag = frameFlag({ session: flagged.area, local: fakeStorage({}).area } as unknown as Parameters<typeof frameFlag>[0]);
    const after = new FrameProgress(countsIn(session));
    // Tab 11 is opened and reports while the browser is asked which tabs are open.
    let answer!: (tabs: { id?: number }[]) => void;
    const queried = new Promise<{ id?: number }[]>((r) => (answer = r));
    const forgetting = forgetClosedTabs({ query: () => queried } as unknown as Parameters<typeof forgetClosedTabs>[0], flag, after);
    await after.ready();
    after.top(11, status('translating', 0, 4));
    answer([{ id: TAB }, {}]);
    await forgetting;
    expect(after.last(TAB)).toMatchObject({ state: 'translated', done: 6, total: 7, errors: 1 });
    expect(after.last(8)).toBeUndefined();
    expect(after.last(9)).toBeUndefined();
    expect(after.last(11)).toMatchObject({ state: 'translating', total: 4 });
    await expect.poll(() => session.data.get(FRAME_COUNTS_KEY)).toMatchObject({ tops: { 7: {}, 11: {} }, frames: { 7: {} } });
    const kept = session.data.get(FRAME_COUNTS_KEY) as { tops: object; frames: object };
    expect([Object.keys(kept.tops), Object.keys(kept.frames)]).toEqual([['7', '11'], ['7']]);
    // The list frames read is pruned the same way.
    expect(flagged.data.get(TRANSLATED_TABS_KEY)).toEqual({ 7: {} });
    // A third worker reads back only what is open.
    const third = new FrameProgress(countsIn(session));
    await third.ready();
    expect(third.last(8)).toBeUndefined();
    expect(third.last(TAB)).toMatchObject({ done: 6, total: 7 });
  });

  it('refuses a report that is not a page status, a retry or a stop from a frame, and a retry from an extension page', async () => {
    const { ask, badges } = setup();
    expect(await ask({ type: 'page:progress', data: { state: 'translated', done: -1, total: 'x', errors: 0 } as unknown as PageStatus }, FRAME))
      .toEqual({ error: { status: 400, message: 'page:progress: not a page status' } });
    expect(badges).toEqual([]);
    expect(await ask({ type: 'page:retry', data: {} }, FRAME)).toEqual({ error: { status: 400, message: 'page:retry: only from the top frame of a tab' } });
    expect(await ask({ type: 'page:retry', data: {} }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    // The indicator's Stop is the top frame's, for its own tab only.
    expect(await ask({ type: 'page:cancel', data: { tabId: 99 } }, FRAME)).toEqual({ error: { status: 400, message: 'page:cancel: only from the top frame of a tab' } });
  });
});
