import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toProviderError } from '../../../src/core/errors';
import { serverFetch } from '../../../src/server/fetch';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A loopback server that records each request and answers with `reply`; also counts connections. */
async function serve(reply: (req: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(r);
      reply(r, res);
    });
  });
  server.on('connection', () => (connections += 1));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, connections: () => connections };
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};

describe('serverFetch', () => {
  it('sends method, headers and body as fetch does and answers a real Response', async () => {
    const peer = await serve((_req, res) => json(res, 201, { ok: 'ü' }, { 'retry-after': '3' }));
    const res = await serverFetch()(`${peer.base}/translate?x=1`, { method: 'POST', headers: { 'X-Key': 'k', 'content-type': 'application/x-www-form-urlencoded' }, body: 'q=h%C3%A9' });
    expect(res).toBeInstanceOf(Response);
    expect([res.status, res.ok, res.statusText, res.headers.get('retry-after')]).toEqual([201, true, 'Created', '3']);
    expect(await res.json()).toEqual({ ok: 'ü' });
    const [seen] = peer.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/translate?x=1', body: 'q=h%C3%A9' });
    expect(seen?.headers).toMatchObject({
      'x-key': 'k',
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '9',
      accept: '*/*',
      'user-agent': 'node',
    });
  });

  it('reuses a kept-alive connection and decodes gzip answers', async () => {
    const peer = await serve((_req, res) => {
      res.writeHead(500, { 'content-encoding': 'gzip' });
      res.end(gzipSync('{"err":"down"}'));
    });
    const f = serverFetch();
    for (let i = 0; i < 3; i++) {
      const res = await f(`${peer.base}/`);
      expect([res.status, res.ok, await res.text()]).toEqual([500, false, '{"err":"down"}']);
    }
    expect(peer.connections()).toBe(1);
  });

  it('follows redirects: a 302 after POST becomes a GET, a 307 keeps the body, credentials stay in their origin', async () => {
    const other = await serve((_req, res) => json(res, 200, 'moved'));
    const peer = await serve((req, res) => {
      if (req.url === '/a') res.writeHead(302, { location: '/b' }).end();
      else if (req.url === '/b') res.writeHead(307, { location: '/c' }).end();
      else if (req.url === '/c') res.writeHead(308, { location: `${other.base}/d` }).end();
      else json(res, 200, req.method);
    });
    const res = await serverFetch()(`${peer.base}/a`, { method: 'POST', headers: { authorization: 'Bearer s' }, body: 'x=1' });
    expect(await res.json()).toBe('moved');
    expect(peer.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/a', 'x=1'],
      ['GET', '/b', ''],
      ['GET', '/c', ''],
    ]);
    expect(other.seen[0]).toMatchObject({ method: 'GET', url: '/d' });
    expect(peer.seen[2]?.headers.authorization).toBe('Bearer s');
    expect(other.seen[0]?.headers.authorization).toBeUndefined();

    const keep = await serve((req, res) => (req.url === '/p' ? res.writeHead(307, { location: '/q' }).end() : json(res, 200, [req.method, req.body])));
    expect(await (await serverFetch()(`${keep.base}/p`, { method: 'POST', body: 'y=2' })).json()).toEqual(['POST', 'y=2']);
  });

  it('gives up on a redirect loop with a TypeError', async () => {
    const peer = await serve((_req, res) => res.writeHead(302, { location: '/again' }).end());
    await expect(serverFetch()(`${peer.base}/`)).rejects.toThrow(TypeError);
    expect(peer.seen).toHaveLength(21);
  });

  it('an unreachable server is a TypeError, which the engine reads as 503 unreachable', async () => {
    const peer = await serve(() => undefined);
    servers[0]!.close();
    const err = await serverFetch()(`${peer.base}/`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(toProviderError(err).code).toBe(503);
  });

  it('rejects with the signal reason when aborted, before or during the request', async () => {
    const peer = await serve(() => undefined); // never answers
    const ac = new AbortController();
    const pending = serverFetch()(`${peer.base}/`, { signal: ac.signal });
    await vi.waitFor(() => expect(peer.seen).toHaveLength(1));
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(serverFetch()(`${peer.base}/`, { signal: AbortSignal.timeout(20) })).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(serverFetch()(`${peer.base}/`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(toProviderError(await serverFetch()(`${peer.base}/`, { signal: AbortSignal.timeout(20) }).catch((e: unknown) => e)).code).toBe(408);
  });

  it('answers 204 with a null body', async () => {
    const peer = await serve((_req, res) => res.writeHead(204).end());
    const res = await serverFetch()(`${peer.base}/`);
    expect([res.status, res.body, await res.text()]).toEqual([204, null, '']);
  });

  it('hands what it does not serve to the built-in fetch', async () => {
    const fallback = vi.fn(async () => new Response('fallback'));
    const f = serverFetch(fallback);
    await f('http://127.0.0.1:9/', { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    await f(new Request('http://127.0.0.1:9/'));
    await f('data:text/plain,hi');
    await f('http://127.0.0.1:9/', { redirect: 'manual' });
    expect(fallback).toHaveBeenCalledTimes(4);
  });
});
