/**
 * A fake of Yandex Cloud Translate v2 on 127.0.0.1 (random port). It checks requests as the REST
 * reference documents them: `POST /translate/v2/translate` and `POST /translate/v2/languages`
 * with JSON bodies, `Authorization: Api-Key <key>`, known language codes, format PLAIN_TEXT|HTML,
 * at most 10,000 characters in all texts, and the folder when one is required. Errors come as
 * gRPC statuses `{code, message, details}` with the matching HTTP status. "Translation"
 * upper-cases text outside tags. Rules make it fail, hang or answer wrongly; requests are recorded.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { upperOutsideTags } from './fake-provider';
import { faultsByPath, jsonSender, parseJson, startFakeServer, type CountFault, type FakeServer, type PathRule } from './fake-service';

export type YandexFault = CountFault;
/** Applies to /translate/v2/translate where it names no path. */
export type YandexRule = PathRule<YandexFault>;

export interface YandexRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type FakeYandex = FakeServer<YandexRequest, YandexRule>;

export const YANDEX_LANGUAGES = ['de', 'emj', 'en', 'he', 'kazlat', 'no', 'pt', 'pt-BR', 'ru', 'zh'];

/** gRPC code -> HTTP status, as Yandex's REST gateway maps them. */
const HTTP: Record<number, number> = { 3: 400, 5: 404, 7: 403, 8: 429, 13: 500, 14: 503, 16: 401 };

const send = jsonSender('application/json');
const FAULTS = { send, malformed: '{"translations": [{"text": "oops"' };
const fail = (res: ServerResponse, code: number, message: string) => send(res, HTTP[code] ?? 500, { code, message, details: [] });

export function startFakeYandex(key: string, requireFolder?: string): Promise<FakeYandex> {

  const translate = (b: Record<string, unknown>, res: ServerResponse, fault: YandexFault | undefined) => {
    const texts = b.texts;
    if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== 'string')) return fail(res, 3, 'texts: must be a non-empty list');
    const chars = (texts as string[]).reduce((n, t) => n + Array.from(t).length, 0);
    if (chars > 10_000) return fail(res, 3, 'texts: The total length of the texts must not exceed 10000 characters');
    if (!YANDEX_LANGUAGES.includes(String(b.targetLanguageCode))) return fail(res, 3, `unsupported target_language_code: ${String(b.targetLanguageCode)}`);
    if (b.sourceLanguageCode !== undefined && !YANDEX_LANGUAGES.includes(String(b.sourceLanguageCode))) return fail(res, 3, 'unsupported source_language_code');
    if (b.format !== undefined && !['PLAIN_TEXT', 'HTML', 'FORMAT_UNSPECIFIED'].includes(String(b.format))) return fail(res, 3, 'format: invalid value');
    const translations = (texts as string[]).map((t) => ({ text: upperOutsideTags(t), detectedLanguageCode: String(b.sourceLanguageCode ?? 'en') }));
    send(res, 200, { translations: fault?.type === 'count' ? translations.slice(1) : translations });
  };

  const answer = (req: YandexRequest, res: ServerResponse, fault: YandexFault | undefined) => {
    const known = req.path === '/translate/v2/translate' || req.path === '/translate/v2/languages';
    if (!known) return fail(res, 5, 'Not found');
    if (req.method !== 'POST') return fail(res, 12, 'Method not allowed');
    const auth = String(req.headers.authorization ?? '');
    if (auth !== `Api-Key ${key}`) return fail(res, 16, `Unknown api key '${auth.replace(/^Api-Key /, '')}'`);
    if (!String(req.headers['content-type']).startsWith('application/json')) return fail(res, 3, 'invalid content type');
    const b = req.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) return fail(res, 3, 'invalid JSON body');
    const body = b as Record<string, unknown>;
    if (requireFolder !== undefined && body.folderId !== requireFolder) return fail(res, 7, 'Permission to folder denied');
    if (req.path === '/translate/v2/languages') return send(res, 200, { languages: YANDEX_LANGUAGES.map((code) => ({ code, name: code })) });
    return translate(body, res, fault);
  };

  return startFakeServer<YandexRequest, YandexRule>({
    record: (raw, body, url) => ({ method: raw.method ?? '', path: url.pathname, headers: raw.headers, body: parseJson(body) }),
    respond: faultsByPath('/translate/v2/translate', FAULTS, answer),
  });
}
