/**
 * Checks a settings document (decisions.md "Settings document"): imported in the options page,
 * read from the server's --config file. A malformed document is refused with the path of the first
 * bad field; unknown fields are kept. Key strings are never quoted in a message.
 */
import { ApiError } from '../errors';
import { canonicalLanguage } from '../lang';
import type { ProviderSettings } from '../provider';
import { withDefaults } from './defaults';
import { DOMAINS } from '../types';
import type { ApiKeySettings, GlossarySettings, Settings } from './types';

const PROVIDER_ID = /^[a-z0-9-]+\.ts$/;
const MIN_KEY_LENGTH = 8;
const STRING_FIELDS = ['key', 'region', 'model', 'email'] as const;

type Doc = Record<string, unknown>;

function fail(path: string, message: string): never {
  throw new ApiError(400, `${path}: ${message}`);
}

function isObject(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, path: string): Doc {
  if (!isObject(value)) fail(path, 'must be an object');
  return value;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value;
}

function boolean(value: unknown, path: string): void {
  if (value !== undefined && typeof value !== 'boolean') fail(path, 'must be true or false');
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function validateProviders(value: unknown): Record<string, ProviderSettings> {
  const providers = object(value, 'settings.providers');
  for (const [id, entry] of Object.entries(providers)) {
    const path = `settings.providers[${JSON.stringify(id)}]`;
    if (!PROVIDER_ID.test(id)) fail(path, 'the name must be a provider id like "name.ts"');
    const provider = object(entry, path);
    boolean(provider['enabled'], `${path}.enabled`);
    if (provider['url'] !== undefined && !isHttpUrl(provider['url'])) fail(`${path}.url`, 'must be an http(s) URL');
    for (const field of STRING_FIELDS) {
      if (provider[field] !== undefined && typeof provider[field] !== 'string') fail(`${path}.${field}`, 'must be a string');
    }
  }
  return providers as Record<string, ProviderSettings>;
}

function validateRanking(value: unknown): string[] {
  const ranking = array(value, 'settings.ranking');
  ranking.forEach((id, i) => {
    if (typeof id !== 'string' || !PROVIDER_ID.test(id)) fail(`settings.ranking[${i}]`, 'must be a provider id like "name.ts"');
    if (ranking.indexOf(id) !== i) fail(`settings.ranking[${i}]`, `${JSON.stringify(id)} is listed twice`);
  });
  return ranking as string[];
}

/** Interlinguas in canonical form, so routes name them as GetLanguages does. */
function validateInterlinguas(value: unknown): string[] {
  const codes: string[] = [];
  array(value, 'settings.interlinguas').forEach((code, i) => {
    const canonical = typeof code === 'string' ? canonicalLanguage(code) : undefined;
    if (canonical === undefined) fail(`settings.interlinguas[${i}]`, 'not a language code');
    if (codes.includes(canonical)) fail(`settings.interlinguas[${i}]`, `${JSON.stringify(canonical)} is listed twice`);
    codes.push(canonical);
  });
  return codes;
}

function validateKey(entry: unknown, path: string): ApiKeySettings {
  const key = object(entry, path);
  if (typeof key['name'] !== 'string' || key['name'] === '') fail(`${path}.name`, 'must be a non-empty string');
  if (typeof key['key'] !== 'string' || key['key'].length < MIN_KEY_LENGTH) {
    fail(`${path}.key`, `must be a string of at least ${MIN_KEY_LENGTH} characters`);
  }
  const quota = key['quota'];
  if (quota !== undefined && !(Number.isSafeInteger(quota) && (quota as number) >= 0)) {
    fail(`${path}.quota`, 'must be a non-negative integer');
  }
  if (key['allowed'] !== undefined) {
    array(key['allowed'], `${path}.allowed`).forEach((item, i) => {
      if (typeof item !== 'string' || item === '') fail(`${path}.allowed[${i}]`, 'must be a non-empty string');
    });
  }
  boolean(key['revoked'], `${path}.revoked`);
  return key as ApiKeySettings;
}

function validateKeys(value: unknown): ApiKeySettings[] {
  const keys = array(value, 'settings.keys').map((entry, i) => validateKey(entry, `settings.keys[${i}]`));
  keys.forEach((key, i) => {
    const sameName = keys.findIndex((k) => k.name === key.name);
    if (sameName !== i) fail(`settings.keys[${i}].name`, `${JSON.stringify(key.name)} is already the name of settings.keys[${sameName}]`);
    const sameKey = keys.findIndex((k) => k.key === key.key);
    if (sameKey !== i) fail(`settings.keys[${i}].key`, `the same key as settings.keys[${sameKey}]; every key must be unique`);
  });
  return keys;
}

function validateLimits(value: unknown): Settings['limits'] {
  const limits = object(value, 'settings.limits');
  const textSize = limits['textSize'];
  if (textSize !== undefined && !(Number.isSafeInteger(textSize) && (textSize as number) >= 1)) {
    fail('settings.limits.textSize', 'must be an integer >= 1');
  }
  // A missing textSize is filled by withDefaults.
  return limits as Settings['limits'];
}

const DOMAIN_NAMES: readonly string[] = DOMAINS;

/** glossaries: [{domain?, src, trg, terms: {source term: target term}}], codes canonicalized. */
function validateGlossaries(value: unknown): GlossarySettings[] {
  return array(value, 'settings.glossaries').map((entry, i) => {
    const path = `settings.glossaries[${i}]`;
    const g = object(entry, path);
    const lang = (field: 'src' | 'trg') => {
      const code = typeof g[field] === 'string' ? canonicalLanguage(g[field] as string) : undefined;
      return code ?? fail(`${path}.${field}`, 'not a language code');
    };
    const domain = g['domain'];
    if (domain !== undefined && (typeof domain !== 'string' || !DOMAIN_NAMES.includes(domain))) {
      fail(`${path}.domain`, `must be one of ${DOMAIN_NAMES.join(', ')}`);
    }
    const terms = object(g['terms'], `${path}.terms`);
    for (const [from, to] of Object.entries(terms)) {
      if (from.trim() === '') fail(`${path}.terms`, 'a source term is empty');
      if (typeof to !== 'string' || to.trim() === '') fail(`${path}.terms[${JSON.stringify(from)}]`, 'must be a non-empty string');
    }
    return { ...g, src: lang('src'), trg: lang('trg'), terms: terms as Record<string, string> };
  });
}

/**
 * The settings document, checked, with defaults for missing top-level fields and interlinguas in
 * canonical form. Throws ApiError 400 naming the first bad field, e.g.
 * `settings.keys[1].quota: must be a non-negative integer`. The input is not modified.
 */
export function validateSettings(doc: unknown): Settings {
  if (!isObject(doc)) fail('settings', 'must be a JSON object');
  const checked: Doc = { ...doc };
  if (doc['providers'] !== undefined) checked['providers'] = validateProviders(doc['providers']);
  if (doc['ranking'] !== undefined) checked['ranking'] = validateRanking(doc['ranking']);
  if (doc['interlinguas'] !== undefined) checked['interlinguas'] = validateInterlinguas(doc['interlinguas']);
  if (doc['keys'] !== undefined) checked['keys'] = validateKeys(doc['keys']);
  if (doc['limits'] !== undefined) checked['limits'] = validateLimits(doc['limits']);
  if (doc['glossaries'] !== undefined) checked['glossaries'] = validateGlossaries(doc['glossaries']);
  if (doc['hedging'] !== undefined) boolean(doc['hedging'], 'settings.hedging');
  return withDefaults(checked as Partial<Settings>);
}
