/**
 * A generic fault server on 127.0.0.1: a proxy in front of any provider fake that passes every
 * request through, except the requests the test calls "translate" requests while a fault is armed,
 * which get the fault instead. So one table of faults covers every adapter without teaching each
 * fake every fault. Records requests, aborted connections and faulted answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonSender, serve } from './fake-service';

export type Fault =
  /** Any status with a body (a string as is, anything else as JSON) and headers. */
  | { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** 200 with a truncated JSON document. */
  | { type: 'malformed' }
  /** 200 with this JSON value (valid JSON of the wrong shape, or a service's in-band refusal). */
  | { type: 'json'; body: unknown }
  /** The upstream's own answer, passed through `transform` (e.g. one translation fewer). */
  | { type: 'transform'; transform: (body: unknown) => unknown }
  /** 200 with an empty body. */
  | { type: 'empty' }
  /** 200 headers announcing a long body, a few bytes of it, then the connection is destroyed. */
  | { type: 'reset' }
  /** 200 headers, then one byte every `intervalMs`, never finishing. */
  | { type: 'drip'; intervalMs: number }
  /** Accepts the request and never answers. */
  | { type: 'hang' };

export interface FaultRequest {
  method: string;
  path: string;
  faulted: boolean;
}

export interface FaultServer {
  /** The upstream's URL with this server's origin (its path, e.g. `/v1`, kept). */
  url: string;
  requests: FaultRequest[];
  /** Connections closed by the client before the answer was complete. */
  readonly aborted: number;
  /** Connections still open (a hang or a drip nobody cancelled shows here). */
  readonly open: number;
  arm(fault: Fault): void;
  disarm(): void;
  close(): Promise<void>;
}

/** Drops the last element of the outermost array: "one translation fewer than texts sent". */
export function dropLast(body: unknown): unknown {
  if (Array.isArray(body)) return body.slice(0, -1);
  if (typeof body === 'object' && body !== null) {
    const entries = Object.entries(body as Record<string, unknown>);
    for (const [k, v] of entries) {
      if (Array.isArray(v) || (typeof v === 'object' && v !== null)) {
        const t = dropLast(v);
        if (t !== v) return { ...(body as Record<string, unknown>), [k]: t };
      }
    }
  }
  return body;
}

export async function startFaultServer(upstream: string, isTranslate: (method: string, path: string) => boolean): Promise<FaultServer> {
  const up = new URL(upstream);
  const requests: FaultRequest[] = [];
  let fault: Fault | undefined;
  let aborted = 0;
  let open = 0;
  const timers = new Set<NodeJS.Timeout>();

  const json = jsonSender('application/json; charset=utf-8');

  const forward = async (req: IncomingMessage, body: Buffer): Promise<{ status: number; type: string; text: string }> => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
    }
    const r = await fetch(`${up.origin}${req.url ?? '/'}`, { method: req.method, headers, body: body.length > 0 ? new Uint8Array(body) : undefined });
    return { status: r.status, type: r.headers.get('content-type') ?? 'application/json', text: await r.text() };
  };

  const answerFault = async (f: Fault, req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    switch (f.type) {
      case 'status':
        return json(res, f.status, f.body ?? '<html><body>error</body></html>', f.headers);
      case 'malformed':
        return json(res, 200, '{"translations": [{"text": "oops"');
      case 'json':
        return json(res, 200, f.body);
      case 'transform': {
        const r = await forward(req, body);
        let parsed: unknown;
        try {
          parsed = JSON.parse(r.text);
        } catch {
          return json(res, r.status, r.text);
        }
        return json(res, r.status, f.transform(parsed));
      }
      case 'empty':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end();
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('{"translations": [{"te');
        return void setTimeout(() => req.socket.destroy(), 20);
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), f.intervalMs);
        timers.add(t);
        res.on('close', () => (clearInterval(t), timers.delete(t)));
        return undefined;
      }
      case 'hang':
        return undefined;
    }
  };

  const server = await serve((req, res, body, url) => {
    const method = req.method ?? '';
    const f = fault && isTranslate(method, url.pathname) ? fault : undefined;
    requests.push({ method, path: url.pathname, faulted: f !== undefined });
    open++;
    res.on('close', () => {
      open--;
      if (!res.writableFinished) aborted++;
    });
    const run = f
      ? answerFault(f, req, res, body)
      : forward(req, body).then((r) => {
          res.writeHead(r.status, { 'content-type': r.type });
          res.end(r.text);
        });
    run.catch(() => {
      if (!res.headersSent) json(res, 599, { error: 'fault server: upstream unreachable' });
      else res.destroy();
    });
  });
  return {
    url: `${server.url}${up.pathname.replace(/\/+$/, '')}`,
    requests,
    get aborted() {
      return aborted;
    },
    get open() {
      return open;
    },
    arm: (f) => void (fault = f),
    disarm: () => void (fault = undefined),
    close: () => {
      for (const t of timers) clearInterval(t);
      return server.close();
    },
  };
}
