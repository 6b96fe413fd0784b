/**
 * Language codes: BCP 47 canonical forms (decisions.md "Parameters": matched case-insensitively,
 * canonicalized) and a guess of the language of a text, for compatibility-mode auto-detection.
 */
import { francAll } from 'franc-min';
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';

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

/**
 * franc-min's ISO 639-3 codes that CLDR keeps as they are, although a translation service would
 * use the macrolanguage (Standard Malay is what everyone calls `ms`).
 */
const FRANC_ALIASES: Record<string, string> = { zlm: 'ms', qug: 'qu', fuv: 'ff', koi: 'kv', hms: 'hmn', hnj: 'hmn' };

let francByLanguage: Map<string, string[]> | undefined;

/** Primary language subtag -> the franc-min codes that detect it (`zh` -> [`cmn`]). */
function francCodes(): Map<string, string[]> {
  if (francByLanguage) return francByLanguage;
  // Single-script languages (cmn, jpn, ell...) are keys of `expressions`; the others are models
  // inside `data`, grouped by script. Script names (Latin, Cyrillic) are not lowercase 3-letter codes.
  const codes = new Set<string>(Object.keys(expressions).filter((k) => /^[a-z]{3}$/.test(k)));
  for (const models of Object.values(data)) for (const code of Object.keys(models)) codes.add(code);
  const map = new Map<string, string[]>();
  for (const code of codes) {
    const canonical = FRANC_ALIASES[code] ?? canonicalLanguage(code);
    if (canonical === undefined) continue;
    const language = new Intl.Locale(canonical).language;
    map.set(language, [...(map.get(language) ?? []), code]);
  }
  francByLanguage = map;
  return map;
}

/**
 * How close to the best of all franc-min languages a candidate must score to be believed. Measured
 * on short sentences: the true language scores >= 0.95 even when franc-min ranks a look-alike first
 * (English vs Malagasy), a wrong candidate <= 0.8 (English for French, Spanish or Catalan text).
 */
const SURE = 0.9;

/**
 * The most likely language of `text` among `candidates` (canonical codes), or undefined when unsure:
 * text too short, a script none of the candidates is written in, or a best candidate that scores
 * well below some language that is not a candidate (Spanish text when only `en` is offered).
 * Ranking all of franc-min's languages rather than only the candidates is what makes that last case
 * detectable. Of candidates sharing a language (`pt-BR`, `pt-PT`) the first listed wins: trigrams
 * cannot tell regional variants apart. franc-min knows 81 major languages; others (Catalan, Galician)
 * are never detected.
 */
export function detectLanguage(text: string, candidates: readonly string[]): string | undefined {
  const byFranc = new Map<string, string>();
  const table = francCodes();
  for (const candidate of candidates) {
    const canonical = canonicalLanguage(candidate);
    if (canonical === undefined) continue;
    for (const code of table.get(new Intl.Locale(canonical).language) ?? []) {
      if (!byFranc.has(code)) byFranc.set(code, candidate);
    }
  }
  if (byFranc.size === 0) return undefined;
  for (const [code, score] of francAll(text)) {
    const candidate = byFranc.get(code);
    if (candidate !== undefined) return score >= SURE ? candidate : undefined;
  }
  return undefined;
}
