/**
 * A fake of the DeepL API v2 on 127.0.0.1 (random port). It checks requests as DeepL documents them
 * (openapi.yaml): `Authorization: DeepL-Auth-Key <key>` on every call, JSON `POST /v2/translate`
 * with 1-50 texts, known source/target codes, a body of at most 128 KiB, tag_handling html|xml, a
 * glossary only with source_lang and for its own pair; `GET /v2/languages?type=source|target`;
 * `GET /v2/glossaries/{id}`. It answers in DeepL's shapes; "translation" upper-cases text outside
 * tags. Rules make it fail, hang or answer wrongly; every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upperOutsideTags } from './fake-provider';

export type DeeplFault =
  | { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { type: 'malformed' }
  /** 200 with one translation fewer than texts sent. */
  | { type: 'count' }
  | { type: 'hang' }
  | { type: 'reset' };

export interface DeeplRule {
  path?: string;
  fault: DeeplFault;
  times?: number;
}

export interface DeeplRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  bytes: number;
}

export interface FakeDeepl {
  url: string;
  requests: DeeplRequest[];
  /** Requests whose client went away before the answer. */
  readonly aborted: number;
  rule(rule: DeeplRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

export const DEEPL_SOURCES = ['BG', 'DE', 'EN', 'ES', 'FR', 'JA', 'NB', 'PT', 'ZH'];
export const DEEPL_TARGETS = ['BG', 'DE', 'EN-GB', 'EN-US', 'ES', 'FR', 'JA', 'NB', 'PT-BR', 'PT-PT', 'ZH-HANS', 'ZH-HANT'];
export const DEEPL_GLOSSARIES: Record<string, { source_lang: string; target_lang: string }> = {
  'gl-en-de': { source_lang: 'en', target_lang: 'de' },
};

export async function startFakeDeepl(key: string): Promise<FakeDeepl> {
  const requests: DeeplRequest[] = [];
  let rules: DeeplRule[] = [];
  let aborted = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, message: string) => send(res, status, { message });

  const take = (path: string): DeeplFault | undefined => {
    const rule = rules.find((r) => (r.path ?? '/v2/translate') === path);
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.filter((r) => r !== rule);
    return rule.fault;
  };

  const translate = (req: DeeplRequest, res: ServerResponse, fault: DeeplFault | undefined) => {
    if (req.bytes > 128 * 1024) return refuse(res, 413, 'Request Entity Too Large');
    if (!String(req.headers['content-type']).startsWith('application/json')) return refuse(res, 415, 'Unsupported Media Type');
    const b = req.body as Record<string, unknown> | undefined;
    if (!b || typeof b !== 'object') return refuse(res, 400, 'Invalid JSON');
    const text = b.text;
    if (!Array.isArray(text) || text.length === 0 || text.some((t) => typeof t !== 'string')) return refuse(res, 400, "Parameter 'text' not specified.");
    if (text.length > 50) return refuse(res, 400, 'Too many texts.');
    const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : undefined);
    if (!DEEPL_TARGETS.includes(upper(b.target_lang) ?? '')) return refuse(res, 400, "Value for 'target_lang' not supported.");
    if (b.source_lang !== undefined && !DEEPL_SOURCES.includes(upper(b.source_lang) ?? '')) return refuse(res, 400, "Value for 'source_lang' not supported.");
    if (b.tag_handling !== undefined && b.tag_handling !== 'html' && b.tag_handling !== 'xml') return refuse(res, 400, "Value for 'tag_handling' not supported.");
    if (b.context !== undefined && typeof b.context !== 'string') return refuse(res, 400, "Value for 'context' not supported.");
    if (b.glossary_id !== undefined) {
      if (b.source_lang === undefined) return refuse(res, 400, 'Use of a glossary requires the source_lang parameter to be specified.');
      const g = DEEPL_GLOSSARIES[String(b.glossary_id)];
      const pair = `${String(b.source_lang)}>${String(b.target_lang)}`.toLowerCase().replace(/-[a-z]+$/, '');
      if (!g || `${g.source_lang}>${g.target_lang}` !== pair) return refuse(res, 400, 'Glossary does not match the language pair.');
    }
    const translations = (text as string[]).map((t) => ({ detected_source_language: upper(b.source_lang) ?? 'EN', text: upperOutsideTags(t) }));
    send(res, 200, { translations: fault?.type === 'count' ? translations.slice(1) : translations });
  };

  const answer = (req: DeeplRequest, res: ServerResponse, fault: DeeplFault | undefined) => {
    if (req.headers.authorization !== `DeepL-Auth-Key ${key}`) return refuse(res, 403, 'Authorization failure, check auth_key');
    if (req.path === '/v2/languages' && req.method === 'GET') {
      const type = req.query.type ?? 'source';
      if (type !== 'source' && type !== 'target') return refuse(res, 400, "Value for 'type' not supported.");
      const codes = type === 'source' ? DEEPL_SOURCES : DEEPL_TARGETS;
      return send(res, 200, codes.map((language) => ({ language, name: language, supports_formality: false })));
    }
    const glossary = /^\/v2\/glossaries\/([^/]+)$/.exec(req.path);
    if (glossary && req.method === 'GET') {
      const g = DEEPL_GLOSSARIES[decodeURIComponent(glossary[1]!)];
      if (!g) return refuse(res, 404, 'Not found');
      return send(res, 200, { glossary_id: glossary[1], name: 'g', ready: true, ...g, creation_time: '2024-01-01T00:00:00Z', entry_count: 1 });
    }
    if (req.path === '/v2/translate' && req.method === 'POST') return translate(req, res, fault);
    return refuse(res, 404, 'Not found');
  };

  const server = createServer((incoming: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      let body: unknown;
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      const req: DeeplRequest = {
        method: incoming.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: incoming.headers, body, bytes: raw.length,
      };
      requests.push(req);
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
      const fault = take(req.path);
      switch (fault?.type) {
        case 'status': return send(res, fault.status, fault.body ?? '', fault.headers);
        case 'malformed': return send(res, 200, '{"translations": [{"text": "oops"');
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
