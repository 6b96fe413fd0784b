/**
 * The interface over HTTP: `/api/<function_name>` requests are handed raw (method, path, query,
 * body bytes) to the engine, which decodes and answers them; this file only moves bytes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HttpRequest, TranslationService } from '../core/service-types';

/** POST bodies carry at most a few Translate texts (1000 characters by default); 1 MiB is generous. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this much of an oversized body the connection is cut instead of drained. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

export interface HttpServerOptions {
  maxBodyBytes?: number;
  /** Where unexpected failures are reported (never with request text). */
  log?: (message: string) => void;
}

export function createHttpServer(service: TranslationService, options: HttpServerOptions = {}): Server {
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const log = options.log ?? ((m: string) => console.error(m));
  return createServer((req, res) => {
    handle(service, req, res, maxBody).catch((e: unknown) => {
      log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (!res.headersSent && !res.destroyed) send(res, 500, { err: 'internal server error' });
      else res.destroy();
    });
  });
}

async function handle(service: TranslationService, req: IncomingMessage, res: ServerResponse, maxBody: number): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (!path.startsWith('/api/')) {
    req.resume();
    return send(res, 404, { err: `not found: functions are served under /api/<function_name>` });
  }
  const body = await readBody(req, maxBody);
  if (body === 'gone') return;
  if (body === 'too-large') {
    return send(res, 413, { err: `request body over ${maxBody} bytes` }, { connection: 'close' });
  }
  // The caller hung up: abort the engine's provider requests for it.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const request: HttpRequest = { method: req.method ?? 'GET', path, query };
  if (body.length > 0) request.body = body;
  const contentType = req.headers['content-type'];
  if (contentType !== undefined) request.contentType = contentType;
  const origin = req.headers.origin;
  if (origin !== undefined) request.origin = origin;
  const reply = await service.http(request, { signal: gone.signal, ...(origin !== undefined ? { origin } : {}) });
  if (res.destroyed) return;
  send(res, reply.status, reply.body, reply.headers);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // The string goes to the socket as it is: a Buffer copy of every answer is garbage under load.
  const json = JSON.stringify(body ?? null);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers, 'content-length': String(Buffer.byteLength(json)) });
  res.end(json);
}

/**
 * The body bytes; 'too-large' past the cap (the rest is drained so the client gets to read the
 * 413 instead of a reset); 'gone' when the connection closed first.
 */
function readBody(req: IncomingMessage, max: number): Promise<Uint8Array | 'too-large' | 'gone'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) req.destroy();
      else if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max || declared > max ? 'too-large' : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) resolve('gone');
    });
  });
}
