/**
 * Intl objects made once, on first use. Making one loads its ICU data: a sentence Segmenter took
 * 40–370 ms cold in Chromium on these machines (the page, a woken service worker), so none is made
 * at module load (a woken worker evaluates every module before it answers its first message) or
 * once per call.
 */
const segmenters = new Map<string, Intl.Segmenter>();

/** Sentence or word boundaries for `locale` (the default locale when absent). */
export function segmenter(granularity: 'sentence' | 'word', locale?: string): Intl.Segmenter {
  const key = `${granularity} ${locale ?? ''}`;
  let s = segmenters.get(key);
  if (!s) segmenters.set(key, (s = new Intl.Segmenter(locale, { granularity })));
  return s;
}

let english: Intl.DisplayNames | undefined;

/** A language's English name ("German" for "de"); undefined when ICU has none. */
export function englishName(code: string): string | undefined {
  english ??= new Intl.DisplayNames(['en'], { type: 'language' });
  return english.of(code);
}
