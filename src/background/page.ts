/**
 * Page translation from the background's side: the `page:*` messages of extension pages are
 * forwarded to the tab's content script (tabs.sendMessage reaches every frame; the top frame
 * answers), the content script's progress becomes the tab's badge, and the keyboard shortcut and
 * the context menu toggle translate/restore. Nothing here lives only in memory that matters: the
 * page's state is in the page, the badge in the browser.
 */
import type { Browser } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import { ext } from '../shared/browser';
import {
  RemoteError,
  type PageOptions,
  type PageStatus,
  type TabMessage,
  type TabMessageType,
  type TabProtocol,
  type WireReply,
} from '../shared/messages';
import type { Handler } from './router';

export const TOGGLE_COMMAND = 'toggle-page-translation';
export const MENU_ID = 'toggle-page-translation';
const MENU_TRANSLATE = 'Translate this page';
const MENU_ORIGINAL = 'Show original';

type PageMessage = 'page:translate' | 'page:restore' | 'page:cancel' | 'page:status' | 'page:progress';

const PAGES = ['options', 'page'] as const;

async function activeTab(browser: Browser): Promise<number> {
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab?.id === undefined) throw new ApiError(404, 'no active tab');
  return tab.id;
}

/** Sends a message to the tab's content script and unwraps its reply. */
export async function toTab<K extends TabMessageType>(
  tabId: number | undefined,
  type: K,
  data: TabProtocol[K]['request'],
  browser: Browser = ext(),
): Promise<PageStatus> {
  const id = tabId ?? (await activeTab(browser));
  if (!Number.isInteger(id) || id < 0) throw new ApiError(400, 'tabId must be a tab id');
  let reply: WireReply<'page:status'> | undefined;
  try {
    reply = (await browser.tabs.sendMessage(id, { type, data } as TabMessage)) as WireReply<'page:status'> | undefined;
  } catch (e) {
    throw new ApiError(503, `no page translation in tab ${id} (${e instanceof Error ? e.message : String(e)})`);
  }
  if (reply === undefined || reply === null) throw new ApiError(503, `no page translation in tab ${id}`);
  if ('error' in reply) throw new RemoteError(reply.error.status, reply.error.message);
  return reply.data;
}

function target(data: { trg?: unknown; src?: unknown; mode?: unknown; scope?: unknown }): { src?: string; trg: string } & PageOptions {
  if (typeof data.trg !== 'string' || data.trg === '') throw new ApiError(400, 'page:translate: trg is required');
  if (data.src !== undefined && typeof data.src !== 'string') throw new ApiError(400, 'page:translate: src must be a string');
  if (data.mode !== undefined && data.mode !== 'replace' && data.mode !== 'bilingual') throw new ApiError(400, 'page:translate: mode must be "replace" or "bilingual"');
  if (data.scope !== undefined && data.scope !== 'page' && data.scope !== 'near') throw new ApiError(400, 'page:translate: scope must be "page" or "near"');
  return {
    trg: data.trg,
    ...(typeof data.src === 'string' && data.src ? { src: data.src } : {}),
    ...(data.mode ? { mode: data.mode } : {}),
    ...(data.scope ? { scope: data.scope } : {}),
  };
}

/** The tab's badge: progress in percent, a check mark when done, `!` on errors. */
export function badgeOf(s: PageStatus): { text: string; color: string } {
  if (s.state === 'original') return { text: '', color: '#4a6ee0' };
  if (s.errors > 0 && s.errors >= s.total - s.done) return { text: '!', color: '#d93025' };
  if (s.state === 'translating') return { text: `${s.total ? Math.floor((100 * s.done) / s.total) : 0}%`, color: '#4a6ee0' };
  if (s.state === 'cancelled') return { text: '×', color: '#777777' };
  return { text: s.errors ? '!' : '✓', color: s.errors ? '#d93025' : '#188038' };
}

/** Menu titles follow the state of the tab that last reported. */
async function showProgress(tabId: number, status: PageStatus, browser: Browser): Promise<void> {
  const { text, color } = badgeOf(status);
  await browser.action?.setBadgeText({ tabId, text });
  await browser.action?.setBadgeBackgroundColor({ tabId, color });
  const translated = status.state !== 'original';
  await browser.contextMenus?.update(MENU_ID, { title: translated ? MENU_ORIGINAL : MENU_TRANSLATE }).catch(() => undefined);
}

export const PAGE_HANDLERS: { [K in PageMessage]: Handler<K> } = {
  'page:translate': {
    allow: PAGES,
    handle: (data) => toTab(data.tabId, 'page:translate', target(data)),
  },
  'page:restore': { allow: PAGES, handle: (data) => toTab(data.tabId, 'page:restore', {}) },
  'page:cancel': { allow: PAGES, handle: (data) => toTab(data.tabId, 'page:cancel', {}) },
  'page:status': { allow: PAGES, handle: (data) => toTab(data.tabId, 'page:status', {}) },
  'page:progress': {
    allow: ['content'],
    async handle(status, ctx) {
      const tabId = ctx.sender.tab?.id;
      if (tabId === undefined) throw new ApiError(400, 'page:progress: no tab');
      await showProgress(tabId, status, ext());
      return { ok: true };
    },
  },
};

/** The target for the shortcut and the menu: the browser's own language. */
export function defaultTarget(browser: Browser = ext()): string {
  return (browser.i18n?.getUILanguage?.() ?? 'en').split(/[-_]/)[0] || 'en';
}

export function togglePage(tabId: number | undefined, browser: Browser = ext()): Promise<PageStatus> {
  return toTab(tabId, 'page:toggle', { trg: defaultTarget(browser) }, browser);
}

/** Shortcut and context menu; listeners registered at top level by index.ts. */
export function registerPageControls(browser: Browser = ext()): void {
  browser.commands?.onCommand.addListener((command: string, tab?: { id?: number }) => {
    if (command === TOGGLE_COMMAND) togglePage(tab?.id, browser).catch(() => undefined);
  });
  browser.contextMenus?.onClicked.addListener((info, tab) => {
    if (info.menuItemId === MENU_ID) togglePage(tab?.id, browser).catch(() => undefined);
  });
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus?.removeAll().then(() => {
      browser.contextMenus.create({ id: MENU_ID, title: MENU_TRANSLATE, contexts: ['page'] });
    }).catch(() => undefined);
  });
}
