/**
 * How the background reaches a tab's content script: `tabs.sendMessage` to every frame (each acts,
 * only the top frame answers) or to one frame, the reply unwrapped.
 */
import type { Browser } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import type { LanguageLists } from '../core/types';
import { languageOf } from '../core/lang';
import { ext } from '../shared/browser';
import { RemoteError, type PageOptions, type PageStatus, type TabMessage, type TabMessageType, type TabProtocol, type WireReply } from '../shared/messages';
import { frames, type FrameFlag } from './frames';

async function activeTab(browser: Browser): Promise<number> {
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab?.id === undefined) throw new ApiError(404, 'no active tab');
  return tab.id;
}

/** The tab meant (absent: the active one). */
async function tabOf(tabId: number | undefined, browser: Browser): Promise<number> {
  const id = tabId ?? (await activeTab(browser));
  if (!Number.isInteger(id) || id < 0) throw new ApiError(400, 'tabId must be a tab id');
  return id;
}

/**
 * The engine's language lists as a trigger carries them to its tab (`lists`), which then does not
 * ask for them (a GetLanguages call, a round trip to the worker) before it finds its first units;
 * nothing where they cannot be built (the tab asks, and gets the error).
 */
export async function listsFor(service: { lists?(): Promise<LanguageLists> }): Promise<{ lists?: LanguageLists }> {
  const lists = await service.lists?.().catch(() => undefined);
  return lists ? { lists } : {};
}

/** Sends a message to the tab's content script and unwraps its reply. */
export async function toTab<K extends TabMessageType>(
  tabId: number | undefined,
  type: K,
  data: TabProtocol[K]['request'],
  browser: Browser = ext(),
  /** One frame only (0: the top frame); absent: every frame. */
  frameId?: number,
): Promise<PageStatus> {
  const id = await tabOf(tabId, browser);
  let reply: WireReply<'page:status'> | undefined;
  try {
    reply = (await browser.tabs.sendMessage(id, { type, data } as TabMessage, frameId === undefined ? undefined : { frameId })) as WireReply<'page:status'> | undefined;
  } catch (e) {
    throw new ApiError(503, `no page translation in tab ${id} (${e instanceof Error ? e.message : String(e)})`);
  }
  if (reply === undefined || reply === null) throw new ApiError(503, `no page translation in tab ${id}`);
  if ('error' in reply) throw new RemoteError(reply.error.status, reply.error.message);
  return reply.data;
}

/**
 * A trigger (`page:translate`, `page:toggle`) to every frame of the tab, once the tab is listed as
 * translated (frames.ts). A frame whose content script starts while the trigger is on its way then
 * reads `page:framesAsk` true and asks; listed only by the top frame's first report, such a frame
 * missed its page. A toggle that restores is unlisted by the page's own report, as a failed start is
 * by the next frame's ask.
 */
export async function trigger<K extends 'page:translate' | 'page:toggle'>(
  tabId: number | undefined,
  type: K,
  data: TabProtocol[K]['request'],
  browser: Browser = ext(),
  flag: FrameFlag = frames(),
): Promise<PageStatus> {
  const id = await tabOf(tabId, browser);
  await flag.announce(id).catch(() => undefined);
  return toTab(id, type, data, browser);
}

/**
 * The target for the shortcut and the menu: the browser's own language, in its script where that
 * is not the language's usual one (a browser in `zh-TW` reads `zh-Hant`, not `zh`: lang.ts
 * `languageOf`); the page lists it as the engine does (content/index.ts `startInto`).
 */
export function defaultTarget(browser: Browser = ext()): string {
  return languageOf(browser.i18n?.getUILanguage?.() ?? 'en') ?? 'en';
}


/** How handlers reach tabs; a seam for unit tests. */
export interface TabControl {
  /** page:translate to every frame of the tab (absent tabId: the active tab). */
  translate(tabId: number | undefined, data: { src?: string; trg: string } & PageOptions): Promise<PageStatus>;
  /**
   * What the tab's top frame says of its page, its site included (absent tabId: the active tab).
   * `everyFrame`: every frame is asked (each reads its page's language then), the top answers.
   */
  status(tabId: number | undefined, everyFrame?: boolean): Promise<PageStatus>;
  /** The tab meant (absent: the active tab). */
  id(tabId: number | undefined): Promise<number>;
  /** The browser's language: the target when no rule names one. */
  language(): string;
}

export const TABS: TabControl = {
  translate: (tabId, data) => trigger(tabId, 'page:translate', data),
  status: (tabId, everyFrame) => toTab(tabId, 'page:status', {}, ext(), everyFrame ? undefined : 0),
  id: (tabId) => tabOf(tabId, ext()),
  language: () => defaultTarget(),
};
