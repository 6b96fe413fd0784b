import type { ProviderModule } from './provider';
import type { ProviderHealth, TranslationMemory } from './scheduler/index';
import type { Settings } from './settings/types';
import type { KeyValueStore } from './storage';
import type { ApiReply, LanguageLists, LooseParams, Params, TrdObj, TrObj } from './types';

export interface ServiceDeps {
  /** The current settings document (callers cache it and invalidate on change). */
  settings(): Promise<Settings>;
  /** Every provider module the build knows (src/providers/index.ts). */
  providers: readonly ProviderModule[];
  /** Where usage counters persist (storage.local or the server's state file). */
  store: KeyValueStore;
  fetch: typeof fetch;
  now?(): number;
  /**
   * Where translations are remembered (IndexedDB in the extension, a file on the server); a hit
   * costs no provider request. Absent: nothing is remembered between calls.
   */
  memory?: TranslationMemory;
  /** Where non-fatal problems (an unreadable memory) are reported; default: nowhere. */
  warn?(message: string): void;
}

export interface CallOptions {
  /** Translate: each route's tr_obj (frm=text) or each chunk's trd_obj (frm=html) as it settles. */
  onResult?(item: TrObj | TrdObj, meta?: { cached: boolean }): void;
  /** The caller went away: abort every provider request of this call. */
  signal?: AbortSignal;
  /** Web origin or app of the caller, checked against a key's `allowed` list. */
  origin?: string;
  /**
   * The caller is the extension itself (its pages, worker or content scripts, checked by the
   * router): a request without `auth` uses the built-in key, counted as `extension` in usage.
   */
  trusted?: boolean;
  /**
   * Privacy routing (a private site's content script): only routes whose every provider passes
   * may run, as first choice or as failover; none left answers 403. Absent: every provider.
   */
  allowProviders?: (id: string) => boolean;
  /** Translate: work nobody is looking at yet (provider.ts BatchOptions `background`). */
  background?: boolean;
  /** Translate: resolves if that work is now waited for in the foreground (provider.ts BatchOptions `foreground`). */
  foreground?: Promise<void>;
}

/** A raw HTTP request, before any decoding: the service checks UTF-8 on the bytes itself. */
export interface HttpRequest {
  method: string;
  /** URL path, e.g. `/api/Translate` (still percent-encoded). */
  path: string;
  /** Raw query string without the leading `?`. */
  query: string;
  body?: Uint8Array;
  contentType?: string;
  origin?: string;
}

export interface TranslationService {
  /** Calls one of the four functions with already-split parameters (message passing). */
  call(fn: string, params: Params | LooseParams, options?: CallOptions): Promise<ApiReply>;
  /** Serves `/api/<function_name>` from a raw request (the Node server and the worker's fetch route). */
  http(request: HttpRequest, options?: CallOptions): Promise<ApiReply>;
  /** Writes pending usage counters. */
  flush(): Promise<void>;
  /**
   * Per enabled provider id: `state` ok / limited (a 429 in the last minute) / down (circuit open,
   * language list unavailable, or 3 failures in a row), recent latency p50/p90 in ms, requests in
   * flight and queued. Empty before the first call that needed the providers. Always present on
   * createService's result (optional here only so hand-made test doubles need not have it).
   */
  health?(): Record<string, ProviderHealth>;
  /**
   * Reads the settings and builds the language lists (each enabled provider's pairs) a first call
   * would need, without a call: nothing is counted as usage. A failure is left to that call. The
   * first time, then (in a task of its own), the first call's document code is run on a sample and
   * the translation memory read once, so that a worker a trigger's warning woke has both ready.
   * Present on createService's result (optional for test doubles, as `health`).
   */
  warm?(): Promise<void>;
  /**
   * The language lists (GetLanguages' body), built as `warm` builds them, without a call: what a
   * page trigger hands its tab, so that the tab does not ask for them on the translation's path.
   * Present on createService's result (optional for test doubles, as `health`).
   */
  lists?(): Promise<LanguageLists>;
}
