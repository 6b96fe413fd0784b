import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySitePatch, decideOnLoad, isBilingual, isPrivate, mayTranslateOnLoad, ruleFor, siteKey, validateSitePrefs, type SitePrefs } from '../../../src/core/sites';

const msg = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('validateSitePrefs', () => {
  it('keeps good rules, canonical codes and lower-case hosts, and drops rules that say nothing', () => {
    expect(validateSitePrefs({
      sites: { 'Example.COM': { mode: 'always', trg: 'ES' }, 'bank.test': { private: true }, 'empty.test': {}, 'off.test': { private: false } },
      languages: { 'fr-CA': 'always', de: 'never' },
      trg: 'pt-br',
    })).toEqual({
      sites: { 'example.com': { mode: 'always', trg: 'es' }, 'bank.test': { private: true } },
      languages: { fr: 'always', de: 'never' },
      trg: 'pt-BR',
    });
    expect(validateSitePrefs(undefined)).toEqual({ sites: {}, languages: {} });
  });

  it('names the bad field', () => {
    expect(msg(() => validateSitePrefs({ sites: { 'example.com': { mode: 'sometimes' } } }))).toBe('sites["example.com"].mode: must be "always" or "never"');
    expect(msg(() => validateSitePrefs({ sites: { 'exa mple.com': { mode: 'never' } } }))).toBe('sites["exa mple.com"]: not a host name');
    expect(msg(() => validateSitePrefs({ sites: { 'a.test': { private: 'yes' } } }))).toBe('sites["a.test"].private: must be true or false');
    expect(msg(() => validateSitePrefs({ sites: { 'a.test': { bilingual: 1 } } }))).toBe('sites["a.test"].bilingual: must be true or false');
    expect(msg(() => validateSitePrefs({ sites: { 'a.test': { mode: 'always', trg: 'not a code' } } }))).toBe('sites["a.test"].trg: not a language code');
    expect(msg(() => validateSitePrefs({ languages: { fr: 'often' } }))).toBe('languages["fr"]: must be "always" or "never"');
    expect(msg(() => validateSitePrefs({ languages: { '??': 'always' } }))).toBe('languages["??"]: not a language code');
    expect(msg(() => validateSitePrefs({ trg: 3 }))).toBe('sites.trg: not a language code');
    expect(msg(() => validateSitePrefs([]))).toBe('sites: must be an object');
  });
});

describe('applySitePatch', () => {
  const base: SitePrefs = { sites: { 'a.test': { mode: 'never' } }, languages: { fr: 'always' }, trg: 'es' };
  it('adds, replaces and removes (null) rules', () => {
    expect(applySitePatch(base, { sites: { 'a.test': null, 'B.test': { private: true } }, languages: { fr: null, it: 'never' }, trg: null }))
      .toEqual({ sites: { 'b.test': { private: true } }, languages: { it: 'never' } });
  });
  it('refuses a bad patch naming the field, and leaves the prefs as they were', () => {
    expect(msg(() => applySitePatch(base, { sites: { 'a.test': { mode: 1 } } }))).toBe('sites["a.test"].mode: must be "always" or "never"');
    expect(base.sites['a.test']).toEqual({ mode: 'never' });
  });
});

describe('ruleFor', () => {
  const prefs: SitePrefs = { sites: { 'example.com': { mode: 'always' }, 'news.example.com': { mode: 'never' }, '127.0.0.1': { private: true } }, languages: {} };
  it('takes the host\'s own rule, else its nearest parent domain\'s, never a top-level domain\'s', () => {
    expect(ruleFor(prefs, 'example.com')?.site).toBe('example.com');
    expect(ruleFor(prefs, 'WWW.example.com')?.site).toBe('example.com');
    expect(ruleFor(prefs, 'a.news.example.com')?.site).toBe('news.example.com');
    expect(ruleFor({ sites: { com: { mode: 'never' } }, languages: {} }, 'example.com')).toBeUndefined();
    expect(ruleFor(prefs, 'other.org')).toBeUndefined();
    expect(ruleFor(prefs, '127.0.0.1')?.rule).toEqual({ private: true });
    expect(ruleFor({ sites: { '0.0.1': { mode: 'never' } }, languages: {} }, '127.0.0.1')).toBeUndefined();
    expect(siteKey('Example.com.')).toBe('example.com');
  });
});

describe('decideOnLoad', () => {
  const prefs: SitePrefs = {
    sites: { 'always.test': { mode: 'always', trg: 'de' }, 'auto.test': { mode: 'always' }, 'never.test': { mode: 'never' } },
    languages: { fr: 'always', ca: 'never' },
  };
  it('translates an always site into its target, else the default target, else the browser language', () => {
    expect(decideOnLoad(prefs, 'www.always.test', 'en-US', 'es')).toEqual({ action: 'translate', src: 'en', trg: 'de', why: 'site' });
    expect(decideOnLoad(prefs, 'auto.test', 'en', 'es')).toEqual({ action: 'translate', src: 'en', trg: 'es', why: 'site' });
    expect(decideOnLoad({ ...prefs, trg: 'it' }, 'auto.test', 'en', 'es')).toMatchObject({ trg: 'it' });
  });
  it('translates pages in an always language anywhere but on a never site', () => {
    expect(decideOnLoad(prefs, 'news.test', 'fr', 'es')).toEqual({ action: 'translate', src: 'fr', trg: 'es', why: 'language' });
    expect(decideOnLoad(prefs, 'never.test', 'fr', 'es')).toEqual({ action: 'none', why: 'site-never' });
  });
  it("passes by a page that asks at its root not to be translated for a language's always, not for the site's or the tab's", () => {
    expect(decideOnLoad(prefs, 'news.test', 'fr', 'es', undefined, true)).toEqual({ action: 'none', why: 'page-says-no' });
    expect(decideOnLoad(prefs, 'always.test', 'fr', 'es', undefined, true)).toEqual({ action: 'translate', src: 'fr', trg: 'de', why: 'site' });
    expect(decideOnLoad({ ...prefs, languages: {} }, 'news.test', 'fr', 'es', { src: 'fr', trg: 'it' }, true)).toEqual({ action: 'translate', src: 'fr', trg: 'it', why: 'tab' });
    // The tab the user translated goes on, the language's always passed by or not.
    expect(decideOnLoad(prefs, 'news.test', 'fr', 'es', { src: 'fr', trg: 'it' }, true)).toEqual({ action: 'translate', src: 'fr', trg: 'it', why: 'tab' });
    expect(decideOnLoad(prefs, 'news.test', 'ca', 'es', undefined, true)).toEqual({ action: 'none', why: 'language-never' });
  });
  it('leaves pages in a never language, in the target language, or without a rule', () => {
    expect(decideOnLoad(prefs, 'always.test', 'ca', 'es')).toEqual({ action: 'none', why: 'language-never' });
    expect(decideOnLoad(prefs, 'always.test', 'de-AT', 'es')).toEqual({ action: 'none', why: 'same-language' });
    expect(decideOnLoad(prefs, 'news.test', 'en', 'es')).toEqual({ action: 'none', why: 'no-rule' });
  });
  it("keeps a page's script where it is not its language's usual one: Traditional Chinese is translated into Simplified, not left as the same language", () => {
    const chinese: SitePrefs = { sites: {}, languages: { zh: 'always' } };
    // Rules are by the primary code: one rule for both scripts.
    expect(decideOnLoad(chinese, 'news.tw', 'zh-TW', 'zh-Hans')).toEqual({ action: 'translate', src: 'zh-Hant', trg: 'zh-Hans', why: 'language' });
    expect(decideOnLoad(chinese, 'news.cn', 'zh-CN', 'zh-Hant')).toEqual({ action: 'translate', src: 'zh', trg: 'zh-Hant', why: 'language' });
    expect(decideOnLoad(chinese, 'news.tw', 'zh-TW', 'zh-Hant')).toEqual({ action: 'none', why: 'same-language' });
    expect(decideOnLoad(chinese, 'news.cn', 'zh-CN', 'zh-Hans')).toEqual({ action: 'none', why: 'same-language' });
    // A tab translated from the Chinese page Google lists as zh-Hans goes on into the next page in Chinese.
    expect(decideOnLoad({ sites: {}, languages: {} }, 'news.cn', 'zh', 'en', { src: 'zh-Hans', trg: 'en' })).toEqual({ action: 'translate', src: 'zh', trg: 'en', why: 'tab' });
    expect(decideOnLoad({ sites: {}, languages: {} }, 'news.tw', 'zh-TW', 'en', { src: 'zh-Hans', trg: 'en' })).toEqual({ action: 'none', why: 'no-rule' });
  });
});

describe('mayTranslateOnLoad', () => {
  it('is true for an always site, or a site without never when some language is always', () => {
    const prefs: SitePrefs = { sites: { 'always.test': { mode: 'always' }, 'never.test': { mode: 'never' }, 'bank.test': { private: true } }, languages: {} };
    expect(mayTranslateOnLoad(prefs, 'www.always.test')).toBe(true);
    expect(mayTranslateOnLoad(prefs, 'never.test')).toBe(false);
    expect(mayTranslateOnLoad(prefs, 'bank.test')).toBe(false);
    expect(mayTranslateOnLoad(prefs, 'news.test')).toBe(false);
    const withLanguage: SitePrefs = { ...prefs, languages: { fr: 'always', de: 'never' } };
    expect(mayTranslateOnLoad(withLanguage, 'news.test')).toBe(true);
    expect(mayTranslateOnLoad(withLanguage, 'bank.test')).toBe(true);
    expect(mayTranslateOnLoad(withLanguage, 'never.test')).toBe(false);
    expect(mayTranslateOnLoad({ sites: {}, languages: { de: 'never' } }, 'news.test')).toBe(false);
  });

  it('is never false where decideOnLoad would translate, whatever the rules, host and language', () => {
    const hosts = ['a.test', 'www.a.test', 'b.test', '127.0.0.1'];
    const langs = ['en', 'fr', 'de', 'es'];
    const mode = fc.constantFrom<'always' | 'never' | undefined>('always', 'never', undefined);
    const rule = fc.record({ mode, trg: fc.constantFrom(undefined, 'es', 'fr'), private: fc.constantFrom(undefined, true) }).map((r) =>
      Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)),
    );
    const prefs = fc.record({
      sites: fc.dictionary(fc.constantFrom('a.test', 'www.a.test', 'b.test', '127.0.0.1'), rule),
      languages: fc.dictionary(fc.constantFrom(...langs), fc.constantFrom<'always' | 'never'>('always', 'never')),
      trg: fc.constantFrom(undefined, 'es', 'de'),
    }).map((p) => validateSitePrefs(p));
    fc.assert(
      fc.property(prefs, fc.constantFrom(...hosts), fc.constantFrom(...langs), fc.constantFrom(...langs), (p, host, lang, browser) => {
        if (decideOnLoad(p, host, lang, browser).action === 'translate') expect(mayTranslateOnLoad(p, host)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isPrivate', () => {
  it('is true when the frame or the top page is a private site (or under one)', () => {
    const prefs: SitePrefs = { sites: { 'bank.test': { private: true }, 'open.test': { mode: 'always' } }, languages: {} };
    expect(isPrivate(prefs, ['www.bank.test', undefined])).toBe(true);
    expect(isPrivate(prefs, ['ads.test', 'bank.test'])).toBe(true);
    expect(isPrivate(prefs, ['open.test', undefined])).toBe(false);
  });
});

describe('isBilingual', () => {
  it('is the site\'s own choice (subdomains inherit it), else the general default', () => {
    const prefs = validateSitePrefs({ sites: { 'news.test': { bilingual: true }, 'plain.test': { bilingual: false }, 'a.test': { mode: 'never' } } });
    expect(prefs.sites).toEqual({ 'news.test': { bilingual: true }, 'plain.test': { bilingual: false }, 'a.test': { mode: 'never' } });
    expect(isBilingual(prefs, 'www.news.test', false)).toBe(true);
    expect(isBilingual(prefs, 'plain.test', true)).toBe(false);
    expect(isBilingual(prefs, 'a.test', true)).toBe(true);
    expect(isBilingual(prefs, undefined, false)).toBe(false);
  });
});
