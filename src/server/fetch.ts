/**
 * The providers' fetch on the server: node:http(s) with keep-alive agents in place of Node's
 * built-in fetch (undici) for what providers send, an http(s) URL with a method, headers, a string
 * body and a signal. At 200 concurrent clients undici's fetch took ~20% of the server's main thread
 * and much of its garbage (WHATWG streams, request clones, AbortSignals), and loading it ~10 MB of
 * RSS (docs/speed.md "Memory"). What providers rely on is kept: fetch's default headers, redirects
 * followed, gzip/deflate/br decoded, a network failure rejects with a TypeError (the engine's
 * "unreachable") and an abort with the signal's reason; the answer is a real Response (with `url`
 * and `redirected` unset). Anything else (a Request, a non-string body, another scheme or redirect
 * mode) goes to the built-in fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const MAX_REDIRECTS = 20;
/** As undici: an idle pooled connection is closed after 4 s, before servers' usual 5 s. */
const IDLE_SOCKET_MS = 4000;
/** As undici's headers and body timeouts: a connection silent this long fails the request. */
const SILENCE_MS = 300_000;
const agents = {
  'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};
/** What Node's fetch sends unless told otherwise. */
const DEFAULTS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);
/** Dropped when a redirect turns the request into a GET (fetch's request-body-header names). */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Dropped when a redirect leaves the origin. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function decoder(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/** One request and its whole (decoded) answer; rejects as fetch would. */
async function exchange(hop: Hop, signal: AbortSignal | undefined): Promise<{ res: IncomingMessage; bytes: Buffer<ArrayBuffer> }> {
  const secure = hop.url.protocol === 'https:';
  const req = (secure ? httpsRequest : httpRequest)(hop.url, { method: hop.method, headers: hop.headers, agent: agents[secure ? 'https:' : 'http:'] });
  const abort = () => req.destroy(new Error('aborted'));
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      // Kept for the request's life: a reset after the headers must not be an unhandled 'error'.
      req.on('error', reject);
      req.setTimeout(SILENCE_MS, () => req.destroy(new Error(`no data for ${SILENCE_MS / 1000} s`)));
      req.end(hop.body);
    });
    // Sockets and zlib hand out Buffers over plain ArrayBuffers (never shared memory).
    const chunks: Buffer<ArrayBuffer>[] = [];
    const sink = new Writable({
      write(chunk: Buffer<ArrayBuffer>, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const decode = decoder(res.headers['content-encoding']);
    await (decode ? pipeline(res, decode, sink) : pipeline(res, sink));
    return { res, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) };
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: e });
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

function answer(res: IncomingMessage, bytes: Buffer<ArrayBuffer>): Response {
  const status = res.statusCode ?? 0;
  const headers: [string, string][] = [];
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!, raw[i + 1]!]);
  return new Response(NULL_BODY.has(status) ? null : bytes, { status, statusText: res.statusMessage ?? '', headers });
}

async function follow(first: Hop, signal: AbortSignal | undefined): Promise<Response> {
  let hop = first;
  for (let redirects = 0; ; redirects++) {
    signal?.throwIfAborted();
    const { res, bytes } = await exchange(hop, signal);
    const location = res.headers.location;
    const status = res.statusCode ?? 0;
    if (!REDIRECTS.has(status) || location === undefined) return answer(res, bytes);
    const next = URL.canParse(location, hop.url) ? new URL(location, hop.url) : undefined;
    if (redirects >= MAX_REDIRECTS || !next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
      throw new TypeError('fetch failed', { cause: new Error(`redirect to ${location} not followed`) });
    }
    // As fetch: 303 (except after HEAD), and 301/302 after a POST, continue as a GET without a body.
    const toGet = status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST';
    const headers = { ...hop.headers };
    if (toGet) for (const h of BODY_HEADERS) delete headers[h];
    if (next.origin !== hop.url.origin) for (const h of CREDENTIALS) delete headers[h];
    hop = toGet ? { url: next, method: 'GET', headers, body: undefined } : { ...hop, url: next, headers };
  }
}

/** The providers' `fetch` (ProviderEnv) for the Node server; `fallback` serves what it does not. */
export function serverFetch(fallback: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init = {}) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    const url = href !== undefined && URL.canParse(href) ? new URL(href) : undefined;
    const body = init.body ?? undefined;
    const web = url?.protocol === 'http:' || url?.protocol === 'https:';
    if (!url || !web || (body !== undefined && typeof body !== 'string') || (init.redirect ?? 'follow') !== 'follow') {
      return fallback(input, init);
    }
    const headers = { ...DEFAULTS };
    if (body !== undefined) headers['content-type'] = 'text/plain;charset=UTF-8';
    for (const [k, v] of new Headers(init.headers)) headers[k] = v;
    const method = (init.method ?? 'GET').toUpperCase();
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return follow({ url, method, headers, body }, init.signal ?? undefined);
  };
}
