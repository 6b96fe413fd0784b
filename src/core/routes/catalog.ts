/**
 * The providers a settings document enables, their language support and the route table built
 * from them. Provider instances are kept while their settings stay the same, so their own caches
 * (language lists, tokens) and their scheduler (queue, rate budget, circuit, health) survive
 * between calls. Every instance is wrapped once here by the scheduler (src/core/scheduler).
 */
import { toProviderError } from '../errors';
import type { LanguageSupport, Provider, ProviderEnv, ProviderModule } from '../provider';
import { scheduleProvider, type ProviderHealth, type ScheduledProvider, type ScheduleOptions } from '../scheduler/index';
import type { Settings } from '../settings/types';
import type { KeyValueStore } from '../storage';
import { RouteTable, type RankedProvider } from './routes';

/** How long a language list request may take before the provider counts as unavailable. */
const LANGUAGES_TIMEOUT_MS = 5000;

/** Store key of the last language support each provider reported (per endpoint, never the key). */
export const LAST_LANGUAGES_KEY = 'catalog.languages';
type KnownSupport = Record<string, { url: string | null; support: LanguageSupport }>;

export interface Catalog {
  table: RouteTable;
  /** Enabled, configured providers in ranking order. */
  providers: Map<string, Provider>;
  /**
   * Providers whose language list could not be fetched, with why (health reports them `down`).
   * One that answered before (at the same endpoint) keeps its routes with that last known
   * support, so the translation memory behind them still answers offline; one that never did
   * has no routes.
   */
  unavailable: Map<string, string>;
}

/**
 * Enabled and configured modules, best ranked first (unranked ones after, by id). A provider is
 * enabled when the settings document has an entry for it without `enabled: false`: a document
 * that does not name a provider does not use it (a fresh install starts from DEFAULT_SETTINGS).
 */
export function enabledModules(settings: Settings, modules: readonly ProviderModule[]): ProviderModule[] {
  const rank = (id: string) => {
    const i = settings.ranking.indexOf(id);
    return i < 0 ? settings.ranking.length : i;
  };
  return modules
    .filter((m) => {
      if (m.available && !m.available()) return false;
      const conf = settings.providers[m.id];
      if (conf === undefined || conf.enabled === false) return false;
      if (m.needsKey && !conf.key) return false;
      if (m.needsUrl && !conf.url) return false;
      return !m.configured || m.configured(conf);
    })
    .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

export class CatalogCache {
  private readonly instances = new Map<string, { config: string; provider: ScheduledProvider }>();
  /** The providers of the last catalog built: what health() reports on. */
  private last: { ids: string[]; unavailable: Map<string, string> } = { ids: [], unavailable: new Map() };

  /** Last known language support per provider; loaded from the store on first need. */
  private known: Promise<KnownSupport> | undefined;

  /**
   * Told when a list refreshed behind a catalog (served from last known support) failed or
   * changed: the service keeps the catalog a shorter time, or builds it again.
   */
  onRefresh: ((what: 'failed' | 'changed') => void) | undefined;

  constructor(
    private readonly modules: readonly ProviderModule[],
    private readonly env: ProviderEnv,
    /** Translation memory and clocks for the scheduler around every provider. */
    private readonly schedule: ScheduleOptions = {},
    /** Where last known language support survives a restart (a new service worker, a new server). */
    private readonly store?: KeyValueStore,
  ) {}

  private knownSupport(): Promise<KnownSupport> {
    this.known ??= (this.store?.get<KnownSupport>(LAST_LANGUAGES_KEY) ?? Promise.resolve(undefined)).then(
      (v) => (v && typeof v === 'object' ? { ...v } : {}),
      () => ({}),
    );
    return this.known;
  }

  /** Records what providers just reported; writes the store only when something changed (and says so). */
  private async remember(fresh: Map<string, { url: string | null; support: LanguageSupport }>): Promise<boolean> {
    if (fresh.size === 0) return false;
    const known = await this.knownSupport();
    let changed = false;
    for (const [id, entry] of fresh) {
      const before = known[id];
      if (before && before.url === entry.url && JSON.stringify(before.support) === JSON.stringify(entry.support)) continue;
      known[id] = entry;
      changed = true;
    }
    if (changed && this.store) await this.store.set(LAST_LANGUAGES_KEY, known).catch(() => undefined);
    return changed;
  }

  /**
   * Per enabled provider: ok / limited / down and recent latency. A provider whose language list
   * could not be fetched is `down` with that reason.
   */
  health(): Record<string, ProviderHealth> {
    const out: Record<string, ProviderHealth> = {};
    for (const id of this.last.ids) {
      const p = this.instances.get(id)?.provider;
      if (!p) continue;
      const h = p.health();
      const why = this.last.unavailable.get(id);
      out[id] = why === undefined ? h : { ...h, state: 'down', last_error: why };
    }
    return out;
  }

  private provider(m: ProviderModule, settings: Settings): Provider {
    const conf = { ...settings.providers[m.id] };
    if (conf.url === undefined && m.defaultUrl !== undefined) conf.url = m.defaultUrl;
    const key = JSON.stringify(conf);
    const cached = this.instances.get(m.id);
    if (cached?.config === key) return cached.provider;
    const provider = scheduleProvider(m.create(conf, this.env), conf, this.schedule);
    this.instances.set(m.id, { config: key, provider });
    return provider;
  }

  /**
   * A provider that reported its languages before, at the same endpoint, is served from that at
   * once and its list is fetched again behind the answer: a worker woken by a click (it stops
   * after 30 s idle) would otherwise wait one round trip per provider before its first request.
   * If that fetch fails, the provider is unavailable from then on (health says down, with why)
   * and keeps its routes, as an unreachable provider does; if the list changed, the next call
   * builds the catalog again. A provider never reached is waited for.
   */
  async catalog(settings: Settings, signal?: AbortSignal): Promise<Catalog> {
    const mods = enabledModules(settings, this.modules);
    const providers = new Map<string, Provider>();
    const unavailable = new Map<string, string>();
    const fresh = new Map<string, { url: string | null; support: LanguageSupport }>();
    const known = await this.knownSupport();
    const supports = await Promise.all(
      mods.map(async (m): Promise<LanguageSupport | undefined> => {
        const p = this.provider(m, settings);
        providers.set(m.id, p);
        const url = settings.providers[m.id]?.url ?? m.defaultUrl ?? null;
        const last = known[m.id]?.url === url ? known[m.id]!.support : undefined;
        const timeout = AbortSignal.timeout(LANGUAGES_TIMEOUT_MS);
        const fetched = p.languages(signal ? AbortSignal.any([signal, timeout]) : timeout);
        if (last) {
          fetched.then(
            (support) => this.remember(new Map([[m.id, { url, support }]])).then((changed) => changed && this.onRefresh?.('changed')),
            (e: unknown) => {
              unavailable.set(m.id, toProviderError(e).message);
              this.onRefresh?.('failed');
            },
          );
          return last;
        }
        try {
          const support = await fetched;
          fresh.set(m.id, { url, support });
          return support;
        } catch (e) {
          unavailable.set(m.id, toProviderError(e).message);
          return undefined;
        }
      }),
    );
    void this.remember(fresh);
    const ranked: RankedProvider[] = [];
    mods.forEach((m, i) => {
      const support = supports[i];
      if (support) ranked.push({ id: m.id, support });
      else providers.delete(m.id);
    });
    this.last = { ids: mods.map((m) => m.id), unavailable };
    return { table: new RouteTable(ranked, settings.interlinguas), providers, unavailable };
  }
}
