import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallOptions, HttpRequest, TranslationService } from '../../../src/core/service-types';
import type { ApiReply } from '../../../src/core/types';
import { createHttpServer } from '../../../src/server/http';

/** A service that records what the server hands it and answers what the test says. */
function fakeService(answer: (req: HttpRequest, options: CallOptions) => Promise<ApiReply> = async () => ({ status: 200, body: { ok: true } })) {
  const calls: { req: HttpRequest; options: CallOptions }[] = [];
  const service: TranslationService = {
    call: () => Promise.reject(new Error('not used by the server')),
    http: (req, options = {}) => {
      calls.push({ req, options });
      return answer(req, options);
    },
    flush: async () => undefined,
  };
  return { service, calls };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function start(service: TranslationService, maxBodyBytes?: number, log?: (m: string) => void): Promise<string> {
  server = createHttpServer(service, { ...(maxBodyBytes ? { maxBodyBytes } : {}), ...(log ? { log } : {}) });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createHttpServer', () => {
  it('hands the raw request to the service and writes its reply as JSON', async () => {
    const { service, calls } = fakeService(async () => ({ status: 405, body: { err: 'nope', n: 'ü' }, headers: { Allow: 'GET, POST' } }));
    const base = await start(service);
    const res = await fetch(`${base}/api/GetRoutes?auth=k&src=%C3%A9&dat=a+b`, { headers: { origin: 'http://127.0.0.1:5173' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(await res.json()).toEqual({ err: 'nope', n: 'ü' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.req).toEqual({ method: 'GET', path: '/api/GetRoutes', query: 'auth=k&src=%C3%A9&dat=a+b', origin: 'http://127.0.0.1:5173' });
  });

  it('passes POST bodies as bytes, unchanged, with their content type', async () => {
    const { service, calls } = fakeService();
    const base = await start(service);
    const bytes = new Uint8Array([0x64, 0x61, 0x74, 0x3d, 0xff, 0xfe, 0x26]); // "dat=" + invalid UTF-8 + "&"
    const res = await fetch(`${base}/api/Translate?src=en`, { method: 'POST', body: bytes, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(200);
    const req = calls[0]?.req;
    expect(req).toMatchObject({ method: 'POST', path: '/api/Translate', query: 'src=en', contentType: 'application/x-www-form-urlencoded' });
    expect(Array.from(req?.body ?? [])).toEqual(Array.from(bytes));
  });

  it('answers 404 JSON outside /api/ without calling the service', async () => {
    const { service, calls } = fakeService();
    const base = await start(service);
    for (const path of ['/', '/api', '/apix/Translate', '/favicon.ico']) {
      const res = await fetch(base + path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(typeof ((await res.json()) as { err: unknown }).err).toBe('string');
    }
    expect(calls).toHaveLength(0);
  });

  it('refuses a body over the cap with 413', async () => {
    const { service, calls } = fakeService();
    const base = await start(service, 100);
    const ok = await fetch(`${base}/api/Translate`, { method: 'POST', body: 'a'.repeat(100), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(ok.status).toBe(200);
    const res = await fetch(`${base}/api/Translate`, { method: 'POST', body: 'a'.repeat(101), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { err: string }).err).toMatch(/100 bytes/);
    expect(calls).toHaveLength(1);
  });

  it('aborts the call when the client goes away', async () => {
    let seen: AbortSignal | undefined;
    const { service } = fakeService((_req, options) => {
      seen = options.signal;
      return new Promise((resolve) => options.signal?.addEventListener('abort', () => resolve({ status: 408, body: {} })));
    });
    const base = await start(service);
    const req = httpRequest(`${base}/api/Translate?dat=x`);
    req.on('error', () => undefined);
    req.end();
    await vi.waitFor(() => expect(seen).toBeDefined());
    expect(seen?.aborted).toBe(false);
    req.destroy();
    await vi.waitFor(() => expect(seen?.aborted).toBe(true));
  });

  it('answers 500 JSON when the service throws, and logs it', async () => {
    const logs: string[] = [];
    const { service } = fakeService(() => Promise.reject(new Error('boom')));
    const base = await start(service, undefined, (m) => logs.push(m));
    const res = await fetch(`${base}/api/GetProviders`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ err: 'internal server error' });
    expect(logs.join('\n')).toMatch(/boom/);
  });
});
