/**
 * An APy-compatible fake for the hostile-output and hostile-page e2e tests (127.0.0.1, random
 * port). Its answer to each translate request is whatever `reply` makes of it (default: the
 * marker translation of marker-apy.ts), so a test can return script, handlers, breakouts... as the
 * provider's "translation". The same server records every hit on `/canary/...` (the URL the
 * payloads try to fetch or load) and the time of every translate request (for rate bounds).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { markText } from './marker-apy';

export interface HostileRequest {
  /** APy's langpair, e.g. `eng|spa`. */
  langpair: string;
  format: string;
  q: string;
}

export type HostileReply = (req: HostileRequest) => string;

export interface HostileApy {
  url: string;
  /** `<url>/canary`: payloads fetch or load `<canary>/<anything>`. */
  canary: string;
  /** Paths of the canary hits, in order. */
  readonly canaryHits: string[];
  /** Every translate request (arrival time in ms since the epoch, and what it asked). */
  readonly translates: (HostileRequest & { at: number })[];
  reply: HostileReply;
  latencyMs: number;
  close(): Promise<void>;
}

const PAIRS = ['eng-spa', 'spa-eng', 'eng-cat', 'cat-eng', 'cat-spa', 'spa-cat'];

export async function startHostileApy(): Promise<HostileApy> {
  const canaryHits: string[] = [];
  const translates: (HostileRequest & { at: number })[] = [];
  const state: { reply: HostileReply; latencyMs: number } = { reply: ({ q }) => markText(q), latencyMs: 0 };
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname.startsWith('/canary')) {
        canaryHits.push(`${req.method ?? ''} ${url.pathname}${url.search}`);
        res.writeHead(204, { 'access-control-allow-origin': '*' });
        res.end();
        return;
      }
      const args = new URLSearchParams(url.search);
      if (req.method === 'POST') new URLSearchParams(Buffer.concat(body).toString('utf8')).forEach((v, k) => args.append(k, v));
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/listPairs') {
        return json(200, {
          responseData: PAIRS.map((p) => ({ sourceLanguage: p.split('-')[0], targetLanguage: p.split('-')[1] })),
          responseDetails: null,
          responseStatus: 200,
        });
      }
      if (url.pathname !== '/translate') return json(404, { status: 'error', code: 404, message: 'Not Found', explanation: 'no such path' });
      const request: HostileRequest = { langpair: args.getAll('langpair').at(-1) ?? '', format: args.getAll('format').at(-1) ?? 'html', q: args.getAll('q').at(-1) ?? '' };
      translates.push({ ...request, at: Date.now() });
      const answer = () => json(200, { responseData: { translatedText: state.reply(request) }, responseDetails: null, responseStatus: 200 });
      if (state.latencyMs > 0) setTimeout(answer, state.latencyMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    canary: `${url}/canary`,
    canaryHits,
    translates,
    get reply() {
      return state.reply;
    },
    set reply(fn: HostileReply) {
      state.reply = fn;
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
