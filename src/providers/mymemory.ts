/**
 * MyMemory (mymemory.translated.net/doc/spec.php): `GET {url}/get?q=..&langpair=en|it[&de=email]`
 * answers `{responseData: {translatedText}, responseStatus, responseDetails, quotaFinished}`.
 * `q` is at most 500 bytes of UTF-8; a valid email in `de` raises the free daily allowance. There is no
 * language list endpoint ("ISO or RFC3066 codes"), so the list is built in.
 * Errors mostly arrive as HTTP 200 with the real status in `responseStatus` and the message in
 * `responseDetails` and `translatedText` ("MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS
 * FOR TODAY. NEXT AVAILABLE IN 16 HOURS...", "INVALID LANGUAGE PAIR SPECIFIED...", "QUERY LENGTH LIMIT
 * EXCEEDED..."), so the message decides the route err.
 */
import { cut } from '../core/engine/segments';
import { ProviderError } from '../core/errors';
import { leadingSpace, trailingSpace } from '../core/html/text';
import type { Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { codeMap } from './lib/codes';
import { fetchJson, isRecord, retryAfterMs, type Classify } from './lib/http';

const SERVICE = 'MyMemory';
/** The documented limit of `q`, in UTF-8 bytes. */
const MAX_BYTES = 500;

/** Codes MyMemory answers for (it takes any ISO 639-1 or RFC 3066 code; these have MT behind them). */
const MYMEMORY_LANGUAGES: readonly string[] = [
  'af', 'am', 'ar', 'az', 'be', 'bg', 'bn', 'bs', 'ca', 'ceb', 'co', 'cs', 'cy', 'da', 'de', 'el', 'en', 'eo',
  'es', 'et', 'eu', 'fa', 'fi', 'fr', 'fy', 'ga', 'gd', 'gl', 'gu', 'ha', 'haw', 'he', 'hi', 'hmn', 'hr', 'ht',
  'hu', 'hy', 'id', 'ig', 'is', 'it', 'ja', 'jv', 'ka', 'kk', 'km', 'kn', 'ko', 'ku', 'ky', 'la', 'lb', 'lo',
  'lt', 'lv', 'mg', 'mi', 'mk', 'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'ne', 'nl', 'no', 'ny', 'or', 'pa', 'pl',
  'ps', 'pt', 'pt-BR', 'ro', 'ru', 'rw', 'sd', 'si', 'sk', 'sl', 'sm', 'sn', 'so', 'sq', 'sr', 'st', 'su', 'sv',
  'sw', 'ta', 'te', 'tg', 'th', 'tk', 'tl', 'tr', 'tt', 'ug', 'uk', 'ur', 'uz', 'vi', 'xh', 'yi', 'yo', 'zh-CN',
  'zh-TW', 'zu',
];
const codes = codeMap(MYMEMORY_LANGUAGES, { 'zh-CN': 'zh-Hans', 'zh-TW': 'zh-Hant' });

export function createMyMemory(settings: ProviderSettings, env: ProviderEnv): Provider {
  const base = (settings.url ?? mymemory.defaultUrl ?? '').replace(/\/+$/, '');
  const email = typeof settings.email === 'string' && settings.email !== '' ? settings.email : undefined;

  async function translateOne(text: string, langpair: string, signal: AbortSignal): Promise<string> {
    const query = new URLSearchParams({ q: text, langpair });
    if (email) query.set('de', email);
    const body = await fetchJson(env, { url: `${base}/get?${query}` }, signal, SERVICE, classify);
    if (!isRecord(body)) throw new ProviderError(502, `${SERVICE} answered no object`);
    const data = isRecord(body.responseData) ? body.responseData : undefined;
    const translated = typeof data?.translatedText === 'string' ? data.translatedText : undefined;
    const details = typeof body.responseDetails === 'string' && body.responseDetails !== '' ? body.responseDetails : translated ?? '';
    const status = Number(body.responseStatus);
    if (body.quotaFinished === true) throw quotaError(details);
    // The quota warning comes with responseStatus 200 too, in place of the translation.
    if (status !== 200 || /^MYMEMORY WARNING/i.test(translated ?? '')) {
      throw refusal(status, details) ?? new ProviderError(502, `${SERVICE} answered status ${String(body.responseStatus)}`);
    }
    if (translated === undefined || translated === '') throw new ProviderError(502, `${SERVICE} answered no translatedText`);
    return unescapeEntities(translated, text);
  }

  return {
    id: mymemory.id,
    name: mymemory.name,
    // Code points as the engine counts them: ASCII text fills the 500 bytes in one request; text
    // whose UTF-8 is longer is cut further below, rather than sending every text in 125-char pieces.
    limits: { chars: MAX_BYTES, segments: 1 },
    html: false,
    async languages() {
      return { src: codes.canonical, trg: codes.canonical };
    },
    async translateBatch(segments, pair, _batch, signal) {
      const langpair = `${serviceCode(pair.src)}|${serviceCode(pair.trg)}`;
      const fits = (piece: string) => utf8Bytes(piece) <= MAX_BYTES;
      return Promise.all(segments.map((text) => translateInPieces(text, fits, signal, (piece, s) => translateOne(piece, langpair, s))));
    },
  };
}

const serviceCode = (code: string): string => {
  const found = codes.toService(code);
  if (found === undefined) throw new ProviderError(400, `${SERVICE} has no language ${code}`);
  return found;
};

const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

/**
 * Translates `text` with `one`, in pieces when it does not `fit` one request (a limit in bytes, which
 * the engine's code-point limits cannot express). Pieces are cut where the engine cuts (paragraph,
 * sentence, word), translated at once, and joined keeping each piece's own edge white space, which
 * services trim. The first failure cancels the other pieces.
 */
export async function translateInPieces(
  text: string,
  fits: (piece: string) => boolean,
  signal: AbortSignal,
  one: (piece: string, signal: AbortSignal) => Promise<string>,
): Promise<string> {
  if (text.trim() === '') return text;
  if (fits(text)) return one(text, signal);
  let pieces = [text];
  for (let max = Array.from(text).length; !pieces.every(fits) && max > 1; ) {
    max = Math.max(1, Math.floor(max * 0.8));
    pieces = cut(text, max);
  }
  const inner = new AbortController();
  const stop = () => inner.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) stop();
  try {
    const done = await Promise.all(pieces.map(async (piece) => {
      if (piece.trim() === '') return piece;
      try {
        const translated = await one(piece, inner.signal);
        return leadingSpace(piece) + translated.trim() + trailingSpace(piece);
      } catch (e) {
        inner.abort();
        throw e;
      }
    }));
    return done.join('');
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Route err for a MyMemory message, or undefined when the message says nothing known. */
function refusal(status: number, message: string, headers?: Headers): ProviderError | undefined {
  const said = message.replace(/\s+/g, ' ').trim().slice(0, 200);
  if (/ALL AVAILABLE FREE TRANSLATIONS|QUOTA/i.test(message)) return quotaError(said);
  if (/INVALID LANGUAGE|DISTINCT LANGUAGES|INVALID (SOURCE|TARGET)|QUERY LENGTH|NO QUERY/i.test(message)) {
    return new ProviderError(400, `${SERVICE} refused the input: ${said}`);
  }
  // Its message may echo the email: not repeated.
  if (/EMAIL|\bKEY\b/i.test(message)) return new ProviderError(403, `${SERVICE} refused the email or key setting`);
  if (status === 429 || /TOO MANY REQUESTS/i.test(message)) {
    return new ProviderError(429, `${SERVICE} rate limit${said ? `: ${said}` : ''}`, headers ? retryAfterMs(headers) : undefined);
  }
  return undefined;
}

/** The free daily allowance is used up: 403 by meaning, with the wait the message states. */
function quotaError(said: string): ProviderError {
  const m = /NEXT AVAILABLE IN\s+(\d+)\s+HOURS?(?:\s+(\d+)\s+MINUTES?)?(?:\s+(\d+)\s+SECONDS?)?/i.exec(said);
  const wait = m ? ((Number(m[1]) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000 : undefined;
  return new ProviderError(403, `${SERVICE} daily quota used up${said ? `: ${said}` : ''}`, wait);
}

/** HTTP-level failures carry the same JSON; its message decides, else the status does. */
const classify: Classify = (f) => {
  const b = isRecord(f.body) ? f.body : undefined;
  const data = isRecord(b?.responseData) ? b.responseData : undefined;
  const message = typeof b?.responseDetails === 'string' && b.responseDetails ? b.responseDetails : typeof data?.translatedText === 'string' ? data.translatedText : '';
  return refusal(f.status, message, f.headers);
};

/**
 * Memory matches come back HTML-escaped (`&#39;`, `&quot;`). Unescaped only when the source had no
 * `&` at all, so a text that really contains `&amp;` is never altered.
 */
function unescapeEntities(translated: string, source: string): string {
  if (source.includes('&')) return translated;
  const named: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&#039;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
  return translated.replace(/&(?:quot|#0?39|lt|gt|amp);/g, (e) => named[e] ?? e);
}

export const mymemory: ProviderModule = {
  id: 'mymemory.ts',
  name: 'MyMemory',
  needsKey: false,
  defaultUrl: 'https://api.mymemory.translated.net',
  enabledByDefault: false,
  create: (settings, env) => createMyMemory(settings, env),
};

export default mymemory;
