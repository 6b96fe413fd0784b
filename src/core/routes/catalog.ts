/**
 * The providers a settings document enables, their language support and the route table built
 * from them. Provider instances are kept while their settings stay the same, so their own caches
 * (language lists, tokens) survive between calls.
 */
import { toProviderError } from '../errors';
import type { LanguageSupport, Provider, ProviderEnv, ProviderModule } from '../provider';
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

/** Enabled and configured modules, best ranked first (unranked ones after, by id). */
export function enabledModules(settings: Settings, modules: readonly ProviderModule[]): ProviderModule[] {
  const rank = (id: string) => {
    const i = settings.ranking.indexOf(id);
    return i < 0 ? settings.ranking.length : i;
  };
  return modules
    .filter((m) => {
      if (m.available && !m.available()) return false;
      const conf = settings.providers[m.id];
      const enabled = conf?.enabled ?? (conf === undefined && m.enabledByDefault);
      return enabled && (!m.needsKey || Boolean(conf?.key)) && (!m.needsUrl || Boolean(conf?.url));
    })
    .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

export class CatalogCache {
  private readonly instances = new Map<string, { config: string; provider: Provider }>();

  constructor(
    private readonly modules: readonly ProviderModule[],
    private readonly env: ProviderEnv,
  ) {}

  private provider(m: ProviderModule, settings: Settings): Provider {
    const conf = { ...settings.providers[m.id] };
    if (conf.url === undefined && m.defaultUrl !== undefined) conf.url = m.defaultUrl;
    const key = JSON.stringify(conf);
    const cached = this.instances.get(m.id);
    if (cached?.config === key) return cached.provider;
    const provider = m.create(conf, this.env);
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
    return { table: new RouteTable(ranked, settings.interlinguas), providers, unavailable };
  }
}
