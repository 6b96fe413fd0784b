/**
 * A provider's own code for a language a caller asks for. Providers name one language by different
 * codes: Chrome's on-device translator and the LLMs list Simplified Chinese as `zh`, Google,
 * Microsoft, LibreTranslate and MyMemory as `zh-Hans`; Google's Norwegian is `no`, LibreTranslate's
 * `nb`. The route table matches codes by language (core/lang.ts `languageOf`: the language, and its
 * script where that is not the usual one), so a call for `zh` has the routes of both, and each
 * provider is sent its own code.
 *
 * A target that names a region (`en-GB`, `pt-PT`) is only a code of that region, by its likely
 * subtags (`en` is en-US, `pt` is pt-BR): a reader who asked for European Portuguese is not given
 * Brazilian. A source's region does not matter: a translator of `en` reads British English.
 */
import { languageOf } from '../lang';
import type { Pair } from '../provider';

const regions = new Map<string, { named: string | undefined; likely: string | undefined }>();

function regionOf(code: string): { named: string | undefined; likely: string | undefined } {
  let r = regions.get(code);
  if (r === undefined) {
    const locale = new Intl.Locale(code);
    r = { named: locale.region, likely: locale.maximize().region };
    regions.set(code, r);
  }
  return r;
}

/**
 * How well a listed code stands for the one asked (same language assumed): 2 the same code, 1 the
 * same likely region, 0 another region; -1 where it cannot stand for it (a target's named region).
 */
function fit(asked: string, listed: string, target: boolean): number {
  if (asked === listed) return 2;
  const a = regionOf(asked);
  const l = regionOf(listed);
  if (a.likely === l.likely) return 1;
  return target && a.named !== undefined ? -1 : 0;
}

/** A list's items by a language key, in its order, and the one that stands best for each thing asked. */
class BestOf<T> {
  private readonly byKey = new Map<string, T[]>();
  private readonly found = new Map<string, T | undefined>();

  /** `keyOf`: an item's key; undefined leaves it out (a code that names no language). */
  constructor(items: readonly T[], keyOf: (item: T) => string | undefined) {
    for (const item of items) {
      const key = keyOf(item);
      if (key === undefined) continue;
      const list = this.byKey.get(key);
      if (list) list.push(item);
      else this.byKey.set(key, [item]);
    }
  }

  /** Of the items under `key`, the first `score` rates highest, at 0 or more; each `asked` scored once. */
  get(asked: string, key: string | undefined, score: (item: T) => number): T | undefined {
    if (this.found.has(asked)) return this.found.get(asked);
    let best: T | undefined;
    let bestFit = -1;
    for (const item of (key !== undefined && this.byKey.get(key)) || []) {
      const f = score(item);
      if (f > bestFit) [best, bestFit] = [item, f];
    }
    this.found.set(asked, best);
    return best;
  }
}

/** One side (sources or targets) of a provider's list: the code it lists for each code asked. */
export class CodeSide {
  private readonly codes: BestOf<string>;

  constructor(
    codes: readonly string[],
    private readonly target: boolean,
  ) {
    this.codes = new BestOf(codes, languageOf);
  }

  /** The listed code that stands for `asked`, or undefined. */
  code(asked: string): string | undefined {
    return this.codes.get(asked, languageOf(asked), (listed) => fit(asked, listed, this.target));
  }
}

/** A pair's key: both languages (`languageOf`), or undefined where a code names none. */
function pairKey(src: string, trg: string): string | undefined {
  const s = languageOf(src);
  const t = languageOf(trg);
  return s === undefined || t === undefined ? undefined : `${s}|${t}`;
}

/** A provider's pairs (APy lists pairs): the pair it lists for each pair asked. */
export class PairIndex {
  private readonly pairs: BestOf<Pair>;

  constructor(pairs: readonly Pair[]) {
    this.pairs = new BestOf(pairs, (p) => pairKey(p.src, p.trg));
  }

  pair(src: string, trg: string): Pair | undefined {
    return this.pairs.get(`${src}|${trg}`, pairKey(src, trg), (p) => {
      const ft = fit(trg, p.trg, true);
      return ft < 0 ? -1 : fit(src, p.src, false) + ft;
    });
  }
}
