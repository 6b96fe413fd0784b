/**
 * Intl objects made once, on first use, for the engine, the providers, the content script and the
 * UI alike. Making one loads its ICU data (a sentence Segmenter: 40–370 ms in a new Chromium page
 * on a busy machine), so none is made at module load (a woken worker evaluates every module before
 * it answers its first message) or once per call.
 */
const segmenters = new Map<string, Intl.Segmenter>();

/** Sentence or word boundaries for `locale` (the default locale when absent). */
export function segmenter(granularity: 'sentence' | 'word', locale?: string): Intl.Segmenter {
  const key = `${granularity} ${locale ?? ''}`;
  let s = segmenters.get(key);
  if (!s) segmenters.set(key, (s = new Intl.Segmenter(locale, { granularity })));
  return s;
}

const names = new Map<string, Intl.DisplayNames | null>();

function namesIn(locale: string): Intl.DisplayNames | null {
  if (!names.has(locale)) {
    try {
      names.set(locale, new Intl.DisplayNames([locale, 'en'], { type: 'language', fallback: 'code' }));
    } catch {
      names.set(locale, null);
    }
  }
  return names.get(locale) ?? null;
}

/** A language's name in `locale` ("German" for "de" in English); the code itself when there is none. */
export function languageName(code: string, locale = 'en'): string {
  try {
    return namesIn(locale)?.of(code) ?? code;
  } catch {
    // DisplayNames throws on a code it cannot parse: show the code itself.
    return code;
  }
}

const plurals = new Map<string, Intl.PluralRules | null>();

/** The plural rules of `locale` (cardinal); null where the locale is not one Intl takes. */
export function pluralRules(locale: string): Intl.PluralRules | null {
  if (!plurals.has(locale)) {
    try {
      plurals.set(locale, new Intl.PluralRules(locale));
    } catch {
      plurals.set(locale, null);
    }
  }
  return plurals.get(locale) ?? null;
}

/** Written right to left, where Intl cannot say (a browser without `Intl.Locale` text info). */
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ckb', 'dv', 'ug', 'syr']);

const directions = new Map<string, 'rtl' | 'ltr'>();

/**
 * The direction `lang` is written in: right to left where the list above says so, or Intl does
 * (`Intl.Locale` text info: `getTextInfo()` in current engines, the `textInfo` getter in older
 * ones; it knows a tag with its script, `pa-Arab`, but ICU calls Dhivehi left to right). Asked per
 * unit written, so kept per code.
 */
export function textDirection(lang: string): 'rtl' | 'ltr' {
  let d = directions.get(lang);
  if (d) return d;
  d = RTL.has(lang.toLowerCase().split(/[-_]/)[0]!) ? 'rtl' : 'ltr';
  try {
    const locale = new Intl.Locale(lang) as Intl.Locale & { getTextInfo?(): { direction?: string }; textInfo?: { direction?: string } };
    const info = typeof locale.getTextInfo === 'function' ? locale.getTextInfo() : locale.textInfo;
    if (info?.direction === 'rtl') d = 'rtl';
  } catch {
    // Not a tag Intl takes: the list's answer.
  }
  directions.set(lang, d);
  return d;
}
