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
import { RouteTable, type RankedProvider } from './routes';

/** How long a language list request may take before the provider counts as unavailable. */
const LANGUAGES_TIMEOUT_MS = 5000;

export interface Catalog {
  table: RouteTable;
  /** Enabled, configured providers in ranking order. */
  providers: Map<string, Provider>;
  /** Providers whose language list could not be fetched, with why (for diagnostics). */
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

  constructor(
    private readonly modules: readonly ProviderModule[],
    private readonly env: ProviderEnv,
    /** Translation memory and clocks for the scheduler around every provider. */
    private readonly schedule: ScheduleOptions = {},
  ) {}

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

  async catalog(settings: Settings, signal?: AbortSignal): Promise<Catalog> {
    const mods = enabledModules(settings, this.modules);
    const providers = new Map<string, Provider>();
    const unavailable = new Map<string, string>();
    const supports = await Promise.all(
      mods.map(async (m): Promise<LanguageSupport | undefined> => {
        const p = this.provider(m, settings);
        providers.set(m.id, p);
        const timeout = AbortSignal.timeout(LANGUAGES_TIMEOUT_MS);
        try {
          return await p.languages(signal ? AbortSignal.any([signal, timeout]) : timeout);
        } catch (e) {
          unavailable.set(m.id, toProviderError(e).message);
          return undefined;
        }
      }),
    );
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
