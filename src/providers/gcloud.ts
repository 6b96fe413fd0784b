/**
 * Google Cloud Translation - Basic (v2), cloud.google.com/translate/docs/reference/rest/v2:
 * `POST {url}/language/translate/v2` with JSON `{q: [...], source, target, format}` answers
 * `{data: {translations: [{translatedText}]}}`; `GET {url}/language/translate/v2/languages?target=en`
 * answers `{data: {languages: [{language, name}]}}`. The key goes in the `X-Goog-Api-Key` header, the
 * alternative to `?key=` that the API-key docs show for this very endpoint: it keeps the key out of
 * URLs and logs. Limits (cloud.google.com/translate/quotas): at most 128 texts and 100K bytes a
 * request; 5K code points is the recommended maximum, beyond which latency grows.
 * Errors are `{error: {code, message, status, errors: [{reason}], details: [{reason}]}}`: an exhausted
 * quota is 403 `dailyLimitExceeded`, a per-minute rate 403 `userRateLimitExceeded` or 429, and a bad
 * key 400 `keyInvalid` / `API_KEY_INVALID` - hence reasons decide, not statuses.
 */
import { ProviderError } from '../core/errors';
import type { Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { GOOGLE_LANGUAGES, googleLanguages, googlePair, type GoogleLanguages } from './google';
import { byStatus, fetchJson, isRecord, retryAfterMs, type Classify } from './lib/http';

const SERVICE = 'Google Cloud Translation';
const LIST_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_CHARS = 5000;
const MAX_SEGMENTS = 128;

/** Reasons that mean "too fast, try later". */
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'rateLimitExceededUnreg', 'userRateLimitExceededUnreg', 'RATE_LIMIT_EXCEEDED']);
/** Reasons that mean "this key will not work": exhausted, invalid, restricted or not enabled for the API. */
const KEY_REASONS = new Set([
  'dailyLimitExceeded', 'dailyLimitExceededUnreg', 'keyInvalid', 'keyExpired', 'API_KEY_INVALID', 'API_KEY_EXPIRED',
  'accessNotConfigured', 'SERVICE_DISABLED', 'billingNotEnabled', 'BILLING_DISABLED', 'ipRefererBlocked',
  'API_KEY_SERVICE_BLOCKED', 'API_KEY_IP_ADDRESS_BLOCKED', 'API_KEY_HTTP_REFERRER_BLOCKED', 'forbidden',
]);

export interface GcloudOptions {
  now?: () => number;
}

export function createGcloud(settings: ProviderSettings, env: ProviderEnv, options: GcloudOptions = {}): Provider {
  const base = `${(settings.url ?? gcloud.defaultUrl ?? '').replace(/\/+$/, '')}/language/translate/v2`;
  const key = settings.key ?? '';
  const now = options.now ?? Date.now;
  const builtIn = googleLanguages(GOOGLE_LANGUAGES);
  let fetched: (GoogleLanguages & { at: number }) | undefined;
  const classify = classifyFor(key);
  const headers = { 'x-goog-api-key': key };

  async function languages(signal: AbortSignal): Promise<GoogleLanguages> {
    if (fetched && now() - fetched.at < LIST_TTL_MS) return fetched;
    if (!key) return builtIn;
    try {
      const body = await fetchJson(env, { url: `${base}/languages?target=en`, headers }, signal, SERVICE, classify);
      const data = isRecord(body) && isRecord(body.data) ? body.data.languages : undefined;
      const codes = Array.isArray(data) ? data.flatMap((l: unknown) => (isRecord(l) && typeof l.language === 'string' ? [l.language] : [])) : [];
      if (codes.length === 0) return fetched ?? builtIn;
      fetched = { ...googleLanguages(codes), at: now() };
      return fetched;
    } catch {
      // A bad key fails here too; the built-in list keeps the routes, so Translate reports the 403.
      return fetched ?? builtIn;
    }
  }

  return {
    id: gcloud.id,
    name: gcloud.name,
    limits: { chars: MAX_CHARS, segments: MAX_SEGMENTS },
    html: true,
    async languages(signal = new AbortController().signal) {
      return (await languages(signal)).support;
    },
    async translateBatch(segments, pair, batch, signal) {
      if (!key) throw new ProviderError(403, `${SERVICE} needs an API key`);
      const { sl, tl } = googlePair(fetched ?? builtIn, pair, SERVICE);
      const body = JSON.stringify({ q: segments, source: sl, target: tl, format: batch.format === 'html' ? 'html' : 'text' });
      const answer = await fetchJson(
        env,
        { method: 'POST', url: base, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body },
        signal,
        SERVICE,
        classify,
      );
      const list = isRecord(answer) && isRecord(answer.data) ? answer.data.translations : undefined;
      const out = Array.isArray(list) ? list.map((t: unknown) => (isRecord(t) && typeof t.translatedText === 'string' ? t.translatedText : undefined)) : [];
      if (out.length !== segments.length || !out.every((t): t is string => t !== undefined)) {
        throw new ProviderError(502, `${SERVICE} answered ${out.length} translations for ${segments.length}`);
      }
      return out;
    },
  };
}

/** Route err by the error's reasons; the service's message is kept, minus the key should it ever echo it. */
function classifyFor(key: string): Classify {
  return (f) => {
    const error = isRecord(f.body) && isRecord(f.body.error) ? f.body.error : undefined;
    if (!error) return undefined;
    const reasons = [error.errors, error.details].flatMap((list) =>
      Array.isArray(list) ? list.flatMap((e: unknown) => (isRecord(e) && typeof e.reason === 'string' ? [e.reason] : [])) : [],
    );
    let message = typeof error.message === 'string' ? error.message.slice(0, 300) : '';
    if (key) message = message.replaceAll(key, '[key]');
    const what = `${SERVICE}: ${message || `HTTP ${f.status}`}`;
    if (reasons.some((r) => RATE_REASONS.has(r))) return new ProviderError(429, what, retryAfterMs(f.headers));
    if (reasons.some((r) => KEY_REASONS.has(r)) || /API key/i.test(message)) return new ProviderError(403, what);
    if (error.status === 'RESOURCE_EXHAUSTED') return new ProviderError(429, what, retryAfterMs(f.headers));
    if (error.status === 'PERMISSION_DENIED' || error.status === 'UNAUTHENTICATED') return new ProviderError(403, what);
    return byStatus(f, SERVICE, message || undefined);
  };
}

export const gcloud: ProviderModule = {
  id: 'gcloud.ts',
  name: 'Google Cloud Translation',
  needsKey: true,
  defaultUrl: 'https://translation.googleapis.com',
  enabledByDefault: false,
  create: (settings, env) => createGcloud(settings, env),
};

export default gcloud;
