/**
 * A fake of the DeepL API v2 on 127.0.0.1 (random port). It checks requests as DeepL documents them
 * (openapi.yaml): `Authorization: DeepL-Auth-Key <key>` on every call, JSON `POST /v2/translate`
 * with 1-50 texts, known source/target codes, a body of at most 128 KiB, tag_handling html|xml, a
 * glossary only with source_lang and for its own pair; `GET /v2/languages?type=source|target`;
 * `GET /v2/glossaries/{id}`. It answers in DeepL's shapes; "translation" upper-cases text outside
 * tags. Rules make it fail, hang or answer wrongly; every request is recorded.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { upperOutsideTags } from './fake-provider';
import { faultsByPath, jsonSender, parseJson, startFakeServer, type CountFault, type FakeServer, type PathRule } from './fake-service';

export type DeeplFault = CountFault;
/** Applies to /v2/translate where it names no path. */
export type DeeplRule = PathRule<DeeplFault>;

export interface DeeplRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  bytes: number;
}

export type FakeDeepl = FakeServer<DeeplRequest, DeeplRule>;

export const DEEPL_SOURCES = ['BG', 'DE', 'EN', 'ES', 'FR', 'JA', 'NB', 'PT', 'ZH'];
export const DEEPL_TARGETS = ['BG', 'DE', 'EN-GB', 'EN-US', 'ES', 'FR', 'JA', 'NB', 'PT-BR', 'PT-PT', 'ZH-HANS', 'ZH-HANT'];
export const DEEPL_GLOSSARIES: Record<string, { source_lang: string; target_lang: string }> = {
  'gl-en-de': { source_lang: 'en', target_lang: 'de' },
};

const send = jsonSender('application/json');
const FAULTS = { send, malformed: '{"translations": [{"text": "oops"' };

export function startFakeDeepl(key: string): Promise<FakeDeepl> {
  const refuse = (res: ServerResponse, status: number, message: string) => send(res, status, { message });

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

  return startFakeServer<DeeplRequest, DeeplRule>({
    record: (raw, body, url) => ({
      method: raw.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: raw.headers, body: parseJson(body), bytes: body.length,
    }),
    respond: faultsByPath('/v2/translate', FAULTS, answer),
  });
}
