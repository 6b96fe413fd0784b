/**
 * Lingva Translate (github.com/thedaviddelta/lingva-translate), an open-source front end to Google
 * Translate that anyone may host. No public instance is guaranteed, so it needs `url` (needsUrl).
 * `GET {url}/api/v1/{source}/{target}/{text}` answers `{translation}`;
 * `GET {url}/api/v1/languages/source|target` answers `{languages: [{code, name}]}` with Google's codes
 * in its own spelling (`zh` Simplified, `zh_HANT`, `iw`, `jw`, `tl`, and `auto` as a source).
 * Errors are `{error}`: 400 for a code it does not know, 404 for a malformed path, 500 when Google
 * failed behind it (most often Google's rate limit, which it does not tell apart).
 * The text travels in the URL path: one text per request, and the encoded text is kept short enough
 * for the request-line limits of the servers and proxies instances run behind (nginx's is 8 KB).
 */
import { ProviderError } from '../core/errors';
import type { Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { codeMap, type CodeMap } from './lib/codes';
import { fetchJson, isRecord } from './lib/http';
import { translateInPieces } from './mymemory';

const SERVICE = 'Lingva';
const LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** Code points per text: Latin-script text encodes to ~1-3 bytes each, well inside the budget below. */
const MAX_CHARS = 1500;
/** Bytes of percent-encoded text per URL; other scripts (up to 12 bytes a character) are cut to fit. */
const MAX_ENCODED = 6000;

/** lingva-scraper's language list, for when the instance's own cannot be fetched. */
const LINGVA_LANGUAGES: readonly string[] = [
  'af', 'sq', 'am', 'ar', 'hy', 'az', 'eu', 'be', 'bn', 'bs', 'bg', 'ca', 'ceb', 'ny', 'zh', 'zh_HANT', 'co', 'hr',
  'cs', 'da', 'nl', 'en', 'eo', 'et', 'tl', 'fi', 'fr', 'fy', 'gl', 'ka', 'de', 'el', 'gu', 'ht', 'ha', 'haw',
  'iw', 'hi', 'hmn', 'hu', 'is', 'ig', 'id', 'ga', 'it', 'ja', 'jw', 'kn', 'kk', 'km', 'rw', 'ko', 'ku', 'ky',
  'lo', 'la', 'lv', 'lt', 'lb', 'mk', 'mg', 'ms', 'ml', 'mt', 'mi', 'mr', 'mn', 'my', 'ne', 'no', 'or', 'ps',
  'fa', 'pl', 'pt', 'pa', 'ro', 'ru', 'sm', 'gd', 'sr', 'st', 'sn', 'sd', 'si', 'sk', 'sl', 'so', 'es', 'su',
  'sw', 'sv', 'tg', 'ta', 'tt', 'te', 'th', 'tr', 'tk', 'uk', 'ur', 'ug', 'uz', 'vi', 'cy', 'xh', 'yi', 'yo', 'zu',
];
/** Lingva's `zh` is Simplified (it sends zh-CN to Google); `zh_HANT` canonicalizes by itself. */
const ALIASES = { zh: 'zh-Hans' };

interface Lists {
  src: CodeMap;
  trg: CodeMap;
}

const lists = (src: readonly string[], trg: readonly string[]): Lists => ({ src: codeMap(src, ALIASES), trg: codeMap(trg, ALIASES) });

export interface LingvaOptions {
  now?: () => number;
}

export function createLingva(settings: ProviderSettings, env: ProviderEnv, options: LingvaOptions = {}): Provider {
  const base = (settings.url ?? '').replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  // lingva-scraper's `exceptions`: Traditional Chinese is a target only.
  const builtIn = lists(LINGVA_LANGUAGES.filter((c) => c !== 'zh_HANT'), LINGVA_LANGUAGES);
  let fetched: (Lists & { at: number }) | undefined;
  const noUrl = () => new ProviderError(503, `${SERVICE} needs the url of an instance`);

  async function codesOf(type: 'source' | 'target', signal: AbortSignal): Promise<string[]> {
    const body = await fetchJson(env, { url: `${base}/api/v1/languages/${type}` }, signal, SERVICE);
    const list = isRecord(body) ? body.languages : undefined;
    const codes = Array.isArray(list) ? list.flatMap((l: unknown) => (isRecord(l) && typeof l.code === 'string' ? [l.code] : [])) : [];
    if (codes.length === 0) throw new ProviderError(502, `${SERVICE} answered no ${type} languages`);
    return codes;
  }

  async function languages(signal: AbortSignal): Promise<Lists> {
    if (fetched && now() - fetched.at < LIST_TTL_MS) return fetched;
    try {
      const [src, trg] = await Promise.all([codesOf('source', signal), codesOf('target', signal)]);
      fetched = { ...lists(src, trg), at: now() };
      return fetched;
    } catch {
      // Not cached: the next catalog asks again. Translate then reports what the instance says.
      return fetched ?? builtIn;
    }
  }

  async function translateOne(text: string, sl: string, tl: string, signal: AbortSignal): Promise<string> {
    // A path segment "." or ".." is resolved away by URL parsing; punctuation alone needs no translation.
    if (/^\.{1,2}$/.test(text)) return text;
    const url = `${base}/api/v1/${encodeURIComponent(sl)}/${encodeURIComponent(tl)}/${encodeURIComponent(text)}`;
    const body = await fetchJson(env, { url }, signal, SERVICE);
    if (!isRecord(body) || typeof body.translation !== 'string') throw new ProviderError(502, `${SERVICE} answered no translation`);
    return body.translation;
  }

  return {
    id: lingva.id,
    name: lingva.name,
    limits: { chars: MAX_CHARS, segments: 1 },
    html: false,
    async languages(signal = new AbortController().signal) {
      if (!base) throw noUrl();
      const l = await languages(signal);
      return { src: l.src.canonical, trg: l.trg.canonical };
    },
    async translateBatch(segments, pair, _batch, signal) {
      if (!base) throw noUrl();
      const l = fetched ?? builtIn;
      const sl = l.src.toService(pair.src);
      const tl = l.trg.toService(pair.trg);
      if (sl === undefined || tl === undefined) throw new ProviderError(400, `${SERVICE} has no language ${sl === undefined ? pair.src : pair.trg}`);
      const fits = (piece: string) => encodeURIComponent(piece).length <= MAX_ENCODED;
      return Promise.all(segments.map((text) => translateInPieces(text, fits, signal, (piece, s) => translateOne(piece, sl, tl, s))));
    },
  };
}

export const lingva: ProviderModule = {
  id: 'lingva.ts',
  name: 'Lingva Translate',
  needsKey: false,
  needsUrl: true,
  enabledByDefault: false,
  create: (settings, env) => createLingva(settings, env),
};

export default lingva;
