import { describe, expect, it, vi } from 'vitest';
import { detectLanguage } from '../../../src/core/detect';
import { canonicalLanguage, languageOf, listedCode, ONE_SCRIPT, sameLanguage } from '../../../src/core/lang';

describe('canonicalLanguage', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['eng', 'en'],
    ['iw', 'he'],
    ['in', 'id'],
    ['tl', 'fil'],
    ['zh-hans', 'zh-Hans'],
    ['ZH-HANS-cn', 'zh-Hans-CN'],
    ['pt_br', 'pt-BR'],
    ['en-us', 'en-US'],
    ['spa', 'es'],
    ['ca', 'ca'],
  ])('canonicalizes %j to %j', (input, expected) => {
    expect(canonicalLanguage(input)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['wildcard', '*'],
    ['whitespace around', ' en'],
    ['longer than 35 characters', `en-${'a'.repeat(33)}`],
    ['private use', 'x-foo'],
    ['extension', 'en-u-ca-buddhist'],
    ['private-use suffix', 'en-x-foo'],
    ['grandfathered irregular tag', 'i-klingon'],
    ['undetermined', 'und'],
    ['trailing dash', 'en-'],
    ['single letter', 'e'],
    ['digits', '12'],
    ['five-letter language subtag', 'abcde'],
    ['pipe', 'en|es'],
  ])('rejects %s', (_rule, input) => {
    expect(canonicalLanguage(input)).toBeUndefined();
  });
});

describe('detectLanguage', () => {
  const candidates = ['en', 'es', 'fr', 'pt', 'de', 'zh-Hans', 'ja', 'ru'];

  it.each([
    ['The quick brown fox jumps over the lazy dog.', 'en'],
    ['Hello, how are you today? I am fine thank you very much.', 'en'],
    ['Hola, ¿cómo estás hoy? Estoy muy bien.', 'es'],
    ['Bonjour, comment allez-vous aujourd’hui ?', 'fr'],
    ['Guten Morgen, wie geht es dir heute?', 'de'],
    ['Bom dia, como vai você hoje?', 'pt'],
    ['你好，今天怎么样？我很好。', 'zh-Hans'],
    ['こんにちは、お元気ですか。', 'ja'],
    ['Привет, как дела сегодня?', 'ru'],
  ])('detects %j as %s', (text, expected) => {
    expect(detectLanguage(text, candidates)).toBe(expected);
  });

  it.each([
    ['text too short', 'hi', candidates],
    ['digits only', '1234567890123', candidates],
    ['text in a language that is not a candidate', 'Hola, ¿cómo estás hoy? Estoy muy bien.', ['en']],
    ['script of no candidate', '你好，今天怎么样？我很好。', ['en', 'es']],
    ['no candidate franc knows', 'Bon dia, com estàs avui?', ['ca']],
    ['no candidates', 'The quick brown fox jumps over the lazy dog.', []],
  ])('is undefined when unsure: %s', (_rule, text, list) => {
    expect(detectLanguage(text, list)).toBeUndefined();
  });

  it('answers with the candidate as given, the first of a shared language', () => {
    expect(detectLanguage('Bom dia, como vai você hoje?', ['en', 'pt-BR', 'pt-PT'])).toBe('pt-BR');
  });
});

describe('languageOf, sameLanguage: what a translation has to cross', () => {
  it.each([
    ['zh', 'zh'],
    ['zh-CN', 'zh'],
    ['zh-Hans', 'zh'],
    ['zh-TW', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['zh-hant', 'zh-Hant'],
    ['sr', 'sr'],
    ['sr-Latn', 'sr-Latn'],
    ['en-GB', 'en'],
    ['pt-BR', 'pt'],
    ['nb', 'no'],
    ['tl', 'fil'],
    ['pa-PK', 'pa-Arab'],
    ['not a code', undefined],
  ])('%j is %j', (tag, key) => {
    expect(languageOf(tag)).toBe(key);
  });

  it('a region of a language is that language; another script is another language', () => {
    expect(sameLanguage('en-GB', 'en')).toBe(true);
    expect(sameLanguage('zh-TW', 'zh-Hant')).toBe(true);
    expect(sameLanguage('zh-CN', 'zh-Hans')).toBe(true);
    expect(sameLanguage('nb', 'no')).toBe(true);
    expect(sameLanguage('zh-TW', 'zh-Hans')).toBe(false);
    expect(sameLanguage('zh-TW', 'zh')).toBe(false);
    expect(sameLanguage('sr', 'sr-Latn')).toBe(false);
    expect(sameLanguage('en', 'es')).toBe(false);
    expect(sameLanguage('??', '??')).toBe(false);
  });

  it("the languages read without Intl's likely subtags are in their one script in every region, as Intl reads them", () => {
    const regions: string[] = [];
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const a of A) for (const b of A) regions.push(a + b);
    for (let n = 0; n < 1000; n++) regions.push(String(n).padStart(3, '0'));
    const wrong: string[] = [];
    for (const [language, script] of ONE_SCRIPT) {
      for (const tag of [language, ...regions.map((r) => `${language}-${r}`)]) {
        const max = new Intl.Locale(tag).maximize();
        if (max.language !== language || max.script !== script) wrong.push(`${tag}: ${max.language}-${max.script}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(ONE_SCRIPT.size).toBeGreaterThan(150);
  });

  it("a page's usual tags are read without loading Intl's likely subtags (18–46 ms the first time in a tab); others still are", () => {
    const maximize = vi.spyOn(Intl.Locale.prototype, 'maximize');
    try {
      // Tags no other test here has read (each is read once, then remembered).
      expect(languageOf('de-AT')).toBe('de');
      expect(sameLanguage('fr-CA', 'es-419')).toBe(false);
      expect(sameLanguage('ru-UA', 'ru')).toBe(true);
      expect(listedCode('it-CH', ['en', 'it', 'zh-Hans'])).toBe('it');
      expect(maximize).not.toHaveBeenCalled();
      expect(languageOf('uz-AF')).toBe('uz-Arab');
      expect(languageOf('az-Arab')).toBe('az-Arab');
      expect(maximize).toHaveBeenCalled();
    } finally {
      maximize.mockRestore();
    }
  });
});

describe('listedCode: the code a list has for a page\'s or a browser\'s tag', () => {
  // Google's and Microsoft's lists name the scripts, not `zh`; Chrome's on-device one and LLMs name `zh` and `zh-Hant`.
  const GOOGLE = ['en', 'es', 'no', 'pt', 'sr', 'zh-Hans', 'zh-Hant'];
  const ON_DEVICE = ['en', 'es', 'zh', 'zh-Hant'];
  it.each([
    ['zh', GOOGLE, 'zh-Hans'],
    ['zh-CN', GOOGLE, 'zh-Hans'],
    ['zh-TW', GOOGLE, 'zh-Hant'],
    ['zh-HK', GOOGLE, 'zh-Hant'],
    ['zh-Hans', ON_DEVICE, 'zh'],
    // Both named (Google's and the on-device translator's lists together): the one the web providers name.
    ['zh', [...GOOGLE, 'zh'], 'zh-Hans'],
    ['zh-Hant', [...GOOGLE, 'zh'], 'zh-Hant'],
    ['zh-TW', ON_DEVICE, 'zh-Hant'],
    ['nb', GOOGLE, 'no'],
    ['en-GB', GOOGLE, 'en'],
    ['pt-BR', GOOGLE, 'pt'],
    ['es', GOOGLE, 'es'],
    ['fr', GOOGLE, undefined],
    ['zh-TW', ['en', 'zh'], undefined],
    ['sr-Latn', GOOGLE, undefined],
  ])('%j in %j is %j', (tag, codes, code) => {
    expect(listedCode(tag, codes)).toBe(code);
  });

  it('a source may be read in a script its provider does not list; a target may not', () => {
    expect(listedCode('zh-TW', ['en', 'zh'], true)).toBe('zh');
    expect(listedCode('sr-Latn', ['en', 'sr'], true)).toBe('sr');
    expect(listedCode('fr', ['en', 'zh'], true)).toBeUndefined();
  });
});
