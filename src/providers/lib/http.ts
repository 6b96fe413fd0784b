/**
 * The one way providers talk HTTP: the injected fetch, the caller's AbortSignal, JSON parsing and
 * the mapping of failures to route errs by meaning (decisions.md "Providers and routes"). A
 * provider passes `classify` for the service's own error codes (DeepL 456, Google's
 * userRateLimitExceeded, OpenAI insufficient_quota ...); everything else falls back to the status.
 */
import { ProviderError, toProviderError } from '../../core/errors';
import type { ProviderEnv } from '../../core/provider';
import type { RouteErrorCode } from '../../core/types';

export interface HttpCall {
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** A string, or form parameters sent as application/x-www-form-urlencoded. */
  body?: string | URLSearchParams;
}

/** The service's error as it came: status, parsed body (or undefined) and the raw text. */
export interface HttpFailure {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export type Classify = (failure: HttpFailure) => ProviderError | undefined;

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const v = headers.get('retry-after');
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Status-based meaning, for services that use the statuses as documented. */
export function byStatus(f: HttpFailure, service: string, detail?: string): ProviderError {
  const what = detail ? `: ${detail}` : '';
  const s = f.status;
  let code: RouteErrorCode;
  if (s === 429) code = 429;
  else if (s === 401 || s === 402 || s === 403 || s === 456) code = 403;
  else if (s === 408 || s === 504) code = 408;
  else if (s >= 500) code = s === 503 ? 503 : 502;
  else if (s >= 400) code = 400;
  else code = 502;
  return new ProviderError(code, `${service} answered HTTP ${s}${what}`, code === 429 || code === 503 ? retryAfterMs(f.headers) : undefined);
}

/** Performs the call; resolves with the parsed JSON of a 2xx answer, else throws ProviderError. */
export async function fetchJson(env: ProviderEnv, call: HttpCall, signal: AbortSignal, service: string, classify?: Classify): Promise<unknown> {
  let res: Response;
  let text: string;
  try {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    let body: string | undefined;
    if (call.body instanceof URLSearchParams) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded; charset=utf-8';
      body = call.body.toString();
    } else body = call.body;
    res = await env.fetch(call.url, { method: call.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal });
    text = await res.text();
  } catch (e) {
    if (signal.aborted) throw new ProviderError(408, `${service}: request aborted (timed out or cancelled)`);
    const err = toProviderError(e);
    throw new ProviderError(err.code, `${service}: ${err.message}`);
  }
  let parsed: unknown;
  let malformed = false;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    malformed = true;
  }
  if (!res.ok) {
    const failure = { status: res.status, body: parsed, text, headers: res.headers };
    throw classify?.(failure) ?? byStatus(failure, service);
  }
  if (malformed || parsed === undefined) throw new ProviderError(502, `${service} answered something that is not JSON`);
  return parsed;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks that a service answered a list of strings of the expected length. */
export function expectStrings(v: unknown, count: number, service: string): string[] {
  if (!Array.isArray(v) || v.length !== count || v.some((s) => typeof s !== 'string')) {
    const got = Array.isArray(v) ? `${v.length} items` : 'no list';
    throw new ProviderError(502, `${service} answered ${got} for ${count} segments`);
  }
  return v as string[];
}
