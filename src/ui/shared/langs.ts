/**
 * Language names for pickers: Intl.DisplayNames in the UI language, searchable by name (in the UI
 * language and in English) or by code.
 */

import { languageName } from '../../core/intl';
import { listedCode } from '../../core/lang';

export interface Language {
  code: string;
  name: string;
}

export { languageName };

/** Sorted by name in the UI language. */
export function languages(codes: readonly string[], locale = 'en'): Language[] {
  return codes
    .map((code) => ({ code, name: languageName(code, locale) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** Languages whose code starts with, or whose name (UI language or English) contains, the query. */
export function searchLanguages(list: readonly Language[], query: string, locale = 'en'): Language[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter(
    (l) =>
      l.code.toLowerCase().startsWith(q) ||
      l.name.toLowerCase().includes(q) ||
      (locale !== 'en' && languageName(l.code, 'en').toLowerCase().includes(q)),
  );
}

/**
 * The code of `codes` a detected language stands for: the same code (`pt-BR`), else one of its
 * language and script (a detector's `zh` for a list's `zh-Hans`), else one of its language (its
 * `zh-Hant` for a list that has only `zh`); undefined if none (core/lang.ts `listedCode`).
 */
export function codeFor(detected: string, codes: readonly string[]): string | undefined {
  return listedCode(detected, codes, true);
}
