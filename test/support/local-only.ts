/**
 * Setup for the Node tiers: tests reach 127.0.0.1 only. `fetch` to any other host fails here,
 * before any connection (as an unreachable host would: a TypeError), so a provider's real
 * endpoint that a test names (its documented default URL, compared as a string) is never called.
 */
const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]']);
const real = globalThis.fetch;

globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!LOCAL.has(url.hostname)) return Promise.reject(new TypeError(`tests reach 127.0.0.1 only, not ${url.host}`));
  return real(input, init);
}) as typeof fetch;
