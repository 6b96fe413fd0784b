/**
 * A fake of Google Cloud Translation v2 on 127.0.0.1 (random port). It checks requests as v2 does:
 * the API key (header `X-Goog-Api-Key` or `?key=`), a JSON body with `q` (string or <= 128 strings),
 * `target`, optional `source` and `format` (`text` | `html`), known codes; and answers in v2's shapes,
 * errors included (`{error: {code, message, status, errors: [{reason}], details}}`). "Translation"
 * upper-cases text outside tags.
 */
import { upperOutsideTags } from './fake-provider';
import { startFakeService, type FakeAnswer, type FakeService } from './fake-service';

export const GCLOUD_KEY = 'AIza-fake-key-0123456789';
/** v2 lists both old and new spellings of some codes, and `zh` beside zh-CN. */
export const FAKE_GCLOUD_CODES = ['en', 'es', 'fr', 'de', 'pt', 'iw', 'he', 'zh', 'zh-CN', 'zh-TW', 'tl'];

/** A v2 error body; `reason` goes in errors[] (legacy) and `detail` in details[] (ErrorInfo). */
export function gcloudError(code: number, message: string, status: string, reason: string, detail?: string): FakeAnswer {
  const details = detail ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: detail, domain: 'googleapis.com' }] : undefined;
  return { status: code, body: { error: { code, message, errors: [{ message, domain: 'global', reason }], status, ...(details ? { details } : {}) } } };
}

const invalid = (message: string) => gcloudError(400, message, 'INVALID_ARGUMENT', 'invalid');

export function startFakeGcloud(): Promise<FakeService> {
  return startFakeService((req) => {
    const key = req.headers['x-goog-api-key'] ?? req.query.get('key');
    if (!req.path.startsWith('/language/translate/v2')) return gcloudError(404, 'Not Found', 'NOT_FOUND', 'notFound');
    if (key !== GCLOUD_KEY) {
      return gcloudError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', 'badRequest', 'API_KEY_INVALID');
    }
    if (req.path === '/language/translate/v2/languages') {
      if (req.method !== 'GET') return gcloudError(405, 'Method Not Allowed', 'INVALID_ARGUMENT', 'badRequest');
      const target = req.query.get('target');
      return { status: 200, body: { data: { languages: FAKE_GCLOUD_CODES.map((language) => (target ? { language, name: language.toUpperCase() } : { language })) } } };
    }
    if (req.path !== '/language/translate/v2' || req.method !== 'POST') return gcloudError(404, 'Not Found', 'NOT_FOUND', 'notFound');
    if (!req.headers['content-type']?.startsWith('application/json')) return invalid('Invalid JSON payload received.');
    let body: { q?: unknown; target?: unknown; source?: unknown; format?: unknown };
    try {
      body = JSON.parse(req.body) as typeof body;
    } catch {
      return invalid('Invalid JSON payload received.');
    }
    const q = typeof body.q === 'string' ? [body.q] : body.q;
    if (!Array.isArray(q) || q.length === 0 || !q.every((t) => typeof t === 'string')) return invalid('Required Text');
    if (q.length > 128) return invalid('Too many text segments');
    const known = (c: unknown) => typeof c === 'string' && FAKE_GCLOUD_CODES.includes(c);
    if (!known(body.target) || (body.source !== undefined && !known(body.source))) return invalid('Invalid Value');
    if (body.format !== undefined && body.format !== 'text' && body.format !== 'html') return invalid('Invalid Value');
    return { status: 200, body: { data: { translations: q.map((t: string) => ({ translatedText: upperOutsideTags(t) })) } } };
  });
}
