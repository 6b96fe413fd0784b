/**
 * The UI's background side: the "Translate selection" context-menu item and shortcut (both ask the
 * tab's content script to show its bubble), the bubble's "open in popup", a frame's bubble shown
 * by its top frame, and usage for the options page. Listeners are registered at top level by index.ts.
 */
import type { Browser, Menus, Tabs } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import { ext } from '../shared/browser';
import type { SelectionMessage } from '../shared/messages';
import { HANDOFF_KEY, type Handoff } from '../ui/shared/store';
import type { Handler } from './router';
import { storageKeyValueStore } from './usage-store';

export const SELECTION_MENU_ID = 'translate-selection';
export const SELECTION_COMMAND = 'translate-selection';
export const POPUP_PATH = 'src/ui/popup/index.html';

function title(browser: Browser): string {
  return browser.i18n?.getMessage?.('menuTranslateSelection') || 'Translate selection';
}

/** Context menu: only the frame that was clicked, with the menu's own copy of the selected text. */
export async function translateSelection(info: Pick<Menus.OnClickData, 'selectionText' | 'frameId'>, tab: Pick<Tabs.Tab, 'id'> | undefined, browser: Browser = ext()): Promise<void> {
  if (tab?.id === undefined) return;
  const message: SelectionMessage = { type: 'selection:show', data: { targeted: true, ...(info.selectionText ? { text: info.selectionText } : {}) } };
  await browser.tabs.sendMessage(tab.id, message, { frameId: info.frameId ?? 0 });
}

/** Shortcut: the command says nothing about frames, so every frame is asked and the one with a selection acts. */
export async function translateSelectionInTab(tabId: number, browser: Browser = ext()): Promise<void> {
  const message: SelectionMessage = { type: 'selection:show', data: { targeted: false } };
  await browser.tabs.sendMessage(tabId, message);
}

/** As page.ts registerPageControls, `warm` starts building the language lists the bubble's call needs. */
export function registerSelectionControls(browser: Browser = ext(), warm: () => void = () => undefined): void {
  browser.contextMenus?.onClicked.addListener((info, tab) => {
    if (info.menuItemId !== SELECTION_MENU_ID) return;
    warm();
    translateSelection(info, tab, browser).catch(() => undefined);
  });
  browser.commands?.onCommand.addListener((command: string, tab?: { id?: number }) => {
    if (command !== SELECTION_COMMAND || tab?.id === undefined) return;
    warm();
    translateSelectionInTab(tab.id, browser).catch(() => undefined);
  });
  // page.ts calls contextMenus.removeAll() on install and recreates its item: ours is created after
  // that, in a macrotask, so neither removes the other. `create` on an existing id only errors.
  browser.runtime.onInstalled.addListener(() => {
    setTimeout(() => {
      Promise.resolve(browser.contextMenus?.create({ id: SELECTION_MENU_ID, title: title(browser), contexts: ['selection', 'editable'] }))
        .catch(() => undefined);
    }, 100);
  });
}

/** Opens the toolbar popup where the browser allows it from here, else the popup page in a tab. */
async function openPopup(browser: Browser): Promise<void> {
  try {
    await (browser.action as unknown as { openPopup(): Promise<void> }).openPopup();
  } catch {
    await browser.tabs.create({ url: browser.runtime.getURL(POPUP_PATH) });
  }
}

type UiMessage = 'selection:open-popup' | 'selection:lift' | 'usage:get';

/** The most of a selection's text handed on, to the popup or to the top frame. */
const TEXT_MAX = 10_000;
/** The longest key (content/lift.ts makes 32 hex digits) and language tag a frame's `selection:lift` may give. */
const KEY_MAX = 64;
const LANG_MAX = 35;

export const SELECTION_HANDLERS: { [K in UiMessage]: Handler<K> } = {
  'selection:open-popup': {
    allow: ['content'],
    async handle(data) {
      if (typeof data.text !== 'string' || data.text === '') throw new ApiError(400, 'selection:open-popup: text is required');
      const browser = ext();
      const handoff: Handoff = { text: data.text.slice(0, TEXT_MAX), at: Date.now(), ...(data.src ? { src: data.src } : {}), ...(data.trg ? { trg: data.trg } : {}) };
      await browser.storage.local.set({ [HANDOFF_KEY]: handoff });
      await openPopup(browser);
      return { ok: true };
    },
  },
  // A frame's selection, shown by its tab's top frame: only to that tab's top frame, and only what a
  // frame inside it sends (its sender's tab and frame, which the browser sets).
  'selection:lift': {
    allow: ['content'],
    async handle(data, ctx) {
      const tabId = ctx.sender.tab?.id;
      const frameId = ctx.sender.frameId;
      if (tabId === undefined || typeof frameId !== 'number' || frameId === 0) throw new ApiError(400, 'selection:lift: only a frame inside a page shows its selection in the top frame');
      if (typeof data.key !== 'string' || data.key === '' || data.key.length > KEY_MAX) throw new ApiError(400, `selection:lift: key must be a string of 1 to ${KEY_MAX} characters`);
      if (typeof data.text !== 'string' || data.text.trim() === '') throw new ApiError(400, 'selection:lift: text is required');
      if (typeof data.lang !== 'string' || data.lang.length > LANG_MAX) throw new ApiError(400, `selection:lift: lang must be a language tag of at most ${LANG_MAX} characters`);
      const message: SelectionMessage = { type: 'selection:show', data: { targeted: true, text: data.text.slice(0, TEXT_MAX), lift: { key: data.key, lang: data.lang } } };
      const reply = await ext().tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => undefined);
      return { shown: (reply as { shown?: unknown } | undefined)?.shown === true };
    },
  },
  'usage:get': {
    allow: ['options'],
    async handle(_data, _ctx, { service }) {
      // The service counts in memory and writes within 250 ms: write now so the numbers are current.
      await service.flush().catch(() => undefined);
      const stored = await storageKeyValueStore().get<{ keys?: unknown; apps?: unknown }>('usage');
      const pick = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, { requests: number; chars: number }>) : {});
      return { keys: pick(stored?.keys), apps: pick(stored?.apps) };
    },
  },
};
