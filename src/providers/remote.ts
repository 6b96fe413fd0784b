/**
 * Another server speaking this very interface (interface.md; e.g. a team's `npm run serve`):
 * `GET {url}/api/GetLanguages?auth=KEY` for the pairs, form-encoded `POST {url}/api/Translate`
 * with max=min=1 for the translations. Its route errs (`<code> <description>`) already mean what
 * ours mean, so they pass through; its HTTP statuses map by meaning.
 */
import { canonicalLanguage } from '../core/lang';
import { ProviderError } from '../core/errors';
import type { BatchOptions, LanguageSupport, Pair, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import type { RouteErrorCode } from '../core/types';
import { byStatus, fetchJson, isRecord, type Classify, type HttpCall } from './lib/http';

const LANGUAGES_TTL_MS = 24 * 60 * 60 * 1000;
/** The interface's text size limit (interface.md section 8); the `limit` setting names a larger one. */
const DEFAULT_LIMIT = 1000;
const MAX_SEGMENTS = 50;
/** Documents are one request per fragment: this many at once keeps a small server responsive. */
const HTML_CONCURRENCY = 4;
const ROUTE_CODES: readonly RouteErrorCode[] = [400, 403, 408, 429, 502, 503];

export interface RemoteOptions {
  now?: () => number;
}

/** A route err `<code> <description>` as a ProviderError; an unknown code counts as a failure (502). */
function fromRouteErr(err: string, rid: unknown): ProviderError {
  const n = Number(/^(\d{3})\b/.exec(err)?.[1]);
  const code = ROUTE_CODES.find((c) => c === n) ?? 502;
  return new ProviderError(code, `remote route ${typeof rid === 'string' ? rid : '?'}: ${err.slice(0, 200)}`);
}

/** An err that is absent or `0 ...` is no error (interface.md 2.5). */
const failed = (err: unknown): err is string => typeof err === 'string' && !/^0(\s|$)/.test(err);

/** The first failed route of a `dat` list, if the body has one. */
function firstRouteErr(body: unknown): ProviderError | undefined {
  const items = isRecord(body) ? body.dat : body;
  if (!Array.isArray(items)) return undefined;
  const bad = items.find((t: unknown) => isRecord(t) && failed(t.err)) as Record<string, unknown> | undefined;
  return bad ? fromRouteErr(bad.err as string, bad.rid) : undefined;
}

/**
 * By meaning: its 413 (over its text limit) and 400 refuse the input; 404 means the url is no
 * interface server; a whole-request failure (503/408 with `{err, dat}`) says per route why, and the
 * first route's reason is the one to act on (a rate limit behind it is still a rate limit).
 */
const classify: Classify = (f) => {
  const err = isRecord(f.body) && typeof f.body.err === 'string' ? f.body.err.slice(0, 200) : undefined;
  const what = (m: string) => `remote answered HTTP ${f.status}: ${err ?? m}`;
  if (f.status === 400 || f.status === 413) return new ProviderError(400, what('refused'));
  if (f.status === 403) return new ProviderError(403, what('key refused'));
  if (f.status === 404 || f.status === 405 || f.status === 415) return new ProviderError(502, what('no interface server at this url'));
  if (f.status === 503 || f.status === 408) return firstRouteErr(f.body) ?? byStatus(f, 'remote', err);
  return byStatus(f, 'remote', err);
};

function readLimit(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : DEFAULT_LIMIT;
}

function support(body: unknown): LanguageSupport {
  const codes = (v: unknown): string[] | undefined =>
    Array.isArray(v) && v.every((c) => typeof c === 'string') ? v.flatMap((c: string) => canonicalLanguage(c) ?? []) : undefined;
  const src = isRecord(body) ? codes(body.src) : undefined;
  const trg = isRecord(body) ? codes(body.trg) : undefined;
  const exclude = isRecord(body) && Array.isArray(body.exclude) ? body.exclude : undefined;
  if (!src || !trg || !exclude) throw new ProviderError(502, 'remote GetLanguages answered no src, trg and exclude lists');
  if (exclude.length === 0) return { src, trg };
  const excluded = new Set(exclude.flatMap((p: unknown) => (Array.isArray(p) ? [p.map((c) => canonicalLanguage(String(c)) ?? '').join('|')] : [])));
  return { pairs: src.flatMap((s) => trg.filter((t) => t !== s && !excluded.has(`${s}|${t}`)).map((t) => ({ src: s, trg: t }))) };
}

export function createRemote(settings: ProviderSettings, env: ProviderEnv, options: RemoteOptions = {}): Provider {
  const base = (settings.url ?? '').replace(/\/+$/, '');
  const key = settings.key ?? '';
  const now = options.now ?? Date.now;
  let cached: { support: LanguageSupport; at: number } | undefined;

  // The remote's messages may quote the key we sent (a 403 naming it): it never reaches a route err.
  const redact = (e: ProviderError): ProviderError => (key ? new ProviderError(e.code, e.message.split(key).join('***'), e.retryAfterMs) : e);
  const redacting: Classify = (f) => {
    const e = classify(f);
    return e && redact(e);
  };
  const call = (fn: string, init: Omit<HttpCall, 'url'>, signal: AbortSignal, query = ''): Promise<unknown> =>
    fetchJson(env, { ...init, url: `${base}/api/${fn}${query}` }, signal, 'remote', redacting).catch((e: unknown) => {
      throw e instanceof ProviderError ? redact(e) : e;
    });

  const form = (pair: Pair, batch: BatchOptions, dat: readonly string[]) => {
    const f = new URLSearchParams({ auth: key, src: pair.src, trg: pair.trg });
    for (const d of dat) f.append('dat', d);
    f.set('min', '1');
    f.set('max', '1');
    f.set('frm', batch.format);
    if (batch.domain !== 'general') f.set('dom', batch.domain);
    return f;
  };

  async function translateText(segments: readonly string[], pair: Pair, batch: BatchOptions, signal: AbortSignal): Promise<string[]> {
    const body = await call('Translate', { method: 'POST', body: form(pair, batch, segments) }, signal);
    const dat = isRecord(body) && Array.isArray(body.dat) ? (body.dat as unknown[]) : undefined;
    if (!dat) throw new ProviderError(502, 'remote Translate answered no dat list');
    // Failed routes are reported beside the one that succeeded: take the success.
    const ok = dat.find((t): t is Record<string, unknown> => isRecord(t) && Array.isArray(t.text) && !failed(t.err));
    if (!ok) throw redact(firstRouteErr(dat) ?? new ProviderError(502, 'remote Translate answered no translation'));
    const text = ok.text as unknown[];
    if (text.length !== segments.length || text.some((s) => typeof s !== 'string')) {
      throw new ProviderError(502, `remote answered ${text.length} texts for ${segments.length}`);
    }
    return text as string[];
  }

  /** One document per request (frm=html joins several dat into one); its chunks concatenated. */
  async function translateDocument(fragment: string, pair: Pair, batch: BatchOptions, signal: AbortSignal): Promise<string> {
    const body = await call('Translate', { method: 'POST', body: form(pair, batch, [fragment]) }, signal);
    if (!Array.isArray(body) || !body.every((c: unknown) => isRecord(c) && typeof c.dat === 'string')) {
      throw new ProviderError(502, 'remote Translate (frm=html) answered no list of chunks');
    }
    const chunks = body as Record<string, unknown>[];
    // A failed chunk carries the untranslated original: half a translation is not a translation.
    const found = firstRouteErr(chunks);
    const bad = found && redact(found);
    if (bad) throw bad;
    const order = (c: Record<string, unknown>) => (typeof c.cnt === 'number' ? c.cnt : 0);
    return [...chunks].sort((a, b) => order(a) - order(b)).map((c) => c.dat as string).join('');
  }

  return {
    id: remote.id,
    name: remote.name,
    limits: { chars: readLimit(settings.limit), segments: MAX_SEGMENTS },
    html: true,
    async languages(signal = new AbortController().signal) {
      if (cached && now() - cached.at < LANGUAGES_TTL_MS) return cached.support;
      const body = await call('GetLanguages', {}, signal, `?auth=${encodeURIComponent(key)}`);
      cached = { support: support(body), at: now() };
      return cached.support;
    },
    async translateBatch(segments, pair, batch, signal) {
      if (batch.format === 'text') return translateText(segments, pair, batch, signal);
      return mapLimited(segments, HTML_CONCURRENCY, signal, (s, inner) => translateDocument(s, pair, batch, inner));
    },
  };
}

/** `task` over `items`, at most `limit` at once, results in order; the first failure cancels the rest. */
async function mapLimited<T, R>(items: readonly T[], limit: number, signal: AbortSignal, task: (item: T, signal: AbortSignal) => Promise<R>): Promise<R[]> {
  const inner = new AbortController();
  const stop = () => inner.abort(signal.reason);
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !inner.signal.aborted) {
      const i = next++;
      results[i] = await task(items[i] as T, inner.signal);
    }
  };
  try {
    const workers = Array.from({ length: Math.min(limit, items.length) }, () => worker().catch((e: unknown) => {
      inner.abort();
      throw e;
    }));
    await Promise.all(workers);
    // An abort between two tasks ends the workers without an error: still a timeout for the caller.
    if (signal.aborted) throw new ProviderError(408, 'remote: request aborted (timed out or cancelled)');
    return results;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

export const remote: ProviderModule = {
  id: 'remote.ts',
  name: 'Remote translation server (this interface)',
  needsKey: true,
  needsUrl: true,
  enabledByDefault: false,
  create: (settings, env) => createRemote(settings, env),
};

export default remote;
