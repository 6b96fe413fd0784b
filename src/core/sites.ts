/**
 * Per-site and per-language rules (docs/ui.md "Sites"): always / never translate a site, always /
 * never translate pages in a language, and private sites, whose text may only reach local or
 * on-device providers (src/core/privacy.ts). A browser preference, not part of the settings
 * document: the server has no sites, and preferences sync through storage.sync while the settings
 * document (it holds keys) never does. Pure: no browser.*, no DOM.
 */
import { ApiError } from './errors';
import { canonicalLanguage, languageOf, sameLanguage } from './lang';

export type SiteMode = 'always' | 'never';

export interface SiteRule {
  /** Translate every page of the site when it loads, or never on its own. Absent: ask (do nothing). */
  mode?: SiteMode;
  /** Target for `always`; absent: SitePrefs.trg, else the browser's language. */
  trg?: string;
  /** Only local / on-device providers may receive this site's text. */
  private?: boolean;
  /** Show translations under the original on this site (true) or in its place (false); absent: the general default. */
  bilingual?: boolean;
}

export interface SitePrefs {
  /** By host name (`example.com`); a rule covers its subdomains unless they have their own. */
  sites: Record<string, SiteRule>;
  /** By primary language code of the page (`fr`). */
  languages: Record<string, SiteMode>;
  /** Target of automatic translations when a rule names none. */
  trg?: string;
}

/** A change: `null` removes a site, a language rule or the default target. */
export interface SitePatch {
  sites?: Record<string, SiteRule | null>;
  languages?: Record<string, SiteMode | null>;
  trg?: string | null;
}

export const EMPTY_SITE_PREFS: SitePrefs = Object.freeze({ sites: {}, languages: {} }) as SitePrefs;

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const MODES: readonly unknown[] = ['always', 'never'];

function fail(path: string, message: string): never {
  throw new ApiError(400, `${path}: ${message}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A host name as rules are keyed: lower case, no port, no trailing dot; undefined if not a host. */
export function siteKey(host: string): string | undefined {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  return h.length <= 253 && HOST.test(h) ? h : undefined;
}

function language(code: unknown, path: string): string {
  const canonical = typeof code === 'string' ? canonicalLanguage(code) : undefined;
  if (canonical === undefined) fail(path, 'not a language code');
  return canonical;
}

function validateRule(value: unknown, path: string): SiteRule {
  if (!isObject(value)) fail(path, 'must be an object');
  const rule: SiteRule = {};
  if (value['mode'] !== undefined) {
    if (!MODES.includes(value['mode'])) fail(`${path}.mode`, 'must be "always" or "never"');
    rule.mode = value['mode'] as SiteMode;
  }
  if (value['trg'] !== undefined) rule.trg = language(value['trg'], `${path}.trg`);
  if (value['private'] !== undefined) {
    if (typeof value['private'] !== 'boolean') fail(`${path}.private`, 'must be true or false');
    if (value['private']) rule.private = true;
  }
  if (value['bilingual'] !== undefined) {
    if (typeof value['bilingual'] !== 'boolean') fail(`${path}.bilingual`, 'must be true or false');
    rule.bilingual = value['bilingual'];
  }
  return rule;
}

const isEmpty = (rule: SiteRule) => rule.mode === undefined && rule.private !== true && rule.bilingual === undefined;

/**
 * Checked preferences; throws ApiError 400 naming the first bad field, e.g.
 * `sites["example.com"].mode: must be "always" or "never"`. A rule that says nothing is dropped.
 */
export function validateSitePrefs(value: unknown): SitePrefs {
  if (value === undefined) return { sites: {}, languages: {} };
  if (!isObject(value)) fail('sites', 'must be an object');
  const out: SitePrefs = { sites: {}, languages: {} };
  const sites = value['sites'] ?? {};
  if (!isObject(sites)) fail('sites.sites', 'must be an object');
  for (const [host, rule] of Object.entries(sites)) {
    const path = `sites[${JSON.stringify(host)}]`;
    const key = siteKey(host);
    if (key === undefined) fail(path, 'not a host name');
    const checked = validateRule(rule, path);
    if (!isEmpty(checked)) out.sites[key] = checked;
  }
  const languages = value['languages'] ?? {};
  if (!isObject(languages)) fail('sites.languages', 'must be an object');
  for (const [code, mode] of Object.entries(languages)) {
    const path = `languages[${JSON.stringify(code)}]`;
    const lang = ruleLanguage(language(code, path));
    if (!MODES.includes(mode)) fail(path, 'must be "always" or "never"');
    out.languages[lang] = mode as SiteMode;
  }
  if (value['trg'] !== undefined) out.trg = language(value['trg'], 'sites.trg');
  return out;
}

/**
 * The rules as stored: checked, and none for a value that fails the check (it can only come from
 * elsewhere, another version through sync): no rules rather than no translation.
 */
export function storedSitePrefs(value: unknown): SitePrefs {
  try {
    return validateSitePrefs(value);
  } catch {
    return validateSitePrefs(undefined);
  }
}

/** Applies a patch (validated as a whole afterwards, so its errors name the field too). */
export function applySitePatch(prefs: SitePrefs, patch: unknown): SitePrefs {
  if (!isObject(patch)) fail('patch', 'must be an object');
  const sites: Record<string, unknown> = { ...prefs.sites };
  const languages: Record<string, unknown> = { ...prefs.languages };
  let trg: unknown = prefs.trg;
  if (patch['sites'] !== undefined) {
    if (!isObject(patch['sites'])) fail('sites.sites', 'must be an object');
    for (const [host, rule] of Object.entries(patch['sites'])) {
      const key = siteKey(host) ?? host;
      if (rule === null) delete sites[key];
      else sites[key] = rule;
    }
  }
  if (patch['languages'] !== undefined) {
    if (!isObject(patch['languages'])) fail('sites.languages', 'must be an object');
    for (const [code, mode] of Object.entries(patch['languages'])) {
      if (mode === null) delete languages[code];
      else languages[code] = mode;
    }
  }
  if (patch['trg'] === null) trg = undefined;
  else if (patch['trg'] !== undefined) trg = patch['trg'];
  return validateSitePrefs({ sites, languages, ...(trg === undefined ? {} : { trg }) });
}

/** The rule of a host: its own, else its nearest parent domain's (`www.example.com` -> `example.com`). */
export function ruleFor(prefs: SitePrefs, host: string): { site: string; rule: SiteRule } | undefined {
  let h = siteKey(host);
  while (h) {
    const rule = prefs.sites[h];
    if (rule) return { site: h, rule };
    const dot = h.indexOf('.');
    // An IP address has no parent domain; a top-level domain alone is never a rule's site.
    if (IPV4.test(h) || dot < 0 || h.indexOf('.', dot + 1) < 0) return undefined;
    h = h.slice(dot + 1);
  }
  return undefined;
}

export type LoadDecision =
  | { action: 'translate'; src: string; trg: string; why: 'site' | 'language' | 'tab' }
  | { action: 'none'; why: 'site-never' | 'language-never' | 'no-rule' | 'same-language' | 'page-says-no' };

/** The code a language's rules are kept by: its primary subtag (`zh` for `zh-Hant`: one rule for Chinese in either script). */
export function ruleLanguage(code: string): string {
  return code.split(/[-_]/)[0]!.toLowerCase();
}

/** What the page's tab was translated as before this page loaded in it (background/frames.ts). */
export interface TabBefore {
  src?: string;
  trg?: string;
}

/**
 * What to do when a page of `host` in language `lang` has loaded. The more specific rule wins:
 * a site's `never`, then a language's `never` (the user reads it), then a site's `always`, then a
 * language's `always`, then the tab (`tab`: it was translated, and its page was in this language:
 * a link followed or a reload in a translated tab, as Chrome's own translation goes on). A page
 * already in the target language is left alone. `saysNo`: the page asks at its root not to be
 * translated (`<meta name="google" content="notranslate">`, `translate="no"` on `<html>` or
 * `<body>`): a language's `always` passes it by, as Chrome's own offer does; the user's choices
 * for this site or this tab do not.
 */
export function decideOnLoad(prefs: SitePrefs, host: string, lang: string, browserLanguage: string, tab?: TabBefore, saysNo = false): LoadDecision {
  const rule = ruleFor(prefs, host)?.rule;
  // The language's rules are by its primary code (Chinese: both scripts); what is sent and what is
  // the same language keeps a script that is not the language's usual one (`zh-Hant`: lang.ts `languageOf`).
  const src = languageOf(lang) ?? lang;
  const rules = ruleLanguage(src);
  if (rule?.mode === 'never') return { action: 'none', why: 'site-never' };
  if (prefs.languages[rules] === 'never') return { action: 'none', why: 'language-never' };
  let trg: string;
  let why: 'site' | 'language' | 'tab';
  if (rule?.mode === 'always') {
    trg = rule.trg ?? prefs.trg ?? browserLanguage;
    why = 'site';
  } else if (prefs.languages[rules] === 'always' && !saysNo) {
    trg = prefs.trg ?? browserLanguage;
    why = 'language';
  } else if (tab?.trg && tab.src && sameLanguage(tab.src, src)) {
    trg = tab.trg;
    why = 'tab';
  } else return { action: 'none', why: prefs.languages[rules] === 'always' ? 'page-says-no' : 'no-rule' };
  if (sameLanguage(trg, src)) return { action: 'none', why: 'same-language' };
  return { action: 'translate', src, trg, why };
}

/**
 * Whether some page language would make `decideOnLoad` translate a page of `host`: its site's
 * `always`, or, unless its site says `never`, any language's `always`. A content script asks this
 * first, from the stored rules, so a page no rule can translate neither detects its language nor
 * starts the background (the decision itself stays the background's).
 */
export function mayTranslateOnLoad(prefs: SitePrefs, host: string): boolean {
  const mode = ruleFor(prefs, host)?.rule.mode;
  if (mode !== undefined) return mode === 'always';
  return Object.values(prefs.languages).includes('always');
}

/** Whether pages of `host` are shown bilingual: the site's own choice, else the general default. */
export function isBilingual(prefs: SitePrefs, host: string | undefined, byDefault: boolean): boolean {
  const own = host ? ruleFor(prefs, host)?.rule.bilingual : undefined;
  return own ?? byDefault;
}

/** Whether any of these hosts (frame and top page) is a private site. */
export function isPrivate(prefs: SitePrefs, hosts: readonly (string | undefined)[]): boolean {
  return hosts.some((h) => h !== undefined && ruleFor(prefs, h)?.rule.private === true);
}
