/**
 * The translation service: the four functions of interface.md over any transport. The Node server
 * and the extension's worker (messages and its `/api` fetch route) both call this.
 */
import { authenticate, type Caller } from './auth';
import { compileGlossary } from './engine/glossary';
import { rehearseDocument, translateDocument } from './engine/translate-document';
import { translateText } from './engine/translate-text';
import { ApiError } from './errors';
import { compatError, compatMode, compatReply, parseCompat } from './interface/compat';
import { parseQuery, mergeParams, normalizeParams } from './interface/params';
import { authParam, validatePairParams, validateTranslate } from './interface/validate';
import { detectLanguage } from './detect';
import { listedCode } from './lang';
import { CatalogCache, enabledModules, type Catalog } from './routes/catalog';
import { orderRoutes } from './routes/routes';
import { routeProviders } from './privacy';
import type { CallOptions, HttpRequest, ServiceDeps, TranslationService } from './service-types';
import type { Settings } from './settings/types';
import { FUNCTION_NAMES, type ApiReply, type FunctionName, type LanguageLists, type LooseParams, type Params, type TrdObj, type TrObj, type TranslateRequest } from './types';
import { Usage } from './usage/usage';

/** How long a catalog (providers' language lists) is reused; shorter while a provider is down. */
const CATALOG_TTL_MS = 60_000;
const CATALOG_RETRY_MS = 5_000;

interface Snapshot {
  settings: Settings;
  catalog: Catalog;
  lists: () => LanguageLists;
}

const errorReply = (e: unknown): ApiReply => {
  if (e instanceof ApiError) return { status: e.status, body: { err: e.message, ...e.extra } };
  return { status: 500, body: { err: `internal error: ${e instanceof Error ? e.message : String(e)}` } };
};

/** Query strings arrive as text whose chars are bytes (Node decodes the request line as latin1). */
function queryBytes(query: string): Uint8Array {
  if (!/[^\x00-\xff]/.test(query)) return Uint8Array.from(query, (c) => c.charCodeAt(0));
  return new TextEncoder().encode(query);
}

export function createService(deps: ServiceDeps): TranslationService & Required<Pick<TranslationService, 'health' | 'warm' | 'lists'>> {
  const now = deps.now ?? Date.now;
  const usage = new Usage(deps.store);
  const catalogs = new CatalogCache(deps.providers, { fetch: deps.fetch }, { memory: deps.memory, warn: deps.warn }, deps.store);
  let current: { settings: Settings; at: number; ttl: number; snapshot: Promise<Snapshot> } | undefined;
  // A list refreshed behind a catalog built from last known support: a failure shortens the
  // catalog's life as one at build time does (not every call: a provider that is down would be
  // asked for its list each time); a change is used from the next call on.
  catalogs.onRefresh = (what) => {
    if (what === 'changed') current = undefined;
    else if (current) current.ttl = Math.min(current.ttl, CATALOG_RETRY_MS);
  };

  async function snapshot(): Promise<Snapshot> {
    const settings = await deps.settings();
    if (current && current.settings === settings && now() - current.at < current.ttl) return current.snapshot;
    const entry = {
      settings,
      at: now(),
      ttl: CATALOG_TTL_MS,
      snapshot: catalogs.catalog(settings).then((catalog): Snapshot => {
        if (catalog.unavailable.size > 0) entry.ttl = CATALOG_RETRY_MS;
        let lists: LanguageLists | undefined;
        return { settings, catalog, lists: () => (lists ??= catalog.table.languages()) };
      }),
    };
    current = entry;
    // A failed build is not reused: the next call tries again.
    entry.snapshot.catch(() => {
      if (current === entry) current = undefined;
    });
    return entry.snapshot;
  }

  /**
   * The pair as the engine knows it: a code that is not listed falls back to a listed one of its
   * language (core/lang.ts `listedCode`: `en-GB` -> `en`, `zh-TW` -> `zh-Hant`, never to another
   * script for a target: `zh-TW` is not `zh`), as clients of the compatibility modes expect.
   */
  function resolvePair(snap: Snapshot, src: string, trg: string): { src: string; trg: string } {
    const lists = snap.lists();
    const pick = (code: string, listed: string[], side: 'source' | 'target', list: string) => {
      const found = listed.includes(code) ? code : listedCode(code, listed, side === 'source');
      if (found !== undefined) return found;
      throw new ApiError(400, `${side} language "${code}" is not available (see GetLanguages ${list})`);
    };
    const pair = { src: pick(src, lists.src, 'source', 'src'), trg: pick(trg, lists.trg, 'target', 'trg') };
    if (pair.src === pair.trg) throw new ApiError(400, `source and target language are the same (${pair.src})`);
    return pair;
  }

  async function caller(snap: Snapshot, params: Params, fn: FunctionName, options: CallOptions, app?: string): Promise<Caller> {
    const key = authParam(params, fn);
    return authenticate(snap.settings, usage, key, { trusted: options.trusted, origin: options.origin, app });
  }

  /** Privacy routing: only routes whose every provider the caller may use; none is a 403. */
  function allowedRoutes(routes: readonly string[], options: CallOptions, src: string, trg: string): string[] {
    const allow = options.allowProviders;
    if (!allow) return [...routes];
    const allowed = routes.filter((r) => routeProviders(r).every(allow));
    if (allowed.length === 0) throw new ApiError(403, `no route from ${src} to ${trg} uses only the providers allowed for this caller (a private site: local providers only)`);
    return allowed;
  }

  async function translate(params: Params, options: CallOptions): Promise<ApiReply> {
    const snap = await snapshot();
    const who = await caller(snap, params, 'Translate', options, params.app?.[0]);
    const req = { ...validateTranslate(params, snap.settings.limits.textSize) };
    Object.assign(req, resolvePair(snap, req.src, req.trg));
    const defaults = snap.catalog.table.routes(req.src, req.trg);
    if (defaults.length === 0) throw new ApiError(400, `no route from ${req.src} to ${req.trg} (the pair is in GetLanguages exclude)`);
    for (const rid of req.rid) {
      if (!defaults.includes(rid)) {
        // A provider that is down says why (its language list failed: unreachable, no permission...).
        const why = routeProviders(rid).flatMap((id) => {
          const reason = snap.catalog.unavailable.get(id);
          return reason === undefined ? [] : [`${id} is unavailable: ${reason}`];
        });
        throw new ApiError(400, `rid "${rid}" is not a route from ${req.src} to ${req.trg} (${why.length ? why.join('; ') : 'see GetRoutes'})`);
      }
    }
    const size = req.dat.reduce((n, d) => n + [...d].length, 0);
    if (size > who.remaining) {
      throw new ApiError(403, `authorization key "${who.name}" has ${who.remaining} characters left; this request has ${size}`);
    }
    const allowed = allowedRoutes(defaults, options, req.src, req.trg);
    const reply = await run(req, orderRoutes(allowed, req.rid.filter((r) => allowed.includes(r))), snap, options);
    const items: (TrObj | TrdObj)[] = Array.isArray(reply.body) ? reply.body : ((reply.body as { dat?: TrObj[] }).dat ?? []);
    await usage.add(who.name, req.app, items.reduce((n, t) => n + (t.err ? 0 : t.length), 0));
    return reply;
  }

  /** A route's recent p90: the sum of its legs' (scheduler health); unknown until each leg answered. */
  function hedgeAfterMs(rid: string): number | undefined {
    const health = catalogs.health();
    let total = 0;
    for (const id of routeProviders(rid)) {
      const p90 = health[id]?.latency_ms.p90;
      if (p90 === null || p90 === undefined) return undefined;
      total += p90;
    }
    return total;
  }

  function run(req: TranslateRequest, routes: string[], snap: Snapshot, options: CallOptions): Promise<ApiReply> {
    const glossary = compileGlossary(snap.settings.glossaries, req.src, req.trg, req.dom);
    const ctx = {
      providers: snap.catalog.providers,
      legs: (rid: string, src: string, trg: string) => snap.catalog.table.legs(rid, src, trg),
      signal: options.signal,
      onResult: options.onResult,
      glossary,
      hedgeAfterMs: snap.settings.hedging === true ? hedgeAfterMs : undefined,
      background: options.background,
      foreground: options.foreground,
    };
    return req.frm === 'html' ? translateDocument(req, routes, ctx) : translateText(req, routes, ctx);
  }

  async function compat(mode: 'g1' | 'g2', params: Params, options: CallOptions): Promise<ApiReply> {
    try {
      const snap = await snapshot();
      const who = await caller(snap, params, 'Translate', options);
      const cr = parseCompat(mode, params, snap.settings.limits.textSize);
      const lists = snap.lists();
      const candidates = lists.src.filter((s) => snap.catalog.table.hasRoute(s, cr.trg));
      const detected = cr.src ?? detectLanguage(cr.dat.join('\n'), candidates);
      if (!detected) throw new ApiError(400, 'could not detect the source language: name it');
      const { src, trg } = resolvePair(snap, detected, cr.trg);
      const all = snap.catalog.table.routes(src, trg);
      if (all.length === 0) throw new ApiError(400, `no route from ${src} to ${trg}`);
      const routes = allowedRoutes(all, options, src, trg);
      const base = { src, trg, min: 1, max: 1, timeout: 20, dom: 'general', rid: [], frm: cr.frm } as const;
      let texts: string[];
      let chars = 0;
      if (cr.frm === 'html') {
        texts = [];
        for (const q of cr.dat) {
          const r = await run({ ...base, rid: [], dat: [q] }, routes, snap, options);
          if (r.status !== 200) return compatError(mode, r.status, (r.body as { err: string }).err);
          const chunks = r.body as TrdObj[];
          texts.push(chunks.map((c) => c.dat).join(''));
          chars += chunks.reduce((n, c) => n + c.length, 0);
        }
      } else {
        const r = await run({ ...base, rid: [], dat: cr.dat }, routes, snap, options);
        if (r.status !== 200) return compatError(mode, r.status, (r.body as { err: string }).err);
        const tr = (r.body as { dat: TrObj[] }).dat.find((t) => t.text)!;
        texts = tr.text!;
        chars = tr.length;
      }
      await usage.add(who.name, undefined, chars);
      return compatReply(mode, texts, cr.src === undefined ? src : undefined);
    } catch (e) {
      const r = errorReply(e);
      return compatError(mode, r.status, (r.body as { err: string }).err);
    }
  }

  /**
   * A refused request never shows a key, even one the client put in the wrong parameter
   * (`mode=<key>` would otherwise be quoted back by "must be g1 or g2, got ..."): neither the key it
   * authenticated with nor any API key of the settings (a request that needs none, or sent the key
   * only where it does not belong).
   */
  async function call(fn: string, raw: Params | LooseParams, options: CallOptions = {}): Promise<ApiReply> {
    const reply = await callFunction(fn, raw, options);
    if (reply.status < 400) return reply;
    const configured = await deps.settings().then((s) => s.keys.map((k) => k.key), () => []);
    const secrets = ['auth', 'key', 'uid'].flatMap((name) => {
      const v = raw[name];
      return (Array.isArray(v) ? v : [v]).filter((s): s is string => typeof s === 'string' && s.length >= 4);
    }).concat(configured.filter((k) => k.length >= 4));
    const text = JSON.stringify(reply.body);
    if (!secrets.some((s) => text.includes(s))) return reply;
    const scrubbed = secrets.reduce((t, s) => t.split(JSON.stringify(s).slice(1, -1)).join('[key]'), text);
    return { ...reply, body: JSON.parse(scrubbed) as unknown };
  }

  async function callFunction(fn: string, raw: Params | LooseParams, options: CallOptions): Promise<ApiReply> {
    if (!FUNCTION_NAMES.includes(fn as FunctionName)) {
      return { status: 404, body: { err: `unknown function "${fn}": use ${FUNCTION_NAMES.join(', ')}` } };
    }
    try {
      const params = normalizeParams(raw);
      if (fn === 'Translate') {
        const mode = compatMode(params);
        return mode ? await compat(mode, params, options) : await translate(params, options);
      }
      const snap = await snapshot();
      const who = await caller(snap, params, fn as FunctionName, options);
      let body: unknown;
      if (fn === 'GetProviders') {
        body = Object.fromEntries(enabledModules(snap.settings, deps.providers).map((m) => [m.id, m.name]));
      } else if (fn === 'GetLanguages') {
        body = snap.lists();
      } else {
        const asked = validatePairParams(params);
        const { src, trg } = resolvePair(snap, asked.src, asked.trg);
        body = snap.catalog.table.routes(src, trg);
      }
      await usage.add(who.name, params.app?.[0], 0);
      return { status: 200, body };
    } catch (e) {
      return errorReply(e);
    }
  }

  async function http(req: HttpRequest, options: CallOptions = {}): Promise<ApiReply> {
    if (!req.path.startsWith('/api/')) return { status: 404, body: { err: `not found: ${req.path} (the interface is under /api/)` } };
    const fn = req.path.slice('/api/'.length);
    if (!FUNCTION_NAMES.includes(fn as FunctionName)) {
      return { status: 404, body: { err: `unknown function "${fn}": use ${FUNCTION_NAMES.join(', ')}` } };
    }
    if (req.method !== 'GET' && req.method !== 'POST') {
      return { status: 405, body: { err: `method ${req.method} not allowed: use GET or POST` }, headers: { Allow: 'GET, POST' } };
    }
    try {
      let params = parseQuery(queryBytes(req.query));
      if (req.method === 'POST' && req.body && req.body.length > 0) {
        if (!/^application\/x-www-form-urlencoded\b/i.test(req.contentType ?? '')) {
          throw new ApiError(415, 'a POST body must be application/x-www-form-urlencoded');
        }
        params = mergeParams(params, parseQuery(req.body));
      }
      return await call(fn, params, { ...options, origin: options.origin ?? req.origin });
    } catch (e) {
      return errorReply(e);
    }
  }

  const lists = () => snapshot().then((snap) => snap.lists());
  /**
   * Once per worker, after the lists: the first call's code is run on a sample and the memory read
   * once (its first read of the disk), in a task of their own, off the trigger's path.
   */
  let rehearsed = false;
  const rehearse = () => {
    if (rehearsed) return;
    rehearsed = true;
    setTimeout(() => {
      rehearseDocument();
      deps.memory?.get([{ provider: '', src: '', trg: '', domain: 'general', format: 'html', text: '' }]).catch(() => undefined);
    }, 0);
  };
  const warm = () => lists().then(rehearse, () => undefined);

  return { call, http, flush: () => usage.flush(), health: () => catalogs.health(), warm, lists };
}
