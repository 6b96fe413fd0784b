/**
 * Language names for pickers: Intl.DisplayNames in the UI language, searchable by name (in the UI
 * language and in English) or by code.
 */

import { languageName } from '../../core/intl';
import { languageOf, listedCode } from '../../core/lang';

export interface Language {
  code: string;
  name: string;
}

export { languageName };

/**
 * Sorted by name in the UI language; one entry per language and script: a code the list has
 * under a fuller name is left out (`zh`, Chrome's on-device translator's, where Google's `zh-Hans`
 * is listed: the engine routes both to the same providers, routes/codes.ts), so a reader does not
 * choose between "Chinese" and "Chinese (Simplified)"; in a list of sources (`source`), a region's
 * code where its language's is listed too (`en-US` beside `en`: a source's region does not change
 * its routes). `shownCode` gives a value its entry.
 */
export function languages(codes: readonly string[], locale = 'en', source = false): Language[] {
  return codes
    .filter((code) => shownCode(code, codes, source) === code)
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

/**
 * The entry of `languages(codes, …, source)` that stands for `code` (`zh` is listed as `zh-Hans`
 * where both are listed; a source's `en-US` as `en`); `code` where none does.
 */
export function shownCode(code: string, codes: readonly string[], source = false): string {
  const listed = listedCode(code, codes) ?? code;
  if (!source) return listed;
  const language = languageOf(listed);
  return language !== undefined && language !== listed && codes.includes(language) ? language : listed;
}
