/**
 * How the background reaches a tab's content script: `tabs.sendMessage` to every frame (each acts,
 * only the top frame answers) or to one frame, the reply unwrapped.
 */
import type { Browser } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import { ext } from '../shared/browser';
import { RemoteError, type PageOptions, type PageStatus, type TabMessage, type TabMessageType, type TabProtocol, type WireReply } from '../shared/messages';

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
  /** One frame only (0: the top frame); absent: every frame. */
  frameId?: number,
): Promise<PageStatus> {
  const id = tabId ?? (await activeTab(browser));
  if (!Number.isInteger(id) || id < 0) throw new ApiError(400, 'tabId must be a tab id');
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

/** The target for the shortcut and the menu: the browser's own language. */
export function defaultTarget(browser: Browser = ext()): string {
  return (browser.i18n?.getUILanguage?.() ?? 'en').split(/[-_]/)[0] || 'en';
}


/** How handlers reach tabs; a seam for unit tests. */
export interface TabControl {
  /** page:translate to every frame of the tab (absent tabId: the active tab). */
  translate(tabId: number | undefined, data: { src?: string; trg: string } & PageOptions): Promise<PageStatus>;
  /** What the tab's top frame says of its page, its site included (absent tabId: the active tab). */
  status(tabId: number | undefined): Promise<PageStatus>;
  /** The browser's language: the target when no rule names one. */
  language(): string;
}

export const TABS: TabControl = {
  translate: (tabId, data) => toTab(tabId, 'page:translate', data),
  status: (tabId) => toTab(tabId, 'page:status', {}, ext(), 0),
  language: () => defaultTarget(),
};
