/**
 * An APy-compatible fake (127.0.0.1, random port) whose "translation" marks every run of text
 * outside tags that holds a letter: `word` becomes `⟦word⟧`. Page tests count the marks to see
 * which text was translated. Optional latency per request, to measure how soon the first screen
 * is written with a provider of latency L.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MARK_OPEN = '⟦';
export const MARK_CLOSE = '⟧';

export interface MarkerApy {
  url: string;
  /** Translate requests answered so far, and the characters of `q` they carried. */
  readonly requests: number;
  readonly chars: number;
  latencyMs: number;
  close(): Promise<void>;
}

const PAIRS = ['eng-spa', 'spa-eng', 'eng-cat', 'cat-eng', 'eng-fra', 'fra-eng', 'eng-por', 'por-eng', 'eng-ara'];

export function markText(q: string): string {
  return q.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) => {
    if (tag !== undefined) return tag;
    const t = text ?? '';
    if (!/\p{L}/u.test(t)) return t;
    const lead = /^\s*/.exec(t)![0];
    const trail = /\s*$/.exec(t)![0];
    return `${lead}${MARK_OPEN}${t.trim()}${MARK_CLOSE}${trail}`;
  });
}

/** `extraPairs`: more `xxx-yyy` pairs to list (a second route through an interlingua). */
export async function startMarkerApy(latencyMs = 0, extraPairs: readonly string[] = []): Promise<MarkerApy> {
  let requests = 0;
  let chars = 0;
  const state = { latencyMs };
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const args = new URLSearchParams(url.search);
      if (req.method === 'POST') new URLSearchParams(Buffer.concat(body).toString('utf8')).forEach((v, k) => args.append(k, v));
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/listPairs') {
        return json(200, {
          responseData: [...PAIRS, ...extraPairs].map((p) => ({ sourceLanguage: p.split('-')[0], targetLanguage: p.split('-')[1] })),
          responseDetails: null,
          responseStatus: 200,
        });
      }
      if (url.pathname !== '/translate') return json(404, { status: 'error', code: 404, message: 'Not Found', explanation: 'no such path' });
      const q = args.getAll('q').at(-1) ?? '';
      requests++;
      chars += q.length;
      const answer = () => json(200, { responseData: { translatedText: markText(q) }, responseDetails: null, responseStatus: 200 });
      if (state.latencyMs > 0) setTimeout(answer, state.latencyMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get chars() {
      return chars;
    },
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(v: number) {
      state.latencyMs = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
