/**
 * A trigger pulled as a user pulls it, for the bench's first-unit figures (page.ts `--triggers`)
 * and its trace (trace.ts): the popup (its page opened as a tab with `?tab=<id>`, its pair set in
 * its preferences beforehand; its "Translate this page" clicked 300 ms after its navigation
 * started), the context menu (a right-click in the page, which sends `page:wake`, and 300 ms later
 * the item's event, which stands in as `page:translate` from an extension page: headless Chromium
 * shows no menu to click), or the keyboard shortcut (Alt and Shift down in the page, their keydown
 * sending `page:wake`, and `CHORD_TO_KEY_MS` later the same stand-in: the browser takes the
 * shortcut's last key, not the page).
 */
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from '../test/e2e/browser';
import { POPUP_PATH } from '../test/e2e/ui-helpers';

/** How a user starts a page's translation. */
export type Trigger = 'popup' | 'menu' | 'key';

/**
 * From the shortcut's chord (Alt+Shift held) to its last key (T): short on purpose. A user reads a
 * menu for longer than 300 ms, but presses a known shortcut's keys one after another.
 */
export const CHORD_TO_KEY_MS = 100;

/**
 * Pulls `how` on tab `tabId` (`page`, its page; `control`, an extension page), into `trg` from
 * English (the popup's pair is its stored one). Resolves with the moment of the click (the epoch's
 * ms), marked `polyglot-click` in the clicking page's timeline (a trace's anchor), and the popup's
 * page, to be closed by the caller.
 */
export async function pullTrigger(browser: ExtensionBrowser, control: Page, page: Page, tabId: number, how: Trigger, trg: string): Promise<{ at: number; popup?: Page }> {
  if (how === 'popup') {
    const popup = await browser.context.newPage();
    await popup.goto(browser.extensionUrl(`${POPUP_PATH}?tab=${tabId}`));
    await popup.locator('.page-bar button').first().waitFor();
    const at = await popup.evaluate(async () => {
      const wait = 300 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      performance.mark('polyglot-click');
      const now = performance.timeOrigin + performance.now();
      document.querySelector<HTMLButtonElement>('.page-bar button')!.click();
      return now;
    });
    return { at, popup };
  }
  if (how === 'menu') {
    await page.mouse.click(200, 200, { button: 'right' });
    await new Promise((r) => setTimeout(r, 300));
  } else {
    await page.keyboard.down('Alt');
    await page.keyboard.down('Shift');
    await new Promise((r) => setTimeout(r, CHORD_TO_KEY_MS));
  }
  const at = await control.evaluate((a) => {
    performance.mark('polyglot-click');
    const now = performance.timeOrigin + performance.now();
    void (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({ type: 'page:translate', data: { tabId: a.tabId, src: 'en', trg: a.trg } });
    return now;
  }, { tabId, trg });
  return { at };
}
