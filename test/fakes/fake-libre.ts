/**
 * A fake LibreTranslate instance on 127.0.0.1 (random port). It checks requests as LibreTranslate's
 * app.py does: `POST /translate` as JSON or form with `q` (string or list), `source`, `target`,
 * `format` text|html, `api_key` (missing where required: 400; unknown: 403); the batch and character
 * limits over all texts (400); languages and pairs it has installed (400). `GET /languages` and
 * `GET /frontend/settings` answer in its shapes. "Translation" upper-cases text outside tags. Rules
 * make it fail, hang or answer wrongly; every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upperOutsideTags } from './fake-provider';

export type LibreFault =
  | { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { type: 'malformed' }
  | { type: 'count' }
  | { type: 'hang' }
  | { type: 'reset' };

export interface LibreRule {
  path?: string;
  fault: LibreFault;
  times?: number;
}

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

export interface FakeLibre {
  url: string;
  requests: LibreRequest[];
  readonly aborted: number;
  rule(rule: LibreRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

export const LIBRE_LANGUAGES: Record<string, string[]> = {
  en: ['es', 'nb', 'pb', 'zh', 'zt'], es: ['en'], nb: ['en'], pb: ['en'], zh: ['en'], zt: ['en'],
};

export async function startFakeLibre(options: FakeLibreOptions = {}): Promise<FakeLibre> {
  const languages = options.languages ?? LIBRE_LANGUAGES;
  const charLimit = options.charLimit ?? -1;
  const batchLimit = options.batchLimit ?? -1;
  const requests: LibreRequest[] = [];
  let rules: LibreRule[] = [];
  let aborted = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, error: string) => send(res, status, { error });

  const take = (path: string): LibreFault | undefined => {
    const rule = rules.find((r) => (r.path ?? '/translate') === path);
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.filter((r) => r !== rule);
    return rule.fault;
  };

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

  const parse = (raw: string, contentType: string): unknown => {
    if (contentType.startsWith('application/json')) {
      try {
        return JSON.parse(raw);
      } catch {
        return undefined;
      }
    }
    const form: Record<string, string | string[]> = {};
    new URLSearchParams(raw).forEach((v, k) => {
      const prev = form[k];
      form[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
    });
    return form;
  };

  const server = createServer((incoming: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const body = parse(Buffer.concat(chunks).toString('utf8'), String(incoming.headers['content-type'] ?? ''));
      const req: LibreRequest = { method: incoming.method ?? '', path: new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname, headers: incoming.headers, body };
      requests.push(req);
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
      const fault = take(req.path);
      switch (fault?.type) {
        case 'status': return send(res, fault.status, fault.body ?? '', fault.headers);
        case 'malformed': return send(res, 200, '{"translatedText": ["oops"');
        case 'hang': return undefined;
        case 'reset': return incoming.socket.destroy();
        default: return answer(req, res, fault);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get aborted() {
      return aborted;
    },
    rule: (rule) => void rules.push({ ...rule }),
    clearRules: () => void (rules = []),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
