/**
 * The shortcut's and the context menu's handlers start building the language lists as the event
 * arrives (the event may have just started the worker), before they ask the tab anything.
 */
import type { Browser } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { ALTERNATIVES_COMMAND, MENU_ID, registerPageControls, TOGGLE_COMMAND } from '../../../src/background/page';
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

describe('warming on a trigger', () => {
  it('the page toggle, from the shortcut and from the menu: warmed first, once per trigger', () => {
    const f = fakeBrowser();
    registerPageControls(f.browser, () => f.order.push('warm'));
    f.onCommand.emit(TOGGLE_COMMAND, { id: 4 });
    expect(f.order[0]).toBe('warm');
    f.onClicked.emit({ menuItemId: MENU_ID }, { id: 4 });
    expect(f.order.filter((o) => o === 'warm')).toHaveLength(2);
    // Other commands and menu items are not a page translation.
    f.onCommand.emit(ALTERNATIVES_COMMAND, { id: 4 });
    f.onClicked.emit({ menuItemId: 'something-else' }, { id: 4 });
    expect(f.order.filter((o) => o === 'warm')).toHaveLength(2);
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
