import { describe, expect, it } from 'vitest';
import { failures, formatMs, groupAlternatives, resultOf, routeLabel } from '../../../src/ui/shared/alternatives';
import { codeFor, languageName, languages, searchLanguages, shownCode } from '../../../src/ui/shared/langs';
import { detectWithBrowser, readLanguage } from '../../../src/shared/detect';
import { applyPref, move, prefOf, pushRecent, ridOf } from '../../../src/ui/shared/routes';
import { isOne, t } from '../../../src/ui/shared/i18n';
import { rankedIds, withField } from '../../../src/ui/options/fields';
import { testOutcome } from '../../../src/ui/options/Providers';
import { newKey, usageLine } from '../../../src/ui/options/Keys';
import { parseCodes } from '../../../src/ui/options/Options';

describe('alternatives', () => {
  it('merges identical outputs listing every route, keeps failures apart', () => {
    const results = [
      resultOf({ rid: 'a.ts', text: ['Hola'], length: 5 }, 10),
      resultOf({ rid: 'b.ts', err: '502 b.ts: down', length: 0 }, 20),
      resultOf({ rid: 'c.ts,en,a.ts', text: ['Hola'], length: 5 }, 30),
      resultOf({ rid: 'd.ts', text: ['Buenas'], length: 5 }, 40),
    ];
    expect(groupAlternatives(results)).toEqual([
      { text: 'Hola', routes: [{ rid: 'a.ts', ms: 10 }, { rid: 'c.ts,en,a.ts', ms: 30 }] },
      { text: 'Buenas', routes: [{ rid: 'd.ts', ms: 40 }] },
    ]);
    expect(failures(results)).toEqual([{ rid: 'b.ts', ms: 20, err: '502 b.ts: down' }]);
  });

  it('labels routes and latencies for people', () => {
    expect(routeLabel('google.ts,en,deepl.ts')).toBe('google → en → deepl');
    expect(formatMs(42.4)).toBe('42 ms');
    expect(formatMs(1520)).toBe('1.5 s');
  });
});

describe('route order per pair', () => {
  it('applies the remembered order, new routes after it, switches kept', () => {
    const rows = applyPref(['a.ts', 'b.ts', 'c.ts', 'new.ts'], { order: ['c.ts', 'gone.ts', 'a.ts'], off: ['a.ts'] });
    expect(rows).toEqual([{ rid: 'c.ts', on: true }, { rid: 'a.ts', on: false }, { rid: 'b.ts', on: true }, { rid: 'new.ts', on: true }]);
    expect(ridOf(rows)).toEqual(['c.ts', 'b.ts', 'new.ts']);
    expect(prefOf(rows)).toEqual({ order: ['c.ts', 'a.ts', 'b.ts', 'new.ts'], off: ['a.ts'] });
  });

  it('moves items with clamping, and keeps recent pairs unique and newest first', () => {
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(move(['a', 'b', 'c'], 0, 9)).toEqual(['b', 'c', 'a']);
    expect(move(['a'], 3, 0)).toEqual(['a']);
    expect(pushRecent([['en', 'es'], ['fr', 'es']], ['fr', 'es'])).toEqual([['fr', 'es'], ['en', 'es']]);
    expect(pushRecent([['a', 'b'], ['c', 'd']], ['e', 'f'], 2)).toEqual([['e', 'f'], ['a', 'b']]);
  });
});

describe('languages', () => {
  it('names codes with Intl.DisplayNames and searches by name or code', () => {
    expect(languageName('es')).toBe('Spanish');
    expect(languageName('es', 'es')).toBe('español');
    expect(languageName('not a code!')).toBe('not a code!');
    const list = languages(['es', 'en', 'ca'], 'en');
    expect(list.map((l) => l.code)).toEqual(['ca', 'en', 'es']);
    expect(searchLanguages(list, 'span').map((l) => l.code)).toEqual(['es']);
    expect(searchLanguages(list, 'CA').map((l) => l.code)).toEqual(['ca']);
    // Names in English also match when the UI is in Spanish.
    expect(searchLanguages(languages(['es', 'en'], 'es'), 'english', 'es').map((l) => l.code)).toEqual(['en']);
  });

  it('lists a language once where two providers name it by two codes, a value shown as its entry', () => {
    // Chrome's on-device translator lists `zh`, Google `zh-Hans`: one language, the same routes.
    const codes = ['en', 'zh', 'zh-Hans', 'zh-Hant', 'sr', 'sr-Cyrl', 'sr-Latn', 'no', 'nb', 'pt', 'pt-PT'];
    expect(languages(codes, 'en').map((l) => l.code).sort()).toEqual(['en', 'nb', 'no', 'pt', 'pt-PT', 'sr-Cyrl', 'sr-Latn', 'zh-Hans', 'zh-Hant']);
    expect(shownCode('zh', codes)).toBe('zh-Hans');
    expect(shownCode('zh-Hant', codes)).toBe('zh-Hant');
    expect(shownCode('en', codes)).toBe('en');
    // Where only `zh` is listed, it is the entry.
    expect(languages(['en', 'zh', 'zh-Hant'], 'en').map((l) => l.code).sort()).toEqual(['en', 'zh', 'zh-Hant']);
    expect(shownCode('tlh', codes)).toBe('tlh');
    // A list of sources: a region's code beside its language's is one entry (APy lists `en-US` too).
    const sources = ['en', 'en-US', 'pt', 'pt-BR', 'ca-valencia', 'zh-Hant', 'sr-Latn'];
    expect(languages(sources, 'en', true).map((l) => l.code).sort()).toEqual(['ca-valencia', 'en', 'pt', 'sr-Latn', 'zh-Hant']);
    expect(shownCode('en-US', sources, true)).toBe('en');
    expect(shownCode('en-US', sources)).toBe('en-US');
  });

  it('maps what the detector reads to a code of the source list', () => {
    expect(codeFor('pt-BR', ['pt', 'pt-BR'])).toBe('pt-BR');
    expect(codeFor('ZH-tw', ['en', 'zh-TW'])).toBe('zh-TW');
    expect(codeFor('zh-Hant', ['en', 'zh'])).toBe('zh');
    expect(codeFor('fr', ['en', 'fr-CA', 'fr'])).toBe('fr');
    expect(codeFor('fr', ['en', 'fr-CA'])).toBe('fr-CA');
    expect(codeFor('tlh', ['en', 'es'])).toBeUndefined();
    // The script, where the list names scripts (Google's, Microsoft's): a Traditional reading is not a Simplified one.
    expect(codeFor('zh', ['en', 'zh-Hans', 'zh-Hant'])).toBe('zh-Hans');
    expect(codeFor('zh-TW', ['en', 'zh-Hans', 'zh-Hant'])).toBe('zh-Hant');
  });

  it("reads the browser detector's likeliest language, and nothing where it reads none", async () => {
    const detector = (languages: { language: string; percentage: number }[]) => () => ({ detectLanguage: async () => ({ isReliable: true, languages }) });
    expect(await detectWithBrowser('x', detector([{ language: 'ca', percentage: 20 }, { language: 'es', percentage: 80 }]))).toBe('es');
    expect(await detectWithBrowser('x', detector([{ language: 'und', percentage: 100 }]))).toBeUndefined();
    expect(await detectWithBrowser('x', detector([]))).toBeUndefined();
    // Whether the detector calls its reading reliable goes with it.
    const unsure = () => ({ detectLanguage: async () => ({ isReliable: false, languages: [{ language: 'gl', percentage: 100 }] }) });
    expect(await detectWithBrowser('Buenos días a todos', unsure)).toBe('gl');
    expect(await readLanguage('Buenos días a todos', unsure)).toEqual({ language: 'gl', sure: false });
    expect(await readLanguage('x', detector([{ language: 'fr', percentage: 100 }]))).toEqual({ language: 'fr', sure: true });
    expect(await detectWithBrowser('x', () => ({ detectLanguage: () => Promise.reject(new Error('no detector')) }))).toBeUndefined();
    // Outside an extension (no API at all): no language, no throw.
    expect(await detectWithBrowser('x')).toBeUndefined();
  });
});

describe('counted messages', () => {
  it("take the singular by the UI language's plural rules, the count kept in it", () => {
    const ui = (lang: string) => {
      (globalThis as { chrome?: unknown }).chrome = { i18n: { getMessage: () => '', getUILanguage: () => lang } };
    };
    try {
      ui('en');
      expect([0, 1, 2, 21].map(isOne)).toEqual([false, true, false, false]);
      // Russian says "21 part" as "1 part".
      ui('ru');
      expect([1, 2, 21, 11].map(isOne)).toEqual([true, false, true, false]);
      ui('not a language tag!');
      expect([1, 2].map(isOne)).toEqual([true, false]);
    } finally {
      delete (globalThis as { chrome?: unknown }).chrome;
    }
  });
});

describe('options helpers', () => {
  it('sets and clears provider fields', () => {
    expect(withField({ enabled: true }, 'url', ' http://127.0.0.1:2737 ')).toEqual({ enabled: true, url: 'http://127.0.0.1:2737' });
    expect(withField({ url: 'http://127.0.0.1:2737' }, 'url', '')).toEqual({});
    expect(withField({}, 'limit', '200')).toEqual({ limit: 200 });
  });

  it('orders providers as the engine ranks them', () => {
    expect(rankedIds(['b.ts', 'gone.ts'], ['c.ts', 'a.ts', 'b.ts'])).toEqual(['b.ts', 'a.ts', 'c.ts']);
  });

  it('reads a test connection result from the Translate reply', () => {
    expect(testOutcome('l.ts', 200, { dat: [{ rid: 'l.ts', text: ['HOLA'], length: 4 }] })).toEqual({ ok: true, text: 'HOLA' });
    expect(testOutcome('l.ts', 503, { err: 'no route', dat: [{ rid: 'l.ts', err: '403 l.ts: bad key', length: 0 }] })).toEqual({ ok: false, text: '403 l.ts: bad key' });
    expect(testOutcome('l.ts', 400, { err: 'rid "l.ts" is not a route' })).toEqual({ ok: false, text: 'rid "l.ts" is not a route' });
  });

  it('writes usage against the quota and makes URL-safe keys', () => {
    expect(usageLine({ requests: 3, chars: 250 }, 1000)).toBe('3 requests, 250 characters (25% of quota)');
    expect(usageLine(undefined, undefined)).toBe('0 requests, 0 characters');
    const key = newKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newKey()).not.toBe(key);
    expect(parseCodes(' ca, es  en,,')).toEqual(['ca', 'es', 'en']);
  });

  it('falls back to English with placeholders outside the extension', () => {
    expect(t('moved', '$1 moved to position $2', 'libre', '1')).toBe('libre moved to position 1');
  });
});
