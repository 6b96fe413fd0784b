/**
 * Export and import of the settings document (decisions.md "Settings document"): what the options
 * page does, apart from the DOM, so it can be tested with a fake `send`.
 */
import { send as sendMessage } from '../../shared/api';
import { restoreSecrets } from '../../shared/secrets';

type Send = typeof sendMessage;

export const EXPORT_FILE_NAME = 'polyglot-settings.json';

/** The document as JSON text; the worker leaves the keys out unless asked for them. */
export async function exportSettings(includeKeys: boolean, send: Send = sendMessage): Promise<string> {
  const settings = await send('settings:get', { withSecrets: includeKeys });
  return `${JSON.stringify(settings, null, 2)}\n`;
}

export type ImportResult = { ok: true; restored: number } | { ok: false; message: string };

/** Parses, keeps the current keys the document leaves out, and stores it through validation. */
export async function importSettings(text: string, send: Send = sendMessage): Promise<ImportResult> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `settings: not a JSON document (${e instanceof Error ? e.message : String(e)})` };
  }
  const current = await send('settings:get', { withSecrets: true });
  const { doc: merged, restored } = restoreSecrets(doc, current);
  const reply = await send('settings:set', { settings: merged });
  return reply.status === 200 ? { ok: true, restored } : { ok: false, message: reply.body.err };
}
