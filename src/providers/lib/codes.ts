/**
 * Service language codes <-> canonical BCP 47. Most services use codes Intl canonicalizes
 * (`iw` -> `he`, `zh-CN`); `aliases` names the ones it cannot (`zh-CHS` -> `zh-Hans`, DeepL's `EN-US`
 * is fine). The first service code that maps to a canonical code is the one sent back.
 */
import { canonicalLanguage } from '../../core/lang';

export interface CodeMap {
  /** Canonical codes, in the service's order. */
  canonical: string[];
  /** The service's code for a canonical one. */
  toService(code: string): string | undefined;
}

export function codeMap(serviceCodes: readonly string[], aliases: Record<string, string> = {}): CodeMap {
  const back = new Map<string, string>();
  for (const code of serviceCodes) {
    const canonical = aliases[code] ?? canonicalLanguage(code.replace(/_/g, '-'));
    if (canonical && !back.has(canonical)) back.set(canonical, code);
  }
  return { canonical: [...back.keys()], toService: (c) => back.get(c) };
}
