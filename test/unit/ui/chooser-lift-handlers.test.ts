/** A frame's chooser shown by its top frame (background/chooser-lift.ts): who may send what, where it goes, what is refused. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMessageHandler } from '../../../src/background/router';
import { createSettingsStore } from '../../../src/background/settings';
import { CONTENT_SENDER, fakeStorage, PAGE_SENDER, SELF } from '../background/fakes';

const scope = globalThis as { chrome?: unknown };

function setup(reply: unknown) {
  const storage = fakeStorage({});
  const sent: unknown[] = [];
  scope.chrome = {
    runtime: { id: SELF.id, getURL: (p: string) => `${SELF.origin}/${p}` },
    storage: { local: storage.area },
    tabs: {
      sendMessage: async (...args: unknown[]) => {
        sent.push(args);
        return reply;
      },
    },
  };
  const service = { call: vi.fn(), flush: async () => undefined };
  const ask = createMessageHandler({ service, settings: createSettingsStore(storage.area, storage.onChanged), self: SELF });
  return { ask, sent };
}

afterEach(() => {
  delete scope.chrome;
});

const TAB = CONTENT_SENDER.tab!.id;
const FRAME = { ...CONTENT_SENDER, frameId: 5 };
const TOP = { ...CONTENT_SENDER, frameId: 0 };
const VIEW = {
  original: { text: 'Good night', lang: 'en', shown: false },
  copy: null,
  trg: 'es',
  alts: [{ rid: 'apertium.ts', text: 'Buenas noches', current: true }],
};

describe("a frame's chooser shown by the top frame", () => {
  it("chooser:lift hands a frame's view to its tab's top frame with the frame's id, and says whether it showed it", async () => {
    const { ask, sent } = setup({ shown: true });
    expect(await ask({ type: 'chooser:lift', data: { key: 'k-1', view: VIEW } }, FRAME)).toEqual({ data: { shown: true } });
    expect(sent).toEqual([[TAB, { type: 'chooser:show', data: { key: 'k-1', frameId: 5, view: VIEW } }, { frameId: 0 }]]);
    // From the top frame itself or an extension page; a bad key, view or alternative: refused, nothing sent.
    expect(await ask({ type: 'chooser:lift', data: { key: 'k', view: VIEW } }, TOP)).toMatchObject({ error: { status: 400, message: expect.stringContaining('only a frame inside a page') } });
    expect(await ask({ type: 'chooser:lift', data: { key: 'k', view: VIEW } }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    const bad = async (data: unknown, says: string) => expect(await ask({ type: 'chooser:lift', data } as never, FRAME)).toMatchObject({ error: { status: 400, message: expect.stringContaining(says) } });
    await bad({ key: 'x'.repeat(65), view: VIEW }, 'key must be');
    await bad({ key: 'k', view: { ...VIEW, original: { text: 'x' } } }, 'view.original');
    await bad({ key: 'k', view: { ...VIEW, copy: 'maybe' } }, 'view.copy');
    await bad({ key: 'k', view: { ...VIEW, trg: 'x'.repeat(36) } }, 'view.trg');
    await bad({ key: 'k', view: { ...VIEW, alts: 'all' } }, 'view.alts');
    await bad({ key: 'k', view: { ...VIEW, alts: [{ rid: '', text: 'x' }] } }, "alternative's rid");
    await bad({ key: 'k', view: { ...VIEW, alts: [{ rid: 'a.ts' }] } }, 'a text or an err');
    expect(sent).toHaveLength(1);
  });

  it('chooser:lift keeps only the fields it knows, cut to size: a failed route as its error, no flag the frame made up', async () => {
    const { ask, sent } = setup(undefined);
    const long = 'x'.repeat(60_000);
    const view = { ...VIEW, extra: '<img onerror>', original: { text: long, lang: 'en', shown: 'yes' }, alts: [{ rid: 'b.ts', err: 'down', current: true, html: '<b>' }] };
    // No content script in the top frame: not shown, and the frame shows its own.
    expect(await ask({ type: 'chooser:lift', data: { key: 'k', view } } as never, FRAME)).toEqual({ data: { shown: false } });
    const shown = (sent[0] as [number, { data: { view: unknown } }])[1].data.view;
    expect(shown).toEqual({ original: { text: 'x'.repeat(50_000), lang: 'en', shown: false }, copy: null, trg: 'es', alts: [{ rid: 'b.ts', err: 'down', current: false }] });
  });

  it('chooser:alt hands an alternative, or the end, to the top frame only', async () => {
    const { ask, sent } = setup(undefined);
    expect(await ask({ type: 'chooser:alt', data: { key: 'k', alt: { rid: 'b.ts', text: 'Hola', current: false } } }, FRAME)).toEqual({ data: { ok: true } });
    expect(await ask({ type: 'chooser:alt', data: { key: 'k', done: true } }, FRAME)).toEqual({ data: { ok: true } });
    expect(sent).toEqual([
      [TAB, { type: 'chooser:alt', data: { key: 'k', alt: { rid: 'b.ts', text: 'Hola', current: false } } }, { frameId: 0 }],
      [TAB, { type: 'chooser:alt', data: { key: 'k', done: true } }, { frameId: 0 }],
    ]);
    expect(await ask({ type: 'chooser:alt', data: { key: 'k', done: true } }, TOP)).toMatchObject({ error: { status: 400 } });
    expect(await ask({ type: 'chooser:alt', data: { key: 'k' } }, FRAME)).toMatchObject({ error: { status: 400, message: expect.stringContaining("alternative's rid") } });
    expect(sent).toHaveLength(2);
  });

  it("chooser:act takes the reader's choice from the top frame to the frame it names, and says whether the frame wrote it", async () => {
    const { ask, sent } = setup({ ok: true });
    expect(await ask({ type: 'chooser:act', data: { key: 'k', frameId: 5, act: 'pick', rid: 'b.ts' } }, TOP)).toEqual({ data: { ok: true } });
    expect(await ask({ type: 'chooser:act', data: { key: 'k', frameId: 5, act: 'close' } }, TOP)).toEqual({ data: { ok: true } });
    expect(sent).toEqual([
      [TAB, { type: 'chooser:do', data: { key: 'k', act: 'pick', rid: 'b.ts' } }, { frameId: 5 }],
      [TAB, { type: 'chooser:do', data: { key: 'k', act: 'close' } }, { frameId: 5 }],
    ]);
    // From a frame (it could steer another frame's page), to the top frame, an unknown act, a pick without its route.
    const refused = async (data: unknown, sender: typeof TOP, says: string) => expect(await ask({ type: 'chooser:act', data } as never, sender)).toMatchObject({ error: { status: 400, message: expect.stringContaining(says) } });
    await refused({ key: 'k', frameId: 5, act: 'pick', rid: 'b.ts' }, FRAME, "only a tab's top frame");
    await refused({ key: 'k', frameId: 0, act: 'close' }, TOP, 'frameId');
    await refused({ key: 'k', frameId: 5, act: 'erase' }, TOP, 'act must be one of');
    await refused({ key: 'k', frameId: 5, act: 'prefer' }, TOP, "needs the route's rid");
    expect(sent).toHaveLength(2);
  });
});
