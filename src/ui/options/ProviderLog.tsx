/**
 * The provider log (issue 6): off by default; when on, which providers received how many
 * characters from which site, never the text. log:get / log:set / log:clear, options page only.
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../../shared/api';
import type { LogEntry } from '../../shared/messages';
import { t } from '../shared/i18n';

export function ProviderLog() {
  const [on, setOn] = useState(false);
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const reload = () => send('log:get', {}).then((r) => { setOn(r.on); setEntries(r.entries); }, () => undefined);
  useEffect(() => void reload(), []);
  const newest = [...entries].reverse();
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">{t('providerLog', 'Provider log')}</h2>
      <p class="hint">{t('providerLogHint', 'Which provider received text from which site: time, site, providers, characters. The text itself is never kept. Newest 1000 calls.')}</p>
      <p class="field">
        <label><input type="checkbox" id="log-on" checked={on}
          onChange={(e) => { const v = e.currentTarget.checked; void send('log:set', { on: v }).then((r) => setOn(r.on)); }} />
        {t('logOn', 'Keep the provider log')}</label>
        <button type="button" onClick={() => void reload()}>{t('refresh', 'Refresh')}</button>
        <button type="button" id="log-clear" disabled={entries.length === 0} onClick={() => void send('log:clear', {}).then(reload)}>{t('clearLog', 'Clear the log')}</button>
      </p>
      {newest.length === 0 ? <p class="empty">{t('logEmpty', 'Nothing logged.')}</p> : (
        <table class="rules" data-testid="provider-log">
          <thead><tr><th>{t('logTime', 'Time')}</th><th>{t('site', 'Site')}</th><th>{t('logProviders', 'Providers')}</th><th>{t('logChars', 'Characters')}</th></tr></thead>
          <tbody>
            {newest.slice(0, 200).map((e, i) => (
              <tr key={i}><td>{new Date(e.at).toLocaleString()}</td><td>{e.site}</td><td>{e.providers.join(', ')}</td><td>{e.chars}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
