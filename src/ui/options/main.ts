/** The options page: settings export and import (the full options UI is a later issue). */
import { EXPORT_FILE_NAME, exportSettings, importSettings, type ImportResult } from './transfer';

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`options page: #${id} is missing`);
  return found as T;
}

const includeKeys = element<HTMLInputElement>('include-keys');
const exportButton = element<HTMLButtonElement>('export');
const importFile = element<HTMLInputElement>('import-file');
const importText = element<HTMLTextAreaElement>('import-text');
const importButton = element<HTMLButtonElement>('import');
const message = element<HTMLParagraphElement>('message');

function show(text: string, kind: 'ok' | 'error'): void {
  message.textContent = text;
  message.dataset['kind'] = kind;
  // Errors interrupt a screen reader; confirmations wait politely.
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
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

async function guarded(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (e) {
    show(e instanceof Error ? e.message : String(e), 'error');
  }
}

function report(result: ImportResult): void {
  if (!result.ok) {
    show(`Import refused: ${result.message}`, 'error');
    return;
  }
  const kept = result.restored > 0 ? ` ${result.restored} key(s) it left out were kept from the current settings.` : '';
  show(`Settings imported.${kept}`, 'ok');
}

exportButton.addEventListener('click', () =>
  guarded(async () => {
    download(await exportSettings(includeKeys.checked), EXPORT_FILE_NAME);
    show(includeKeys.checked ? 'Settings exported with keys: keep the file private.' : 'Settings exported without keys.', 'ok');
  }),
);

importButton.addEventListener('click', () => guarded(async () => report(await importSettings(importText.value))));

importFile.addEventListener('change', () =>
  guarded(async () => {
    const file = importFile.files?.[0];
    if (!file) return;
    const text = await file.text();
    importText.value = text;
    report(await importSettings(text));
    // Choosing the same file again must fire `change` again.
    importFile.value = '';
  }),
);
