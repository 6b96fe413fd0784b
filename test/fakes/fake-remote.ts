/**
 * Peers for remote.ts. `startEngine`: the real thing, the project's own service behind its HTTP
 * server with a fake provider. `startFakeRemote`: a small fake of a server speaking this interface,
 * on 127.0.0.1 (random port), for the error cases a real engine will not produce on demand. It records every request (query and form body
 * apart), checks the key, and answers what its rules say; without a rule it answers like a healthy
 * server (upper-cased text, tr_obj or trd_obj shapes).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createService } from '../../src/core/service';
import type { Settings } from '../../src/core/settings/types';
import { memoryStore } from '../../src/core/storage';
import { createHttpServer } from '../../src/server/http';
import { settingsFor } from '../unit/service/harness';
import { fakeProvider, type FakeOptions, type FakeStats } from './fake-provider';

/** The key the real engine issues to its one client. */
export const ENGINE_KEY = 'team-key-0001';

export interface Engine {
  url: string;
  stats: FakeStats;
  close(): Promise<void>;
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const shut = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

/** A real engine with one fake provider (upper-cases; `options` make it hang, fail ...), key ENGINE_KEY. */
export async function startEngine(options: FakeOptions = {}, extra: Partial<Settings> = {}): Promise<Engine> {
  const { module, stats } = fakeProvider(options);
  const settings = settingsFor([module], { keys: [{ name: 'team', key: ENGINE_KEY }], ...extra });
  const server = createHttpServer(createService({ settings: async () => settings, providers: [module], store: memoryStore(), fetch: globalThis.fetch }));
  return { url: await listen(server), stats, close: () => shut(server) };
}

export type RemoteFault =
  | { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** 200 with this JSON body. */
  | { type: 'body'; body: unknown }
  | { type: 'malformed' }
  | { type: 'hang' }
  /** Answers like a healthy server after `ms`. */
  | { type: 'delay'; ms: number }
  | { type: 'reset' };

export interface RemoteRule {
  fn?: 'Translate' | 'GetLanguages';
  /** Applies only to Translate requests whose first dat passes. */
  match?: (dat: string) => boolean;
  fault: RemoteFault;
  times?: number;
}

export interface RemoteRequest {
  method: string;
  path: string;
  contentType?: string;
  query: Record<string, string[]>;
  form: Record<string, string[]>;
}

export interface FakeRemote {
  url: string;
  key: string;
  requests: RemoteRequest[];
  readonly aborted: number;
  readonly maxConcurrent: number;
  rule(rule: RemoteRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

const collect = (params: URLSearchParams): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  params.forEach((v, k) => (out[k] ??= []).push(v));
  return out;
};

export async function startFakeRemote(key = 'remote-key-0001'): Promise<FakeRemote> {
  const requests: RemoteRequest[] = [];
  let rules: RemoteRule[] = [];
  let aborted = 0;
  let open = 0;
  let maxConcurrent = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const takeRule = (fn: string, dat: string): RemoteFault | undefined => {
    const rule = rules.find((r) => (r.fn ?? 'Translate') === fn && (!r.match || r.match(dat)));
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.filter((r) => r !== rule);
    return rule.fault;
  };

  const healthy = (fn: string, p: Record<string, string[]>, res: ServerResponse) => {
    if (fn === 'GetLanguages') return send(res, 200, { src: ['en', 'es'], trg: ['en', 'es'], exclude: [] });
    const dat = p.dat ?? [];
    if (p.frm?.[0] === 'html') {
      return send(res, 200, [{ dat: (dat.join(' ')).toUpperCase(), rid: 'fake.ts', cnt: 1, sum: 1, length: 1 }]);
    }
    return send(res, 200, { dat: [{ rid: 'fake.ts', text: dat.map((d) => d.toUpperCase()), length: dat.join('').length }] });
  };

  const handle = (req: IncomingMessage, res: ServerResponse, r: RemoteRequest) => {
    const fn = r.path.slice('/api/'.length);
    if (!r.path.startsWith('/api/') || !['Translate', 'GetLanguages', 'GetRoutes', 'GetProviders'].includes(fn)) {
      return send(res, 404, { err: `unknown function "${fn}"` });
    }
    const p = { ...r.query };
    for (const [k, v] of Object.entries(r.form)) p[k] = [...(p[k] ?? []), ...v];
    if (p.auth?.[0] !== key) return send(res, 403, { err: 'unknown authorization key' });
    if (fn === 'Translate') {
      open++;
      maxConcurrent = Math.max(maxConcurrent, open);
      res.on('close', () => open--);
    }
    const fault = takeRule(fn, p.dat?.[0] ?? '');
    if (!fault) return healthy(fn, p, res);
    switch (fault.type) {
      case 'status': return send(res, fault.status, fault.body ?? { err: 'fake failure' }, fault.headers);
      case 'body': return send(res, 200, fault.body);
      case 'malformed': return send(res, 200, '{"dat": [');
      case 'hang': return undefined;
      case 'delay': {
        const timer = setTimeout(() => healthy(fn, p, res), fault.ms);
        res.on('close', () => clearTimeout(timer));
        return undefined;
      }
      case 'reset': return req.socket.destroy();
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const contentType = req.headers['content-type'];
      const form = req.method === 'POST' && contentType?.startsWith('application/x-www-form-urlencoded')
        ? collect(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
        : {};
      const r: RemoteRequest = { method: req.method ?? '', path: url.pathname, query: collect(url.searchParams), form, ...(contentType ? { contentType } : {}) };
      requests.push(r);
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
      handle(req, res, r);
    });
  });
  return {
    url: await listen(server),
    key,
    requests,
    get aborted() {
      return aborted;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    rule: (rule) => void rules.push({ ...rule }),
    clearRules: () => void (rules = []),
    close: () => shut(server),
  };
}
