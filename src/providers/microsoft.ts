/**
 * Microsoft Translator v3 (https://learn.microsoft.com/azure/ai-services/translator/reference/v3-0-reference):
 * `POST /translate?api-version=3.0&from&to&textType[&category]` with a JSON array of `{Text}`, at
 * most 1000 items and 50,000 characters; `GET /languages?api-version=3.0&scope=translation` needs
 * no key. With a key: `Ocp-Apim-Subscription-Key` (+ `-Region` for regional resources). Without
 * one: the token Microsoft Edge uses (`GET tokenUrl` answers a JWT, sent as `Bearer`), cached until
 * shortly before its `exp`. That token route is unofficial and may disappear at any time.
 * Domains: Custom Translator `category` ids from settings `categories: {law: "<category id>"}`.
 */
import { ProviderError, toProviderError } from '../core/errors';
import type { LanguageSupport, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { codeMap, type CodeMap } from './lib/codes';
import { byStatus, expectStrings, fetchJson, isRecord, retryAfterMs, type Classify } from './lib/http';

const PUBLIC_URL = 'https://api.cognitive.microsofttranslator.com';
const EDGE_TOKEN_URL = 'https://edge.microsoft.com/translate/auth';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Tokens are renewed this long before they expire, so none expires in flight. */
const TOKEN_MARGIN_MS = 60_000;
/** Lifetime assumed for a token whose `exp` cannot be read (Edge tokens last 10 minutes). */
const TOKEN_FALLBACK_MS = 5 * 60_000;

/** Microsoft's list as of 2025, used while /languages cannot be read. */
const FALLBACK_CODES = (
  'af am ar as az ba bg bho bn bo brx bs ca cs cy da de doi dsb dv el en es et eu fa fi fil fj fo fr fr-CA ga gl gom gu ha he hi ' +
  'hne hr hsb ht hu hy id ig ikt is it iu iu-Latn ja ka kk km kmr kn ko ks ku ky ln lo lt lug lv lzh mai mg mi mk ml mn-Cyrl ' +
  'mn-Mong mni mr ms mt mww my nb ne nl nso nya or otq pa pl prs ps pt pt-PT ro ru run rw sd si sk sl sm sn so sq sr-Cyrl sr-Latn ' +
  'st sv sw ta te th ti tk tlh-Latn tlh-Piqd tn to tr tt ty ug uk ur uz vi xh yo yua yue zh-Hans zh-Hant zu'
).split(' ');

/** Microsoft's `ku` is Central Kurdish (`kmr` is Northern, which CLDR calls `ku`); its `pt` is Brazilian. */
function buildMap(codes: readonly string[]): CodeMap {
  const base = codeMap(codes, { ku: 'ckb' });
  const back = new Map(base.canonical.map((c) => [c, base.toService(c) as string]));
  if (back.has('pt') && !back.has('pt-BR')) back.set('pt-BR', 'pt');
  return { canonical: [...back.keys()], toService: (c) => back.get(c) };
}

const FALLBACK = buildMap(FALLBACK_CODES);
const supportOf = (m: CodeMap): LanguageSupport => ({ src: m.canonical, trg: m.canonical });

/** Optional hooks for tests (a clock for the caches). */
export interface MicrosoftOptions {
  now?: () => number;
}

export function createMicrosoft(settings: ProviderSettings, env: ProviderEnv, options: MicrosoftOptions = {}): Provider {
  const base = (settings.url ?? PUBLIC_URL).replace(/\/+$/, '');
  const key = settings.key ?? '';
  const tokenUrl = typeof settings.tokenUrl === 'string' && settings.tokenUrl ? settings.tokenUrl : EDGE_TOKEN_URL;
  const categories = isRecord(settings.categories) ? settings.categories : {};
  const now = options.now ?? Date.now;
  const classify = classifier(key);
  let cached: { map: CodeMap; at: number } | undefined;
  let token: { value: string; until: number } | undefined;
  let pendingToken: Promise<string> | undefined;

  async function codes(signal: AbortSignal): Promise<CodeMap> {
    if (cached && now() - cached.at < DAY_MS) return cached.map;
    try {
      const body = await fetchJson(env, { url: `${base}/languages?api-version=3.0&scope=translation` }, signal, 'Microsoft', classify);
      const list = isRecord(body) && isRecord(body.translation) ? Object.keys(body.translation) : [];
      if (list.length === 0) throw new ProviderError(502, 'Microsoft listed no languages');
      cached = { map: buildMap(list), at: now() };
      return cached.map;
    } catch {
      // A stale list beats the built-in one; neither is cached, so the next call asks again.
      return cached?.map ?? FALLBACK;
    }
  }

  async function fetchToken(signal: AbortSignal): Promise<string> {
    let res: Response;
    let text: string;
    try {
      res = await env.fetch(tokenUrl, { signal });
      text = await res.text();
    } catch (e) {
      if (signal.aborted) throw new ProviderError(408, 'Microsoft token: request aborted (timed out or cancelled)');
      const err = toProviderError(e);
      throw new ProviderError(err.code, `Microsoft token: ${err.message}`);
    }
    if (!res.ok) {
      const e = byStatus({ status: res.status, body: undefined, text, headers: res.headers }, 'Microsoft token service');
      // The token service refusing us (404: withdrawn) is the provider failing, not bad input.
      throw e.code === 400 ? new ProviderError(502, e.message) : e;
    }
    const value = text.trim();
    if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(value)) throw new ProviderError(502, 'Microsoft token service answered no token');
    token = { value, until: expiry(value) };
    return value;
  }

  function expiry(jwt: string): number {
    try {
      const payload: unknown = JSON.parse(atob((jwt.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')));
      if (isRecord(payload) && typeof payload.exp === 'number') return payload.exp * 1000 - TOKEN_MARGIN_MS;
    } catch {
      // not a readable JWT payload: assume the usual lifetime
    }
    return now() + TOKEN_FALLBACK_MS;
  }

  /**
   * One token request serves every batch waiting for it. It runs on the first caller's signal: the
   * batches of one leg share their abort, and a failed request is not kept, so the next one retries.
   */
  function bearer(signal: AbortSignal): Promise<string> {
    if (token && now() < token.until) return Promise.resolve(token.value);
    pendingToken ??= fetchToken(signal).finally(() => (pendingToken = undefined));
    return pendingToken;
  }

  async function post(url: string, body: string, signal: AbortSignal, retry: boolean): Promise<unknown> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=UTF-8' };
    if (key) {
      headers['Ocp-Apim-Subscription-Key'] = key;
      if (settings.region) headers['Ocp-Apim-Subscription-Region'] = settings.region;
    } else headers.Authorization = `Bearer ${await bearer(signal)}`;
    try {
      return await fetchJson(env, { method: 'POST', url, headers, body }, signal, 'Microsoft', classify);
    } catch (e) {
      // A token can be revoked before its exp: renew it once.
      if (key || !retry || !(e instanceof ProviderError) || e.code !== 403) throw e;
      token = undefined;
      return post(url, body, signal, false);
    }
  }

  return {
    id: microsoft.id,
    name: microsoft.name,
    limits: { chars: 50_000, segments: 1000 },
    html: true,
    async languages(signal = new AbortController().signal) {
      return supportOf(await codes(signal));
    },
    async translateBatch(segments, pair, batch, signal) {
      const map = cached?.map ?? (await codes(signal));
      const from = map.toService(pair.src);
      const to = map.toService(pair.trg);
      if (from === undefined || to === undefined) throw new ProviderError(400, `Microsoft does not translate ${pair.src}->${pair.trg}`);
      const query = new URLSearchParams({ 'api-version': '3.0', from, to, textType: batch.format === 'html' ? 'html' : 'plain' });
      const category = categories[batch.domain];
      if (typeof category === 'string' && category) query.set('category', category);
      const answer = await post(`${base}/translate?${query}`, JSON.stringify(segments.map((Text) => ({ Text }))), signal, true);
      const texts = Array.isArray(answer)
        ? answer.map((item) => {
          const first: unknown = isRecord(item) && Array.isArray(item.translations) ? item.translations[0] : undefined;
          return isRecord(first) ? first.text : undefined;
        })
        : answer;
      return expectStrings(texts, segments.length, 'Microsoft');
    },
  };
}

/** Errors are `{error: {code, message}}`; the code's first three digits are the meaning. */
function classifier(key: string): Classify {
  return (f) => {
    const err = isRecord(f.body) && isRecord(f.body.error) ? f.body.error : undefined;
    const code = typeof err?.code === 'number' ? err.code : undefined;
    const raw = typeof err?.message === 'string' ? err.message : undefined;
    const detail = raw && key ? raw.split(key).join('***') : raw;
    const what = `Microsoft answered ${code ?? `HTTP ${f.status}`}${detail ? `: ${detail}` : ''}`;
    switch (code === undefined ? undefined : Math.floor(code / 1000)) {
      case 400: return new ProviderError(400, what);
      case 401:
      case 403: return new ProviderError(403, what);
      // 408xxx: the custom system for a category is still loading; Microsoft says retry in a minute.
      case 408: return new ProviderError(503, what, retryAfterMs(f.headers));
      case 429: return new ProviderError(429, what, retryAfterMs(f.headers));
      case 500: return new ProviderError(502, what);
      case 503: return new ProviderError(503, what, retryAfterMs(f.headers));
      default: return byStatus(f, 'Microsoft', detail);
    }
  };
}

export const microsoft: ProviderModule = {
  id: 'microsoft.ts',
  name: 'Microsoft Translator',
  // Works without a key through Edge's token, but that sends text to Microsoft: the user opts in.
  needsKey: false,
  defaultUrl: PUBLIC_URL,
  enabledByDefault: false,
  create: (settings, env) => createMicrosoft(settings, env),
};

export default microsoft;
