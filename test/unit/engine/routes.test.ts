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
