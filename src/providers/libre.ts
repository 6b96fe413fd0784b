/**
 * LibreTranslate, any instance (https://docs.libretranslate.com, checked against its app.py):
 * JSON `POST /translate` `{q: [...], source, target, format, api_key?}` -> `{translatedText: [...]}`,
 * `GET /languages` -> `[{code, name, targets}]`, `GET /frontend/settings` -> `{charLimit, ...}`.
 * The instance's character limit counts all texts of a request (`--char-limit`, -1 = none); its
 * batch limit (`--batch-limit`) is not published, and exceeding either is a 400 that the engine
 * answers by retrying texts one by one. Each instance installs its own models, so there is no
 * built-in language list. No domain feature.
 */
import { ProviderError } from '../core/errors';
import type { Pair, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { codeMap } from './lib/codes';
import { byStatus, expectStrings, fetchJson, isRecord, retryAfterMs, type Classify, type HttpCall } from './lib/http';

const PUBLIC_URL = 'https://libretranslate.com';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Used until the instance says its limit; small enough for the public instance. */
const DEFAULT_CHARS = 2000;
/** For instances without a limit: Argos translates a request's texts one after another. */
const UNLIMITED_CHARS = 5000;
const MAX_TEXTS = 25;

/** Codes of older instances (`zt`, `pb`) and Norwegian as `no`, in the canonical form others use. */
const ALIASES: Record<string, string> = { zh: 'zh-Hans', zt: 'zh-Hant', pb: 'pt-BR', no: 'nb' };

interface Lists {
  support: { pairs: Pair[] };
  /** `src|trg` in canonical codes -> the instance's codes. */
  codes: Map<string, [string, string]>;
}

/** Pairs from each language's `targets` (instances before 1.3 send none: every other language). */
function buildLists(list: unknown[]): Lists {
  const items = list.flatMap((l) => (isRecord(l) && typeof l.code === 'string' ? [{ code: l.code, targets: l.targets }] : []));
  const map = codeMap(items.map((i) => i.code), ALIASES);
  const canonicalOf = new Map(map.canonical.map((c) => [map.toService(c) as string, c]));
  const pairs: Pair[] = [];
  const codes = new Map<string, [string, string]>();
  for (const item of items) {
    const src = canonicalOf.get(item.code);
    const targets = Array.isArray(item.targets) ? item.targets : items.map((i) => i.code);
    for (const target of targets) {
      const trg = typeof target === 'string' ? canonicalOf.get(target) : undefined;
      if (src === undefined || trg === undefined || src === trg) continue;
      pairs.push({ src, trg });
      codes.set(`${src}|${trg}`, [item.code, target as string]);
    }
  }
  return { support: { pairs }, codes };
}

/** Optional hooks for tests (a clock for the language cache). */
export interface LibreOptions {
  now?: () => number;
}

export function createLibre(settings: ProviderSettings, env: ProviderEnv, options: LibreOptions = {}): Provider {
  const base = (settings.url ?? PUBLIC_URL).replace(/\/+$/, '');
  const key = settings.key ?? '';
  const now = options.now ?? Date.now;
  const classify = classifier(key);
  let cached: { lists: Lists; at: number } | undefined;
  let chars = DEFAULT_CHARS;

  const call = (path: string, init: Omit<HttpCall, 'url'>, signal: AbortSignal): Promise<unknown> =>
    fetchJson(env, { ...init, url: `${base}${path}` }, signal, 'LibreTranslate', classify);

  /** The instance's character limit; an instance too old to say keeps the default. */
  async function readLimit(signal: AbortSignal): Promise<void> {
    try {
      const s = await call('/frontend/settings', {}, signal);
      const limit = isRecord(s) ? s.charLimit : undefined;
      if (typeof limit === 'number' && Number.isInteger(limit)) chars = limit > 0 ? limit : UNLIMITED_CHARS;
    } catch {
      // keep the current limit
    }
  }

  async function lists(signal: AbortSignal): Promise<Lists> {
    if (cached && now() - cached.at < DAY_MS) return cached.lists;
    try {
      const [body] = await Promise.all([call('/languages', {}, signal), readLimit(signal)]);
      const built = buildLists(Array.isArray(body) ? body : []);
      if (built.support.pairs.length === 0) throw new ProviderError(502, 'LibreTranslate listed no language pairs');
      cached = { lists: built, at: now() };
      return built;
    } catch (e) {
      if (cached) return cached.lists; // stale, but right for an instance that rarely changes
      throw e;
    }
  }

  return {
    id: libre.id,
    name: libre.name,
    get limits() {
      return { chars, segments: MAX_TEXTS };
    },
    html: true,
    async languages(signal = new AbortController().signal) {
      return (await lists(signal)).support;
    },
    async translateBatch(segments, pair, batch, signal) {
      const codes = (cached?.lists ?? (await lists(signal))).codes.get(`${pair.src}|${pair.trg}`);
      if (codes === undefined) throw new ProviderError(400, `LibreTranslate has no pair ${pair.src}->${pair.trg}`);
      const [source, target] = codes;
      const body = JSON.stringify({ q: segments, source, target, format: batch.format === 'html' ? 'html' : 'text', ...(key ? { api_key: key } : {}) });
      const answer = await call('/translate', { method: 'POST', headers: { 'content-type': 'application/json' }, body }, signal);
      const translated = isRecord(answer) ? answer.translatedText : undefined;
      // Instances before batch support (1.2) answer one string for one text.
      return expectStrings(typeof translated === 'string' && segments.length === 1 ? [translated] : translated, segments.length, 'LibreTranslate');
    },
  };
}

/**
 * Errors are `{error}`. A missing key is a 400 ("Visit ... to get an API key"), an invalid one 403;
 * a client banned for flooding gets 403 "Too many request limits violations": a rate limit.
 */
function classifier(key: string): Classify {
  return (f) => {
    const raw = isRecord(f.body) && typeof f.body.error === 'string' ? f.body.error : undefined;
    const detail = raw && key ? raw.split(key).join('***') : raw;
    const what = `LibreTranslate answered HTTP ${f.status}${detail ? `: ${detail}` : ''}`;
    if (f.status === 400 && detail && /api key/i.test(detail)) return new ProviderError(403, what);
    if (f.status === 403 && detail && /too many request/i.test(detail)) return new ProviderError(429, what, retryAfterMs(f.headers));
    if (f.status === 500) return new ProviderError(502, what);
    return byStatus(f, 'LibreTranslate', detail);
  };
}

export const libre: ProviderModule = {
  id: 'libre.ts',
  name: 'LibreTranslate',
  // Self-hosted instances need no key; libretranslate.com does and says so (403).
  needsKey: false,
  defaultUrl: PUBLIC_URL,
  enabledByDefault: false,
  create: (settings, env) => createLibre(settings, env),
};

export default libre;
