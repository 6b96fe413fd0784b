/**
 * Site rules from the background's side (src/core/sites.ts): stored in storage.local under
 * `ui:sites` (mirrored to storage.sync by sync.ts), edited by the popup and the options page
 * (`sites:get`, `sites:set`), and applied when a page has loaded: the top frame's content script
 * reports its language (`page:loaded`) and, for an `always` rule, gets `page:translate` in all its
 * frames. The content script reporting (rather than tabs.onUpdated) needs no `tabs` permission for
 * the URL and cannot race the script's injection.
 */
import type { Storage } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import { applySitePatch, decideOnLoad, isBilingual, storedSitePrefs, type LoadDecision, type SitePrefs } from '../core/sites';
import { ext } from '../shared/browser';
import type { PageMode } from '../shared/messages';
import { PAGE_KEY, SITES_KEY, type PagePrefs } from '../ui/shared/store';
import type { Handler } from './router';
import { frames, pruneFor } from './frames';
import { listsFor, TABS } from './tabs';

type Area = Pick<Storage.StorageArea, 'get' | 'set'>;

export interface SitesStore {
  get(): Promise<SitePrefs>;
  /** Applies a patch; throws ApiError 400 naming the field of a bad one. */
  patch(patch: unknown): Promise<SitePrefs>;
  /** How pages of `host` are shown: the site's own choice, else the general default. */
  mode(host: string | undefined): Promise<PageMode>;
}

type OnChanged = Pick<Storage.Static['onChanged'], 'addListener'>;

/**
 * `onChanged`: storage's change events, so the rules can be kept in memory between reads (every
 * page-translation call checks them: a storage read each took ~9 ms of its latency in the worker).
 * Where there are none (a test double), every get reads storage.
 */
export function createSitesStore(area: () => Area = () => ext().storage.local, onChanged: () => OnChanged | undefined = () => ext().storage.onChanged): SitesStore {
  // Patches are serialized: two quick edits from the popup must not read the same old value.
  let queue: Promise<unknown> = Promise.resolve();
  let cache: Promise<SitePrefs> | undefined;
  let listening: boolean | undefined;
  const listen = (): boolean => {
    if (listening !== undefined) return listening;
    try {
      const events = onChanged();
      // Another context, or sync.ts copying what another device wrote, changes the rules directly.
      events?.addListener((changes: Record<string, unknown>, areaName: string) => {
        if (areaName === 'local' && SITES_KEY in changes) cache = undefined;
      });
      listening = events !== undefined;
    } catch {
      listening = false;
    }
    return listening;
  };
  const read = async (): Promise<SitePrefs> => storedSitePrefs((await area().get(SITES_KEY))[SITES_KEY]);
  const get = (): Promise<SitePrefs> => {
    if (!listen()) return queue.then(read, read);
    if (!cache) {
      const loading = queue.then(read, read);
      cache = loading;
      loading.catch(() => {
        if (cache === loading) cache = undefined;
      });
    }
    return cache;
  };
  /** The page preferences' `bilingual`: the default of sites without their own choice. */
  const bilingualDefault = async (): Promise<boolean> => {
    const stored: Record<string, unknown> = await area().get(PAGE_KEY).catch(() => ({}));
    return (stored[PAGE_KEY] as PagePrefs | undefined)?.bilingual === true;
  };
  return {
    get,
    async mode(host) {
      const [prefs, byDefault] = await Promise.all([get(), bilingualDefault()]);
      return isBilingual(prefs, host, byDefault) ? 'bilingual' : 'replace';
    },
    patch(patch) {
      const next = queue.catch(() => undefined).then(async () => {
        const prefs = applySitePatch(await read(), patch);
        await area().set({ [SITES_KEY]: prefs });
        cache = undefined;
        return prefs;
      });
      queue = next;
      return next;
    },
  };
}

/** The host of a URL, or undefined. */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

let defaultStore: SitesStore | undefined;
export const sitesStore = (): SitesStore => (defaultStore ??= createSitesStore());

type SitesMessage = 'sites:get' | 'sites:set' | 'page:loaded';

export const SITES_HANDLERS: { [K in SitesMessage]: Handler<K> } = {
  'sites:get': {
    allow: ['options', 'page'],
    handle: (_data, _ctx, deps) => (deps.sites ?? sitesStore()).get(),
  },
  'sites:set': {
    allow: ['options', 'page'],
    handle: (data, _ctx, deps) => (deps.sites ?? sitesStore()).patch(data),
  },
  'page:loaded': {
    allow: ['content'],
    async handle(data, ctx, deps): Promise<LoadDecision> {
      const tabId = ctx.sender.tab?.id;
      // Only the top frame speaks for the page; frames are translated with it.
      if (tabId === undefined || (ctx.sender.frameId ?? 0) !== 0) throw new ApiError(400, 'page:loaded: only from a tab\'s top frame');
      if (typeof data.lang !== 'string' || data.lang === '') throw new ApiError(400, 'page:loaded: lang is required');
      const host = hostOf(ctx.sender.url);
      if (host === undefined) return { action: 'none', why: 'no-rule' };
      const store = deps.sites ?? sitesStore();
      const tabs = deps.tabs ?? TABS;
      // What the tab was translated as, kept across its navigations until a restore or a stop.
      const flag = deps.frames ?? frames();
      const before = await flag.translation(tabId).catch(() => undefined);
      // A load while the flag is up: tabs closed since leave the list (else every load would ask).
      pruneFor(flag, tabId, (id) => tabs.status(id));
      const decision = decideOnLoad(await store.get(), host, data.lang, tabs.language(), before, data.saysNo === true);
      if (decision.action === 'translate') {
        // The tab's page goes on as it was shown (bilingual, near the viewport); a rule's, as its site's.
        const mode = decision.why === 'tab' && before?.mode ? before.mode : await store.mode(host);
        const scope = decision.why === 'tab' && before?.scope ? { scope: before.scope } : {};
        // Not awaited: the content script answers page:translate while this reply is pending. With
        // the engine's lists (tabs.ts `listsFor`).
        void listsFor(deps.service)
          .then((lists) => tabs.translate(tabId, { src: decision.src, trg: decision.trg, mode, ...scope, ...lists }))
          .catch(() => undefined);
      }
      return decision;
    },
  },
};
