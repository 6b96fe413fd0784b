/**
 * Route lists (decisions.md "Providers and routes"): direct routes by provider rank, then indirect
 * routes `<a>,<interlingua>,<b>` through each configured interlingua, never through src or trg.
 */
import type { LanguageSupport } from '../provider';
import type { LanguageLists } from '../types';

/** An available provider with what it can translate, in ranking order (best first). */
export interface RankedProvider {
  id: string;
  support: LanguageSupport;
}

/** Fast membership tests over a provider's language support. */
interface Index {
  id: string;
  rank: number;
  has(src: string, trg: string): boolean;
  sources: Set<string>;
  targets: Set<string>;
}

function index(p: RankedProvider, rank: number): Index {
  const s = p.support;
  if ('pairs' in s) {
    const pairs = new Set(s.pairs.map((x) => `${x.src}|${x.trg}`));
    return {
      id: p.id,
      rank,
      has: (a, b) => pairs.has(`${a}|${b}`),
      sources: new Set(s.pairs.map((x) => x.src)),
      targets: new Set(s.pairs.map((x) => x.trg)),
    };
  }
  const sources = new Set(s.src);
  const targets = new Set(s.trg);
  return { id: p.id, rank, has: (a, b) => a !== b && sources.has(a) && targets.has(b), sources, targets };
}

export interface Leg {
  provider: string;
  src: string;
  trg: string;
}

export class RouteTable {
  private readonly providers: Index[];

  constructor(
    ranked: readonly RankedProvider[],
    private readonly interlinguas: readonly string[],
  ) {
    this.providers = ranked.map(index);
  }

  /** The default route list for a pair. */
  routes(src: string, trg: string): string[] {
    if (src === trg) return [];
    const direct = this.providers.filter((p) => p.has(src, trg)).map((p) => p.id);
    const indirect: { rid: string; key: [number, number, number] }[] = [];
    this.interlinguas.forEach((via, viaRank) => {
      if (via === src || via === trg) return;
      for (const a of this.providers) {
        if (!a.has(src, via)) continue;
        for (const b of this.providers) {
          if (b.has(via, trg)) indirect.push({ rid: `${a.id},${via},${b.id}`, key: [a.rank + b.rank, viaRank, a.rank] });
        }
      }
    });
    // Sum of both ranks first (decisions.md); the interlingua's own order, then the first leg, break ties.
    indirect.sort((x, y) => x.key[0] - y.key[0] || x.key[1] - y.key[1] || x.key[2] - y.key[2]);
    return [...direct, ...indirect.map((r) => r.rid)];
  }

  hasRoute(src: string, trg: string): boolean {
    if (src === trg) return false;
    if (this.providers.some((p) => p.has(src, trg))) return true;
    return this.interlinguas.some(
      (via) =>
        via !== src &&
        via !== trg &&
        this.providers.some((a) => a.has(src, via)) &&
        this.providers.some((b) => b.has(via, trg)),
    );
  }

  /** GetLanguages: every language with at least one route from/to it; pairs of those without one. */
  languages(): LanguageLists {
    const all = new Set<string>();
    for (const p of this.providers) {
      for (const l of p.sources) all.add(l);
      for (const l of p.targets) all.add(l);
    }
    const langs = [...all].sort();
    const src = new Set<string>();
    const trg = new Set<string>();
    const routed = new Set<string>();
    for (const a of langs) {
      for (const b of langs) {
        if (this.hasRoute(a, b)) {
          src.add(a);
          trg.add(b);
          routed.add(`${a}|${b}`);
        }
      }
    }
    const exclude: [string, string][] = [];
    for (const a of src) {
      for (const b of trg) if (a !== b && !routed.has(`${a}|${b}`)) exclude.push([a, b]);
    }
    return { src: [...src], trg: [...trg], exclude };
  }
}

/** Splits a route id into its legs; undefined when it is not shaped like a route. */
export function parseRoute(rid: string, src: string, trg: string): Leg[] | undefined {
  const parts = rid.split(',');
  if (parts.length === 1) return [{ provider: rid, src, trg }];
  if (parts.length !== 3) return undefined;
  const [a, via, b] = parts as [string, string, string];
  return [
    { provider: a, src, trg: via },
    { provider: b, src: via, trg },
  ];
}

/** The rid values in the order given, then the remaining default routes in their order. */
export function orderRoutes(defaults: readonly string[], rid: readonly string[]): string[] {
  const chosen = [...new Set(rid)];
  return [...chosen, ...defaults.filter((r) => !chosen.includes(r))];
}
