/** The UI's background messages: who may send them, what they store and open. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMessageHandler } from '../../../src/background/router';
import { POPUP_PATH, translateSelection } from '../../../src/background/selection';
import { createSettingsStore } from '../../../src/background/settings';
import { CONTENT_SENDER, fakeStorage, OPTIONS_SENDER, PAGE_SENDER, SELF } from '../background/fakes';

const scope = globalThis as { chrome?: unknown };

function setup(usage: unknown) {
  const storage = fakeStorage({ 'usage:usage': usage });
  const created: string[] = [];
  const sent: unknown[] = [];
  scope.chrome = {
    runtime: { id: SELF.id, getURL: (p: string) => `${SELF.origin}/${p}` },
    storage: { local: storage.area },
    action: { openPopup: () => Promise.reject(new Error('no user gesture')) },
    tabs: {
      create: async ({ url }: { url: string }) => void created.push(url),
      sendMessage: async (...args: unknown[]) => void sent.push(args),
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
});
