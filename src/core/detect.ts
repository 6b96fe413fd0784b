/**
 * A guess of the language of a text, for compatibility-mode auto-detection (`sl=auto`): franc-min's
 * trigram models and script expressions, scored as franc-min scores them, with each script's
 * tables built the first time a text in it is scored. franc-min itself builds every table when it
 * is imported (~30 ms, measured on its minified bundle), which every start of the service worker
 * would pay (Chromium stops it after 30 s idle; the click that translates a page wakes it) and
 * every popup too, for a function few calls need. test/unit/interface/detect.test.ts checks the
 * scores against franc-min's own on generated and real texts.
 */
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';
import { asTuples } from 'trigram-utils';
import { canonicalLanguage } from './lang';

/** franc-min's limits: shorter texts are undetermined, longer ones are read up to this length. */
const MIN_LENGTH = 10;
const MAX_LENGTH = 2048;
/** What a trigram missing from a model costs. */
const MAX_DIFFERENCE = 300;

type Scores = [string, number][];
const UNDETERMINED: Scores = [['und', 1]];

/** Per script, per language: trigram -> its rank in the model (the first place it appears). */
const models = new Map<string, Map<string, Map<string, number>>>();

function modelsOf(script: string, languages: Record<string, string>): Map<string, Map<string, number>> {
  let byLanguage = models.get(script);
  if (byLanguage) return byLanguage;
  byLanguage = new Map();
  for (const [language, model] of Object.entries(languages)) {
    const ranks = new Map<string, number>();
    model.split('|').forEach((trigram, rank) => {
      if (!ranks.has(trigram)) ranks.set(trigram, rank);
    });
    byLanguage.set(language, ranks);
  }
  models.set(script, byLanguage);
  return byLanguage;
}

/** The script whose characters are the largest share of `value`, and that share. */
function topScript(value: string): [string | undefined, number] {
  let top: string | undefined;
  let share = -1;
  for (const [script, expression] of Object.entries(expressions)) {
    const found = (value.match(expression)?.length ?? 0) / value.length || 0;
    if (found > share) {
      share = found;
      top = script;
    }
  }
  return [top, share];
}

/**
 * Every language of the text's script with a score from 0 to 1 (1: the nearest), nearest first;
 * a script of one language alone scores 1; `und` when the text is too short or has no script.
 */
export function languageScores(text: string): Scores {
  if (!text || text.length < MIN_LENGTH) return UNDETERMINED;
  const value = text.slice(0, MAX_LENGTH);
  const [script, share] = topScript(value);
  if (script === undefined) return UNDETERMINED;
  const languages = data[script];
  if (languages === undefined) return share === 0 ? UNDETERMINED : [[script, 1]];
  const trigrams = asTuples(value);
  const distances: Scores = [];
  for (const [language, ranks] of modelsOf(script, languages)) {
    let distance = 0;
    for (const [trigram, count] of trigrams) {
      const rank = ranks.get(trigram);
      distance += rank === undefined ? MAX_DIFFERENCE : Math.abs(count - rank - 1);
    }
    distances.push([language, distance]);
  }
  if (distances.length === 0) return UNDETERMINED;
  distances.sort((a, b) => a[1] - b[1]);
  const min = distances[0]![1];
  const max = value.length * MAX_DIFFERENCE - min;
  for (const d of distances) d[1] = 1 - (d[1] - min) / max || 0;
  return distances;
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
  for (const [code, score] of languageScores(text)) {
    const candidate = byFranc.get(code);
    if (candidate !== undefined) return score >= SURE ? candidate : undefined;
  }
  return undefined;
}
