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

/** A report of a tab's top frame in `state`, translated from French into German. */
const st = (state: PageStatus['state'], more: Partial<PageStatus> = {}) => ({ state, src: 'fr', trg: 'de', mode: 'replace' as const, scope: 'page' as const, ...more });
const FR_DE = { src: 'fr', trg: 'de', mode: 'replace', scope: 'page' };

describe('frameFlag', () => {
  it('asks frames to ask while a tab is translating or translated, keeps what it is translated as, and writes only what changed', async () => {
    const m = memoryStorage();
    const flag = frameFlag(m.storage);
    await flag.note(7, st('translating'));
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    await flag.note(7, st('translated'));
    await flag.note(9, st('translated', { trg: 'es', mode: 'bilingual' }));
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual({ 7: FR_DE, 9: { ...FR_DE, trg: 'es', mode: 'bilingual' } });
    expect(await flag.translation(9)).toEqual({ ...FR_DE, trg: 'es', mode: 'bilingual' });
    // A restore unlists the tab; so does a stop.
    await flag.note(7, st('original'));
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    expect(await flag.translation(7)).toBeUndefined();
    await flag.note(9, st('cancelled'));
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
    expect(m.writes).toEqual([
      `session page:translatedTabs={"7":${JSON.stringify(FR_DE)}}`,
      'local page:framesAsk=true',
      `session page:translatedTabs={"7":${JSON.stringify(FR_DE)},"9":${JSON.stringify({ ...FR_DE, trg: 'es', mode: 'bilingual' })}}`,
      `session page:translatedTabs={"9":${JSON.stringify({ ...FR_DE, trg: 'es', mode: 'bilingual' })}}`,
      'session page:translatedTabs={}',
      'local page:framesAsk=false',
    ]);
  });

  it('keeps every report of tabs reporting together', async () => {
    const m = memoryStorage();
    const flag = frameFlag(m.storage);
    await Promise.all([1, 2, 3, 4, 5].map((t) => flag.note(t, st('translating'))));
    expect(Object.keys(m.session[TRANSLATED_TABS_KEY] as object)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('drops the tabs that are gone (closed, no page of ours), not one that reported while it checked; a navigation keeps a tab', async () => {
    const m = memoryStorage({ [FRAMES_ASK_KEY]: true }, { [TRANSLATED_TABS_KEY]: { 3: FR_DE, 4: FR_DE, 5: FR_DE, 6: FR_DE } });
    const flag = frameFlag(m.storage);
    await flag.prune(async (t) => {
      if (t === 5) await flag.note(5, st('translated'));
      if (t === 4) throw new Error('No tab with id: 4');
      // 6 navigated: its page is there, not translated yet.
      return t === 6;
    });
    expect(Object.keys(m.session[TRANSLATED_TABS_KEY] as object)).toEqual(['5', '6']);
    expect(await flag.translation(6)).toEqual(FR_DE);
    expect(m.local[FRAMES_ASK_KEY]).toBe(true);
    await flag.prune(async () => false);
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
  });

  it('sets right a flag left true with no tab listed when a frame asks', async () => {
    const m = memoryStorage({ [FRAMES_ASK_KEY]: true });
    await frameFlag(m.storage).prune(async () => true);
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
  });

  it('clears a flag left by the last session, and takes only tab ids and translations from storage', async () => {
    const m = memoryStorage({ [FRAMES_ASK_KEY]: true }, { [TRANSLATED_TABS_KEY]: { 1: { src: 'fr', trg: 7, mode: 'sideways', evil: '<b>' }, x: FR_DE, 2.5: FR_DE, 3: null } });
    const flag = frameFlag(m.storage);
    expect(await flag.translation(1)).toEqual({ src: 'fr' });
    await flag.note(1, st('original'));
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual({});
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
    // What another version stored (a list of ids) reads as no tab.
    const older = memoryStorage({ [FRAMES_ASK_KEY]: true }, { [TRANSLATED_TABS_KEY]: [1, 2] });
    expect(await frameFlag(older.storage).translation(1)).toBeUndefined();
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
    await flag.note(3, st('translating'));
    expect(m.session[TRANSLATED_TABS_KEY]).toEqual({ 3: FR_DE });
    const writes = m.writes.length;
    await flag.announce(4);
    await flag.note(4, st('translating'));
    expect(m.writes.slice(writes)).toEqual([
      `session page:translatedTabs={"3":${JSON.stringify(FR_DE)},"4":{}}`,
      `session page:translatedTabs={"3":${JSON.stringify(FR_DE)},"4":${JSON.stringify(FR_DE)}}`,
    ]);
    // A trigger to a tab already listed keeps what it was translated as until its own report.
    await flag.announce(3);
    expect(await flag.translation(3)).toEqual(FR_DE);
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
    expect(Object.keys(m.session[TRANSLATED_TABS_KEY] as object)).toEqual(['5', '8']);
    // A toggle that restored: the page's own report unlists the tab.
    await flag.note(8, st('original'));
    await flag.note(5, st('original'));
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
    await expect(trigger(-1, 'page:translate', { trg: 'de' }, browser, flag)).rejects.toThrow('tabId must be a tab id');
    expect(m.local[FRAMES_ASK_KEY]).toBe(false);
  });
});
