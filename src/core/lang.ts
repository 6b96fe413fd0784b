/**
 * Language codes: BCP 47 canonical forms (decisions.md "Parameters": matched case-insensitively,
 * canonicalized). The guess of a text's language is detect.ts.
 */

/** Longest tag we accept: enough for language-script-region-variant, short enough to echo safely. */
const MAX_TAG_LENGTH = 35;

/** Codes that are valid BCP 47 but name no language (undetermined, multiple, none, missing). */
const NOT_A_LANGUAGE = new Set(['und', 'mul', 'zxx', 'mis']);

/**
 * The canonical BCP 47 form of a language tag (`eng` -> `en`, `iw` -> `he`, `zh-hans` -> `zh-Hans`),
 * or undefined when it is malformed or more than language[-script][-region][-variant]: extensions,
 * private use and grandfathered tags are not language codes a translator can use.
 */
/** Codes already seen (every call checks its src and trg; Intl is slow): bounded, oldest out. */
const canonicalSeen = new Map<string, string | undefined>();
const CANONICAL_SEEN_MAX = 1024;

export function canonicalLanguage(code: string): string | undefined {
  if (canonicalSeen.has(code)) return canonicalSeen.get(code);
  const canonical = canonicalUncached(code);
  if (canonicalSeen.size >= CANONICAL_SEEN_MAX) canonicalSeen.delete(canonicalSeen.keys().next().value!);
  canonicalSeen.set(code, canonical);
  return canonical;
}

function canonicalUncached(code: string): string | undefined {
  if (code.length === 0 || code.length > MAX_TAG_LENGTH) return undefined;
  // Only letters, digits and separators: Intl accepts nothing else anyway, but this keeps
  // whitespace and `*` from ever reaching it.
  if (!/^[A-Za-z0-9_-]+$/.test(code)) return undefined;
  let canonical: string;
  try {
    const [first] = Intl.getCanonicalLocales(code.replaceAll('_', '-'));
    if (first === undefined) return undefined;
    canonical = first;
  } catch {
    return undefined;
  }
  const locale = new Intl.Locale(canonical);
  if (locale.baseName !== canonical) return undefined;
  if (!/^[a-z]{2,3}$/.test(locale.language) || NOT_A_LANGUAGE.has(locale.language)) return undefined;
  return canonical;
}
