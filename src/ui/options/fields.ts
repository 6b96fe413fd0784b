/**
 * Which settings fields each provider takes (README's provider table): the options page shows
 * exactly these. A provider missing here gets url and key, the common case.
 */
import { PROVIDERS } from '../../providers/index';
import type { ProviderSettings } from '../../core/provider';

export type FieldName = 'url' | 'key' | 'region' | 'model' | 'email' | 'folderId' | 'limit';

const TABLE: Record<string, FieldName[]> = {
  'apertium.ts': ['url'],
  'google.ts': ['url'],
  'chrome.ts': [],
  'deepl.ts': ['key', 'url'],
  'gcloud.ts': ['key', 'url'],
  'microsoft.ts': ['key', 'region', 'url'],
  'yandex.ts': ['key', 'folderId', 'url'],
  'libre.ts': ['url', 'key'],
  'lingva.ts': ['url'],
  'mymemory.ts': ['email', 'url'],
  'llm.ts': ['url', 'key', 'model'],
  'remote.ts': ['url', 'key', 'limit'],
};

export interface ProviderInfo {
  id: string;
  name: string;
  needsKey: boolean;
  needsUrl: boolean;
  defaultUrl?: string;
  fields: FieldName[];
}

export const PROVIDER_INFO: readonly ProviderInfo[] = PROVIDERS.map((p) => ({
  id: p.id,
  name: p.name,
  needsKey: p.needsKey,
  needsUrl: p.needsUrl === true,
  ...(p.defaultUrl ? { defaultUrl: p.defaultUrl } : {}),
  fields: TABLE[p.id] ?? ['url', 'key'],
}));

/** A provider's settings with one field set; an empty input removes the field (the default applies). */
export function withField(settings: ProviderSettings, field: FieldName, raw: string): ProviderSettings {
  const copy: ProviderSettings = { ...settings };
  const value = raw.trim();
  if (value === '') delete copy[field];
  else if (field === 'limit') {
    const n = Number.parseInt(value, 10);
    if (Number.isInteger(n)) copy[field] = n;
  } else copy[field] = value;
  return copy;
}

/** Provider ids in ranking order: ranked ones first, then the rest by id (the engine's order). */
export function rankedIds(ranking: readonly string[], ids: readonly string[]): string[] {
  const known = ranking.filter((id) => ids.includes(id));
  return [...known, ...ids.filter((id) => !known.includes(id)).sort()];
}
