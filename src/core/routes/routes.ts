/**
 * Route lists (decisions.md "Providers and routes"): direct routes by provider rank, then indirect
 * routes `<a>,<interlingua>,<b>` through each configured interlingua, never through src or trg.
 */
import { languageOf } from '../lang';
import type { LanguageSupport, Pair } from '../provider';
import { CodeSide, PairIndex } from './codes';
import type { LanguageLists } from '../types';

/** An available provider with what it can translate, in ranking order (best first). */
export interface RankedProvider {
  id: string;
  support: LanguageSupport;
}

/** A provider's list, read for the codes asked (codes.ts: by language, each sent its own code). */
interface Index {
  id: string;
  rank: number;
  /** The provider's own codes for a pair asked, or undefined where it has no such pair. */
  pair(src: string, trg: string): Pair | undefined;
  sources: Set<string>;
  targets: Set<string>;
}

function index(p: RankedProvider, rank: number): Index {
  const s = p.support;
  if ('pairs' in s) {
    const pairs = new PairIndex(s.pairs);
    return {
      id: p.id,
      rank,
      pair: (a, b) => pairs.pair(a, b),
      sources: new Set(s.pairs.map((x) => x.src)),
      targets: new Set(s.pairs.map((x) => x.trg)),
    };
  }
  const sources = new CodeSide(s.src, false);
  const targets = new CodeSide(s.trg, true);
  return {
    id: p.id,
    rank,
    pair: (a, b) => {
      const src = sources.code(a);
      const trg = src === undefined ? undefined : targets.code(b);
      return src === undefined || trg === undefined || trg === src ? undefined : { src, trg };
    },
    sources: new Set(s.src),
    targets: new Set(s.trg),
  };
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
    const direct = this.providers.filter((p) => p.pair(src, trg)).map((p) => p.id);
    const indirect: { rid: string; key: [number, number, number] }[] = [];
    this.viaFor(src, trg).forEach(({ via, rank: viaRank }) => {
      for (const a of this.providers) {
        if (!a.pair(src, via)) continue;
        for (const b of this.providers) {
          if (b.pair(via, trg)) indirect.push({ rid: `${a.id},${via},${b.id}`, key: [a.rank + b.rank, viaRank, a.rank] });
        }
      }
    });
    // Sum of both ranks first (decisions.md); the interlingua's own order, then the first leg, break ties.
    indirect.sort((x, y) => x.key[0] - y.key[0] || x.key[1] - y.key[1] || x.key[2] - y.key[2]);
    return [...direct, ...indirect.map((r) => r.rid)];
  }

  /**
   * The interlinguas a pair may go through: none in src's or trg's language (`en` for `en-GB`),
   * and none for two codes of one language (`zh` and `zh-Hans`, `pt` and `pt-PT`): a round trip
   * through English is no conversion.
   */
  private viaFor(src: string, trg: string): { via: string; rank: number }[] {
    const s = languageOf(src);
    const t = languageOf(trg);
    if (s === t) return [];
    return this.interlinguas.flatMap((via, rank) => (languageOf(via) === s || languageOf(via) === t ? [] : [{ via, rank }]));
  }

  hasRoute(src: string, trg: string): boolean {
    if (src === trg) return false;
    if (this.providers.some((p) => p.pair(src, trg))) return true;
    return this.viaFor(src, trg).some(
      ({ via }) => this.providers.some((a) => a.pair(src, via)) && this.providers.some((b) => b.pair(via, trg)),
    );
  }

  /**
   * A route's legs, each with its provider's own codes (`zh` asked is Google's `zh-Hans`, Chrome's
   * `zh`); undefined when the id is not shaped like a route. A provider not in the table (down)
   * keeps the codes asked: running the leg says it is unavailable.
   */
  legs(rid: string, src: string, trg: string): Leg[] | undefined {
    return parseRoute(rid, src, trg)?.map((leg) => {
      const own = this.providers.find((p) => p.id === leg.provider)?.pair(leg.src, leg.trg);
      return own ? { ...leg, ...own } : leg;
    });
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
