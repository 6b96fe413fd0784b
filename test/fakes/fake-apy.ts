/**
 * A tiny fake of Apertium APy on 127.0.0.1 (random port). It checks requests as APy 0.11.7 does
 * (paths, methods, form or query arguments, known langpair, last `q` wins) and answers in APy's
 * shapes. "Translation" upper-cases text outside tags, so results are deterministic; words
 * containing "xyz" are unknown to it. Rules make it
 * fail, hang or lag for chosen texts; every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upperOutsideTags } from './fake-provider';

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

export interface ApyRule {
  path?: '/translate' | '/listPairs';
  /** Applies only to translate requests whose q passes. */
  match?: (q: string) => boolean;
  fault: ApyFault;
  /** Applies this many times, then is dropped; default: always. */
  times?: number;
}

export interface ApyRequest {
  method: string;
  path: string;
  contentType?: string;
  /** Arguments as APy sees them: query and form body together, every value in order. */
  args: Record<string, string[]>;
}

export interface FakeApy {
  url: string;
  requests: ApyRequest[];
  /** Translate requests whose client went away before the answer. */
  readonly aborted: number;
  /** Highest number of translate requests open at once. */
  readonly maxConcurrent: number;
  rule(rule: ApyRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

export const DEFAULT_APY_PAIRS: readonly string[] = [
  'eng-spa', 'spa-eng', 'eng-cat', 'cat-eng', 'spa-cat', 'spa-por', 'por-spa', 'spa-por_BR', 'eng-cat_valencia', 'fra-spa',
];

export async function startFakeApy(pairs: readonly string[] = DEFAULT_APY_PAIRS): Promise<FakeApy> {
  const requests: ApyRequest[] = [];
  let rules: ApyRule[] = [];
  let open = 0;
  let maxConcurrent = 0;
  let aborted = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const explain = (res: ServerResponse, status: number, explanation: string) =>
    send(res, status, { status: 'error', code: status, message: status === 400 ? 'Bad Request' : 'Error', explanation });

  const takeRule = (path: string, q: string): ApyFault | undefined => {
    const rule = rules.find((r) => (r.path ?? '/translate') === path && (!r.match || r.match(q)));
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.filter((r) => r !== rule);
    return rule.fault;
  };

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

  const answer = (path: string, args: Record<string, string[]>, res: ServerResponse) => {
    if (path === '/listPairs') {
      const data = pairs.map((p) => {
        const [sourceLanguage, targetLanguage] = p.split('-');
        return { sourceLanguage, targetLanguage };
      });
      return send(res, 200, { responseData: data, responseDetails: null, responseStatus: 200 });
    }
    return translate(args, res);
  };

  const applyFault = (fault: ApyFault | undefined, req: IncomingMessage, res: ServerResponse, path: string, args: Record<string, string[]>) => {
    if (!fault) return answer(path, args, res);
    switch (fault.type) {
      case 'explain': return explain(res, fault.status, fault.explanation);
      case 'status': return send(res, fault.status, fault.body ?? '<html><body>error</body></html>');
      case 'malformed': return send(res, 200, '{"responseData": {"translatedText": "oops"');
      case 'no-text': return send(res, 200, { responseData: {}, responseDetails: null, responseStatus: 200 });
      case 'hang': return undefined;
      case 'delay': {
        const timer = setTimeout(() => answer(path, args, res), fault.ms);
        res.on('close', () => clearTimeout(timer));
        return undefined;
      }
      case 'reset': return req.socket.destroy();
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const contentType = req.headers['content-type'];
      const args: Record<string, string[]> = {};
      const add = (params: URLSearchParams) => params.forEach((v, k) => (args[k] ??= []).push(v));
      add(url.searchParams);
      // Tornado reads form bodies only; a JSON body contributes no arguments (TOOLCHAIN.md).
      if (req.method === 'POST' && contentType?.startsWith('application/x-www-form-urlencoded')) {
        add(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      }
      requests.push({ method: req.method ?? '', path: url.pathname, ...(contentType ? { contentType } : {}), args });
      if (url.pathname !== '/listPairs' && url.pathname !== '/translate') return explain(res, 404, 'Resource requested does not exist');
      if (req.method !== 'GET' && !(req.method === 'POST' && url.pathname === '/translate')) return explain(res, 405, 'Method Not Allowed');
      if (url.pathname === '/translate') {
        open++;
        maxConcurrent = Math.max(maxConcurrent, open);
        res.on('close', () => {
          open--;
          if (!res.writableFinished) aborted++;
        });
      }
      return applyFault(takeRule(url.pathname, args.q?.at(-1) ?? ''), req, res, url.pathname, args);
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
    get maxConcurrent() {
      return maxConcurrent;
    },
    rule: (rule) => void rules.push({ ...rule }),
    clearRules: () => void (rules = []),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
