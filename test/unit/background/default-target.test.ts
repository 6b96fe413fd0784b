/**
 * The shortcut's and the menu's target: the browser's language, in its script where that is not
 * the language's usual one. A browser in Taiwan's Chinese wanted `zh` before, which Google,
 * Microsoft and LibreTranslate do not list (they list `zh-Hans` and `zh-Hant`), and which reads as
 * Simplified Chinese where it is listed.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'webextension-polyfill';
import { defaultTarget } from '../../../src/background/tabs';

const inLanguage = (ui: string) => ({ i18n: { getUILanguage: () => ui } }) as unknown as Browser;

describe('defaultTarget', () => {
  it.each([
    ['en-US', 'en'],
    ['pt-BR', 'pt'],
    ['es-419', 'es'],
    ['zh-CN', 'zh'],
    ['zh-TW', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['sr-Latn', 'sr-Latn'],
    ['nb', 'no'],
  ])('a browser in %j translates pages into %j', (ui, trg) => {
    expect(defaultTarget(inLanguage(ui))).toBe(trg);
  });

  it('English where the browser names no language', () => {
    expect(defaultTarget({ i18n: undefined } as unknown as Browser)).toBe('en');
    expect(defaultTarget(inLanguage(''))).toBe('en');
  });
});
