/**
 * Chrome's built-in on-device Translator API (https://developer.chrome.com/docs/ai/translator-api,
 * Chrome 138+ desktop): private and offline once a language pack is on the device. It exists in
 * pages, popups and the extension's worker, not in Node or Firefox, so the module is `available`
 * only where `Translator.create` exists; the global is read at call time so tests can replace it.
 * Facts this relies on: `availability()` says 'downloadable' for packs not yet on the device, and
 * `create()` then downloads them, never settling offline (TOOLCHAIN.md): it is raced against the
 * caller's signal, so the engine's timeout ends it with 408.
 */
import { ProviderError } from '../core/errors';
import type { Pair, Provider, ProviderModule } from '../core/provider';
import { codeMap } from './lib/codes';

export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

interface TranslatorOptions {
  sourceLanguage: string;
  targetLanguage: string;
}

/** The part of a Translator instance this provider uses. */
export interface ChromeTranslator {
  translate(input: string, options?: { signal?: AbortSignal }): Promise<string>;
  destroy?(): void;
}

/** The part of the `Translator` global this provider uses. */
export interface TranslatorGlobal {
  availability(options: TranslatorOptions): Promise<Availability>;
  create(options: TranslatorOptions & { signal?: AbortSignal }): Promise<ChromeTranslator>;
}

const translatorGlobal = (): Partial<TranslatorGlobal> | undefined => (globalThis as { Translator?: Partial<TranslatorGlobal> }).Translator;

/**
 * Chrome's documented list (webmachinelearning/translation-api, chrome-translator-supported-languages.md),
 * in Chrome's own codes: it names Hebrew `iw`, which codeMap turns into the canonical `he`.
 */
const CHROME_CODES = [
  'ar', 'bg', 'bn', 'cs', 'da', 'de', 'el', 'en', 'es', 'fi', 'fr', 'hi', 'hr', 'hu', 'id', 'it', 'iw', 'ja',
  'kn', 'ko', 'lt', 'mr', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sv', 'ta', 'te', 'th', 'tr', 'uk',
  'vi', 'zh', 'zh-Hant',
];
const codes = codeMap(CHROME_CODES);
export const CHROME_LANGUAGES: readonly string[] = codes.canonical;

/** Segments go one by one anyway; these bound how long one batch holds the on-device model. */
const MAX_CHARS = 5000;
const MAX_SEGMENTS = 50;

/** `promise`, or a 408 as soon as `signal` aborts, whether or not the promise ever settles. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const timedOut = () => new ProviderError(408, 'Chrome translator: aborted (timed out or cancelled)');
  if (signal.aborted) return Promise.reject(timedOut());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timedOut());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The API's DOMExceptions by meaning. */
function toError(e: unknown, pair: Pair): ProviderError {
  if (e instanceof ProviderError) return e;
  const name = e instanceof Error ? e.name : '';
  const what = `${pair.src}->${pair.trg}`;
  switch (name) {
    case 'AbortError':
    case 'TimeoutError':
      return new ProviderError(408, 'Chrome translator: aborted (timed out or cancelled)');
    case 'NotSupportedError':
      return new ProviderError(400, `Chrome translator: pair ${what} not supported on this device`);
    case 'QuotaExceededError':
      return new ProviderError(400, 'Chrome translator: text too long for the on-device model');
    // Downloading a language pack needs a user gesture in the calling context, or is blocked by policy.
    case 'NotAllowedError':
      return new ProviderError(503, `Chrome translator: the ${what} language pack is not on this device and may not be downloaded now`);
    case 'NetworkError':
      return new ProviderError(503, `Chrome translator: downloading the ${what} language pack failed`);
    default:
      return new ProviderError(502, `Chrome translator failed${name ? ` (${name})` : ''}`);
  }
}

export function createChrome(): Provider {
  /** One translator per pair, reused while it works: creating one loads the model. */
  const translators = new Map<string, ChromeTranslator>();

  async function translatorFor(pair: Pair, signal: AbortSignal): Promise<ChromeTranslator> {
    const key = `${pair.src}|${pair.trg}`;
    const known = translators.get(key);
    if (known) return known;
    const api = translatorGlobal();
    if (typeof api?.create !== 'function' || typeof api.availability !== 'function') {
      throw new ProviderError(503, 'Chrome translator: this browser has no Translator API');
    }
    const options = { sourceLanguage: codes.toService(pair.src) ?? pair.src, targetLanguage: codes.toService(pair.trg) ?? pair.trg };
    const availability = await untilAborted(api.availability(options), signal);
    if (availability === 'unavailable') throw new ProviderError(400, `Chrome translator: pair ${pair.src}->${pair.trg} not supported on this device`);
    const created = await untilAborted(api.create({ ...options, signal }), signal);
    // Batches of the same pair may have created one concurrently: keep the first, free the other.
    const winner = translators.get(key);
    if (winner) {
      created.destroy?.();
      return winner;
    }
    translators.set(key, created);
    return created;
  }

  return {
    id: chrome.id,
    name: chrome.name,
    limits: { chars: MAX_CHARS, segments: MAX_SEGMENTS },
    html: false,
    async languages() {
      return { src: [...CHROME_LANGUAGES], trg: [...CHROME_LANGUAGES] };
    },
    async translateBatch(segments, pair, _options, signal) {
      try {
        const translator = await translatorFor(pair, signal);
        const out: string[] = [];
        for (const text of segments) {
          try {
            out.push(await untilAborted(translator.translate(text, { signal }), signal));
          } catch (e) {
            // A destroyed or crashed translator is not reused; the next batch creates a new one.
            if (e instanceof Error && e.name === 'InvalidStateError') translators.delete(`${pair.src}|${pair.trg}`);
            throw e;
          }
        }
        return out;
      } catch (e) {
        throw signal.aborted ? toError(new DOMException('aborted', 'AbortError'), pair) : toError(e, pair);
      }
    },
  };
}

export const chrome: ProviderModule = {
  id: 'chrome.ts',
  name: 'Chrome built-in translator (on device)',
  needsKey: false,
  available: () => typeof translatorGlobal()?.create === 'function',
  // Private and offline: nothing leaves the device, so it is on unless the user turns it off.
  enabledByDefault: true,
  create: () => createChrome(),
};

export default chrome;
