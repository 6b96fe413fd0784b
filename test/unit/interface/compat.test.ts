import { describe, expect, it } from 'vitest';
import { compatError, compatMode, compatReply, parseCompat } from '../../../src/core/interface/compat';
import { parseQuery } from '../../../src/core/interface/params';
import { expectApiError } from './api-error';

const LIMIT = 1000;
const g1 = (query: string, textSize = LIMIT) => parseCompat('g1', parseQuery(query), textSize);
const g2 = (query: string, textSize = LIMIT) => parseCompat('g2', parseQuery(query), textSize);

describe('compatMode', () => {
  it.each([
    ['absent', '', undefined],
    ['g1', 'mode=g1', 'g1'],
    ['g2', 'mode=g2', 'g2'],
  ])('%s', (_rule, query, expected) => {
    expect(compatMode(parseQuery(query))).toBe(expected);
  });

  it.each([
    ['another value', 'mode=g3', 'parameter "mode" must be g1 or g2, got "g3"'],
    ['another case', 'mode=G2', 'got "G2"'],
    ['an empty value', 'mode=', 'got ""'],
    ['a repeated mode', 'mode=g1&mode=g1', 'parameter "mode" given more than once'],
  ])('400 for %s', (_rule, query, fragment) => {
    expectApiError(() => compatMode(parseQuery(query)), 400, fragment);
  });
});

describe('parseCompat g2', () => {
  it.each([
    ['source and target', 'source=en&target=es&q=hi', { src: 'en', trg: 'es', dat: ['hi'], frm: 'text' }],
    ['no source asks for detection', 'target=es&q=hi', { trg: 'es', dat: ['hi'], frm: 'text' }],
    ['an empty source asks for detection', 'source=&target=es&q=hi', { trg: 'es', dat: ['hi'], frm: 'text' }],
    ['several q in order', 'target=es&q=one&q=two&q=three', { trg: 'es', dat: ['one', 'two', 'three'], frm: 'text' }],
    ['format=html keeps each q apart', 'target=es&q=<b>a</b>&q=<i>b</i>&format=html', { trg: 'es', dat: ['<b>a</b>', '<i>b</i>'], frm: 'html' }],
    ['codes are canonicalized', 'source=iw&target=ZH-hans&q=x', { src: 'he', trg: 'zh-Hans', dat: ['x'], frm: 'text' }],
  ])('%s', (_rule, query, expected) => {
    expect(g2(query)).toEqual(expected);
  });

  it.each([
    ['missing target', 'source=en&q=hi', 'missing parameter "target"'],
    ['malformed target', 'target=e*&q=hi', 'parameter "target": "e*" is not a language code'],
    ['malformed source', 'source=12&target=es&q=hi', 'parameter "source": "12" is not a language code'],
    ['repeated target', 'target=es&target=fr&q=hi', 'parameter "target" given more than once'],
    ['source equal to target', 'source=spa&target=es&q=hi', 'same language'],
    ['no q', 'target=es', 'missing parameter "q"'],
    ['format outside text|html', 'target=es&q=hi&format=xml', 'parameter "format" must be one of text, html'],
    ['repeated format', 'target=es&q=hi&format=text&format=text', 'parameter "format" given more than once'],
  ])('400 for %s', (_rule, query, fragment) => {
    expectApiError(() => g2(query), 400, fragment);
  });

  it('413 over all q together, after the 400s', () => {
    expect(g2(`target=es&q=${'a'.repeat(500)}&q=${'😀'.repeat(500)}`).dat).toHaveLength(2);
    expectApiError(() => g2(`target=es&q=${'a'.repeat(500)}&q=${'😀'.repeat(501)}`), 413, '1001 characters sent, the limit is 1000');
    expectApiError(() => g2(`target=zz!&q=${'a'.repeat(1001)}`), 400, 'parameter "target"');
  });
});

describe('parseCompat g1', () => {
  it.each([
    ['a pair', 'langpair=en|es&q=hi', { src: 'en', trg: 'es', dat: ['hi'], frm: 'text' }],
    ['a percent-encoded bar', 'langpair=en%7Ces&q=hi', { src: 'en', trg: 'es', dat: ['hi'], frm: 'text' }],
    ['an empty source asks for detection', 'langpair=|es&q=hi', { trg: 'es', dat: ['hi'], frm: 'text' }],
    ['"autodetect" asks for detection', 'langpair=Autodetect|es&q=hi', { trg: 'es', dat: ['hi'], frm: 'text' }],
    ['several q in order', 'langpair=en|es&q=a&q=b', { src: 'en', trg: 'es', dat: ['a', 'b'], frm: 'text' }],
    ['codes are canonicalized', 'langpair=eng|spa&q=x', { src: 'en', trg: 'es', dat: ['x'], frm: 'text' }],
  ])('%s', (_rule, query, expected) => {
    expect(g1(query)).toEqual(expected);
  });

  it.each([
    ['missing langpair', 'q=hi', 'missing parameter "langpair"'],
    ['no bar', 'langpair=en-es&q=hi', 'parameter "langpair" must be "<src>|<trg>"'],
    ['two bars', 'langpair=en|es|fr&q=hi', 'parameter "langpair" must be "<src>|<trg>"'],
    ['empty target', 'langpair=en|&q=hi', 'parameter "langpair": "" is not a language code'],
    ['malformed source', 'langpair=e|es&q=hi', 'parameter "langpair": "e" is not a language code'],
    ['source equal to target', 'langpair=en|eng&q=hi', 'same language'],
    ['repeated langpair', 'langpair=en|es&langpair=en|es&q=hi', 'parameter "langpair" given more than once'],
    ['no q', 'langpair=en|es', 'missing parameter "q"'],
  ])('400 for %s', (_rule, query, fragment) => {
    expectApiError(() => g1(query), 400, fragment);
  });

  it('413 over all q together', () => {
    expect(g1(`langpair=en|es&q=${'a'.repeat(999)}&q=b`).dat).toHaveLength(2);
    expectApiError(() => g1(`langpair=en|es&q=${'a'.repeat(1000)}&q=b`), 413, '1001 characters sent, the limit is 1000');
  });
});

describe('compatReply', () => {
  it.each([
    ['g2 with a source', 'g2', ['hola'], undefined, { data: { translations: [{ translatedText: 'hola' }] } }],
    ['g2 detected, on every element', 'g2', ['hola', 'adiós'], 'en', {
      data: { translations: [{ translatedText: 'hola', detectedSourceLanguage: 'en' }, { translatedText: 'adiós', detectedSourceLanguage: 'en' }] },
    }],
    ['g1 one q', 'g1', ['hola'], undefined, { responseData: { translatedText: 'hola' }, responseDetails: null, responseStatus: 200 }],
    ['g1 several q', 'g1', ['hola', 'adiós'], 'en', {
      responseData: [{ translatedText: 'hola' }, { translatedText: 'adiós' }], responseDetails: null, responseStatus: 200,
    }],
  ] as const)('%s', (_rule, mode, translations, detected, body) => {
    expect(compatReply(mode, [...translations], detected)).toEqual({ status: 200, body });
  });
});

describe('compatError', () => {
  it.each([
    ['g2', 'g2', 403, { err: 'no key', error: { code: 403, message: 'no key' } }],
    ['g1', 'g1', 413, { err: 'too long', responseData: null, responseDetails: 'too long', responseStatus: 413 }],
  ] as const)('%s', (_rule, mode, status, body) => {
    expect(compatError(mode, status, body.err)).toEqual({ status, body });
  });
});
