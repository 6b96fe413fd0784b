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

/** Codes by `languageOf`, in the list's order; codes that name no language left out. */
function byLanguage<T>(items: readonly T[], keyOf: (item: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

/** One side (sources or targets) of a provider's list: the code it lists for each code asked. */
export class CodeSide {
  private readonly byKey: Map<string, string[]>;
  private readonly found = new Map<string, string | undefined>();

  constructor(
    codes: readonly string[],
    private readonly target: boolean,
  ) {
    this.byKey = byLanguage(codes, languageOf);
  }

  /** The listed code that stands for `asked`, or undefined. */
  code(asked: string): string | undefined {
    if (this.found.has(asked)) return this.found.get(asked);
    const key = languageOf(asked);
    let best: string | undefined;
    let bestFit = -1;
    for (const listed of (key !== undefined && this.byKey.get(key)) || []) {
      const f = fit(asked, listed, this.target);
      if (f > bestFit) [best, bestFit] = [listed, f];
    }
    this.found.set(asked, best);
    return best;
  }
}

/** A provider's pairs (APy lists pairs): the pair it lists for each pair asked. */
export class PairIndex {
  private readonly byKey: Map<string, Pair[]>;
  private readonly found = new Map<string, Pair | undefined>();

  constructor(pairs: readonly Pair[]) {
    this.byKey = byLanguage(pairs, (p) => {
      const [s, t] = [languageOf(p.src), languageOf(p.trg)];
      return s === undefined || t === undefined ? undefined : `${s}|${t}`;
    });
  }

  pair(src: string, trg: string): Pair | undefined {
    const asked = `${src}|${trg}`;
    if (this.found.has(asked)) return this.found.get(asked);
    const [s, t] = [languageOf(src), languageOf(trg)];
    let best: Pair | undefined;
    let bestFit = -1;
    for (const p of (s !== undefined && t !== undefined && this.byKey.get(`${s}|${t}`)) || []) {
      const fs = fit(src, p.src, false);
      const ft = fit(trg, p.trg, true);
      if (ft >= 0 && fs + ft > bestFit) [best, bestFit] = [p, fs + ft];
    }
    this.found.set(asked, best);
    return best;
  }
}
