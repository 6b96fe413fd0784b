/**
 * A fake of Google Translate's free web endpoints on 127.0.0.1 (random port), checking requests as
 * the service takes them (client=gtx, known codes, dt=t, form-encoded repeated q, format=html only)
 * and answering in the shapes Chrome and extensions parse. "Translation" upper-cases text outside
 * tags.
 */
import { upperOutsideTags } from './fake-provider';
import { startFakeService, type FakeAnswer, type FakeService } from './fake-service';

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
