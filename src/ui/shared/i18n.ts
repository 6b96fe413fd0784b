/**
 * UI strings from _locales (public/_locales/<lang>/messages.json) through i18n.getMessage. Outside
 * an extension (unit tests) or for a missing name, the English fallback given at the call site is
 * used, so a missing translation degrades to English rather than to an empty label.
 */
import { pluralRules } from '../../core/intl';

interface I18nLike {
  getMessage(name: string, substitutions?: string | string[]): string;
  getUILanguage(): string;
}

function api(): I18nLike | undefined {
  const scope = globalThis as { browser?: { i18n?: I18nLike }; chrome?: { i18n?: I18nLike } };
  return scope.browser?.i18n ?? scope.chrome?.i18n;
}

/** `t('copy', 'Copy')`; `$1`-style placeholders in the fallback are filled like getMessage does. */
export function t(name: string, fallback: string, ...subs: string[]): string {
  let text = '';
  try {
    text = api()?.getMessage(name, subs) ?? '';
  } catch {
    text = '';
  }
  if (text) return text;
  return fallback.replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
}

export function uiLanguage(): string {
  try {
    return api()?.getUILanguage() ?? 'en';
  } catch {
    return 'en';
  }
}

/**
 * Whether `n` takes the singular form ("1 part failed") in the UI's language: its plural rules'
 * `one` (which in some languages covers other numbers too: 21 in Russian; the message keeps the
 * count). _locales has no plurals, so a counted message has a `…One` twin.
 */
export function isOne(n: number): boolean {
  const rules = pluralRules(uiLanguage());
  return rules ? rules.select(n) === 'one' : n === 1;
}
