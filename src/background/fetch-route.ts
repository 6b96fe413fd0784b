/**
 * `/api/<function_name>` on the extension's own origin, served from the worker's fetch event
 * (decisions.md "Where the interface is served"). Chromium delivers these events only for the
 * extension's own pages (TOOLCHAIN.md), so every caller here is the extension itself: trusted.
 */
import type { HttpRequest, TranslationService } from '../core/service-types';
import type { ApiReply } from '../core/types';
import { originOf } from './senders';

export const API_PREFIX = '/api/';

/** Whether the worker should answer this request at all; everything else goes to the network. */
export function isApiRequest(url: URL, selfOrigin: string): boolean {
  return originOf(url) === selfOrigin && url.pathname.startsWith(API_PREFIX);
}

export async function toHttpRequest(request: Request, url: URL): Promise<HttpRequest> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return {
    method: request.method,
    path: url.pathname,
    // Raw: the service checks that percent-decoding yields UTF-8 itself.
    query: url.search.replace(/^\?/, ''),
    ...(body !== undefined && body.length > 0 ? { body } : {}),
    ...(request.headers.get('content-type') ? { contentType: request.headers.get('content-type') ?? undefined } : {}),
    origin: originOf(url),
  };
}

export function toResponse(reply: ApiReply, method: string): Response {
  const headers = { 'content-type': 'application/json; charset=utf-8', ...reply.headers };
  return new Response(method === 'HEAD' ? null : JSON.stringify(reply.body), { status: reply.status, headers });
}

export async function serveApi(service: Pick<TranslationService, 'http'>, request: Request): Promise<Response> {
  const url = new URL(request.url);
  try {
    const reply = await service.http(await toHttpRequest(request, url), { trusted: true, origin: originOf(url) });
    return toResponse(reply, request.method);
  } catch (e) {
    // The service answers errors as replies; this is only for a bug, still in the interface's shape.
    return toResponse({ status: 500, body: { err: e instanceof Error ? e.message : String(e) } }, request.method);
  }
}

interface FetchEventLike {
  request: Request;
  respondWith(response: Promise<Response>): void;
  waitUntil(promise: Promise<unknown>): void;
}

export function createFetchListener(service: Pick<TranslationService, 'http' | 'flush'>, selfOrigin: string) {
  return (event: FetchEventLike): void => {
    if (!isApiRequest(new URL(event.request.url), selfOrigin)) return;
    const response = serveApi(service, event.request);
    event.respondWith(response);
    event.waitUntil(response.then(() => service.flush()).catch(() => undefined));
  };
}
