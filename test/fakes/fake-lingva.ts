/**
 * A fake Lingva Translate instance on 127.0.0.1 (random port), routing as its Next.js API does: path
 * segments split on raw `/` and then percent-decoded, GET only, `{error}` bodies with 400 for unknown
 * codes, 404 for a wrong number of segments, 405 for other methods. Like the nginx most instances run
 * behind, it answers 414 to a request line over 8 KB. "Translation" upper-cases the text.
 */
import { upperOutsideTags } from './fake-provider';
import { startFakeService, type FakeAnswer, type FakeService } from './fake-service';

export const LINGVA_SOURCE = ['auto', 'en', 'es', 'fr', 'de', 'zh', 'iw', 'tl'];
export const LINGVA_TARGET = ['en', 'es', 'fr', 'de', 'zh', 'zh_HANT', 'iw', 'tl'];
const MAX_REQUEST_LINE = 8192;

const error = (status: number, message: string): FakeAnswer => ({ status, body: { error: message } });

export function startFakeLingva(): Promise<FakeService> {
  return startFakeService((req) => {
    const rawPath = req.path + (req.query.size > 0 ? `?${req.query}` : '');
    if (`${req.method} ${rawPath} HTTP/1.1`.length > MAX_REQUEST_LINE) return { status: 414, body: '<html>414 Request-URI Too Large</html>' };
    const parts = req.path.split('/').slice(1);
    if (parts[0] !== 'api' || parts[1] !== 'v1') return error(404, 'Not Found');
    if (req.method !== 'GET') return { ...error(405, 'Method Not Allowed'), headers: { allow: 'GET' } };
    let slug: string[];
    try {
      slug = parts.slice(2).map((p) => decodeURIComponent(p));
    } catch {
      return error(400, 'Bad Request');
    }
    if (slug[0] === 'languages') {
      const type = slug[1];
      if (slug.length > 2) return error(404, 'Not Found');
      if (type !== 'source' && type !== 'target') return error(400, "Type should be 'source', 'target' or empty");
      const codes = type === 'source' ? LINGVA_SOURCE : LINGVA_TARGET;
      return { status: 200, body: { languages: codes.map((code) => ({ code, name: code.toUpperCase() })) } };
    }
    const [source, target, query] = slug;
    if (slug.length !== 3 || source === undefined || target === undefined || !query) return error(404, 'Not Found');
    if (!LINGVA_TARGET.includes(target)) return error(400, 'Invalid target language');
    if (!LINGVA_SOURCE.includes(source)) return error(400, 'Invalid source language');
    return { status: 200, body: { translation: upperOutsideTags(query), info: { pronunciation: {} } } };
  });
}
