import type { ProviderSettings } from '../provider';

/** An API key issued by the user to another app (decisions.md "Authentication"). */
export interface ApiKeySettings {
  name: string;
  key: string;
  /** Characters this key may translate in all; usage reaching it exhausts the key. */
  quota?: number;
  /** Origins (e.g. `https://app.example`) or app ids allowed to use this key; empty/absent: every origin and app. */
  allowed?: string[];
  revoked?: boolean;
  [field: string]: unknown;
}

/** Term pairs the engine imposes on every provider for a pair, in a domain (or in all: `general`). */
export interface GlossarySettings {
  domain?: string;
  src: string;
  trg: string;
  /** Source term -> target term; matched as whole words, case-insensitively. */
  terms: Record<string, string>;
}

/** The settings document (decisions.md "Settings document"). Unknown fields are kept. */
export interface Settings {
  providers: Record<string, ProviderSettings>;
  /** Provider ids, best first. Providers not listed rank after the listed ones, by id. */
  ranking: string[];
  /** Interlingua codes, preferred first. */
  interlinguas: string[];
  keys: ApiKeySettings[];
  limits: { textSize: number; [field: string]: unknown };
  glossaries?: GlossarySettings[];
  /** Start the next route too when one runs past its recent p90 latency (off by default). */
  hedging?: boolean;
  [field: string]: unknown;
}
