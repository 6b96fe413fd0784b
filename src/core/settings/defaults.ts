/** The settings a fresh install starts from (decisions.md "Settings document"). */
import type { Settings } from './types';

/** The default text-size limit of Translate (interface.md section 8). */
export const DEFAULT_TEXT_SIZE = 1000;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Frozen, so code that edits settings in place fails loudly here instead of changing the defaults
 * of every later caller; take a copy through withDefaults.
 */
export const DEFAULT_SETTINGS: Settings = deepFreeze({
  // The providers whose modules say enabledByDefault (test/unit/providers/registry.test.ts checks):
  // the local engine first (private, offline), then the free web one, then the on-device one,
  // whose first use downloads a language pack.
  providers: {
    'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' },
    'google.ts': { enabled: true },
    'chrome.ts': { enabled: true },
  },
  ranking: ['apertium.ts', 'google.ts', 'chrome.ts'],
  interlinguas: ['en'],
  keys: [],
  limits: { textSize: DEFAULT_TEXT_SIZE },
});

/**
 * A settings document with every missing top-level field (and limits.textSize) taken from the
 * defaults; fields present, known or not, are kept as they are. Does not validate: see
 * validateSettings. The result shares no object with DEFAULT_SETTINGS.
 */
export function withDefaults(partial: Partial<Settings>): Settings {
  const defaults = structuredClone(DEFAULT_SETTINGS);
  const limits = { ...defaults.limits, ...(partial.limits ?? {}) };
  return { ...defaults, ...stripUndefined(partial), limits };
}

function stripUndefined(partial: Partial<Settings>): Partial<Settings> {
  return Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<Settings>;
}
