import { describe, expect, it } from 'vitest';
import { createFetchListener, isApiRequest } from '../../../src/background/fetch-route';
import type { CallOptions, HttpRequest } from '../../../src/core/service-types';
import type { ApiReply } from '../../../src/core/types';
import { SELF } from './fakes';

function fakeService(reply: ApiReply) {
  const requests: { request: HttpRequest; options?: CallOptions }[] = [];
  let flushes = 0;
  return {
    requests,
    flushes: () => flushes,
    async http(request: HttpRequest, options?: CallOptions) {
      requests.push({ request, ...(options ? { options } : {}) });
      return reply;
    },
    async flush() {
      flushes += 1;
    },
  };
}

/** A fetch event as the worker gets it; `response` is what respondWith was given. */
function dispatch(listener: ReturnType<typeof createFetchListener>, request: Request) {
  let response: Promise<Response> | undefined;
  const waits: Promise<unknown>[] = [];
  listener({ request, respondWith: (r) => (response = r), waitUntil: (p) => void waits.push(p) });
  return { response, waits };
}

describe('isApiRequest', () => {
  it('takes /api/ on our own origin only', () => {
    expect(isApiRequest(new URL(`${SELF.origin}/api/Translate?x=1`), SELF.origin)).toBe(true);
    expect(isApiRequest(new URL(`${SELF.origin}/src/ui/options/index.html`), SELF.origin)).toBe(false);
    expect(isApiRequest(new URL(`${SELF.origin}/apix`), SELF.origin)).toBe(false);
    expect(isApiRequest(new URL('http://127.0.0.1:2737/api/Translate'), SELF.origin)).toBe(false);
    expect(isApiRequest(new URL('chrome-extension://other/api/Translate'), SELF.origin)).toBe(false);
  });
});

describe('fetch listener', () => {
  // Node's Request refuses chrome-extension: URLs, so the tests use an http origin as "our" origin.
  const ORIGIN = 'http://ext.test';

  it('leaves everything that is not /api/ to the network', () => {
    const service = fakeService({ status: 200, body: {} });
    const { response } = dispatch(createFetchListener(service, ORIGIN), new Request(`${ORIGIN}/assets/x.js`));
    expect(response).toBeUndefined();
    expect(service.requests).toEqual([]);
  });

  it('gives the service the raw request as trusted and answers its reply as JSON', async () => {
    const service = fakeService({ status: 200, body: { dat: [{ rid: 'apertium.ts', text: ['Hola'], length: 4 }] } });
    const request = new Request(`${ORIGIN}/api/Translate?src=en&trg=es&dat=Hello%20%C3%A9`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'dat=%C3%A9t%C3%A9',
    });
    const { response, waits } = dispatch(createFetchListener(service, ORIGIN), request);
    const res = await response!;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ dat: [{ rid: 'apertium.ts', text: ['Hola'], length: 4 }] });
    const [{ request: seen, options }] = service.requests as [{ request: HttpRequest; options: CallOptions }];
    expect(seen).toMatchObject({
      method: 'POST',
      path: '/api/Translate',
      query: 'src=en&trg=es&dat=Hello%20%C3%A9',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(new TextDecoder().decode(seen.body)).toBe('dat=%C3%A9t%C3%A9');
    expect(options).toMatchObject({ trusted: true });
    await Promise.all(waits);
    expect(service.flushes()).toBe(1);
  });

  it('passes the status and headers of an error reply through', async () => {
    const service = fakeService({ status: 405, body: { err: 'method PUT not allowed' }, headers: { Allow: 'GET, POST' } });
    const { response } = dispatch(createFetchListener(service, ORIGIN), new Request(`${ORIGIN}/api/GetProviders`, { method: 'PUT' }));
    const res = await response!;
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(await res.json()).toEqual({ err: 'method PUT not allowed' });
  });

  it('turns a service that throws into a 500 with {err}', async () => {
    const service = { ...fakeService({ status: 200, body: {} }), http: () => Promise.reject(new Error('boom')) };
    const { response } = dispatch(createFetchListener(service, ORIGIN), new Request(`${ORIGIN}/api/GetProviders`));
    const res = await response!;
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ err: 'boom' });
  });
});
