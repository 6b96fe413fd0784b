/**
 * A fake of MyMemory's `GET /get` on 127.0.0.1 (random port), checking requests as MyMemory does: `q`
 * present and at most 500 bytes of UTF-8, `langpair` of two distinct known codes, `de` a plausible
 * email; refusing like it does, with HTTP 200 and the real status in `responseStatus` and the message
 * in `responseDetails` and `translatedText`. A daily allowance in characters (per email, or anonymous)
 * ends in its quota warning. "Translation" upper-cases the text and HTML-escapes quotes, as MyMemory's
 * memory matches come back.
 */
import { startFakeService, type FakeAnswer, type FakeService } from './fake-service';

export const MYMEMORY_CODES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'pt-BR', 'he', 'zh-CN', 'zh-TW', 'tl', 'ru'];
export const QUOTA_WARNING =
  'MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS FOR TODAY. NEXT AVAILABLE IN  13 HOURS 32 MINUTES 18 SECONDS VISIT HTTPS://MYMEMORY.TRANSLATED.NET/DOC/USAGELIMITS.PHP TO TRANSLATE MORE';

/** MyMemory's shape for a refusal: HTTP 200, the message in both places. */
export function mymemoryRefusal(responseStatus: number | string, message: string, quotaFinished: boolean | null = false): FakeAnswer {
  return { status: 200, body: { responseData: { translatedText: message, match: 0 }, quotaFinished, mtLangSupported: null, responseDetails: message, responseStatus } };
}

export interface FakeMyMemory extends FakeService {
  /** Characters left today, by email ('' for anonymous requests). */
  allowance: Map<string, number>;
}

export async function startFakeMyMemory(dailyChars = 5000): Promise<FakeMyMemory> {
  const allowance = new Map<string, number>();
  const service = await startFakeService((req) => {
    if (req.path !== '/get') return { status: 404, body: '<html>Not Found</html>' };
    const q = req.query.get('q');
    const langpair = req.query.get('langpair') ?? '';
    const email = req.query.get('de') ?? '';
    if (!q) return mymemoryRefusal(403, 'NO QUERY SPECIFIED. EXAMPLE REQUEST: GET?Q=HELLO&LANGPAIR=EN|IT');
    if (new TextEncoder().encode(q).length > 500) return mymemoryRefusal(403, 'QUERY LENGTH LIMIT EXCEEDED. MAX ALLOWED QUERY : 500 CHARS');
    const [src, trg, extra] = langpair.split('|');
    if (src === undefined || trg === undefined || extra !== undefined || !MYMEMORY_CODES.includes(src) || !MYMEMORY_CODES.includes(trg)) {
      return mymemoryRefusal(403, 'INVALID LANGUAGE PAIR SPECIFIED. EXAMPLE: LANGPAIR=EN|IT USING 2 LETTER ISO OR RFC3066 LIKE ZH-CN. ALMOST ALL LANGUAGES SUPPORTED BUT SOME MAY HAVE NO CONTENT');
    }
    if (src === trg) return mymemoryRefusal(403, 'PLEASE SELECT TWO DISTINCT LANGUAGES');
    if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return mymemoryRefusal(403, 'INVALID EMAIL PROVIDED');
    const left = allowance.get(email) ?? dailyChars;
    if (left < q.length) return mymemoryRefusal(429, QUOTA_WARNING);
    allowance.set(email, left - q.length);
    const translatedText = q.toUpperCase().replaceAll("'", '&#39;').replaceAll('"', '&quot;');
    return {
      status: 200,
      body: { responseData: { translatedText, match: 0.85 }, quotaFinished: false, mtLangSupported: null, responseDetails: '', responseStatus: 200, responderId: null, exception_code: null, matches: [] },
    };
  });
  return Object.assign(service, { allowance });
}
