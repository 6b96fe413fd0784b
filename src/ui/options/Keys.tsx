/**
 * API keys for other apps (the `keys` of the settings document) with their quota and the usage the
 * worker counted per key name (usage:get).
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../../shared/api';
import type { UsageCounters } from '../../shared/messages';
import type { ApiKeySettings, Settings } from '../../core/settings/types';
import { t } from '../shared/i18n';

interface Props {
  doc: Settings;
  onDoc: (doc: Settings) => void;
}

/** 24 random bytes, URL-safe: long enough that guessing is hopeless, short enough to paste. */
export function newKey(random: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => void crypto.getRandomValues(b)): string {
  const bytes = new Uint8Array(24);
  random(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function usageLine(usage: { requests: number; chars: number } | undefined, quota: number | undefined): string {
  const u = usage ?? { requests: 0, chars: 0 };
  const base = t('usage', '$1 requests, $2 characters', String(u.requests), String(u.chars));
  if (quota === undefined) return base;
  const pct = quota === 0 ? 100 : Math.min(100, Math.round((100 * u.chars) / quota));
  return `${base} (${t('ofQuota', '$1% of quota', String(pct))})`;
}

export function Keys({ doc, onDoc }: Props) {
  const [usage, setUsage] = useState<UsageCounters | undefined>(undefined);
  useEffect(() => {
    send('usage:get', {}).then(setUsage, () => undefined);
  }, []);
  const update = (i: number, patch: Partial<ApiKeySettings>) => {
    const keys = doc.keys.map((k, j) => {
      if (j !== i) return k;
      const next: ApiKeySettings = { ...k, ...patch };
      for (const [field, value] of Object.entries(patch)) if (value === undefined) delete next[field];
      return next;
    });
    onDoc({ ...doc, keys });
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">{t('apiKeys', 'API keys for other apps')}</h2>
      <p class="hint">{t('apiKeysHint', 'Apps call /api/Translate with auth=<key>. Usage counts translated characters per key name.')}</p>
      <ul class="keys">
        {doc.keys.map((k, i) => (
          <li class="key-row" key={i}>
            <p class="field"><label for={`key-name-${i}`}>{t('keyName', 'Name')}</label>
              <input id={`key-name-${i}`} value={k.name} onChange={(e) => update(i, { name: e.currentTarget.value })} /></p>
            <p class="field"><label for={`key-key-${i}`}>{t('field_key', 'Key')}</label>
              <input id={`key-key-${i}`} type="password" autocomplete="off" value={k.key} onChange={(e) => update(i, { key: e.currentTarget.value })} /></p>
            <p class="field"><label for={`key-quota-${i}`}>{t('quota', 'Quota (characters)')}</label>
              <input id={`key-quota-${i}`} type="number" min={0} value={k.quota ?? ''}
                onChange={(e) => {
                  const n = Number.parseInt(e.currentTarget.value, 10);
                  update(i, { quota: Number.isInteger(n) ? n : undefined });
                }} /></p>
            <p class="field"><label for={`key-allowed-${i}`}>{t('allowed', 'Allowed origins or apps')}</label>
              <input id={`key-allowed-${i}`} value={(k.allowed ?? []).join(', ')} placeholder={t('everyOrigin', 'every origin and app')}
                onChange={(e) => {
                  const list = e.currentTarget.value.split(/[\s,]+/).filter(Boolean);
                  update(i, { allowed: list.length ? list : undefined });
                }} /></p>
            <p class="field"><label><input type="checkbox" checked={k.revoked === true} onChange={(e) => update(i, { revoked: e.currentTarget.checked || undefined })} />
              {t('revoked', 'Revoked')}</label></p>
            <p class="usage" data-key={k.name}>{usageLine(usage?.keys[k.name], k.quota)}</p>
            <button type="button" onClick={() => onDoc({ ...doc, keys: doc.keys.filter((_, j) => j !== i) })}>{t('removeKey', 'Remove key')}</button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => onDoc({ ...doc, keys: [...doc.keys, { name: `app-${doc.keys.length + 1}`, key: newKey() }] })}>
        {t('addKey', 'Add a key')}
      </button>
    </section>
  );
}
