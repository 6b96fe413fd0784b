/**
 * Contracts shared by every part of the engine. Pure types: no browser.*, no DOM, no Node APIs.
 * Shapes follow ../shared/spec/interface.md (section numbers in comments) and decisions.md.
 */

/** The four functions of the interface (interface.md section 1). Names are case-sensitive. */
export type FunctionName = 'Translate' | 'GetLanguages' | 'GetRoutes' | 'GetProviders';
export const FUNCTION_NAMES: readonly FunctionName[] = ['Translate', 'GetLanguages', 'GetRoutes', 'GetProviders'];

/** Query/form parameters as they arrive: every name maps to all its values, in order. */
export type Params = Record<string, string[]>;
/** Parameters as callers inside the extension write them: repeatable ones may be arrays. */
export type LooseParams = Record<string, string | number | readonly (string | number)[] | undefined>;

/** What every function answers: the HTTP status and JSON body, identical over HTTP and messaging. */
export interface ApiReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Allowed values of dom (interface.md 4.1). */
export const DOMAINS = [
  'general', 'art', 'law', 'sci', 'tech', 'info', 'tel', 'bio', 'eco', 'agr', 'travel', 'mil', 'sport',
] as const;
export type Domain = (typeof DOMAINS)[number];

export const FORMATS = ['text', 'html'] as const;
export type Format = (typeof FORMATS)[number];

/** Provider ids are `<name>.ts`, the name of the file that implements the provider. */
export type ProviderId = `${string}.ts`;

/** tr_obj (interface.md 2.4). */
export interface TrObj {
  rid: string;
  text?: string[];
  err?: string;
  length: number;
}

/** trd_obj (interface.md 2.5). */
export interface TrdObj {
  dat: string;
  rid: string;
  cnt: number;
  sum?: number;
  err?: string;
  length: number;
}

/** GetLanguages body (interface.md 2.1). */
export interface LanguageLists {
  src: string[];
  trg: string[];
  exclude: [string, string][];
}

/** Route-level error codes (decisions.md "Translate: min, max, timeout and failover"). */
export type RouteErrorCode = 400 | 403 | 408 | 429 | 502 | 503;

/** A validated Translate request, after defaults are applied and codes canonicalized. */
export interface TranslateRequest {
  src: string;
  trg: string;
  dat: string[];
  min: number;
  max: number;
  /** seconds */
  timeout: number;
  dom: Domain;
  rid: string[];
  frm: Format;
  app?: string;
}
