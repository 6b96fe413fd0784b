/**
 * The router's site rules, page:loaded, provider log messages, and a content script's api call and
 * translate port going through the content policy (privacy routing + log).
 */
import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { contentPolicy } from '../../../src/background/content-calls';
import { createProviderLog, LOG_CAP } from '../../../src/background/provider-log';
import { FrameProgress } from '../../../src/background/frame-progress';
import { createMessageHandler } from '../../../src/background/router';
import { createSettingsStore } from '../../../src/background/settings';
import { createSitesStore } from '../../../src/background/sites';
import { createConnectListener } from '../../../src/background/translate-port';
import type { CallOptions } from '../../../src/core/service-types';
import type { LanguageLists, LooseParams, Params } from '../../../src/core/types';
import type { TabTranslation } from '../../../src/background/frames';
import type { PageStatus } from '../../../src/shared/messages';
import { CONTENT_SENDER, fakePort, fakeStorage, OPTIONS_SENDER, PAGE_SENDER, SELF } from './fakes';

const TOP = { ...CONTENT_SENDER, url: 'https://fr.example.com/news', origin: 'https://fr.example.com', frameId: 0 } as Runtime.MessageSender;

function setup(initial: Record<string, unknown> = {}, routes = ['google.ts', 'apertium.ts']) {
  const storage = fakeStorage({ settings: { providers: { 'apertium.ts': { enabled: true }, 'google.ts': { enabled: true } } }, ...initial });
  const calls: { fn: string; params: Params | LooseParams; options?: CallOptions }[] = [];
  const service = {
    async call(fn: string, params: Params | LooseParams, options?: CallOptions) {
      calls.push({ fn, params, ...(options ? { options } : {}) });
      if (fn === 'GetRoutes') return { status: 200, body: routes };
      const rid = (params as LooseParams)['rid'];
      return { status: 200, body: { dat: [{ rid: Array.isArray(rid) ? rid[0] : 'google.ts', text: ['x'], length: 1 }] } };
    },
    async flush() {},
    warmed: 0,
    async warm() {
      this.warmed += 1;
    },
    /** The engine's lists, where a test gives them (a trigger carries them to its tab). */
    lists: undefined as (() => Promise<LanguageLists>) | undefined,
  };
  const settings = createSettingsStore(storage.area, storage.onChanged);
  const sites = createSitesStore(() => storage.area);
  const log = createProviderLog(() => storage.area);
  const translated: ({ tabId: number | undefined; trg: string } & Record<string, unknown>)[] = [];
  // What the tab's top frame answers to page:status.
  const top: { status: PageStatus } = { status: { state: 'original', done: 0, total: 0, errors: 0, site: 'fr.example.com', lang: 'fr' } };
  const tabs = {
    translate: async (tabId: number | undefined, d: { trg: string }) => {
      translated.push({ tabId, ...d });
      return { ...top.status, state: 'translating' as const };
    },
    status: async (tabId?: number) => {
      if (tabId !== undefined && closed.has(tabId)) throw new Error(`No tab with id: ${tabId}`);
      return top.status;
    },
    language: () => 'es',
    id: async (tabId?: number) => tabId ?? 1,
  };
  const closed = new Set<number>();
  // What frames.ts is told: the tabs each page:frame's check keeps; what each tab was translated as.
  const kept: number[][] = [];
  const remembered = new Map<number, TabTranslation>();
  const frames = {
    note: async () => undefined,
    announce: async () => undefined,
    translation: async (tabId: number) => remembered.get(tabId),
    prune: async (alive: (tabId: number) => Promise<boolean>) => {
      kept.push((await Promise.all([1, 2].map(async (t) => ((await alive(t).catch(() => false)) ? t : -1)))).filter((t) => t > 0));
    },
    reset: async () => undefined,
  };
  const policy = contentPolicy({ service, settings, sites, log });
  const ask = createMessageHandler({ service, settings, self: SELF, sites, log, tabs, frames, contentPolicy: policy, progress: new FrameProgress() });
  return { ask, calls, storage, translated, service, policy, log, top, kept, closed, remembered };
}

describe('sites:get / sites:set', () => {
  it('edits rules from the popup and the options page, validated, never from a content script', async () => {
    const { ask, storage } = setup();
    expect(await ask({ type: 'sites:set', data: { sites: { 'Example.com': { mode: 'always', trg: 'de' } } } }, PAGE_SENDER))
      .toEqual({ data: { sites: { 'example.com': { mode: 'always', trg: 'de' } }, languages: {} } });
    await ask({ type: 'sites:set', data: { languages: { fr: 'always' } } }, OPTIONS_SENDER);
    expect(storage.data.get('ui:sites')).toEqual({ sites: { 'example.com': { mode: 'always', trg: 'de' } }, languages: { fr: 'always' } });
    expect(await ask({ type: 'sites:set', data: { sites: { 'x.test': { mode: 'maybe' } } } }, PAGE_SENDER))
      .toEqual({ error: { status: 400, message: 'sites["x.test"].mode: must be "always" or "never"' } });
    expect(await ask({ type: 'sites:set', data: { sites: { 'evil.test': { mode: 'never' } } } }, CONTENT_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'sites:get', data: {} }, CONTENT_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'sites:get', data: {} }, PAGE_SENDER)).toMatchObject({ data: { languages: { fr: 'always' } } });
  });

  it('serializes quick edits, so none is lost', async () => {
    const { ask } = setup();
    await Promise.all(['a.test', 'b.test', 'c.test'].map((h) => ask({ type: 'sites:set', data: { sites: { [h]: { private: true } } } }, PAGE_SENDER)));
    expect(Object.keys(((await ask({ type: 'sites:get', data: {} }, PAGE_SENDER)) as { data: { sites: object } }).data.sites).sort()).toEqual(['a.test', 'b.test', 'c.test']);
  });
});

describe('the sites store in the worker', () => {
  it('keeps the rules in memory until storage says they changed (a patch, or another context or device)', async () => {
    const storage = fakeStorage({ 'ui:sites': { sites: { 'a.test': { private: true } }, languages: {} } });
    const store = createSitesStore(() => storage.area, () => storage.onChanged);
    const reads = storage.reads();
    expect((await store.get()).sites).toEqual({ 'a.test': { private: true } });
    await store.get();
    await store.get();
    expect(storage.reads() - reads).toBe(1);
    // sync.ts copying another device's rules writes storage directly.
    await storage.area.set({ 'ui:sites': { sites: { 'b.test': { mode: 'never' } }, languages: {} } });
    expect((await store.get()).sites).toEqual({ 'b.test': { mode: 'never' } });
    await store.patch({ sites: { 'c.test': { private: true } } });
    expect(Object.keys((await store.get()).sites).sort()).toEqual(['b.test', 'c.test']);
  });
});

describe('page:loaded', () => {
  it('sends page:translate to the tab of an always site, into the rule\'s target', async () => {
    const { ask, translated } = setup({ 'ui:sites': { sites: { 'example.com': { mode: 'always', trg: 'de' } }, languages: {} } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, TOP)).toEqual({ data: { action: 'translate', src: 'fr', trg: 'de', why: 'site' } });
    expect(translated).toEqual([{ tabId: 7, src: 'fr', trg: 'de', mode: 'replace' }]);
  });

  it("carries the engine's lists to the tab, so that it does not ask for them", async () => {
    const { ask, translated, service } = setup({ 'ui:sites': { sites: { 'example.com': { mode: 'always', trg: 'de' } }, languages: {} } });
    const lists = { src: ['fr'], trg: ['de'], exclude: [] as [string, string][] };
    service.lists = async () => lists;
    await ask({ type: 'page:loaded', data: { lang: 'fr' } }, TOP);
    await expect.poll(() => translated).toEqual([{ tabId: 7, src: 'fr', trg: 'de', mode: 'replace', lists }]);
  });

  it('shows the page bilingual where the site says so, else as the general default says', async () => {
    const { ask, translated } = setup({
      'ui:sites': { sites: { 'example.com': { mode: 'always', trg: 'de', bilingual: true }, 'plain.test': { mode: 'always', trg: 'de', bilingual: false }, 'other.test': { mode: 'always', trg: 'de' } }, languages: {} },
      'ui:page': { bilingual: true },
    });
    await ask({ type: 'page:loaded', data: { lang: 'fr' } }, TOP);
    await ask({ type: 'page:loaded', data: { lang: 'fr' } }, { ...TOP, url: 'https://plain.test/' });
    await ask({ type: 'page:loaded', data: { lang: 'fr' } }, { ...TOP, url: 'https://other.test/' });
    expect(translated.map((t) => t['mode'])).toEqual(['bilingual', 'replace', 'bilingual']);
  });

  it('translates an always language into the browser language, and nothing for never or no rule', async () => {
    const { ask, translated } = setup({ 'ui:sites': { sites: { 'quiet.test': { mode: 'never' } }, languages: { fr: 'always' } } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr-FR' } }, TOP)).toMatchObject({ data: { action: 'translate', trg: 'es', why: 'language' } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, { ...TOP, url: 'https://quiet.test/' })).toEqual({ data: { action: 'none', why: 'site-never' } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'en' } }, TOP)).toEqual({ data: { action: 'none', why: 'no-rule' } });
    // A page that asks at its root not to be translated (only `true` says so).
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr', saysNo: true } }, TOP)).toEqual({ data: { action: 'none', why: 'page-says-no' } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr', saysNo: 'yes' } as never }, TOP)).toMatchObject({ data: { action: 'translate' } });
    expect(translated).toHaveLength(2);
  });

  it('goes on translating a tab the user translated: its next page in the same language, as it was shown; rules first', async () => {
    const { ask, translated, remembered, closed, kept } = setup({ 'ui:sites': { sites: { 'quiet.test': { mode: 'never' }, 'always.test': { mode: 'always', trg: 'it' } }, languages: {} } });
    remembered.set(7, { src: 'fr', trg: 'de', mode: 'bilingual', scope: 'near' });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr-CA' } }, TOP)).toEqual({ data: { action: 'translate', src: 'fr', trg: 'de', why: 'tab' } });
    expect(translated).toEqual([{ tabId: 7, src: 'fr', trg: 'de', mode: 'bilingual', scope: 'near' }]);
    // A page in another language, a site the user never translates, a page in the target: left as they are.
    expect(await ask({ type: 'page:loaded', data: { lang: 'ja' } }, TOP)).toEqual({ data: { action: 'none', why: 'no-rule' } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, { ...TOP, url: 'https://quiet.test/' })).toEqual({ data: { action: 'none', why: 'site-never' } });
    remembered.set(7, { src: 'de', trg: 'de' });
    expect(await ask({ type: 'page:loaded', data: { lang: 'de' } }, TOP)).toEqual({ data: { action: 'none', why: 'same-language' } });
    // A site's rule says into what.
    remembered.set(7, { src: 'fr', trg: 'de' });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, { ...TOP, url: 'https://always.test/' })).toMatchObject({ data: { trg: 'it', why: 'site' } });
    // A tab never translated, or restored (unlisted): nothing.
    remembered.clear();
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, TOP)).toEqual({ data: { action: 'none', why: 'no-rule' } });
    expect(translated).toHaveLength(2);
    // Each load checks the listed tabs too: a closed one leaves (else the flag stays up, and every load asks).
    closed.add(2);
    await ask({ type: 'page:loaded', data: { lang: 'fr' } }, TOP);
    await expect.poll(() => kept.at(-1)).toEqual([1]);
  });

  it('is only heard from a tab\'s top frame', async () => {
    const { ask, translated } = setup({ 'ui:sites': { sites: { 'example.com': { mode: 'always' } }, languages: {} } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, { ...TOP, frameId: 2 })).toMatchObject({ error: { status: 400 } });
    expect(await ask({ type: 'page:loaded', data: { lang: 'fr' } }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(translated).toEqual([]);
  });
});

describe('page:translate without a mode', () => {
  it('takes the mode of the tab\'s site; a mode given wins', async () => {
    const { ask, translated } = setup({ 'ui:sites': { sites: { 'example.com': { bilingual: true } }, languages: {} } });
    expect(await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de' } }, PAGE_SENDER)).toMatchObject({ data: { state: 'translating' } });
    await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de', mode: 'replace' } }, PAGE_SENDER);
    expect(translated).toEqual([{ tabId: 3, trg: 'de', mode: 'bilingual' }, { tabId: 3, trg: 'de', mode: 'replace' }]);
  });

  it("carries the engine's language lists to the tab, so that it does not ask for them; none where they cannot be built", async () => {
    const { ask, translated, service } = setup();
    const lists = { src: ['fr', 'en'], trg: ['de', 'en'], exclude: [] as [string, string][] };
    service.lists = async () => lists;
    await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de', mode: 'replace' } }, PAGE_SENDER);
    service.lists = () => Promise.reject(new Error('no settings'));
    await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de', mode: 'replace' } }, PAGE_SENDER);
    expect(translated).toEqual([{ tabId: 3, trg: 'de', mode: 'replace', lists }, { tabId: 3, trg: 'de', mode: 'replace' }]);
  });

  it('shows a page without a site (a file) as the general default says', async () => {
    const { ask, translated, top } = setup({ 'ui:page': { bilingual: true } });
    top.status = { state: 'original', done: 0, total: 0, errors: 0 };
    await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de' } }, PAGE_SENDER);
    expect(translated).toEqual([{ tabId: 3, trg: 'de', mode: 'bilingual' }]);
  });

  it('passes on the page language the user named, and refuses what is not a language code', async () => {
    const { ask, translated } = setup();
    await ask({ type: 'page:translate', data: { tabId: 3, src: 'fr', trg: 'de' } }, PAGE_SENDER);
    expect(translated).toEqual([{ tabId: 3, src: 'fr', trg: 'de', mode: 'replace' }]);
    expect(await ask({ type: 'page:translate', data: { tabId: 3, src: 'fr; DROP', trg: 'de' } }, PAGE_SENDER)).toEqual({
      error: { status: 400, message: 'page:translate: src "fr; DROP" is not a language code' },
    });
    expect(await ask({ type: 'page:translate', data: { tabId: 3, trg: 'German' } }, PAGE_SENDER)).toEqual({
      error: { status: 400, message: 'page:translate: trg "German" is not a language code' },
    });
    expect(translated).toHaveLength(1);
  });

  it("builds the language lists while the tab is asked its site's mode, before the trigger goes", async () => {
    const { ask, service, translated } = setup();
    const order: string[] = [];
    service.lists = async () => {
      order.push('lists');
      return { src: ['fr'], trg: ['de'], exclude: [] };
    };
    await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de' } }, PAGE_SENDER);
    expect(order).toEqual(['lists']);
    expect(translated).toEqual([{ tabId: 3, trg: 'de', mode: 'replace', lists: { src: ['fr'], trg: ['de'], exclude: [] } }]);
    // A refused message builds nothing.
    await ask({ type: 'page:translate', data: { tabId: 3, trg: 'de' } }, TOP);
    expect(order).toEqual(['lists']);
  });
});

describe('page:frame', () => {
  const FRAME = { ...TOP, url: 'https://widgets.test/embed', frameId: 5 } as Runtime.MessageSender;

  it('tells a frame that loaded after its page was translated to follow it, into the same target and mode', async () => {
    const { ask, top, kept, closed } = setup();
    expect(await ask({ type: 'page:frame', data: {} }, FRAME)).toEqual({ data: { action: 'none' } });
    top.status = { state: 'translated', src: 'fr', trg: 'de', done: 4, total: 4, errors: 0, mode: 'bilingual', scope: 'near' };
    expect(await ask({ type: 'page:frame', data: {} }, FRAME)).toEqual({ data: { action: 'translate', trg: 'de', mode: 'bilingual', scope: 'near' } });
    top.status = { ...top.status, state: 'cancelled' };
    expect(await ask({ type: 'page:frame', data: {} }, FRAME)).toEqual({ data: { action: 'none' } });
    // Each ask checks the listed tabs again: a tab closed leaves; one whose page is not translated
    // now stays (a navigation: its next page may go on translated; a restore unlists it itself).
    closed.add(2);
    await ask({ type: 'page:frame', data: {} }, FRAME);
    await expect.poll(() => kept).toEqual([[1, 2], [1, 2], [1, 2], [1]]);
  });

  it('is heard only from a frame inside a tab', async () => {
    const { ask } = setup();
    expect(await ask({ type: 'page:frame', data: {} }, TOP)).toMatchObject({ error: { status: 400 } });
    expect(await ask({ type: 'page:frame', data: {} }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
  });
});

describe('page:wake', () => {
  it('builds the language lists on a right-click in a page, with no call made and nothing logged', async () => {
    const { ask, service, calls, storage } = setup({ 'log:on': true });
    expect(await ask({ type: 'page:wake', data: {} }, TOP)).toEqual({ data: { ok: true } });
    expect(service.warmed).toBe(1);
    expect(calls).toEqual([]);
    expect(storage.data.get('log:entries')).toBeUndefined();
  });

  it('is heard only from a content script', async () => {
    const { ask, service } = setup();
    expect(await ask({ type: 'page:wake', data: {} }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'page:wake', data: {} }, OPTIONS_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(service.warmed).toBe(0);
  });

  it('the popup opening warms the worker too (its page:status comes before its "Translate this page")', async () => {
    const { ask, service, calls } = setup();
    expect(await ask({ type: 'page:status', data: {} }, PAGE_SENDER)).toMatchObject({ data: { site: 'fr.example.com' } });
    expect(service.warmed).toBe(1);
    expect(calls).toEqual([]);
  });
});

describe('provider log messages', () => {
  it('are off by default, for the options page only; on, each content Translate is logged; clear empties it', async () => {
    const { ask } = setup();
    const translate = { type: 'api', data: { fn: 'Translate', params: { src: 'fr', trg: 'es', dat: ['Bonjour'] } } };
    await ask(translate, TOP);
    expect(await ask({ type: 'log:get', data: {} }, OPTIONS_SENDER)).toEqual({ data: { on: false, entries: [] } });
    expect(await ask({ type: 'log:get', data: {} }, PAGE_SENDER)).toMatchObject({ error: { status: 403 } });
    expect(await ask({ type: 'log:set', data: { on: true } }, CONTENT_SENDER)).toMatchObject({ error: { status: 403 } });
    await ask({ type: 'log:set', data: { on: true } }, OPTIONS_SENDER);
    await ask(translate, TOP);
    // The popup's own calls are not a site's: not logged.
    await ask(translate, PAGE_SENDER);
    const got = (await ask({ type: 'log:get', data: {} }, OPTIONS_SENDER)) as { data: { on: boolean; entries: unknown[] } };
    expect(got.data).toEqual({ on: true, entries: [{ at: expect.any(Number), site: 'https://fr.example.com', providers: ['google.ts'], chars: 7 }] });
    await ask({ type: 'log:clear', data: {} }, OPTIONS_SENDER);
    expect(await ask({ type: 'log:get', data: {} }, OPTIONS_SENDER)).toEqual({ data: { on: true, entries: [] } });
  });

  it('keeps the newest entries up to the cap, writing a burst in few writes', async () => {
    const storage = fakeStorage({ 'log:on': true });
    let writes = 0;
    const area = { get: storage.area.get, set: async (v: Record<string, unknown>) => { writes += 1; await storage.area.set(v); } };
    const log = createProviderLog(() => area, 5);
    await Promise.all(Array.from({ length: 12 }, (_, i) => log.add({ at: i, site: 'https://a.test', providers: ['google.ts'], chars: 1 })));
    expect((await log.entries()).map((e) => e.at)).toEqual([7, 8, 9, 10, 11]);
    expect(writes).toBeLessThanOrEqual(2);
    expect(LOG_CAP).toBe(1000);
  });
});

describe('a private site\'s content calls', () => {
  const PRIVATE = { 'ui:sites': { sites: { 'example.com': { private: true } }, languages: {} } };

  it('reach the service through the api message with local rids and allowProviders', async () => {
    const { ask, calls } = setup(PRIVATE);
    await ask({ type: 'api', data: { fn: 'Translate', params: { src: 'fr', trg: 'es', dat: ['Bonjour'] } } }, TOP);
    const translate = calls.find((c) => c.fn === 'Translate')!;
    expect(translate.params).toMatchObject({ rid: ['apertium.ts'] });
    expect(translate.options?.allowProviders?.('google.ts')).toBe(false);
    expect(translate.options).toMatchObject({ trusted: true, origin: 'https://fr.example.com' });
  });

  it('reach the service through the translate port the same way', async () => {
    const { service, policy, calls } = setup(PRIVATE);
    const end = fakePort('translate', TOP);
    createConnectListener({ service, self: SELF, contentPolicy: policy })(end.port);
    end.send({ params: { src: 'fr', trg: 'es', dat: ['Bonjour'], frm: 'html' } });
    await new Promise((r) => setTimeout(r, 10));
    const translate = calls.find((c) => c.fn === 'Translate')!;
    expect(translate.params).toMatchObject({ rid: ['apertium.ts'], frm: 'html' });
    expect(translate.options?.allowProviders?.('apertium.ts')).toBe(true);
    expect(end.posted.at(-1)).toMatchObject({ type: 'done', reply: { status: 200 } });
  });

  it('are answered 403 over the port when no route is local', async () => {
    const { service, policy, calls } = setup(PRIVATE, ['google.ts']);
    const end = fakePort('translate', TOP);
    createConnectListener({ service, self: SELF, contentPolicy: policy })(end.port);
    end.send({ params: { src: 'fr', trg: 'es', dat: ['Bonjour'] } });
    await new Promise((r) => setTimeout(r, 10));
    expect(end.posted).toEqual([{ type: 'done', reply: { status: 403, body: { err: expect.stringContaining('private') } } }]);
    expect(calls.map((c) => c.fn)).toEqual(['GetRoutes']);
  });
});
