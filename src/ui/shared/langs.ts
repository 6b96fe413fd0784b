/**
 * Language names for pickers: Intl.DisplayNames in the UI language, searchable by name (in the UI
 * language and in English) or by code.
 */

import { languageName } from '../../core/intl';

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

/** The primary subtag: `en-US` -> `en`. */
export function primaryCode(code: string): string {
  return code.split(/[-_]/)[0]?.toLowerCase() ?? code;
}

/**
 * The code of `codes` a detected language stands for: the same code (`pt-BR`), else the first
 * with its primary subtag (the detector's `zh-Hant` for a list's `zh`); undefined if none.
 */
export function codeFor(detected: string, codes: readonly string[]): string | undefined {
  const lower = detected.toLowerCase();
  const exact = codes.find((c) => c.toLowerCase() === lower);
  if (exact) return exact;
  const primary = primaryCode(detected);
  return codes.find((c) => primaryCode(c) === primary);
}
