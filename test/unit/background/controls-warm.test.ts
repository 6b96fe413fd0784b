/**
 * The shortcut's and the context menu's handlers start building the language lists as the event
 * arrives (the event may have just started the worker), before they ask the tab anything, and the
 * page toggle carries them to the tab (which then does not ask for them).
 */
import type { Browser } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { ALTERNATIVES_COMMAND, MENU_ID, registerPageControls, TOGGLE_COMMAND, type ToggleDeps } from '../../../src/background/page';
import type { FrameFlag } from '../../../src/background/frames';
import type { SitesStore } from '../../../src/background/sites';
import { registerSelectionControls, SELECTION_COMMAND, SELECTION_MENU_ID } from '../../../src/background/selection';
import { fakeEvent } from './fakes';

function fakeBrowser() {
  const onCommand = fakeEvent<(command: string, tab?: { id?: number }) => void>();
  const onClicked = fakeEvent<(info: { menuItemId: string | number; selectionText?: string; frameId?: number }, tab?: { id?: number }) => void>();
  const sent: { tabId: number; message: unknown }[] = [];
  const order: string[] = [];
  const browser = {
    commands: { onCommand },
    contextMenus: { onClicked, create: () => undefined, removeAll: async () => undefined, update: async () => undefined },
    runtime: { onInstalled: fakeEvent<() => void>() },
    i18n: { getUILanguage: () => 'de' },
    tabs: {
      sendMessage: async (tabId: number, message: unknown) => {
        order.push('tab');
        sent.push({ tabId, message });
        return { data: { state: 'original', done: 0, total: 0, errors: 0, site: 'example.test' } };
      },
    },
  };
  return { browser: browser as unknown as Browser, onCommand, onClicked, sent, order };
}

/** The tabs and the site rules the toggle asks: the tab says its site, which has no rule. */
const FAKES: Omit<ToggleDeps, 'lists'> = {
  tabs: { translate: async () => STATUS, status: async () => ({ ...STATUS, site: 'example.test' }), id: async (id) => id ?? 1, language: () => 'de' },
  sites: { mode: async () => 'replace' } as unknown as SitesStore,
  frames: { announce: async () => undefined } as unknown as FrameFlag,
};
const STATUS = { state: 'original' as const, done: 0, total: 0, errors: 0 };

describe('warming on a trigger', () => {
  it('the page toggle, from the shortcut and from the menu: the lists built first, once per trigger, and carried to the tab with the toggle', async () => {
    const f = fakeBrowser();
    const lists = { src: ['en', 'de'], trg: ['de', 'en'], exclude: [] as [string, string][] };
    registerPageControls(
      f.browser,
      {
        lists: async () => {
          f.order.push('warm');
          return lists;
        },
      },
      FAKES,
    );
    f.onCommand.emit(TOGGLE_COMMAND, { id: 4 });
    expect(f.order[0]).toBe('warm');
    f.onClicked.emit({ menuItemId: MENU_ID }, { id: 4 });
    expect(f.order.filter((o) => o === 'warm')).toHaveLength(2);
    // Other commands and menu items are not a page translation.
    f.onCommand.emit(ALTERNATIVES_COMMAND, { id: 4 });
    f.onClicked.emit({ menuItemId: 'something-else' }, { id: 4 });
    expect(f.order.filter((o) => o === 'warm')).toHaveLength(2);
    // The tab is asked its site (its mode), then toggled into the browser's language with the lists.
    await expect.poll(() => f.sent.filter((m) => (m.message as { type: string }).type === 'page:toggle').length).toBe(2);
    expect(f.sent.filter((m) => (m.message as { type: string }).type === 'page:toggle').map((m) => m.message)).toEqual(Array(2).fill({ type: 'page:toggle', data: { trg: 'de', mode: 'replace', lists } }));
  });

  it('a service whose lists cannot be built: the toggle goes without them (the tab asks, and gets the error)', async () => {
    const f = fakeBrowser();
    registerPageControls(f.browser, { lists: () => Promise.reject(new Error('no settings')) }, FAKES);
    f.onCommand.emit(TOGGLE_COMMAND, { id: 4 });
    await expect.poll(() => f.sent.filter((m) => (m.message as { type: string }).type === 'page:toggle').map((m) => m.message)).toEqual([{ type: 'page:toggle', data: { trg: 'de', mode: 'replace' } }]);
  });

  it('the selection, from the shortcut and from the menu: warmed, then the frames asked to show the bubble', async () => {
    const f = fakeBrowser();
    registerSelectionControls(f.browser, () => f.order.push('warm'));
    f.onCommand.emit(SELECTION_COMMAND, { id: 9 });
    f.onClicked.emit({ menuItemId: SELECTION_MENU_ID, selectionText: 'Hallo', frameId: 0 }, { id: 9 });
    await new Promise((r) => setTimeout(r, 0));
    expect(f.order).toEqual(['warm', 'tab', 'warm', 'tab']);
    expect(f.sent.map((s) => s.message)).toEqual([
      { type: 'selection:show', data: { targeted: false } },
      { type: 'selection:show', data: { targeted: true, text: 'Hallo' } },
    ]);
  });
});
