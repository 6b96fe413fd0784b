import type { RouteErrorCode } from './types';

/** A whole-request failure: becomes an HTTP status with `{err}` (interface.md section 7). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra fields of the error body, e.g. `dat` for a Translate where no route succeeded. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A provider request that failed; `code` is the route err code by meaning (decisions.md). */
export class ProviderError extends Error {
  constructor(
    readonly code: RouteErrorCode,
    message: string,
    /** Milliseconds the provider asked us to wait (Retry-After), when it said so. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** The same failure, its message saying which provider (a chained route's leg) had it. */
  of(provider: string): ProviderError {
    return new ProviderError(this.code, `${provider}: ${this.message}`, this.retryAfterMs);
  }
}

const REASONS: Record<RouteErrorCode, string> = {
  400: 'provider refused the input',
  403: 'provider key invalid or exhausted',
  408: 'timed out',
  429: 'provider rate limit',
  502: 'provider failed',
  503: 'provider unreachable',
};

/** Any thrown value as a ProviderError: aborts and timeouts are 408, network failures 503. */
export function toProviderError(e: unknown): ProviderError {
  if (e instanceof ProviderError) return e;
  if (e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError')) {
    return new ProviderError(408, 'timed out');
  }
  if (e instanceof TypeError) return new ProviderError(503, `provider unreachable: ${e.message}`);
  return new ProviderError(502, `provider failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** The `err` string of a route: `<code> <description>`. */
export function routeErr(e: ProviderError): string {
  return `${e.code} ${e.message || REASONS[e.code]}`;
}
