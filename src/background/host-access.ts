/**
 * Host access for provider endpoints (issue 7, docs/reliability.md "Permissions"): the manifest
 * grants only the loopback hosts (a local APy or LibreTranslate); any other provider origin is an
 * `optional_host_permissions` entry the options page requests when the user enables the provider or
 * tests it. The worker's fetch for providers is wrapped: a request to an origin the user has not
 * granted fails at once with a route err that says what to do, and never leaves the browser.
 */
import { ProviderError } from '../core/errors';
import { originPattern } from '../shared/hosts';

export { originPattern };

export interface PermissionsLike {
  contains(p: { origins: string[] }): Promise<boolean>;
}

export function permissionError(origin: string): ProviderError {
  return new ProviderError(403, `permission to reach ${origin} not granted: enable the provider in the options`);
}

/** `fetch`, refusing (before any network) origins whose host permission is not granted. */
export function guardFetch(inner: typeof fetch, permissions: () => PermissionsLike | undefined): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const pattern = originPattern(url);
    if (pattern !== null) {
      const api = permissions();
      const granted = api ? await api.contains({ origins: [pattern] }) : false;
      if (!granted) throw permissionError(new URL(url).origin);
    }
    return inner(input, init);
  };
}
