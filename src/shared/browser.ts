/**
 * The WebExtension API of the running browser: Firefox's promise-based `browser`, else Chromium's
 * `chrome`, whose MV3 functions return promises too. Looked up at call time (default parameters),
 * so modules load in Node for unit tests; webextension-polyfill would throw on import there.
 */
import type { Browser } from 'webextension-polyfill';

export type { Browser };

export function ext(): Browser {
  const scope = globalThis as { browser?: Browser; chrome?: Browser };
  const api = scope.browser?.runtime ? scope.browser : scope.chrome;
  if (!api?.runtime) throw new Error('no WebExtension API here: not running in an extension context');
  return api;
}
