import { describe, expect, it } from 'vitest';
import { mergeParams, normalizeParams, parseQuery, single } from '../../../src/core/interface/params';
import { expectApiError } from './api-error';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => new TextEncoder().encode(text);

describe('parseQuery', () => {
  it.each([
    ['plus is a space', 'dat=a+b', { dat: ['a b'] }],
    ['%2B is a plus', 'dat=1%2B1', { dat: ['1+1'] }],
    ['%20 is a space', 'dat=a%20b', { dat: ['a b'] }],
    ['percent escapes decode as UTF-8 bytes', 'dat=%C3%A9t%C3%A9', { dat: ['été'] }],
    ['lowercase hex', 'dat=%c3%a9', { dat: ['é'] }],
    ['a 4-byte character', 'dat=%F0%9F%98%80', { dat: ['😀'] }],
    ['raw non-ASCII text', 'dat=Grüße', { dat: ['Grüße'] }],
    ['empty value', 'dat=', { dat: [''] }],
    ['name without = has value ""', 'dat', { dat: [''] }],
    ['only the first = splits', 'dat=a=b', { dat: ['a=b'] }],
    ['%26 and %3D stay inside a value', 'dat=a%26b%3Dc', { dat: ['a&b=c'] }],
    ['empty pieces are skipped', '&&src=en&&trg=es&', { src: ['en'], trg: ['es'] }],
    ['empty query', '', {}],
    ['repeated values keep their order', 'dat=one&src=en&dat=two&dat=three', { dat: ['one', 'two', 'three'], src: ['en'] }],
    ['names are percent-decoded too', 'd%61t=x', { dat: ['x'] }],
    ['newlines survive', 'dat=a%0Ab', { dat: ['a\nb'] }],
  ])('%s', (_rule, query, expected) => {
    expect({ ...parseQuery(query) }).toEqual(expected);
  });

  it('parses a Uint8Array body like a string', () => {
    expect({ ...parseQuery(ascii('dat=a+b&dat=%C3%A9&src=en')) }).toEqual({ dat: ['a b', 'é'], src: ['en'] });
  });

  it('accepts raw UTF-8 bytes in a body', () => {
    expect({ ...parseQuery(bytes(0x64, 0x61, 0x74, 0x3d, 0xc3, 0xa9)) }).toEqual({ dat: ['é'] });
  });

  it('keeps __proto__ as an ordinary parameter name', () => {
    const params = parseQuery('__proto__=x&dat=y');
    expect(params['__proto__']).toEqual(['x']);
    expect(params['dat']).toEqual(['y']);
  });

  it.each([
    ['a truncated sequence %C3%28', 'dat=%C3%28', 'parameter "dat"'],
    ['a lone %FF', 'dat=%FF', 'parameter "dat"'],
    ['an overlong encoding %C0%AF', 'dat=%C0%AF', 'parameter "dat"'],
    ['an encoded surrogate %ED%A0%80', 'dat=%ED%A0%80', 'parameter "dat"'],
    ['a lone continuation byte', 'q=ok&dat=a%80b', 'parameter "dat"'],
    ['invalid bytes in a name', '%FF=1', 'parameter name'],
  ])('400 for invalid UTF-8: %s', (_rule, query, where) => {
    const error = expectApiError(() => parseQuery(query), 400, 'invalid UTF-8');
    expect(error.message).toContain(where);
  });

  it('400 for a raw 0xFF byte in a body', () => {
    expectApiError(() => parseQuery(bytes(0x64, 0x61, 0x74, 0x3d, 0x61, 0xff)), 400, 'invalid UTF-8 in parameter "dat"');
  });

  it('400 for a lone surrogate in a query string', () => {
    expectApiError(() => parseQuery('dat=\ud800'), 400, 'invalid UTF-8');
  });

  it.each([
    ['non-hex digits', 'dat=%zz'],
    ['one hex digit at the end', 'dat=%4'],
    ['a bare percent', 'dat=100%'],
    ['one hex digit then another character', 'dat=%4g'],
  ])('400 for a malformed percent escape: %s', (_rule, query) => {
    expectApiError(() => parseQuery(query), 400, 'malformed percent escape in parameter "dat"');
  });

  it('never echoes the value of a key parameter in an error', () => {
    const error = expectApiError(() => parseQuery('auth=secret-key%FF'), 400, 'parameter "auth"');
    expect(error.message).not.toContain('secret');
  });
});

describe('normalizeParams', () => {
  it('turns strings, numbers and arrays into arrays of strings and drops undefined', () => {
    const params = normalizeParams({ src: 'en', max: 3, dat: ['a', 'b'], rid: [], app: undefined, mix: ['x', 2] });
    expect({ ...params }).toEqual({ src: ['en'], max: ['3'], dat: ['a', 'b'], mix: ['x', '2'] });
  });

  it('passes Params through unchanged', () => {
    expect({ ...normalizeParams({ dat: ['a', ''], src: ['en'] }) }).toEqual({ dat: ['a', ''], src: ['en'] });
  });

  it.each([
    ['null', { dat: null }],
    ['an object', { dat: { text: 'a' } }],
    ['a boolean in an array', { dat: ['a', true] }],
    ['NaN', { max: Number.NaN }],
  ])('400 for a value of the wrong type: %s', (_rule, loose) => {
    expectApiError(() => normalizeParams(loose as never), 400, 'must be a string');
  });

  it('400 for parameters that are not an object', () => {
    expectApiError(() => normalizeParams(null as never), 400, 'parameters must be an object');
  });

  it('400 for a lone surrogate, which has no UTF-8 form', () => {
    expectApiError(() => normalizeParams({ dat: ['ok', 'bad \udc00'] }), 400, 'invalid UTF-8 in parameter "dat"');
  });
});

describe('single', () => {
  it('returns the one value, or undefined when absent', () => {
    const params = parseQuery('src=en&empty=');
    expect(single(params, 'src')).toBe('en');
    expect(single(params, 'empty')).toBe('');
    expect(single(params, 'trg')).toBeUndefined();
  });

  it('ignores inherited properties', () => {
    expect(single({}, 'constructor')).toBeUndefined();
  });

  it('400 when the parameter is repeated', () => {
    expectApiError(() => single(parseQuery('src=en&src=en'), 'src'), 400, 'parameter "src" given more than once');
  });
});

describe('mergeParams', () => {
  it('appends body values after query values', () => {
    const merged = mergeParams(parseQuery('dat=q1&src=en'), parseQuery('dat=b1&dat=b2&trg=es'));
    expect({ ...merged }).toEqual({ dat: ['q1', 'b1', 'b2'], src: ['en'], trg: ['es'] });
  });

  it('makes a parameter given in both places repeated', () => {
    expectApiError(() => single(mergeParams(parseQuery('src=en'), parseQuery('src=fr')), 'src'), 400, 'more than once');
  });
});
