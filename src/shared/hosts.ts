/**
 * Provider origins and host permissions (docs/reliability.md "Permissions"): the manifest grants the
 * loopback hosts; every other provider origin is an optional host permission, requested from the
 * options page in the click that enables or tests the provider, and checked by the worker before
 * each provider request (src/background/host-access.ts).
 */
import { ext } from './browser';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The match pattern that grants `url`'s origin, or null where none is needed (loopback) or possible. */
export function originPattern(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (LOOPBACK.has(u.hostname)) return null;
  // A pattern has no port: the grant covers the host on every port.
  return `${u.protocol}//${u.hostname}/*`;
}

/**
 * Asks the browser for host access to the origins of `urls` (those that need it). Must be called
 * synchronously inside a user gesture (a click or change handler, before any await): the browser
 * shows its prompt only then. Resolves true when everything needed is granted.
 */
export function requestHostAccess(urls: readonly (string | undefined)[]): Promise<boolean> {
  const origins = [...new Set(urls.flatMap((u) => (u ? [originPattern(u)] : [])).filter((p): p is string => p !== null))];
  if (origins.length === 0) return Promise.resolve(true);
  try {
    return ext().permissions.request({ origins }).catch(() => false);
  } catch {
    return Promise.resolve(false);
  }
}
