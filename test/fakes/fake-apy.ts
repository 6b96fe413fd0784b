/**
 * A tiny fake of Apertium APy on 127.0.0.1 (random port). It checks requests as APy 0.11.7 does
 * (paths, methods, form or query arguments, known langpair, last `q` wins) and answers in APy's
 * shapes. "Translation" upper-cases text outside tags, so results are deterministic; words
 * containing "xyz" are unknown to it. Rules make it
 * fail, hang or lag for chosen texts; every request is recorded.
 */
import type { ServerResponse } from 'node:http';
import { upperOutsideTags } from './fake-provider';
import { answerFault, jsonSender, startFakeServer, type FakeServer, type Rule } from './fake-service';

export type ApyFault =
  /** APy's own error JSON: `{status:'error', code, message, explanation}`. */
  | { type: 'explain'; status: number; explanation: string }
  | { type: 'status'; status: number; body?: string }
  | { type: 'malformed' }
  /** 200 with a body lacking responseData.translatedText. */
  | { type: 'no-text' }
  /** Never answers (until the client goes away). */
  | { type: 'hang' }
  /** Answers normally after `ms`. */
  | { type: 'delay'; ms: number }
  /** Destroys the connection without an answer. */
  | { type: 'reset' };

export interface ApyRule extends Rule<ApyFault> {
  path?: '/translate' | '/listPairs';
  /** Applies only to translate requests whose q passes. */
  match?: (q: string) => boolean;
}

export interface ApyRequest {
  method: string;
  path: string;
  contentType?: string;
  /** Arguments as APy sees them: query and form body together, every value in order. */
  args: Record<string, string[]>;
}

/** `aborted` and `maxConcurrent` count translate requests only. */
export type FakeApy = FakeServer<ApyRequest, ApyRule>;

export const DEFAULT_APY_PAIRS: readonly string[] = [
  'eng-spa', 'spa-eng', 'eng-cat', 'cat-eng', 'spa-cat', 'spa-por', 'por-spa', 'spa-por_BR', 'eng-cat_valencia', 'fra-spa',
];

/** APy's answer to /listPairs. */
export const listPairsBody = (pairs: readonly string[]) => ({
  responseData: pairs.map((p) => {
    const [sourceLanguage, targetLanguage] = p.split('-');
    return { sourceLanguage, targetLanguage };
  }),
  responseDetails: null,
  responseStatus: 200,
});

const send = jsonSender('application/json; charset=UTF-8');
const FAULTS = { send, malformed: '{"responseData": {"translatedText": "oops"', statusBody: '<html><body>error</body></html>' };
const explain = (res: ServerResponse, status: number, explanation: string) =>
  send(res, status, { status: 'error', code: status, message: status === 400 ? 'Bad Request' : 'Error', explanation });

export function startFakeApy(pairs: readonly string[] = DEFAULT_APY_PAIRS): Promise<FakeApy> {
  const translate = (args: Record<string, string[]>, res: ServerResponse) => {
    const langpair = args.langpair?.at(-1);
    const q = args.q?.at(-1);
    if (langpair === undefined) return explain(res, 400, 'Missing argument langpair');
    if (q === undefined) return explain(res, 400, 'Missing argument q');
    const [l1, l2, extra] = langpair.split('|');
    if (l1 === undefined || l2 === undefined || extra !== undefined) return explain(res, 400, 'That pair is invalid, use e.g. eng|spa');
    if (!pairs.includes(`${l1}-${l2}`)) return explain(res, 400, 'That pair is not installed');
    const format = args.format?.at(-1);
    // APy runs `apertium-des<format>`: anything else breaks its pipeline; the fake refuses it plainly.
    if (format !== undefined && format !== 'html' && format !== 'txt') return explain(res, 400, `unknown format ${format}`);
    const markUnknown = (args.markUnknown?.at(-1) ?? 'yes').toLowerCase();
    const translated = upperOutsideTags(q);
    // Words containing "xyz" are the fake's unknown words: APy marks those with `*` by default.
    const marked = ['yes', 'true', '1'].includes(markUnknown) ? translated.replace(/[^\s<>]*XYZ[^\s<>]*/g, '*$&') : translated;
    send(res, 200, { responseData: { translatedText: marked }, responseDetails: null, responseStatus: 200 });
  };

  const answer = (path: string, args: Record<string, string[]>, res: ServerResponse) =>
    (path === '/listPairs' ? send(res, 200, listPairsBody(pairs)) : translate(args, res));

  return startFakeServer<ApyRequest, ApyRule>({
    record: (raw, body, url) => {
      const contentType = raw.headers['content-type'];
      const args: Record<string, string[]> = {};
      const add = (params: URLSearchParams) => params.forEach((v, k) => (args[k] ??= []).push(v));
      add(url.searchParams);
      // Tornado reads form bodies only; a JSON body contributes no arguments (TOOLCHAIN.md).
      if (raw.method === 'POST' && contentType?.startsWith('application/x-www-form-urlencoded')) add(new URLSearchParams(body.toString('utf8')));
      return { method: raw.method ?? '', path: url.pathname, ...(contentType ? { contentType } : {}), args };
    },
    counts: (req) => req.path === '/translate',
    respond: (ex) => {
      const { req, res } = ex;
      if (req.path !== '/listPairs' && req.path !== '/translate') return explain(res, 404, 'Resource requested does not exist');
      if (req.method !== 'GET' && !(req.method === 'POST' && req.path === '/translate')) return explain(res, 405, 'Method Not Allowed');
      if (req.path === '/translate') ex.concurrent();
      const q = req.args.q?.at(-1) ?? '';
      const fault = ex.take((r) => (r.path ?? '/translate') === req.path && (!r.match || r.match(q)));
      answerFault(ex, fault, FAULTS, (own) => {
        switch (own?.type) {
          case 'explain': return explain(res, own.status, own.explanation);
          case 'no-text': return send(res, 200, { responseData: {}, responseDetails: null, responseStatus: 200 });
          default: return answer(req.path, req.args, res);
        }
      });
    },
  });
}
