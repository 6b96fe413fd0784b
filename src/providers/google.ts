/**
 * Google Translate through the free web endpoints that Chrome and translation extensions use (no key).
 * Google documents none of them; the shapes are those Chrome's TranslateLanguageList and open-source
 * extensions (TWP, Linguist) parse:
 * - `GET /translate_a/single?client=gtx&dt=t&sl&tl&q` for one plain text: nested arrays whose [0]
 *   lists sentence pieces `[translated, original, ...]`;
 * - `POST /translate_a/t?client=gtx&sl&tl[&format=html]` with one form `q` per text: one string per
 *   `q` in order (`[text, detectedLanguage]` pairs when sl=auto, which is never sent here); `format=html`
 *   keeps tags and their attributes, so this is the HTML mode;
 * - `GET /translate_a/l?client=chrome` for the list: `{sl: {code: name}, tl: {code: name}}`.
 * A throttled IP gets an "unusual traffic" page, as 429 or as 503.
 */
import { ProviderError } from '../core/errors';
import type { LanguageSupport, Pair, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { codeMap, type CodeMap } from './lib/codes';
import { fetchJson, isRecord, retryAfterMs, type Classify } from './lib/http';

const SERVICE = 'Google Translate';
const LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** Google's web page and extensions cap one text at 5000 characters. */
const MAX_CHARS = 5000;
/** Texts per batch request: Cloud Translation v2's documented 128, the same back end. */
const MAX_SEGMENTS = 128;
/** Longest GET URL sent: Google's front ends answer 414 to far longer ones; longer texts go by POST. */
const MAX_GET_URL = 8000;

/**
 * Google's codes as translate_a/l lists them (Chrome's built-in list plus the 2022 additions), used
 * when the list cannot be fetched. Old codes (`iw`, `jw`, `tl`) are what the endpoints answer with.
 */
export const GOOGLE_LANGUAGES: readonly string[] = [
  'af', 'ak', 'am', 'ar', 'as', 'ay', 'az', 'be', 'bg', 'bho', 'bm', 'bn', 'bs', 'ca', 'ceb', 'ckb', 'co',
  'cs', 'cy', 'da', 'de', 'doi', 'dv', 'ee', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'fi', 'fr', 'fy', 'ga',
  'gd', 'gl', 'gn', 'gom', 'gu', 'ha', 'haw', 'hi', 'hmn', 'hr', 'ht', 'hu', 'hy', 'id', 'ig', 'ilo', 'is',
  'it', 'iw', 'ja', 'jw', 'ka', 'kk', 'km', 'kn', 'ko', 'kri', 'ku', 'ky', 'la', 'lb', 'lg', 'ln', 'lo', 'lt',
  'lus', 'lv', 'mai', 'mg', 'mi', 'mk', 'ml', 'mn', 'mni-Mtei', 'mr', 'ms', 'mt', 'my', 'ne', 'nl', 'no', 'nso',
  'ny', 'om', 'or', 'pa', 'pl', 'ps', 'pt', 'qu', 'ro', 'ru', 'rw', 'sa', 'sd', 'si', 'sk', 'sl', 'sm', 'sn',
  'so', 'sq', 'sr', 'st', 'su', 'sv', 'sw', 'ta', 'te', 'tg', 'th', 'ti', 'tk', 'tl', 'tr', 'ts', 'tt', 'ug',
  'uk', 'ur', 'uz', 'vi', 'xh', 'yi', 'yo', 'zh-CN', 'zh-TW', 'zu',
];

/** Google names Chinese scripts by region; `zh` alone (Cloud v2 lists it) is Simplified. */
export const GOOGLE_ALIASES: Record<string, string> = { 'zh-CN': 'zh-Hans', 'zh-TW': 'zh-Hant', zh: 'zh-Hans' };

/** A language list as the provider uses it: canonical support plus the way back to Google's codes. */
export interface GoogleLanguages {
  support: LanguageSupport;
  src: CodeMap;
  trg: CodeMap;
}

export function googleLanguages(src: readonly string[], trg: readonly string[] = src): GoogleLanguages {
  const s = codeMap(src, GOOGLE_ALIASES);
  const t = codeMap(trg, GOOGLE_ALIASES);
  return { support: { src: s.canonical, trg: t.canonical }, src: s, trg: t };
}

/** Google's codes for a pair, or a 400 naming the code it lacks. */
export function googlePair(langs: GoogleLanguages, pair: Pair, service: string): { sl: string; tl: string } {
  const sl = langs.src.toService(pair.src);
  const tl = langs.trg.toService(pair.trg);
  if (sl === undefined || tl === undefined) {
    throw new ProviderError(400, `${service} has no language ${sl === undefined ? pair.src : pair.trg}`);
  }
  return { sl, tl };
}

/** Optional hooks for tests (a clock for the language-list cache). */
export interface GoogleOptions {
  now?: () => number;
}

export function createGoogle(settings: ProviderSettings, env: ProviderEnv, options: GoogleOptions = {}): Provider {
  const base = (settings.url ?? google.defaultUrl ?? '').replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const builtIn = googleLanguages(GOOGLE_LANGUAGES);
  let fetched: (GoogleLanguages & { at: number }) | undefined;

  async function languages(signal: AbortSignal): Promise<GoogleLanguages> {
    if (fetched && now() - fetched.at < LIST_TTL_MS) return fetched;
    try {
      const body = await fetchJson(env, { url: `${base}/translate_a/l?client=chrome&hl=en` }, signal, SERVICE, classify);
      const sl = isRecord(body) && isRecord(body.sl) ? Object.keys(body.sl) : [];
      const tl = isRecord(body) && isRecord(body.tl) ? Object.keys(body.tl) : [];
      if (sl.length === 0 || tl.length === 0) return fetched ?? builtIn;
      fetched = { ...googleLanguages(sl, tl), at: now() };
      return fetched;
    } catch {
      // Only the list endpoint failed (or timed out): translation may still work. A stale list beats
      // the built-in one; neither is cached as fresh, so the next catalog asks again.
      return fetched ?? builtIn;
    }
  }

  return {
    id: google.id,
    name: google.name,
    limits: { chars: MAX_CHARS, segments: MAX_SEGMENTS },
    html: true,
    async languages(signal = new AbortController().signal) {
      return (await languages(signal)).support;
    },
    async translateBatch(segments, pair, batch, signal) {
      // The catalog fetched the list before routing here; mapping codes needs no further request.
      const { sl, tl } = googlePair(fetched ?? builtIn, pair, SERVICE);
      const [only] = segments;
      if (segments.length === 1 && only !== undefined && batch.format === 'text') {
        const url = `${base}/translate_a/single?${new URLSearchParams({ client: 'gtx', sl, tl, dt: 't', q: only })}`;
        if (url.length <= MAX_GET_URL) return [sentences(await fetchJson(env, { url }, signal, SERVICE, classify))];
      }
      const query = new URLSearchParams({ client: 'gtx', sl, tl });
      if (batch.format === 'html') query.set('format', 'html');
      const form = new URLSearchParams();
      for (const s of segments) form.append('q', s);
      const url = `${base}/translate_a/t?${query}`;
      return texts(await fetchJson(env, { method: 'POST', url, body: form }, signal, SERVICE, classify), segments.length);
    },
  };
}

/** The translation in a translate_a/single answer: the sentence pieces of its first element, joined. */
function sentences(body: unknown): string {
  const pieces: unknown = Array.isArray(body) ? body[0] : undefined;
  const parts = Array.isArray(pieces) ? pieces.filter((p): p is [string] => Array.isArray(p) && typeof p[0] === 'string') : [];
  if (parts.length === 0) throw new ProviderError(502, `${SERVICE} answered no sentences`);
  return parts.map((p) => p[0]).join('');
}

/** One text per `q` from a translate_a/t answer: strings, or `[text, lang]` pairs; one `q` may come bare. */
function texts(body: unknown, count: number): string[] {
  const list: unknown = typeof body === 'string' ? [body] : body;
  if (Array.isArray(list) && list.length === count) {
    const out = list.map((item: unknown) => (typeof item === 'string' ? item : Array.isArray(item) && typeof item[0] === 'string' ? item[0] : undefined));
    if (out.every((t): t is string => t !== undefined)) return out;
  }
  throw new ProviderError(502, `${SERVICE} answered ${Array.isArray(list) ? `${list.length} texts` : 'no list'} for ${count}`);
}

/** The "unusual traffic" page is a rate limit whatever its status; byStatus handles the rest. */
const classify: Classify = (f) => {
  if (f.status === 503 && /unusual traffic/i.test(f.text)) {
    return new ProviderError(429, `${SERVICE} is throttling this address (HTTP 503 unusual traffic)`, retryAfterMs(f.headers));
  }
  return undefined;
};

export const google: ProviderModule = {
  id: 'google.ts',
  name: 'Google Translate',
  needsKey: false,
  defaultUrl: 'https://translate.googleapis.com',
  enabledByDefault: true,
  create: (settings, env) => createGoogle(settings, env),
};

export default google;
