/**
 * Language names for pickers: Intl.DisplayNames in the UI language, searchable by name (in the UI
 * language and in English) or by code.
 */

export interface Language {
  code: string;
  name: string;
}

const cache = new Map<string, Intl.DisplayNames | null>();

function namesIn(locale: string): Intl.DisplayNames | null {
  if (!cache.has(locale)) {
    try {
      cache.set(locale, new Intl.DisplayNames([locale, 'en'], { type: 'language', fallback: 'code' }));
    } catch {
      cache.set(locale, null);
    }
  }
  return cache.get(locale) ?? null;
}

export function languageName(code: string, locale = 'en'): string {
  try {
    return namesIn(locale)?.of(code) ?? code;
  } catch {
    // DisplayNames throws on a code it cannot parse: show the code itself.
    return code;
  }
}

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
