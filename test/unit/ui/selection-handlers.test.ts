/** The UI's background messages: who may send them, what they store and open. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMessageHandler } from '../../../src/background/router';
import { POPUP_PATH, translateSelection } from '../../../src/background/selection';
import { createSettingsStore } from '../../../src/background/settings';
import { CONTENT_SENDER, fakeStorage, OPTIONS_SENDER, PAGE_SENDER, SELF } from '../background/fakes';

const scope = globalThis as { chrome?: unknown };

function setup(usage: unknown, reply: unknown = undefined) {
  const storage = fakeStorage({ 'usage:usage': usage });
  const created: string[] = [];
  const sent: unknown[] = [];
  scope.chrome = {
    runtime: { id: SELF.id, getURL: (p: string) => `${SELF.origin}/${p}` },
    storage: { local: storage.area },
    action: { openPopup: () => Promise.reject(new Error('no user gesture')) },
    tabs: {
      create: async ({ url }: { url: string }) => void created.push(url),
      sendMessage: async (...args: unknown[]) => {
        sent.push(args);
        return reply;
      },
    },
  };
  let flushes = 0;
  const service = { call: vi.fn(), flush: async () => void (flushes += 1) };
  const ask = createMessageHandler({ service, settings: createSettingsStore(storage.area, storage.onChanged), self: SELF });
  return { ask, storage, created, sent, flushes: () => flushes };
}

afterEach(() => {
  delete scope.chrome;
});

describe('UI messages in the background', () => {
  it('usage:get answers the options page only, after writing pending counts', async () => {
    const counts = { keys: { app: { requests: 2, chars: 30 } }, apps: {} };
    const { ask, flushes } = setup(counts);
    expect(await ask({ type: 'usage:get', data: {} }, OPTIONS_SENDER)).toEqual({ data: counts });
    expect(flushes()).toBe(1);
    expect(await ask({ type: 'usage:get', data: {} }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'usage:get', data: {} }, CONTENT_SENDER)).toMatchObject({ error: { status: 403 } });
  });

  it('selection:open-popup comes from content scripts only and hands the text to the popup', async () => {
    const { ask, storage, created } = setup(undefined);
    expect(await ask({ type: 'selection:open-popup', data: { text: 'Hello', src: 'en', trg: 'es' } }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'selection:open-popup', data: { text: 'Hello', src: 'en', trg: 'es' } }, CONTENT_SENDER)).toEqual({ data: { ok: true } });
    expect(storage.data.get('ui:handoff')).toMatchObject({ text: 'Hello', src: 'en', trg: 'es' });
    // openPopup refused (no user gesture): the popup page opens in a tab instead.
    expect(created).toEqual([`${SELF.origin}/${POPUP_PATH}`]);
    expect(await ask({ type: 'selection:open-popup', data: { text: '' } }, CONTENT_SENDER)).toMatchObject({ error: { status: 400 } });
  });

  it('the context menu asks only the clicked frame, with the menu copy of the text', async () => {
    const { sent } = setup(undefined);
    await translateSelection({ selectionText: 'Hi', frameId: 3 }, { id: 7 });
    await translateSelection({ selectionText: 'Hi', frameId: 0 }, undefined);
    expect(sent).toEqual([[7, { type: 'selection:show', data: { targeted: true, text: 'Hi' } }, { frameId: 3 }]]);
  });

  it("selection:lift hands a frame's selection to its tab's top frame only, and says whether it showed it", async () => {
    const { ask, sent } = setup(undefined, { shown: true });
    const frame = { ...CONTENT_SENDER, frameId: 5 };
    const data = { key: 'k-1', text: 'Good night', lang: 'en' };
    expect(await ask({ type: 'selection:lift', data }, frame)).toEqual({ data: { shown: true } });
    expect(sent).toEqual([[CONTENT_SENDER.tab!.id, { type: 'selection:show', data: { targeted: true, text: 'Good night', lift: { key: 'k-1', lang: 'en' } } }, { frameId: 0 }]]);
    // The top frame itself, an extension page, a bad key, no text, a tag too long: refused, nothing sent.
    expect(await ask({ type: 'selection:lift', data }, { ...CONTENT_SENDER, frameId: 0 })).toMatchObject({ error: { status: 400, message: expect.stringContaining('only a frame') } });
    expect(await ask({ type: 'selection:lift', data }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'selection:lift', data: { ...data, key: 'x'.repeat(65) } }, frame)).toMatchObject({ error: { status: 400, message: expect.stringContaining('key') } });
    expect(await ask({ type: 'selection:lift', data: { ...data, text: '  ' } }, frame)).toMatchObject({ error: { status: 400, message: expect.stringContaining('text is required') } });
    expect(await ask({ type: 'selection:lift', data: { ...data, lang: 'x'.repeat(36) } }, frame)).toMatchObject({ error: { status: 400, message: expect.stringContaining('lang') } });
    expect(sent).toHaveLength(1);
  });

  it('selection:lift answers shown: false where the top frame did not show it (no content script there, or no place for the key)', async () => {
    const { ask } = setup(undefined, undefined);
    expect(await ask({ type: 'selection:lift', data: { key: 'k', text: 'Hi', lang: '' } }, { ...CONTENT_SENDER, frameId: 2 })).toEqual({ data: { shown: false } });
  });
});
