/**
 * Yandex Cloud Translate API v2 (https://yandex.cloud/en/docs/translate/api-ref/Translation/translate):
 * JSON `POST /translate/v2/translate` `{texts, sourceLanguageCode, targetLanguageCode, format,
 * folderId?}` with at most 10,000 characters in all texts, `POST /translate/v2/languages`, the
 * service account's API key in `Authorization: Api-Key`. `folderId` (settings) is needed only for
 * user accounts. Errors are gRPC statuses: `{code, message, details}`. No domain feature.
 */
import { ProviderError } from '../core/errors';
import type { LanguageSupport, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { codeMap, type CodeMap } from './lib/codes';
import { byStatus, expectStrings, fetchJson, isRecord, retryAfterMs, type Classify, type HttpCall } from './lib/http';

const PUBLIC_URL = 'https://translate.api.cloud.yandex.net';
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_CHARS = 10_000;
/** Yandex documents no count of texts; 100 keeps one refused text from failing a whole page. */
const MAX_TEXTS = 100;

/** Yandex's list (docs "Supported languages", 2025), used while /languages cannot be read. */
const FALLBACK_CODES = (
  'af am ar az ba be bg bn bs ca ceb cs cv cy da de el en eo es et eu fa fi fr ga gd gl gu he hi hr ht hu hy id is it ja jv ka ' +
  'kazlat kk km kn ko ky la lb lo lt lv mg mhr mi mk ml mn mr mrj ms mt my ne nl no pa pap pl pt pt-BR ro ru sah si sk sl sq sr ' +
  'sr-Latn su sv sw ta te tg th tl tr tt udm uk ur uz uzbcyr vi xh yi zh zu'
).split(' ');

/**
 * Codes Intl cannot canonicalize (`kazlat`, `uzbcyr`) or that name the language other services
 * call otherwise: Yandex's `zh` is Simplified Chinese, its `no` Bokmål. `emj` (emoji) is no language.
 */
const ALIASES: Record<string, string> = { zh: 'zh-Hans', no: 'nb', kazlat: 'kk-Latn', uzbcyr: 'uz-Cyrl' };
const buildMap = (codes: readonly string[]): CodeMap => codeMap(codes.filter((c) => c !== 'emj'), ALIASES);
const FALLBACK = buildMap(FALLBACK_CODES);
const supportOf = (m: CodeMap): LanguageSupport => ({ src: m.canonical, trg: m.canonical });

/** Optional hooks for tests (a clock for the language cache). */
export interface YandexOptions {
  now?: () => number;
}

export function createYandex(settings: ProviderSettings, env: ProviderEnv, options: YandexOptions = {}): Provider {
  const base = (settings.url ?? PUBLIC_URL).replace(/\/+$/, '');
  const key = settings.key ?? '';
  const folder = typeof settings.folderId === 'string' && settings.folderId ? { folderId: settings.folderId } : {};
  const now = options.now ?? Date.now;
  const classify = classifier(key);
  let cached: { map: CodeMap; at: number } | undefined;

  const call = (path: string, body: Record<string, unknown>, signal: AbortSignal): Promise<unknown> => {
    const init: HttpCall = {
      method: 'POST',
      url: `${base}${path}`,
      headers: { authorization: `Api-Key ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, ...folder }),
    };
    return fetchJson(env, init, signal, 'Yandex', classify);
  };

  async function codes(signal: AbortSignal): Promise<CodeMap> {
    if (cached && now() - cached.at < DAY_MS) return cached.map;
    try {
      const body = await call('/translate/v2/languages', {}, signal);
      const list = isRecord(body) && Array.isArray(body.languages) ? body.languages : [];
      const found = list.flatMap((l) => (isRecord(l) && typeof l.code === 'string' ? [l.code] : []));
      if (found.length === 0) throw new ProviderError(502, 'Yandex listed no languages');
      cached = { map: buildMap(found), at: now() };
      return cached.map;
    } catch {
      // A stale list beats the built-in one; neither is cached, so the next call asks again.
      return cached?.map ?? FALLBACK;
    }
  }

  return {
    id: yandex.id,
    name: yandex.name,
    limits: { chars: MAX_CHARS, segments: MAX_TEXTS },
    html: true,
    async languages(signal = new AbortController().signal) {
      return supportOf(await codes(signal));
    },
    async translateBatch(segments, pair, batch, signal) {
      const map = cached?.map ?? (await codes(signal));
      const sourceLanguageCode = map.toService(pair.src);
      const targetLanguageCode = map.toService(pair.trg);
      if (sourceLanguageCode === undefined || targetLanguageCode === undefined) throw new ProviderError(400, `Yandex does not translate ${pair.src}->${pair.trg}`);
      const chars = segments.reduce((n, s) => n + Array.from(s).length, 0);
      if (chars > MAX_CHARS) throw new ProviderError(400, `${chars} characters exceed Yandex's ${MAX_CHARS} per request`);
      const format = batch.format === 'html' ? 'HTML' : 'PLAIN_TEXT';
      const answer = await call('/translate/v2/translate', { texts: segments, sourceLanguageCode, targetLanguageCode, format }, signal);
      const translations = isRecord(answer) ? answer.translations : undefined;
      const texts = Array.isArray(translations) ? translations.map((t) => (isRecord(t) ? t.text : undefined)) : translations;
      return expectStrings(texts, segments.length, 'Yandex');
    },
  };
}

/**
 * gRPC status codes by meaning. RESOURCE_EXHAUSTED is a quota, but Yandex's quotas are rates (calls
 * per second, characters per hour): 429. An unknown key is UNAUTHENTICATED, a key without the
 * `ai.translate.user` role PERMISSION_DENIED: both 403.
 */
function classifier(key: string): Classify {
  return (f) => {
    const code = isRecord(f.body) && typeof f.body.code === 'number' ? f.body.code : undefined;
    const raw = isRecord(f.body) && typeof f.body.message === 'string' ? f.body.message : undefined;
    // A message about a rejected key may quote it; it must not reach a route err.
    const detail = raw && key ? raw.split(key).join('***') : raw;
    const what = `Yandex answered ${code === undefined ? `HTTP ${f.status}` : `gRPC code ${code}`}${detail ? `: ${detail}` : ''}`;
    switch (code) {
      case 3: // INVALID_ARGUMENT
      case 5: // NOT_FOUND (a model or glossary)
      case 9: // FAILED_PRECONDITION
      case 11: // OUT_OF_RANGE
        return new ProviderError(400, what);
      case 7: // PERMISSION_DENIED
      case 16: // UNAUTHENTICATED
        return new ProviderError(403, what);
      case 8: // RESOURCE_EXHAUSTED
        return new ProviderError(429, what, retryAfterMs(f.headers));
      case 14: // UNAVAILABLE
        return new ProviderError(503, what, retryAfterMs(f.headers));
      case 2: // UNKNOWN
      case 13: // INTERNAL
        return new ProviderError(502, what);
      default:
        return byStatus(f, 'Yandex', detail);
    }
  };
}

export const yandex: ProviderModule = {
  id: 'yandex.ts',
  name: 'Yandex Translate',
  needsKey: true,
  defaultUrl: PUBLIC_URL,
  enabledByDefault: false,
  create: (settings, env) => createYandex(settings, env),
};

export default yandex;
