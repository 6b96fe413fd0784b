/**
 * Peers for remote.ts. `startEngine`: the real thing, the project's own service behind its HTTP
 * server with a fake provider. `startFakeRemote`: a small fake of a server speaking this interface,
 * on 127.0.0.1 (random port), for the error cases a real engine will not produce on demand. It records every request (query and form body
 * apart), checks the key, and answers what its rules say; without a rule it answers like a healthy
 * server (upper-cased text, tr_obj or trd_obj shapes).
 */
import type { ServerResponse } from 'node:http';
import { createService } from '../../src/core/service';
import type { Settings } from '../../src/core/settings/types';
import { memoryStore } from '../../src/core/storage';
import { createHttpServer } from '../../src/server/http';
import { settingsFor } from '../unit/service/harness';
import { fakeProvider, type FakeOptions, type FakeStats } from './fake-provider';
import { answerFault, jsonSender, listen, shut, startFakeServer, type CommonFault, type FakeServer, type Rule } from './fake-service';

/** The key the real engine issues to its one client. */
export const ENGINE_KEY = 'team-key-0001';

export interface Engine {
  url: string;
  stats: FakeStats;
  close(): Promise<void>;
}

/** A real engine with one fake provider (upper-cases; `options` make it hang, fail ...), key ENGINE_KEY. */
export async function startEngine(options: FakeOptions = {}, extra: Partial<Settings> = {}): Promise<Engine> {
  const { module, stats } = fakeProvider(options);
  const settings = settingsFor([module], { keys: [{ name: 'team', key: ENGINE_KEY }], ...extra });
  const server = createHttpServer(createService({ settings: async () => settings, providers: [module], store: memoryStore(), fetch: globalThis.fetch }));
  return { url: await listen(server), stats, close: () => shut(server) };
}

export type RemoteFault =
  | CommonFault
  /** 200 with this JSON body. */
  | { type: 'body'; body: unknown };

export interface RemoteRule extends Rule<RemoteFault> {
  fn?: 'Translate' | 'GetLanguages';
  /** Applies only to Translate requests whose first dat passes. */
  match?: (dat: string) => boolean;
}

export interface RemoteRequest {
  method: string;
  path: string;
  contentType?: string;
  query: Record<string, string[]>;
  form: Record<string, string[]>;
}

/** `maxConcurrent` counts Translate requests only. */
export interface FakeRemote extends FakeServer<RemoteRequest, RemoteRule> {
  key: string;
}

const collect = (params: URLSearchParams): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  params.forEach((v, k) => (out[k] ??= []).push(v));
  return out;
};

const send = jsonSender('application/json; charset=utf-8');
const FAULTS = { send, malformed: '{"dat": [', statusBody: { err: 'fake failure' } };

const healthy = (fn: string, p: Record<string, string[]>, res: ServerResponse) => {
  if (fn === 'GetLanguages') return send(res, 200, { src: ['en', 'es'], trg: ['en', 'es'], exclude: [] });
  const dat = p.dat ?? [];
  if (p.frm?.[0] === 'html') {
    return send(res, 200, [{ dat: (dat.join(' ')).toUpperCase(), rid: 'fake.ts', cnt: 1, sum: 1, length: 1 }]);
  }
  return send(res, 200, { dat: [{ rid: 'fake.ts', text: dat.map((d) => d.toUpperCase()), length: dat.join('').length }] });
};

export async function startFakeRemote(key = 'remote-key-0001'): Promise<FakeRemote> {
  const fake = await startFakeServer<RemoteRequest, RemoteRule>({
    record: (raw, body, url) => {
      const contentType = raw.headers['content-type'];
      const form = raw.method === 'POST' && contentType?.startsWith('application/x-www-form-urlencoded') ? collect(new URLSearchParams(body.toString('utf8'))) : {};
      return { method: raw.method ?? '', path: url.pathname, query: collect(url.searchParams), form, ...(contentType ? { contentType } : {}) };
    },
    respond: (ex) => {
      const { req, res } = ex;
      const fn = req.path.slice('/api/'.length);
      if (!req.path.startsWith('/api/') || !['Translate', 'GetLanguages', 'GetRoutes', 'GetProviders'].includes(fn)) {
        return send(res, 404, { err: `unknown function "${fn}"` });
      }
      const p = { ...req.query };
      for (const [k, v] of Object.entries(req.form)) p[k] = [...(p[k] ?? []), ...v];
      if (p.auth?.[0] !== key) return send(res, 403, { err: 'unknown authorization key' });
      if (fn === 'Translate') ex.concurrent();
      const dat = p.dat?.[0] ?? '';
      const fault = ex.take((r) => (r.fn ?? 'Translate') === fn && (!r.match || r.match(dat)));
      answerFault(ex, fault, FAULTS, (own) => (own ? send(res, 200, own.body) : healthy(fn, p, res)));
    },
  });
  return Object.assign(fake, { key });
}
