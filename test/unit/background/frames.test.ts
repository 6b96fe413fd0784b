/**
 * Whether frames ask about their page when they load (background/frames.ts): the tabs reported
 * translated, kept in storage.session, and the flag content scripts read in storage.local.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'webextension-polyfill';
import { frameFlag, TRANSLATED_TABS_KEY } from '../../../src/background/frames';
import { trigger } from '../../../src/background/tabs';
import { FRAMES_ASK_KEY, type PageStatus } from '../../../src/shared/messages';

/** storage.local and storage.session in memory, with every write recorded. */
function memoryStorage(local: Record<string, unknown> = {}, session: Record<string, unknown> = {}) {
  const writes: string[] = [];
  const area = (name: string, data: Record<string, unknown>) => ({
    get: async (key: string) => (key in data ? { [key]: structuredClone(data[key]) } : {}),
    set: async (items: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(items)) {
        writes.push(`${name} ${k}=${JSON.stringify(v)}`);
        data[k] = structuredClone(v);
      }
    },
  });
  const storage = { local: area('local', local), session: area('session', session) } as unknown as Parameters<typeof frameFlag>[0];
  return { storage, local, session, writes };
}

describe('frameFlag', () => {
  it('asks frames to ask while a tab is translating or translated, and writes only what changed', async () => {
    const m = memoryStorage();
    const flag = frameFlag(m.storage);
    await flag.note(7, 'translating');
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    await flag.note(7, 'translated');
    await flag.note(9, 'translated');
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual([7, 9]);
    await flag.note(7, 'original');
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    await flag.note(9, 'cancelled');
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
    expect(m.writes).toEqual([
      'session page:translatedTabs=[7]',
      'local page:framesAsk=true',
      'session page:translatedTabs=[7,9]',
      'session page:translatedTabs=[9]',
      'session page:translatedTabs=[]',
      'local page:framesAsk=false',
    ]);
  });

  it('keeps every report of tabs reporting together', async () => {
    const m = memoryStorage();
    const flag = frameFlag(m.storage);
    await Promise.all([1, 2, 3, 4, 5].map((t) => flag.note(t, 'translating')));
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual([1, 2, 3, 4, 5]);
  });

  it('drops the tabs no longer translated (closed, navigated), not one that reported while it checked', async () => {
    const m = memoryStorage({ [FRAMES_ASK_KEY]: true }, { [TRANSLATED_TABS_KEY]: [3, 4, 5] });
    const flag = frameFlag(m.storage);
    await flag.prune(async (t) => {
      if (t === 5) await flag.note(5, 'translated');
      if (t === 4) throw new Error('No tab with id: 4');
      return false;
    });
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual([5]);
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    await flag.prune(async () => false);
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
  });

  it('sets right a flag left true with no tab listed when a frame asks', async () => {
    const m = memoryStorage({ [FRAMES_ASK_KEY]: true });
    await frameFlag(m.storage).prune(async () => true);
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
  });

  it('clears a flag left by the last session, and takes only tab ids from storage', async () => {
    const m = memoryStorage({ [FRAMES_ASK_KEY]: true }, { [TRANSLATED_TABS_KEY]: [1, 'x', 2.5, null] });
    const flag = frameFlag(m.storage);
    await flag.note(1, 'original');
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual([]);
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
    const restarted = memoryStorage({ [FRAMES_ASK_KEY]: true });
    await frameFlag(restarted.storage).reset();
    expect(restarted.local[FRAMES_ASK_KEY]).toBe(false);
  });

  it('announces a trigger without waiting for the list: one write when the flag is not known true, none when it is', async () => {
    const m = memoryStorage();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The list's area answers late: the trigger must not wait for it.
    const { local, session } = m.storage!;
    const slow = { local, session: { get: session.get, set: async (items: Record<string, unknown>) => { await held; return session.set(items); } } } as typeof m.storage;
    const flag = frameFlag(slow);
    await flag.announce(3);
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    expect(m.session[TRANSLATED_TABS_KEY]).toBeUndefined();
    release();
    await flag.note(3, 'translating');
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual([3]);
    const writes = m.writes.length;
    await flag.announce(4);
    await flag.note(4, 'translating');
    expect(m.writes.slice(writes)).toEqual(['session page:translatedTabs=[3,4]']);
  });

  it('lists a tab before a trigger reaches its frames: a frame starting meanwhile asks', async () => {
    const m = memoryStorage();
    const flag = frameFlag(m.storage);
    // What a frame whose content script starts while each message is on its way reads.
    const seen: { type: string; tab: number; ask: unknown }[] = [];
    let state: PageStatus['state'] = 'original';
    const browser = {
      tabs: {
        query: async () => [{ id: 8 }],
        sendMessage: async (tab: number, message: { type: string }) => {
          seen.push({ type: message.type, tab, ask: m.local[FRAMES_ASK_KEY] });
          state = message.type === 'page:toggle' && state === 'translated' ? 'original' : 'translated';
          return { data: { state, done: 0, total: 0, errors: 0 } };
        },
      },
    } as unknown as Browser;
    expect((await trigger(5, 'page:translate', { trg: 'de' }, browser, flag)).state).toBe('translated');
    // The active tab when none is named (the shortcut's, the menu's).
    await trigger(undefined, 'page:toggle', { trg: 'de' }, browser, flag);
    expect(seen).toEqual([
      { type: 'page:translate', tab: 5, ask: true },
      { type: 'page:toggle', tab: 8, ask: true },
    ]);
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual([5, 8]);
    // A toggle that restored: the page's own report unlists the tab.
    await flag.note(8, 'original');
    await flag.note(5, 'original');
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
    await expect(trigger(-1, 'page:translate', { trg: 'de' }, browser, flag)).rejects.toThrow('tabId must be a tab id');
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
  });
});
