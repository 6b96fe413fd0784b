/**
 * A fake of Google Translate's free web endpoints on 127.0.0.1 (random port), checking requests as
 * the service takes them (client=gtx, known codes, dt=t, form-encoded repeated q, format=html only)
 * and answering in the shapes Chrome and extensions parse. "Translation" upper-cases text outside
 * tags. Also home of `startFakeService`, the small HTTP fake the other providers' fakes build on.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upperOutsideTags } from './fake-provider';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as a form when it is one (empty otherwise). */
  form: URLSearchParams;
}

export interface FakeAnswer {
  status: number;
  /** A string is sent as it is (HTML pages, broken JSON); anything else as JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

export type Fault =
  | ({ type: 'answer' } & FakeAnswer)
  | { type: 'malformed' }
  /** Never answers (until the client goes away). */
  | { type: 'hang' }
  /** Destroys the connection without an answer. */
  | { type: 'reset' };

export interface FakeRule {
  path?: string;
  match?: (req: FakeRequest) => boolean;
  fault: Fault;
  /** Applies this many times, then is dropped; default: always. */
  times?: number;
}

export interface FakeService {
  url: string;
  requests: FakeRequest[];
  /** Requests whose client went away before the answer was complete. */
  readonly aborted: number;
  rule(rule: FakeRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

export async function startFakeService(handle: (req: FakeRequest) => FakeAnswer): Promise<FakeService> {
  const requests: FakeRequest[] = [];
  let rules: FakeRule[] = [];
  let aborted = 0;

  const send = (res: ServerResponse, a: FakeAnswer) => {
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    const type = typeof a.body === 'string' && !a.headers?.['content-type'] ? 'text/html; charset=UTF-8' : 'application/json; charset=UTF-8';
    res.writeHead(a.status, { 'content-type': type, ...a.headers });
    res.end(text);
  };

  const takeRule = (req: FakeRequest): Fault | undefined => {
    const rule = rules.find((r) => (r.path === undefined || r.path === req.path) && (!r.match || r.match(req)));
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.filter((r) => r !== rule);
    return rule.fault;
  };

  const respond = (req: FakeRequest, raw: IncomingMessage, res: ServerResponse) => {
    const fault = takeRule(req);
    if (!fault) return send(res, handle(req));
    switch (fault.type) {
      case 'answer': return send(res, fault);
      case 'malformed': return send(res, { status: 200, body: '[[["oops"', headers: { 'content-type': 'application/json' } });
      case 'hang': return undefined;
      case 'reset': return raw.socket.destroy();
    }
  };

  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const isForm = raw.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
      const req: FakeRequest = { method: raw.method ?? '', path: url.pathname, query: url.searchParams, headers: raw.headers, body, form: new URLSearchParams(isForm ? body : '') };
      requests.push(req);
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
      respond(req, raw, res);
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

/** The codes this fake instance of Google knows (as translate_a/l spells them). */
export const FAKE_GOOGLE_CODES = ['en', 'es', 'fr', 'de', 'pt', 'iw', 'jw', 'tl', 'no', 'zh-CN', 'zh-TW'];

/** Google's block page for throttled addresses. */
export const UNUSUAL_TRAFFIC = '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>';

const html = (status: number, what: string): FakeAnswer => ({ status, body: `<html><title>Error ${status} (${what})</title></html>` });

export function startFakeGoogle(): Promise<FakeService> {
  const known = (code: string | null) => code !== null && FAKE_GOOGLE_CODES.includes(code);
  return startFakeService((req) => {
    const q = req.query;
    if (req.path === '/translate_a/l') {
      if (req.method !== 'GET' || q.get('client') !== 'chrome') return html(400, 'Bad Request');
      const names = Object.fromEntries(FAKE_GOOGLE_CODES.map((c) => [c, c.toUpperCase()]));
      return { status: 200, body: { sl: { auto: 'Detect language', ...names }, tl: names } };
    }
    if (req.path !== '/translate_a/single' && req.path !== '/translate_a/t') return html(404, 'Not Found');
    if (q.get('client') !== 'gtx') return html(403, 'Forbidden');
    if (!known(q.get('sl')) || !known(q.get('tl'))) return html(400, 'Bad Request');
    if (req.path === '/translate_a/single') {
      const text = q.get('q');
      if (req.method !== 'GET' || q.get('dt') !== 't' || !text) return html(400, 'Bad Request');
      // Sentence pieces [translated, original, null, null, 10], as translate_a/single lists them.
      const pieces = text.split(/(?<=[.!?]\s+)/).map((s) => [upperOutsideTags(s), s, null, null, 10]);
      return { status: 200, body: [pieces, null, q.get('sl')] };
    }
    const format = q.get('format');
    const texts = req.form.getAll('q');
    if (req.method !== 'POST' || texts.length === 0 || (format !== null && format !== 'html')) return html(400, 'Bad Request');
    return { status: 200, body: texts.map((t) => upperOutsideTags(t)) };
  });
}
