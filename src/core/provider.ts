/**
 * The provider contract: every machine-translation service is a module in src/providers/ named as
 * its id (`apertium.ts`), exporting one ProviderModule. Batching, retries and caching are written
 * once around providers (src/core/scheduler), never inside them.
 */
import type { Domain, Format, ProviderId } from './types';

/** Settings of one provider, the `providers[id]` object of the settings document. */
export interface ProviderSettings {
  enabled?: boolean;
  /** Base URL the service's documented paths are appended to; defaults to the public service. */
  url?: string;
  key?: string;
  region?: string;
  model?: string;
  email?: string;
  [field: string]: unknown;
}

/** A source/target pair in canonical BCP 47 codes. */
export interface Pair {
  src: string;
  trg: string;
}

/** What a provider can translate: explicit pairs (APy) or any source to any target. */
export type LanguageSupport = { pairs: Pair[] } | { src: string[]; trg: string[] };

export interface ProviderLimits {
  /** Characters (code points) of all segments in one request. */
  chars: number;
  /** Segments in one request. */
  segments: number;
}

export interface BatchOptions {
  /** `html`: segments are HTML fragments whose tags must come back (only if `Provider.html`). */
  format: Format;
  domain: Domain;
  /**
   * Told how many of a call's segments the translation memory answered (src/core/scheduler), so
   * the UI can say an alternative came from the cache. Providers themselves never call it.
   */
  onCached?(hits: number, segments: number): void;
  /**
   * Work nobody is looking at yet (a page's calls for content far from the viewport): the
   * scheduler serves every other waiting text of the provider first. Providers themselves ignore it.
   */
  background?: boolean;
  /**
   * Resolves if the caller of `background` work now waits for it in the foreground (a page's call
   * already sent for what the reader has just jumped to): its texts still queued take their place
   * among the foreground ones, by age. Providers themselves ignore it.
   */
  foreground?: Promise<void>;
}

export interface Provider {
  readonly id: ProviderId;
  readonly name: string;
  readonly limits: ProviderLimits;
  /** Whether the service has an HTML mode of its own; otherwise the engine protects the tags. */
  readonly html: boolean;
  /** Languages, fetched from the service where it offers a list. Throws ProviderError. */
  languages(signal?: AbortSignal): Promise<LanguageSupport>;
  /**
   * Translates each segment; the result has one string per segment, in order. Throws
   * ProviderError (code by meaning). Must stop its HTTP request when `signal` aborts.
   */
  translateBatch(segments: readonly string[], pair: Pair, options: BatchOptions, signal: AbortSignal): Promise<string[]>;
}

export interface ProviderEnv {
  fetch: typeof fetch;
}

export interface ProviderModule {
  readonly id: ProviderId;
  readonly name: string;
  /** A provider needing a key without one is left out of GetProviders/GetRoutes (decisions.md). */
  readonly needsKey: boolean;
  /** Used when settings name no url. */
  readonly defaultUrl?: string;
  /** A provider with no public default (any instance of a self-hosted service) needs `url` set. */
  readonly needsUrl?: boolean;
  /** Whether this runtime has what the provider needs (e.g. the browser's own Translator API). */
  readonly available?: () => boolean;
  /** Whether its settings are complete when a fixed rule (needsKey, needsUrl) cannot say. */
  readonly configured?: (settings: ProviderSettings) => boolean;
  /** Whether a fresh install (no settings) enables it: such providers are in DEFAULT_SETTINGS. */
  readonly enabledByDefault: boolean;
  create(settings: ProviderSettings, env: ProviderEnv): Provider;
}
