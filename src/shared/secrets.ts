/**
 * The secrets of a settings document: provider keys (`providers[id].key`) and the API keys issued
 * to other apps (`keys[].key`). They leave the background only for the options page, on request.
 */
import type { Settings } from '../core/settings/types';

/** A copy without any secret: the fields are left out, never replaced by a placeholder that could
 * be imported back as a real key. */
export function redactSecrets(settings: Settings): Settings {
  const copy = structuredClone(settings);
  for (const provider of Object.values(copy.providers)) delete provider.key;
  for (const apiKey of copy.keys) delete (apiKey as { key?: string }).key;
  return copy;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Fills the secrets an imported document leaves out from the current settings (provider keys by
 * provider id, API keys by name), so importing an export made without keys does not lose them.
 * Returns a copy and how many secrets were restored; anything malformed is left for validation.
 */
export function restoreSecrets(doc: unknown, current: Settings): { doc: unknown; restored: number } {
  if (!isObject(doc)) return { doc, restored: 0 };
  const copy = structuredClone(doc);
  let restored = 0;
  if (isObject(copy.providers)) {
    for (const [id, provider] of Object.entries(copy.providers)) {
      const key = current.providers[id]?.key;
      if (isObject(provider) && !('key' in provider) && key !== undefined) {
        provider.key = key;
        restored += 1;
      }
    }
  }
  if (Array.isArray(copy.keys)) {
    for (const entry of copy.keys as unknown[]) {
      if (!isObject(entry) || 'key' in entry) continue;
      const match = current.keys.find((k) => k.name === entry.name);
      if (match) {
        entry.key = match.key;
        restored += 1;
      }
    }
  }
  return { doc: copy, restored };
}
