import { describe, expect, it } from 'vitest';
import { orderRoutes, parseRoute, RouteTable } from '../../../src/core/routes/routes';

const anyToAny = (langs: string[]) => ({ src: langs, trg: langs });
const apy = {
  pairs: [
    { src: 'en', trg: 'es' },
    { src: 'es', trg: 'en' },
    { src: 'es', trg: 'pt' },
    { src: 'pt', trg: 'es' },
    { src: 'en', trg: 'ca' },
  ],
};

describe('route lists', () => {
  it('lists direct routes by provider rank, then indirect ones through each interlingua', () => {
    const t = new RouteTable(
      [
        { id: 'deepl.ts', support: anyToAny(['en', 'de', 'fr']) },
        { id: 'apertium.ts', support: anyToAny(['en', 'de', 'fr']) },
      ],
      ['en'],
    );
    expect(t.routes('de', 'fr')).toEqual([
      'deepl.ts',
      'apertium.ts',
      'deepl.ts,en,deepl.ts',
      // rank sums 1 and 1: the better first leg first
      'deepl.ts,en,apertium.ts',
      'apertium.ts,en,deepl.ts',
      'apertium.ts,en,apertium.ts',
    ]);
  });

  it('never routes through src or trg as the interlingua', () => {
    const t = new RouteTable([{ id: 'a.ts', support: anyToAny(['en', 'de', 'fr']) }], ['en', 'fr']);
    expect(t.routes('en', 'de')).toEqual(['a.ts', 'a.ts,fr,a.ts']);
    expect(t.routes('de', 'fr')).toEqual(['a.ts', 'a.ts,en,a.ts']);
  });

  it('chains one provider with itself where it lacks the direct pair (APy en->pt through es)', () => {
    const t = new RouteTable([{ id: 'apertium.ts', support: apy }], ['es']);
    expect(t.routes('en', 'pt')).toEqual(['apertium.ts,es,apertium.ts']);
    expect(new RouteTable([{ id: 'apertium.ts', support: apy }], ['en']).routes('en', 'pt')).toEqual([]);
  });

  it('lists languages with at least one route and excludes routeless pairs', () => {
    const t = new RouteTable([{ id: 'apertium.ts', support: apy }], ['es']);
    const l = t.languages();
    expect(l.src.sort()).toEqual(['en', 'es', 'pt']);
    expect(l.trg.sort()).toEqual(['ca', 'en', 'es', 'pt']);
    expect(l.exclude).toContainEqual(['pt', 'ca']);
    expect(l.exclude).not.toContainEqual(['en', 'pt']);
    expect(l.exclude.some(([a, b]) => a === b)).toBe(false);
  });

  it('puts explicit rids first and keeps the rest in default order, counting a repeat once', () => {
    expect(orderRoutes(['a.ts', 'b.ts', 'c.ts'], ['c.ts', 'a.ts', 'c.ts'])).toEqual(['c.ts', 'a.ts', 'b.ts']);
  });

  it('splits route ids into legs', () => {
    expect(parseRoute('a.ts,en,b.ts', 'de', 'fr')).toEqual([
      { provider: 'a.ts', src: 'de', trg: 'en' },
      { provider: 'b.ts', src: 'en', trg: 'fr' },
    ]);
    expect(parseRoute('a.ts,en', 'de', 'fr')).toBeUndefined();
  });
});

describe('routes by language, each provider sent its own code', () => {
  // Chrome's on-device translator lists Simplified Chinese as `zh`, Google as `zh-Hans`.
  const table = () =>
    new RouteTable(
      [
        { id: 'google.ts', support: anyToAny(['en', 'de', 'zh-Hans', 'zh-Hant', 'pt', 'no']) },
        { id: 'chrome.ts', support: anyToAny(['en', 'de', 'zh', 'zh-Hant']) },
        { id: 'deepl.ts', support: { src: ['en', 'de', 'pt'], trg: ['en', 'en-GB', 'en-US', 'de', 'pt', 'pt-PT'] } },
      ],
      ['en'],
    );

  it('routes a code through every provider that lists its language, under its own code', () => {
    const t = table();
    for (const zh of ['zh', 'zh-Hans']) {
      expect(t.routes('en', zh)).toEqual(['google.ts', 'chrome.ts']);
      expect(t.legs('google.ts', 'en', zh)).toEqual([{ provider: 'google.ts', src: 'en', trg: 'zh-Hans' }]);
      expect(t.legs('chrome.ts', 'en', zh)).toEqual([{ provider: 'chrome.ts', src: 'en', trg: 'zh' }]);
      expect(t.routes(zh, 'de')[0]).toBe('google.ts');
      expect(t.legs('chrome.ts,en,google.ts', zh, 'de')).toEqual([
        { provider: 'chrome.ts', src: 'zh', trg: 'en' },
        { provider: 'google.ts', src: 'en', trg: 'de' },
      ]);
    }
    // Norwegian Bokmål is Google's `no`.
    expect(t.legs('google.ts', 'nb', 'en')).toEqual([{ provider: 'google.ts', src: 'no', trg: 'en' }]);
  });

  it('keeps the scripts apart: Traditional Chinese is not Simplified', () => {
    const t = table();
    expect(t.routes('zh', 'zh-Hant').slice(0, 2)).toEqual(['google.ts', 'chrome.ts']);
    expect(t.legs('chrome.ts', 'zh-Hans', 'zh-Hant')).toEqual([{ provider: 'chrome.ts', src: 'zh', trg: 'zh-Hant' }]);
    const simplifiedOnly = new RouteTable([{ id: 'a.ts', support: anyToAny(['en', 'zh-Hans']) }], []);
    expect(simplifiedOnly.routes('en', 'zh-Hant')).toEqual([]);
    expect(simplifiedOnly.routes('en', 'zh-TW')).toEqual([]);
  });

  it('answers a target that names a region only in that region, a source in any', () => {
    const t = table();
    // Google's `en` is American English: not for a reader who asked for British.
    expect(t.routes('de', 'en-GB')).toEqual(['deepl.ts']);
    expect(t.legs('deepl.ts', 'de', 'en-GB')).toEqual([{ provider: 'deepl.ts', src: 'de', trg: 'en-GB' }]);
    expect(t.routes('de', 'en-US')).toEqual(['google.ts', 'chrome.ts', 'deepl.ts']);
    expect(t.legs('google.ts', 'de', 'en-US')).toEqual([{ provider: 'google.ts', src: 'de', trg: 'en' }]);
    expect(t.routes('de', 'pt-PT').filter((r) => !r.endsWith(',google.ts'))).toEqual(t.routes('de', 'pt-PT'));
    expect(t.routes('de', 'pt-PT')[0]).toBe('deepl.ts');
    // A bare target takes the provider's code first, else its likely region's (DeepL's `en`).
    expect(t.legs('deepl.ts', 'de', 'en')).toEqual([{ provider: 'deepl.ts', src: 'de', trg: 'en' }]);
    expect(t.routes('en-GB', 'de')).toEqual(['google.ts', 'chrome.ts', 'deepl.ts']);
    expect(t.legs('google.ts', 'en-GB', 'de')).toEqual([{ provider: 'google.ts', src: 'en', trg: 'de' }]);
  });

  it('never chains two codes of one language through an interlingua, nor through the language itself', () => {
    const t = table();
    expect(t.routes('zh', 'zh-Hans')).toEqual([]);
    expect(t.hasRoute('zh', 'zh-Hans')).toBe(false);
    expect(t.languages().exclude).toContainEqual(['zh', 'zh-Hans']);
    // A provider that lists both codes converts between them itself.
    expect(t.routes('pt', 'pt-PT')).toEqual(['deepl.ts']);
    expect(t.routes('en-GB', 'de').some((r) => r.includes(','))).toBe(false);
  });

  it("matches a provider's pairs by language too (APy lists Norwegian as nb)", () => {
    const t = new RouteTable([{ id: 'apertium.ts', support: { pairs: [{ src: 'nb', trg: 'da' }, { src: 'sr', trg: 'hr' }] } }], []);
    expect(t.legs('apertium.ts', 'no', 'da')).toEqual([{ provider: 'apertium.ts', src: 'nb', trg: 'da' }]);
    expect(t.legs('apertium.ts', 'sr-Cyrl', 'hr')).toEqual([{ provider: 'apertium.ts', src: 'sr', trg: 'hr' }]);
    expect(t.routes('sr-Latn', 'hr')).toEqual([]);
  });
});
