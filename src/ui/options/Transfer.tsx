/** Settings export/import (transfer.ts): keys left out of an export unless asked; kept on import. */
import { useState } from 'preact/hooks';
import { t } from '../shared/i18n';
import { EXPORT_FILE_NAME, exportSettings, importSettings, type ImportResult } from './transfer';

interface Props {
  /** Status line of the page. */
  show: (text: string, kind: 'ok' | 'error') => void;
  /** After an import: reload the form from the stored document. */
  onImported: () => void;
}

function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click starts the download synchronously enough; revoking later keeps Firefox happy.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function Transfer({ show, onImported }: Props) {
  const [includeKeys, setIncludeKeys] = useState(false);
  const [text, setText] = useState('');
  const guarded = (action: () => Promise<void>) => action().catch((e: unknown) => show(e instanceof Error ? e.message : String(e), 'error'));
  const report = (result: ImportResult) => {
    if (!result.ok) return show(`${t('importRefused', 'Import refused:')} ${result.message}`, 'error');
    const kept = result.restored > 0 ? ` ${t('keysKept', '$1 key(s) it left out were kept from the current settings.', String(result.restored))}` : '';
    show(`${t('imported', 'Settings imported.')}${kept}`, 'ok');
    onImported();
  };
  return (
    <section aria-labelledby="transfer-title">
      <h2 id="transfer-title">{t('settingsDocument', 'Settings document')}</h2>
      <p class="hint">{t('transferHint', 'All settings are one JSON document. Export it to keep a copy or move it to another browser; import one to replace the current settings.')}</p>
      <p><label><input type="checkbox" id="include-keys" checked={includeKeys} onChange={(e) => setIncludeKeys(e.currentTarget.checked)} />
        {' '}{t('includeKeys', 'Include keys (provider keys and the API keys issued to other apps)')}</label></p>
      <p><button type="button" id="export" onClick={() => void guarded(async () => {
        download(await exportSettings(includeKeys), EXPORT_FILE_NAME);
        show(includeKeys ? t('exportedKeys', 'Settings exported with keys: keep the file private.') : t('exported', 'Settings exported without keys.'), 'ok');
      })}>{t('exportSettings', 'Export settings')}</button></p>
      <p><label for="import-file">{t('importFile', 'Import from a file:')}</label>{' '}
        <input type="file" id="import-file" accept="application/json,.json" onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          void guarded(async () => {
            const content = await file.text();
            setText(content);
            report(await importSettings(content));
            // Choosing the same file again must fire `change` again.
            input.value = '';
          });
        }} /></p>
      <p><label for="import-text">{t('importText', 'Or paste the document:')}</label></p>
      <textarea id="import-text" rows={10} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <p><button type="button" id="import" onClick={() => void guarded(async () => report(await importSettings(text)))}>
        {t('importPasted', 'Import pasted document')}</button></p>
      <p class="hint">{t('importHint', 'Keys an imported document leaves out are kept from the current settings.')}</p>
    </section>
  );
}
