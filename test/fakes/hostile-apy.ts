/**
 * An APy-compatible fake for the hostile-output and hostile-page e2e tests (127.0.0.1, random
 * port). Its answer to each translate request is whatever `reply` makes of it (default: the
 * marker translation of marker-apy.ts), so a test can return script, handlers, breakouts... as the
 * provider's "translation". The same server records every hit on `/canary/...` (the URL the
 * payloads try to fetch or load) and the time of every translate request (for rate bounds).
 */
import { markText, serveApyLike } from './marker-apy';

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
  const server = await serveApyLike({
    pairs: PAIRS,
    latencyMs: () => state.latencyMs,
    translate: (args) => {
      const request: HostileRequest = { langpair: args.getAll('langpair').at(-1) ?? '', format: args.getAll('format').at(-1) ?? 'html', q: args.getAll('q').at(-1) ?? '' };
      translates.push({ ...request, at: Date.now() });
      return () => state.reply(request);
    },
    elsewhere: (raw, res, url) => {
      if (!url.pathname.startsWith('/canary')) return false;
      canaryHits.push(`${raw.method ?? ''} ${url.pathname}${url.search}`);
      res.writeHead(204, { 'access-control-allow-origin': '*' });
      res.end();
      return true;
    },
  });
  return {
    url: server.url,
    canary: `${server.url}/canary`,
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
    close: server.close,
  };
}
