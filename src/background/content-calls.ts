/**
 * What the background adds to a content script's call (the `api` message and the `translate`
 * port): privacy routing for private sites, and the provider log. Extension pages (popup,
 * options) are not a site and pass through untouched.
 *
 * Privacy: the call gets `allowProviders` (the engine runs only routes whose every provider is
 * local, also for failover) and, so that the routes started first are right whatever the engine
 * does with it, `rid` narrowed to the local routes of the pair and min/max to at most as many;
 * with no local route it is refused with 403 before any provider sees the text.
 */
import type { Runtime } from 'webextension-polyfill';
import { localOnly, routeProviders } from '../core/privacy';
import type { ProviderModule } from '../core/provider';
import type { CallOptions, TranslationService } from '../core/service-types';
import { isPrivate } from '../core/sites';
import type { ApiReply, LooseParams } from '../core/types';
import { PROVIDERS } from '../providers/index';
import { charsOf, providerLog, providersOf, type ProviderLog } from './provider-log';
import { senderOrigin } from './senders';
import type { SettingsStore } from './settings';
import { hostOf, sitesStore, type SitesStore } from './sites';

export interface ContentCallDeps {
  service: Pick<TranslationService, 'call'>;
  settings: SettingsStore;
  sites?: SitesStore;
  log?: ProviderLog;
  modules?: readonly ProviderModule[];
  now?: () => number;
}

export interface PreparedCall {
  /** Set when the call must not run: the reply to give instead. */
  refuse?: ApiReply;
  params: LooseParams;
  options: Pick<CallOptions, 'allowProviders'>;
  /** Records the reply in the provider log (when it is on). */
  done(reply: ApiReply): void;
}

const list = (v: LooseParams[string]): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
const first = (v: LooseParams[string]): string | undefined => list(v)[0];

/** prepareContentCall bound to its deps: what the router and the translate port are given. */
export type ContentPolicy = (fn: string, params: LooseParams, sender: Runtime.MessageSender) => Promise<PreparedCall>;

export function contentPolicy(deps: ContentCallDeps): ContentPolicy {
  return (fn, params, sender) => prepareContentCall(fn, params, sender, deps);
}

export async function prepareContentCall(
  fn: string,
  params: LooseParams,
  sender: Runtime.MessageSender,
  deps: ContentCallDeps,
): Promise<PreparedCall> {
  const log = deps.log ?? providerLog();
  const origin = senderOrigin(sender) ?? 'unknown';
  const chars = fn === 'Translate' ? charsOf(params) : 0;
  const done = (reply: ApiReply) => {
    if (chars === 0) return;
    const providers = providersOf(reply);
    if (providers.length === 0) return;
    log.add({ at: (deps.now ?? Date.now)(), site: origin, providers, chars }).catch(() => undefined);
  };
  const prefs = await (deps.sites ?? sitesStore()).get();
  if (!isPrivate(prefs, [hostOf(sender.url), hostOf(sender.tab?.url)])) return { params, options: {}, done };

  const allow = localOnly(await deps.settings.get(), deps.modules ?? PROVIDERS);
  const options = { allowProviders: allow };
  if (fn !== 'Translate') return { params, options, done };
  const src = first(params['src']);
  const trg = first(params['trg']);
  // Compatibility modes (no src) and malformed calls: the engine's own checks and allowProviders.
  if (!src || !trg) return { params, options, done };
  const routes = await deps.service.call('GetRoutes', { src, trg }, { trusted: true });
  if (routes.status !== 200 || !Array.isArray(routes.body)) return { params, options, done };
  const local = (routes.body as string[]).filter((rid) => routeProviders(rid).every(allow));
  if (local.length === 0) {
    return {
      refuse: { status: 403, body: { err: `this site is private: no local or on-device route from ${src} to ${trg} (see the options page, Sites)` } },
      params,
      options,
      done,
    };
  }
  const asked = list(params['rid']).filter((rid) => local.includes(rid));
  const rid = asked.length > 0 ? asked : local;
  // The engine starts the first `max` routes of rid-then-the-rest: no more than rid holds.
  // (Malformed values are left for the engine to report.)
  const out: LooseParams = { ...params, rid };
  for (const name of ['min', 'max']) {
    const n = Number(first(params[name]));
    if (Number.isInteger(n) && n > rid.length) out[name] = rid.length;
  }
  return { params: out, options, done };
}
