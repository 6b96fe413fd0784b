/**
 * The options page: providers and ranking, interlinguas, text size limit, API keys with usage, and
 * the settings document's export/import. Edits stay on the page until "Save" stores the whole
 * document through settings:set, whose validation message is shown as it is (it names the field).
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../../shared/api';
import type { Settings } from '../../core/settings/types';
import { t } from '../shared/i18n';
import { Glossaries } from './Glossaries';
import { Keys } from './Keys';
import { ProviderLog } from './ProviderLog';
import { Providers } from './Providers';
import { Sites } from './Sites';
import { Transfer } from './Transfer';

export function parseCodes(text: string): string[] {
  return text.split(/[\s,]+/).map((c) => c.trim()).filter(Boolean);
}

export function Options() {
  const [doc, setDoc] = useState<Settings | undefined>(undefined);
  const [dirty, setDirty] = useState(false);
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' }>({ text: '', kind: 'ok' });
  const show = (text: string, kind: 'ok' | 'error') => setMessage({ text, kind });
  const reload = () => send('settings:get', { withSecrets: true }).then((d) => { setDoc(d); setDirty(false); }, (e: unknown) => show(String(e), 'error'));
  useEffect(() => void reload(), []);

  const edit = (next: Settings) => {
    setDoc(next);
    setDirty(true);
  };
  const save = async (): Promise<boolean> => {
    if (!doc) return false;
    const reply = await send('settings:set', { settings: doc });
    if (reply.status !== 200) {
      show(`${t('saveRefused', 'Not saved:')} ${reply.body.err}`, 'error');
      return false;
    }
    setDoc(reply.body);
    setDirty(false);
    show(t('saved', 'Settings saved.'), 'ok');
    return true;
  };

  return (
    <main class="options">
      <header class="options-head">
        <h1>{t('optionsTitle', 'Polyglot Translate: options')}</h1>
        <button type="button" class="primary" id="save" disabled={!doc || !dirty} onClick={() => void save()}>{t('save', 'Save')}</button>
      </header>
      <p id="message" role={message.kind === 'error' ? 'alert' : 'status'} aria-live="polite" data-kind={message.kind}>{message.text}</p>
      {doc && (
        <>
          <Providers doc={doc} onDoc={edit} save={save} />
          <section aria-labelledby="routing-title">
            <h2 id="routing-title">{t('routing', 'Routing and limits')}</h2>
            <p class="field">
              <label for="interlinguas">{t('interlinguas', 'Interlinguas (codes, preferred first)')}</label>
              <input id="interlinguas" value={doc.interlinguas.join(', ')} onChange={(e) => edit({ ...doc, interlinguas: parseCodes(e.currentTarget.value) })} />
            </p>
            <p class="hint">{t('interlinguasHint', 'Chained routes translate through these languages when no provider has the pair, or as alternatives.')}</p>
            <p class="field">
              <label for="text-size">{t('textSize', 'Text size limit (characters per request)')}</label>
              <input id="text-size" type="number" min={1} value={doc.limits.textSize}
                onChange={(e) => {
                  const n = Number.parseInt(e.currentTarget.value, 10);
                  if (Number.isInteger(n)) edit({ ...doc, limits: { ...doc.limits, textSize: n } });
                }} />
            </p>
          </section>
          <Glossaries doc={doc} onDoc={edit} />
          <Keys doc={doc} onDoc={edit} />
        </>
      )}
      <Sites show={show} />
      <ProviderLog />
      <Transfer show={show} onImported={() => void reload()} />
    </main>
  );
}
