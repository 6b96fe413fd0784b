/**
 * A page's language as the engine lists it. Google, Microsoft, LibreTranslate and MyMemory list
 * Chinese by its scripts (`zh-Hans`, `zh-Hant`), never as `zh`; a page says `zh-CN`, `zh-TW` or
 * `zh`. The page was sent as its primary code, `zh`, which only Chrome's on-device translator
 * lists (none in Firefox): a Chinese page had no route through the others, and a page in
 * Traditional Chinese was "already" in a reader's Simplified Chinese, and left as it was. Now the
 * page's language keeps a script that is not the language's usual one (`zh-TW`: `zh-Hant`) and
 * goes to the engine as its lists name it (core/lang.ts `languageOf`, `listedCode`). In Chromium
 * with the built extension, Apertium pointed at the marker fake (`word` -> `⟦word⟧`), which lists
 * Chinese as Apertium names a script (`zho_Hans`, `zho_Hant`), as those providers do.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';
import { evaluateInContentScript } from './browser';
import { POPUP_PATH, storageGet, storageSet } from './ui-helpers';

const CHINESE_PAIRS = ['zho_Hant-zho_Hans', 'zho_Hans-zho_Hant', 'zho_Hans-eng', 'zho_Hant-eng', 'eng-zho_Hans', 'eng-zho_Hant'];

/** A page in Traditional Chinese (Taiwan's), one in Simplified (the mainland's). */
const TRADITIONAL = '<!doctype html><html lang="zh-TW"><head><title>山中漫步</title></head><body><h1 id="h">山中漫步</h1><p id="p">這條路沿著河走到<a href="#b">舊橋</a>。</p></body></html>';
const SIMPLIFIED = '<!doctype html><html lang="zh-CN"><head><title>山中漫步</title></head><body><h1 id="h">山中漫步</h1><p id="p">这条路沿着河走到<a href="#b">旧桥</a>。</p></body></html>';

describe("a page's language as the engine lists it: Chinese by its script", () => {
  const driver = markerTabs({ '/traditional.html': TRADITIONAL, '/simplified.html': SIMPLIFIED }, {}, CHINESE_PAIRS);
  const { send, open, settle } = driver;
  const url = (path: string) => `${driver.origin()}${path}`;

  const shown = (page: Page) => page.evaluate(() => ({ h: document.getElementById('h')!.textContent, p: document.getElementById('p')!.innerHTML, lang: document.documentElement.lang }));

  it('a page in Traditional Chinese is translated into Simplified, from zh-Hant; restore gives it back', async () => {
    const { page, tabId } = await open(url('/traditional.html'));
    const before = await page.evaluate(() => document.documentElement.outerHTML);
    // The popup says no source: the page's own (the popup's "Page in" left as it is).
    await send({ type: 'page:translate', data: { tabId, trg: 'zh-Hans', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0, src: 'zh-Hant', trg: 'zh-Hans' });
    expect(await shown(page)).toEqual({ h: '⟦山中漫步⟧', p: '⟦這條路沿著河走到⟧<a href="#b">⟦舊橋⟧</a>。', lang: 'zh-Hans' });
    // The popup's "Page in" names it as the page says it, its script kept.
    expect((await send({ type: 'page:status', data: { tabId } })).data).toMatchObject({ lang: 'zh-Hant' });
    await send({ type: 'page:restore', data: { tabId } });
    expect(await page.evaluate(() => document.documentElement.outerHTML)).toBe(before);
  });

  it('a page in Simplified Chinese is translated into English, from the list\'s zh-Hans (it lists no zh)', async () => {
    const { page, tabId } = await open(url('/simplified.html'));
    await send({ type: 'page:translate', data: { tabId, trg: 'en', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0, src: 'zh-Hans', trg: 'en' });
    expect((await shown(page)).h).toBe('⟦山中漫步⟧');
  });

  it('a page in Traditional Chinese is already in zh-Hant, and in Chrome\'s zh-TW: nothing is sent', async () => {
    const { page, tabId } = await open(url('/traditional.html'));
    const sent = driver.requests();
    for (const trg of ['zh-Hant', 'zh-TW']) {
      const reply = await send({ type: 'page:translate', data: { tabId, trg, mode: 'replace' } });
      expect(reply.data).toMatchObject({ state: 'original', error: `the page is already in ${trg === 'zh-TW' ? 'zh-Hant' : trg}` });
    }
    expect(driver.requests()).toBe(sent);
    expect((await shown(page)).h).toBe('山中漫步');
  });

  it('a selection in a Traditional Chinese page is sent as zh-Hant by the bubble', async () => {
    await storageSet(driver.control(), { 'ui:bubble': { trg: 'en' } });
    const { page, tabId } = await open(url('/traditional.html'));
    await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('p')!));
    await driver.translateSelection(tabId);
    const snapshot = () => evaluateInContentScript<{ src: string; trg: string; results: { text?: string }[] } | null>(page, driver.browser().id, 'globalThis.polyglot.bubble.snapshot() ?? null');
    await expect.poll(async () => (await snapshot())?.results[0]?.text).toBe('⟦這條路沿著河走到舊橋。⟧');
    expect(await snapshot()).toMatchObject({ src: 'zh-Hant', trg: 'en' });
  });

  it("the popup's \"Always translate pages in Chinese\" on a Traditional Chinese page is Chinese's rule, for either script", async () => {
    const { tabId } = await open(url('/traditional.html'));
    const popup = await driver.browser().openExtensionPage(`${POPUP_PATH}?tab=${tabId}`);
    try {
      const box = popup.locator('#lang-always');
      await expect.poll(() => popup.locator('label:has(#lang-always)').textContent()).toContain('Always translate pages in Chinese');
      await box.check();
      await expect.poll(() => storageGet(popup, 'ui:sites')).toMatchObject({ languages: { zh: 'always' } });
      await popup.reload();
      await expect.poll(() => box.isChecked()).toBe(true);
      // Unchecked, the rule goes (stop 59's first build kept it: it was shown as zh-Hant's, stored as zh's).
      await box.uncheck();
      await expect.poll(async () => ((await storageGet(popup, 'ui:sites')) as { languages: Record<string, string> }).languages).toEqual({});
    } finally {
      await popup.close();
    }
  });
});
