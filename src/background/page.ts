/**
 * Page translation from the background's side: the `page:*` messages of extension pages are
 * forwarded to the tab's content script (tabs.sendMessage reaches every frame; the top frame
 * answers), the content script's progress becomes the tab's badge, and the keyboard shortcut and
 * the context menu toggle translate/restore. Nothing here lives only in memory that matters: the
 * page's state is in the page, the badge in the browser.
 */
import type { Browser } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import type { LanguageLists } from '../core/types';
import { canonicalLanguage } from '../core/lang';
import { ext } from '../shared/browser';
import { isPageStatus, type FrameDecision, type PageMode, type PageOptions, type PageStatus } from '../shared/messages';
import { FrameProgress, sessionCounts } from './frame-progress';
import { frames, pruneFor, type FrameFlag } from './frames';
import type { Context, Handler, RouterDeps } from './router';
import { sitesStore, type SitesStore } from './sites';
import { stopPageCalls } from './translate-port';
import { defaultTarget, listsFor, TABS, toTab, trigger, type TabControl } from './tabs';

export const TOGGLE_COMMAND = 'toggle-page-translation';
export const ALTERNATIVES_COMMAND = 'show-alternatives';
export const MENU_ID = 'toggle-page-translation';
/** The page menu's title in the browser's language (_locales; English where a name is missing): it toggles. */
function menuTitle(browser: Browser, translated: boolean): string {
  const i18n = browser.i18n;
  return translated ? i18n?.getMessage?.('menuShowOriginal') || 'Show original' : i18n?.getMessage?.('menuTranslatePage') || 'Translate this page';
}

type PageMessage = 'page:translate' | 'page:restore' | 'page:cancel' | 'page:status' | 'page:progress' | 'page:retry' | 'page:frame' | 'page:wake';

/** The count of each tab's frames (frame-progress.ts), read back from storage.session once per worker. */
let shared: FrameProgress | undefined;
export const frameProgress = (): FrameProgress => (shared ??= new FrameProgress(sessionCounts()));
/** `deps.progress` or the worker's, once what an earlier worker knew is read back. */
async function progressOf(deps: Pick<RouterDeps, 'progress'>): Promise<FrameProgress> {
  const progress = deps.progress ?? frameProgress();
  await progress.ready();
  return progress;
}

const PAGES = ['options', 'page'] as const;

function target(data: { trg?: unknown; src?: unknown; mode?: unknown; scope?: unknown }): { src?: string; trg: string } & PageOptions {
  if (typeof data.trg !== 'string' || data.trg === '') throw new ApiError(400, 'page:translate: trg is required');
  if (canonicalLanguage(data.trg) === undefined) throw new ApiError(400, `page:translate: trg ${JSON.stringify(data.trg)} is not a language code`);
  if (data.src !== undefined && typeof data.src !== 'string') throw new ApiError(400, 'page:translate: src must be a string');
  // The page's language as the caller names it (a page whose `lang` is wrong); empty: the page's own.
  if (data.src && canonicalLanguage(data.src) === undefined) throw new ApiError(400, `page:translate: src ${JSON.stringify(data.src)} is not a language code`);
  if (data.mode !== undefined && data.mode !== 'replace' && data.mode !== 'bilingual') throw new ApiError(400, 'page:translate: mode must be "replace" or "bilingual"');
  if (data.scope !== undefined && data.scope !== 'page' && data.scope !== 'near') throw new ApiError(400, 'page:translate: scope must be "page" or "near"');
  return {
    trg: data.trg,
    ...(typeof data.src === 'string' && data.src ? { src: data.src } : {}),
    ...(data.mode ? { mode: data.mode } : {}),
    ...(data.scope ? { scope: data.scope } : {}),
  };
}

/**
 * The tab's badge: progress in percent, a check mark when done, `!` on errors (and on a page
 * stopped after its calls failed in a row), `×` when cancelled; none for a page with nothing to
 * translate (a check mark said it was translated, and nothing had changed).
 */
export function badgeOf(s: PageStatus): { text: string; color: string } {
  if (s.state === 'original') return { text: '', color: '#4a6ee0' };
  if (s.errors > 0 && (s.errors >= s.total - s.done || s.state === 'cancelled')) return { text: '!', color: '#d93025' };
  if (s.state === 'translating') return { text: `${s.total ? Math.floor((100 * s.done) / s.total) : 0}%`, color: '#4a6ee0' };
  if (s.state === 'cancelled') return { text: '×', color: '#777777' };
  if (s.total === 0) return { text: '', color: '#188038' };
  return { text: s.errors ? '!' : '✓', color: s.errors ? '#d93025' : '#188038' };
}

/** How long frames' reports are gathered before their sum is shown (the badge, the top frame's indicator). */
const TELL_MS = 250;

type TellDeps = Pick<RouterDeps, 'tellTop' | 'tellMs' | 'badge'>;

/**
 * Shows the tab's frames' units soon, when they changed: the top frame is told them (`page:frames`:
 * its indicator adds them) and the badge counts them. Frames that report together are shown once,
 * after the moment of a trigger, when the top frame's first paragraph is on its way.
 */
function tellTop(tabId: number, progress: FrameProgress, deps: TellDeps): void {
  const tell = deps.tellTop ?? ((id, counts) => toTab(id, 'page:frames', counts, ext(), 0));
  progress.soon(tabId, deps.tellMs ?? TELL_MS, () => {
    const news = progress.news(tabId);
    if (!news) return;
    void tell(tabId, news).catch(() => undefined);
    // Once the top frame has reported since the worker started.
    const tab = progress.last(tabId);
    if (tab) void (deps.badge ?? showProgress)(tabId, tab).catch(() => undefined);
  });
}

/** The tab of a content script that must be a tab's top frame (the indicator's), else 400. */
function topFrameTab(ctx: Context, type: string): number {
  const tabId = ctx.sender.tab?.id;
  if (tabId === undefined || (ctx.sender.frameId ?? 0) !== 0) throw new ApiError(400, `${type}: only from the top frame of a tab`);
  return tabId;
}

/** Menu titles follow the state of the tab that last reported. */
async function showProgress(tabId: number, status: PageStatus, browser: Browser = ext()): Promise<void> {
  const { text, color } = badgeOf(status);
  await browser.action?.setBadgeText({ tabId, text });
  await browser.action?.setBadgeBackgroundColor({ tabId, color });
  const translated = status.state !== 'original';
  await browser.contextMenus?.update(MENU_ID, { title: menuTitle(browser, translated) }).catch(() => undefined);
}

/**
 * The mode a page is shown in when the caller names none: its site's choice (`SiteRule.bilingual`),
 * else the general default. The site is the one the tab's top frame reports.
 */
async function siteMode(tabId: number | undefined, tabs: TabControl, sites: SitesStore): Promise<PageMode> {
  const site = await tabs.status(tabId).then((s) => s.site, () => undefined);
  return sites.mode(site || undefined);
}

export const PAGE_HANDLERS: { [K in PageMessage]: Handler<K> } = {
  'page:translate': {
    allow: PAGES,
    async handle(data, _ctx, deps) {
      const options = target(data);
      // As registerPageControls: the lists are built while the site's mode is asked, and go with
      // the trigger (the tab does not ask for them before its first units).
      const lists = listsFor(deps.service);
      const tabs = deps.tabs ?? TABS;
      const mode = options.mode ?? (await siteMode(data.tabId, tabs, deps.sites ?? sitesStore()));
      return tabs.translate(data.tabId, { ...options, mode, ...(await lists) });
    },
  },
  'page:restore': { allow: PAGES, handle: (data) => toTab(data.tabId, 'page:restore', {}) },
  'page:cancel': {
    allow: [...PAGES, 'content'],
    // The popup's Stop names its tab; the indicator's (a top frame's) stops its own tab's frames.
    async handle(data, ctx, deps) {
      const tabId = ctx.kind === 'content' ? topFrameTab(ctx, 'page:cancel') : await (deps.tabs ?? TABS).id(data.tabId);
      // What waits in the worker goes at once, and what a frame sends before it is told (each
      // settles its own calls).
      const release = stopPageCalls(tabId);
      try {
        const status = await toTab(tabId, 'page:cancel', {});
        return (await progressOf(deps)).of(tabId, status);
      } finally {
        release();
      }
    },
  },
  'page:status': {
    allow: PAGES,
    // The top frame's, with the units of the tab's frames (a frame's failures are the popup's
    // "Retry"). Every frame is asked, as before frames were counted: each reads its page's language
    // while the popup is open, not on the path of its "Translate this page" (asked of the top frame
    // alone, the popup's first unit on readability-nytimes-1, a page of 13 frames, came later:
    // medians of 4 alternate runs, 300 ms against 283; asked of all, 293 against 300).
    async handle(data, _ctx, deps) {
      void deps.service.warm?.();
      const tabs = deps.tabs ?? TABS;
      const tabId = await tabs.id(data.tabId);
      const [status, progress] = await Promise.all([tabs.status(tabId, true), progressOf(deps)]);
      return progress.of(tabId, status);
    },
  },
  'page:progress': {
    allow: ['content'],
    async handle(status, ctx, deps) {
      const tabId = ctx.sender.tab?.id;
      if (tabId === undefined) throw new ApiError(400, 'page:progress: no tab');
      if (!isPageStatus(status)) throw new ApiError(400, 'page:progress: not a page status');
      const progress = await progressOf(deps);
      const frameId = ctx.sender.frameId ?? 0;
      if (frameId !== 0) {
        // A frame's units count in its tab's badge and its top frame's indicator.
        progress.frame(tabId, frameId, status);
        tellTop(tabId, progress, deps);
        return { ok: true };
      }
      // The list of translated tabs, with what each is translated as: a navigation in it goes on
      // translating; frames loading later in this tab ask while it is translated.
      void (deps.frames ?? frames()).note(tabId, status).catch(() => undefined);
      // A start afresh: the frames known until now are asked whether they are still there, and how.
      const ask = deps.askFrame ?? ((tab: number, frameId: number) => toTab(tab, 'page:frame-status', {}, ext(), frameId));
      for (const frameId of progress.top(tabId, status)) {
        void ask(tabId, frameId).then((s) => (isPageStatus(s) ? s : undefined), () => undefined).then((s) => {
          progress.confirm(tabId, frameId, s);
          tellTop(tabId, progress, deps);
        });
      }
      await (deps.badge ?? showProgress)(tabId, progress.of(tabId, status));
      return { ok: true };
    },
  },
  'page:retry': {
    allow: ['content'],
    // The in-page indicator's Retry (the top frame's): every frame of the tab goes on with what
    // failed, as the popup's "Retry" does by asking the tab again as it is.
    async handle(_data, ctx, deps) {
      const tabId = topFrameTab(ctx, 'page:retry');
      const progress = await progressOf(deps);
      progress.retrying(tabId);
      const status = await toTab(tabId, 'page:retry', {});
      tellTop(tabId, progress, deps);
      return progress.of(tabId, status);
    },
  },
  'page:frame': {
    allow: ['content'],
    // A frame that loads after its page was translated (an ad, a widget, a lazy embed) follows the
    // page: the tab's top frame says whether it is translated, into what and how. Frames ask only
    // while some tab is listed as translated (frames.ts); each ask checks the list again.
    async handle(_data, ctx, deps): Promise<FrameDecision> {
      const tabId = ctx.sender.tab?.id;
      if (tabId === undefined || (ctx.sender.frameId ?? 0) === 0) throw new ApiError(400, 'page:frame: only from a frame inside a tab');
      const tabs = deps.tabs ?? TABS;
      const translated = (s: PageStatus | undefined): s is PageStatus & { trg: string } => !!s?.trg && (s.state === 'translating' || s.state === 'translated');
      const top = await tabs.status(tabId).catch(() => undefined);
      pruneFor(deps.frames ?? frames(), tabId, (id) => tabs.status(id));
      if (!translated(top)) return { action: 'none' };
      return { action: 'translate', trg: top.trg, mode: top.mode ?? 'replace', scope: top.scope ?? 'page' };
    },
  },
  'page:wake': {
    allow: ['content'],
    // A right-click: "Translate this page" or "Translate selection" may follow. This message has
    // started the worker (Chromium stops it after 30 s idle); the language lists the first call
    // needs (settings, each provider's pairs) are built now, while the menu is open, not on the
    // call's path. Answered at once; a failure here is the first call's to report.
    async handle(_data, _ctx, { service }) {
      void service.warm?.();
      return { ok: true };
    },
  },
};

/** What the shortcut and the menu use: the service's lists (`listsFor`), the tabs and the site rules (tests: fakes). */
export interface ToggleDeps {
  lists?: () => Promise<{ lists?: LanguageLists }>;
  tabs?: TabControl;
  sites?: SitesStore;
  frames?: FrameFlag;
}

/** The lists are built while the site's mode is asked of the tab. */
export async function togglePage(tabId: number | undefined, browser: Browser = ext(), deps: ToggleDeps = {}): Promise<PageStatus> {
  const listed = deps.lists?.() ?? {};
  const mode = await siteMode(tabId, deps.tabs ?? TABS, deps.sites ?? sitesStore());
  return trigger(tabId, 'page:toggle', { trg: defaultTarget(browser), mode, ...(await listed) }, browser, deps.frames);
}

/**
 * Shortcut and context menu; listeners registered at top level by index.ts. The service's lists
 * are started with a toggle: the language lists the page's first call needs are built while the
 * tab is asked its site (the shortcut's event has just started the worker, whose lists are not
 * built yet), and go to the tab with the toggle.
 */
export function registerPageControls(browser: Browser = ext(), service: { lists?(): Promise<LanguageLists> } = {}, deps: Omit<ToggleDeps, 'lists'> = {}): void {
  const toggle = { ...deps, lists: () => listsFor(service) };
  browser.commands?.onCommand.addListener((command: string, tab?: { id?: number }) => {
    if (command === TOGGLE_COMMAND) togglePage(tab?.id, browser, toggle).catch(() => undefined);
    // Every frame is asked; the one with the focus opens the chooser at its cursor.
    if (command === ALTERNATIVES_COMMAND) toTab(tab?.id, 'page:alternatives', {}, browser).catch(() => undefined);
  });
  browser.contextMenus?.onClicked.addListener((info, tab) => {
    if (info.menuItemId !== MENU_ID) return;
    togglePage(tab?.id, browser, toggle).catch(() => undefined);
  });
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus?.removeAll().then(() => {
      browser.contextMenus.create({ id: MENU_ID, title: menuTitle(browser, false), contexts: ['page'] });
    }).catch(() => undefined);
  });
}
