/**
 * A fake LibreTranslate instance on 127.0.0.1 (random port). It checks requests as LibreTranslate's
 * app.py does: `POST /translate` as JSON or form with `q` (string or list), `source`, `target`,
 * `format` text|html, `api_key` (missing where required: 400; unknown: 403); the batch and character
 * limits over all texts (400); languages and pairs it has installed (400). `GET /languages` and
 * `GET /frontend/settings` answer in its shapes. "Translation" upper-cases text outside tags. Rules
 * make it fail, hang or answer wrongly; every request is recorded.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { upperOutsideTags } from './fake-provider';
import { faultsByPath, jsonSender, parseJson, startFakeServer, type CountFault, type FakeServer, type PathRule } from './fake-service';

export type LibreFault = CountFault | { type: 'delay'; ms: number };
/** Applies to /translate where it names no path. */
export type LibreRule = PathRule<LibreFault>;

export interface LibreRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the form fields (repeated ones as lists). */
  body: unknown;
}

export interface FakeLibreOptions {
  /** Installed languages: code -> target codes. */
  languages?: Record<string, string[]>;
  /** Keys the instance knows; with `keyRequired`, a request without one is refused. */
  keys?: string[];
  keyRequired?: boolean;
  /** -1: no limit (LibreTranslate's defaults). */
  charLimit?: number;
  batchLimit?: number;
  /** Answer /frontend/settings with 404, as instances before it existed. */
  noSettings?: boolean;
}

export type FakeLibre = FakeServer<LibreRequest, LibreRule>;

export const LIBRE_LANGUAGES: Record<string, string[]> = {
  en: ['es', 'nb', 'pb', 'zh', 'zt'], es: ['en'], nb: ['en'], pb: ['en'], zh: ['en'], zt: ['en'],
};

const send = jsonSender('application/json');
const FAULTS = { send, malformed: '{"translatedText": ["oops"' };
const fail = (res: ServerResponse, status: number, error: string) => send(res, status, { error });

/** The parsed JSON body, or the form fields (repeated ones as lists). */
const parse = (body: Buffer, contentType: string): unknown => {
  if (contentType.startsWith('application/json')) return parseJson(body);
  const form: Record<string, string | string[]> = {};
  new URLSearchParams(body.toString('utf8')).forEach((v, k) => {
    const prev = form[k];
    form[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  });
  return form;
};

export function startFakeLibre(options: FakeLibreOptions = {}): Promise<FakeLibre> {
  const languages = options.languages ?? LIBRE_LANGUAGES;
  const charLimit = options.charLimit ?? -1;
  const batchLimit = options.batchLimit ?? -1;

  const translate = (b: Record<string, unknown>, res: ServerResponse, fault: LibreFault | undefined) => {
    const key = b.api_key;
    if (key !== undefined && !(options.keys ?? []).includes(String(key))) return fail(res, 403, 'Invalid API key');
    if (key === undefined && options.keyRequired) return fail(res, 400, 'Visit https://portal.libretranslate.com to get an API key');
    const q = b.q;
    if (!q || (Array.isArray(q) && q.length === 0)) return fail(res, 400, 'Invalid request: missing q parameter');
    if (!b.source) return fail(res, 400, 'Invalid request: missing source parameter');
    if (!b.target) return fail(res, 400, 'Invalid request: missing target parameter');
    const texts = Array.isArray(q) ? q.map(String) : [String(q)];
    if (Array.isArray(q) && batchLimit !== -1 && q.length > batchLimit) return fail(res, 400, `Invalid request: request (${q.length}) exceeds text limit (${batchLimit})`);
    const chars = texts.reduce((n, t) => n + Array.from(t).length, 0);
    if (charLimit !== -1 && chars > charLimit) return fail(res, 400, `Invalid request: request (${chars}) exceeds text limit (${charLimit})`);
    const source = String(b.source);
    const target = String(b.target);
    if (!(source in languages)) return fail(res, 400, `${source} is not supported`);
    if (!(target in languages)) return fail(res, 400, `${target} is not supported`);
    const format = b.format ?? 'text';
    if (format !== 'text' && format !== 'html') return fail(res, 400, `${String(format)} format is not supported`);
    if (!languages[source]!.includes(target)) return fail(res, 400, `${target} is not available as a target language from ${source}`);
    const out = texts.map((t) => upperOutsideTags(t));
    if (!Array.isArray(q)) return send(res, 200, { translatedText: out[0] });
    send(res, 200, { translatedText: fault?.type === 'count' ? out.slice(1) : out });
  };

  const answer = (req: LibreRequest, res: ServerResponse, fault: LibreFault | undefined) => {
    if (req.path === '/languages' && req.method === 'GET') {
      return send(res, 200, Object.entries(languages).map(([code, targets]) => ({ code, name: code, targets })));
    }
    if (req.path === '/frontend/settings' && req.method === 'GET' && !options.noSettings) {
      return send(res, 200, { charLimit, frontendTimeout: 500, apiKeys: options.keys !== undefined, keyRequired: Boolean(options.keyRequired), suggestions: false, supportedFilesFormat: [] });
    }
    if (req.path === '/translate' && req.method === 'POST') {
      const b = req.body;
      if (typeof b !== 'object' || b === null || Array.isArray(b)) return fail(res, 400, 'Invalid JSON format');
      return translate(b as Record<string, unknown>, res, fault);
    }
    return fail(res, 404, 'Not Found');
  };

  return startFakeServer<LibreRequest, LibreRule>({
    record: (raw, body, url) => ({ method: raw.method ?? '', path: url.pathname, headers: raw.headers, body: parse(body, String(raw.headers['content-type'] ?? '')) }),
    respond: faultsByPath('/translate', FAULTS, answer),
  });
}
