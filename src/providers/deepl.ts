/**
 * DeepL API Free/Pro v2 (https://developers.deepl.com/api-reference/translate): JSON
 * `POST /v2/translate` with at most 50 texts and a 128 KiB body, `GET /v2/languages?type=...`,
 * `GET /v2/glossaries/{id}`, the key in `Authorization: DeepL-Auth-Key`. Free keys end in `:fx` and
 * are accepted only by api-free.deepl.com, Pro keys only by api.deepl.com (403 "Wrong endpoint").
 * Domains: DeepL's `context` (influences the translation, is neither translated nor billed) and the
 * user's glossary for the domain (settings `glossaries: {law: "<glossary_id>"}`).
 */
import { ProviderError } from '../core/errors';
import type { LanguageSupport, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import type { Domain } from '../core/types';
import { codeMap, type CodeMap } from './lib/codes';
import { byStatus, expectStrings, fetchJson, isRecord, retryAfterMs, type Classify, type HttpCall } from './lib/http';

const PRO_URL = 'https://api.deepl.com';
const FREE_URL = 'https://api-free.deepl.com';
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_TEXTS = 50;
const MAX_BODY_BYTES = 128 * 1024;
/** 30,000 code points fit in 128 KiB even when most are 4-byte UTF-8; the body is still measured. */
const MAX_CHARS = 30_000;

/** The documented lists (openapi.yaml 2.14), used while /v2/languages cannot be read. */
const FALLBACK_SOURCE = 'AR BG CS DA DE EL EN ES ET FI FR HU ID IT JA KO LT LV NB NL PL PT RO RU SK SL SV TR UK ZH'.split(' ');
const FALLBACK_TARGET = 'AR BG CS DA DE EL EN-GB EN-US ES ET FI FR HU ID IT JA KO LT LV NB NL PL PT-BR PT-PT RO RU SK SL SV TR UK ZH-HANS ZH-HANT'.split(' ');

/** Sent as `context`: DeepL reads it as surrounding text, so it is a plain English sentence. */
const CONTEXT: Partial<Record<Domain, string>> = {
  art: 'The text is about the arts, humanities and social sciences.',
  law: 'The text is about law and administration.',
  sci: 'The text is about natural science.',
  tech: 'The text is about technology and engineering.',
  info: 'The text is about information technology.',
  tel: 'The text is about telecommunication and media.',
  bio: 'The text is about health and biology.',
  eco: 'The text is about economy and trade.',
  agr: 'The text is about agriculture.',
  travel: 'The text is about transport and travelling.',
  mil: 'The text is about military matters.',
  sport: 'The text is about sports and games.',
};

interface Lists {
  support: LanguageSupport;
  src: CodeMap;
  trg: CodeMap;
}

/** Adds canonical codes for service codes that already have one (`en` -> `EN-US`); existing ones win. */
function extend(map: CodeMap, extra: [string, string][]): CodeMap {
  const back = new Map(map.canonical.map((c) => [c, map.toService(c) as string]));
  for (const [canonical, service] of extra) if (!back.has(canonical)) back.set(canonical, service);
  return { canonical: [...back.keys()], toService: (c) => back.get(c) };
}

/**
 * DeepL's targets distinguish EN-US/EN-GB, PT-BR/PT-PT and ZH-HANS/ZH-HANT; a bare target (`en`)
 * gets the variant CLDR names most likely (en-US, pt-BR, zh-Hans). Sources do not distinguish
 * variants, so `en-GB` text is sent as EN.
 */
function buildLists(sourceCodes: readonly string[], targetCodes: readonly string[]): Lists {
  const trgBase = codeMap(targetCodes);
  const likely: [string, string][] = [];
  for (const code of trgBase.canonical) {
    const variant = new Intl.Locale(code);
    if (variant.baseName === variant.language) continue;
    const max = new Intl.Locale(variant.language).maximize();
    const fits = (variant.region ?? max.region) === max.region && (variant.script ?? max.script) === max.script;
    if (fits) likely.push([variant.language, trgBase.toService(code) as string]);
  }
  const trg = extend(trgBase, likely);
  const srcBase = codeMap(sourceCodes);
  const src = extend(srcBase, trg.canonical.flatMap((c): [string, string][] => {
    const service = srcBase.toService(new Intl.Locale(c).language);
    return service === undefined ? [] : [[c, service]];
  }));
  return { support: { src: src.canonical, trg: trg.canonical }, src, trg };
}

const FALLBACK = buildLists(FALLBACK_SOURCE, FALLBACK_TARGET);

/** Optional hooks for tests (a clock for the caches). */
export interface DeeplOptions {
  now?: () => number;
}

export function createDeepl(settings: ProviderSettings, env: ProviderEnv, options: DeeplOptions = {}): Provider {
  const key = settings.key ?? '';
  const given = (settings.url ?? PRO_URL).replace(/\/+$/, '');
  // Each public host accepts only its own kind of key, so the key decides between them.
  const base = given === PRO_URL || given === FREE_URL ? (key.endsWith(':fx') ? FREE_URL : PRO_URL) : given;
  const glossaries = isRecord(settings.glossaries) ? settings.glossaries : {};
  const now = options.now ?? Date.now;
  const classify = classifier(key);
  let cached: { lists: Lists; at: number } | undefined;
  const glossaryPairs = new Map<string, { pair: string | undefined; at: number }>();

  const call = (path: string, init: Omit<HttpCall, 'url'>, signal: AbortSignal): Promise<unknown> =>
    fetchJson(env, { ...init, url: `${base}${path}`, headers: { authorization: `DeepL-Auth-Key ${key}`, ...init.headers } }, signal, 'DeepL', classify);

  async function fetchCodes(type: 'source' | 'target', signal: AbortSignal): Promise<string[]> {
    const body = await call(`/v2/languages?type=${type}`, {}, signal);
    const codes = Array.isArray(body) ? body.flatMap((l) => (isRecord(l) && typeof l.language === 'string' ? [l.language] : [])) : [];
    if (codes.length === 0) throw new ProviderError(502, `DeepL listed no ${type} languages`);
    return codes;
  }

  async function lists(signal: AbortSignal): Promise<Lists> {
    if (cached && now() - cached.at < DAY_MS) return cached.lists;
    try {
      const [source, target] = await Promise.all([fetchCodes('source', signal), fetchCodes('target', signal)]);
      cached = { lists: buildLists(source, target), at: now() };
      return cached.lists;
    } catch {
      // A stale list beats the built-in one; neither is cached, so the next call asks again.
      return cached?.lists ?? FALLBACK;
    }
  }

  /** The domain's glossary, only when it is for this pair: DeepL refuses a mismatched one (400). */
  async function glossaryFor(domain: Domain, source: string, target: string, signal: AbortSignal): Promise<string | undefined> {
    const id = glossaries[domain];
    if (typeof id !== 'string' || id === '') return undefined;
    let known = glossaryPairs.get(id);
    if (!known || now() - known.at >= DAY_MS) {
      try {
        const g = await call(`/v2/glossaries/${encodeURIComponent(id)}`, {}, signal);
        const pair = isRecord(g) && typeof g.source_lang === 'string' && typeof g.target_lang === 'string' ? `${g.source_lang}>${g.target_lang}`.toLowerCase() : undefined;
        known = { pair, at: now() };
        glossaryPairs.set(id, known);
      } catch (e) {
        // An unknown glossary is remembered as unusable; other failures are retried next time.
        if (e instanceof ProviderError && e.code === 400) glossaryPairs.set(id, { pair: undefined, at: now() });
        if (signal.aborted) throw e;
        return undefined;
      }
    }
    // Glossaries name bare languages (`en`), requests may name variants (`EN-GB`).
    const want = [source, target].map((c) => c.split('-')[0]!.toLowerCase()).join('>');
    return known.pair === want ? id : undefined;
  }

  return {
    id: deepl.id,
    name: deepl.name,
    limits: { chars: MAX_CHARS, segments: MAX_TEXTS },
    html: true,
    async languages(signal = new AbortController().signal) {
      return (await lists(signal)).support;
    },
    async translateBatch(segments, pair, batch, signal) {
      const l = cached?.lists ?? (await lists(signal));
      const source = l.src.toService(pair.src);
      const target = l.trg.toService(pair.trg);
      if (source === undefined || target === undefined) throw new ProviderError(400, `DeepL does not translate ${pair.src}->${pair.trg}`);
      if (segments.length > MAX_TEXTS) throw new ProviderError(400, `${segments.length} texts exceed DeepL's ${MAX_TEXTS} per request`);
      const glossary = await glossaryFor(batch.domain, source, target, signal);
      const context = CONTEXT[batch.domain];
      const body = JSON.stringify({
        text: segments,
        source_lang: source,
        target_lang: target,
        ...(batch.format === 'html' ? { tag_handling: 'html' } : {}),
        ...(context ? { context } : {}),
        ...(glossary ? { glossary_id: glossary } : {}),
      });
      const bytes = new TextEncoder().encode(body).length;
      if (bytes > MAX_BODY_BYTES) throw new ProviderError(400, `request of ${bytes} bytes exceeds DeepL's ${MAX_BODY_BYTES}`);
      const answer = await call('/v2/translate', { method: 'POST', headers: { 'content-type': 'application/json' }, body }, signal);
      const translations = isRecord(answer) ? answer.translations : undefined;
      const texts = Array.isArray(translations) ? translations.map((t) => (isRecord(t) ? t.text : undefined)) : translations;
      return expectStrings(texts, segments.length, 'DeepL');
    },
  };
}

/** DeepL errors are `{message}`; 456 is an exhausted quota, 529 another "too many requests". */
function classifier(key: string): Classify {
  return (f) => {
    const raw = isRecord(f.body) && typeof f.body.message === 'string' ? f.body.message : undefined;
    const detail = raw && key ? raw.split(key).join('***') : raw;
    const what = detail ? `: ${detail}` : '';
    if (f.status === 456) return new ProviderError(403, `DeepL quota exceeded${what}`);
    if (f.status === 529) return new ProviderError(429, `DeepL answered HTTP 529${what}`, retryAfterMs(f.headers));
    return byStatus(f, 'DeepL', detail);
  };
}

export const deepl: ProviderModule = {
  id: 'deepl.ts',
  name: 'DeepL',
  needsKey: true,
  // Free keys (`...:fx`) are sent to https://api-free.deepl.com instead (see createDeepl).
  defaultUrl: PRO_URL,
  enabledByDefault: false,
  create: (settings, env) => createDeepl(settings, env),
};

export default deepl;
