/**
 * A fake of Microsoft Translator v3 on 127.0.0.1 (random port), with Edge's token service at
 * `/translate/auth`. It checks requests as the v3 reference documents them: `api-version=3.0`,
 * known `from`/`to`, `textType` plain|html, a known `category`, a JSON array of `{Text}` with at
 * most 1000 items and 50,000 characters, and either `Ocp-Apim-Subscription-Key` (+ the region of a
 * regional resource) or a `Bearer` token it issued and that has not expired. Errors come as
 * `{error: {code, message}}`. "Translation" upper-cases text outside tags. Rules make it fail, hang
 * or answer wrongly; every request is recorded.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { upperOutsideTags } from './fake-provider';
import { faultsByPath, jsonSender, parseJson, startFakeServer, type CountFault, type FakeServer, type PathRule } from './fake-service';

export type MicrosoftFault = CountFault;
/** Applies to /translate where it names no path. */
export type MicrosoftRule = PathRule<MicrosoftFault>;

export interface MicrosoftRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeMicrosoftOptions {
  key: string;
  /** Region a key must name (a regional resource); none for a global one. */
  region?: string;
  categories?: string[];
  /** Lifetime of issued tokens, seconds. */
  tokenTtlS?: number;
}

export interface FakeMicrosoft extends FakeServer<MicrosoftRequest, MicrosoftRule> {
  tokenUrl: string;
  /** Makes every token issued so far invalid. */
  revokeTokens(): void;
}

export const MICROSOFT_LANGUAGES = ['de', 'en', 'es', 'fr', 'ku', 'kmr', 'nb', 'pt', 'pt-PT', 'zh-Hans', 'zh-Hant'];

const b64url = (s: string) => Buffer.from(s).toString('base64url');
const send = jsonSender('application/json; charset=utf-8');
const FAULTS = { send, malformed: '[{"translations": [{"text": "oops"' };
const fail = (res: ServerResponse, code: number, message: string) => send(res, Math.floor(code / 1000), { error: { code, message } });

export async function startFakeMicrosoft(options: FakeMicrosoftOptions): Promise<FakeMicrosoft> {
  let issued = 0;
  const valid = new Map<string, number>();

  const authorized = (h: IncomingHttpHeaders): boolean => {
    const bearer = /^Bearer (.+)$/.exec(String(h.authorization ?? ''))?.[1];
    if (bearer !== undefined) return (valid.get(bearer) ?? 0) > Date.now();
    if (h['ocp-apim-subscription-key'] !== options.key) return false;
    return options.region === undefined || h['ocp-apim-subscription-region'] === options.region;
  };

  const translate = (req: MicrosoftRequest, res: ServerResponse, fault: MicrosoftFault | undefined) => {
    const q = req.query;
    if (q['api-version'] !== '3.0') return fail(res, 400021, 'The API version parameter is missing or invalid.');
    if (!authorized(req.headers)) return fail(res, 401000, 'The request is not authorized because credentials are missing or invalid.');
    if (!MICROSOFT_LANGUAGES.includes(q.to ?? '')) return fail(res, 400036, 'The target language is not valid.');
    if (q.from !== undefined && !MICROSOFT_LANGUAGES.includes(q.from)) return fail(res, 400035, 'The source language is not valid.');
    if (q.textType !== undefined && q.textType !== 'plain' && q.textType !== 'html') return fail(res, 400071, 'The value is not valid for TextType.');
    if (q.category !== undefined && !(options.categories ?? []).includes(q.category)) return fail(res, 400075, 'The language pair and category combination is not valid.');
    if (!String(req.headers['content-type']).startsWith('application/json')) return fail(res, 415000, 'Unsupported media type.');
    const items = req.body;
    if (!Array.isArray(items)) return fail(res, 400074, 'The body of the request is not valid JSON.');
    if (items.length > 1000) return fail(res, 400072, 'The array of input text has too many elements.');
    const texts = items.map((i: unknown) => (typeof i === 'object' && i !== null ? (i as { Text?: unknown }).Text : undefined));
    if (texts.length === 0 || texts.some((t) => typeof t !== 'string')) return fail(res, 400005, 'An input text is missing or invalid.');
    const chars = (texts as string[]).reduce((n, t) => n + Array.from(t).length, 0);
    if (chars > 50_000) return fail(res, 400077, 'The maximum request size has been exceeded.');
    const out = (texts as string[]).map((t) => ({ translations: [{ text: upperOutsideTags(t), to: q.to }] }));
    send(res, 200, fault?.type === 'count' ? out.slice(1) : out);
  };

  const answer = (req: MicrosoftRequest, res: ServerResponse, fault: MicrosoftFault | undefined) => {
    if (req.path === '/translate/auth' && req.method === 'GET') {
      const exp = Math.floor(Date.now() / 1000) + (options.tokenTtlS ?? 600);
      const token = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify({ region: 'global', exp, n: ++issued }))}.c2ln`;
      valid.set(token, exp * 1000);
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(token);
    }
    if (req.path === '/languages' && req.method === 'GET') {
      if (req.query['api-version'] !== '3.0') return fail(res, 400021, 'The API version parameter is missing or invalid.');
      if (req.query.scope !== 'translation') return fail(res, 400001, 'The "scope" parameter is invalid.');
      const translation = Object.fromEntries(MICROSOFT_LANGUAGES.map((c) => [c, { name: c, nativeName: c, dir: 'ltr' }]));
      return send(res, 200, { translation });
    }
    if (req.path === '/translate' && req.method === 'POST') return translate(req, res, fault);
    return fail(res, 404000, 'Not found');
  };

  const fake = await startFakeServer<MicrosoftRequest, MicrosoftRule>({
    record: (raw, body, url) => ({ method: raw.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: raw.headers, body: parseJson(body) }),
    respond: faultsByPath('/translate', FAULTS, answer),
  });
  return Object.assign(fake, { tokenUrl: `${fake.url}/translate/auth`, revokeTokens: () => valid.clear() });
}
