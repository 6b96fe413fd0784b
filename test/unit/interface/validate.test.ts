import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/core/interface/params';
import { authParam, validatePairParams, validateTranslate } from '../../../src/core/interface/validate';
import { expectApiError } from './api-error';

const LIMIT = 1000;
const translate = (query: string, textSize = LIMIT) => validateTranslate(parseQuery(query), textSize);
const BASE = 'src=en&trg=es&dat=hello';

describe('validateTranslate: defaults and canonical values', () => {
  it('applies the defaults of interface.md 4.1', () => {
    expect(translate(BASE)).toEqual({
      src: 'en', trg: 'es', dat: ['hello'], min: 1, max: 1, timeout: 20, dom: 'general', rid: [], frm: 'text',
    });
  });

  it('canonicalizes src and trg', () => {
    expect(translate('src=ENG&trg=zh_hans&dat=x')).toMatchObject({ src: 'en', trg: 'zh-Hans' });
  });

  it('keeps every option given', () => {
    const request = translate(`${BASE}&min=2&max=3&timeout=120&dom=law&frm=text&app=my_App-1&rid=a.ts&rid=b.ts,en,c.ts`);
    expect(request).toEqual({
      src: 'en', trg: 'es', dat: ['hello'], min: 2, max: 3, timeout: 120, dom: 'law',
      rid: ['a.ts', 'b.ts,en,c.ts'], frm: 'text', app: 'my_App-1',
    });
  });

  it('keeps dat values in order, empty ones included', () => {
    expect(translate('src=en&trg=es&dat=one&dat=&dat=three').dat).toEqual(['one', '', 'three']);
  });

  it('counts a repeated rid once, keeping the first position', () => {
    expect(translate(`${BASE}&rid=b.ts&rid=a.ts&rid=b.ts`).rid).toEqual(['b.ts', 'a.ts']);
  });

  it('accepts every domain of the enumeration', () => {
    for (const dom of ['general', 'art', 'law', 'sci', 'tech', 'info', 'tel', 'bio', 'eco', 'agr', 'travel', 'mil', 'sport']) {
      expect(translate(`${BASE}&dom=${dom}`).dom).toBe(dom);
    }
  });

  it('accepts min equal to max and leading zeros', () => {
    expect(translate(`${BASE}&min=03&max=3`)).toMatchObject({ min: 3, max: 3 });
  });
});

describe('validateTranslate: frm=html', () => {
  it('joins the dat values with one space and forces min and max to 1', () => {
    expect(translate('src=en&trg=es&frm=html&dat=<p>a</p>&dat=<p>b</p>&min=2&max=5')).toMatchObject({
      dat: ['<p>a</p> <p>b</p>'], min: 1, max: 1, frm: 'html',
    });
  });

  it('still refuses min > max as sent', () => {
    expectApiError(() => translate('src=en&trg=es&frm=html&dat=x&min=3&max=2'), 400, '"min" (3) is larger than "max" (2)');
  });

  it('counts the values as sent, markup included, the joining spaces not', () => {
    const half = 'a'.repeat(LIMIT / 2 - 7);
    expect(translate(`src=en&trg=es&frm=html&dat=<b>${half}</b>&dat=<b>${half}</b>`).dat[0]).toHaveLength(LIMIT + 1);
    expectApiError(() => translate(`src=en&trg=es&frm=html&dat=<b>${half}</b>&dat=<b>${half}x</b>`), 413, '1001 characters sent');
  });
});

describe('validateTranslate: 400s', () => {
  it.each<[string, string, string]>([
    ['missing src', 'trg=es&dat=x', 'missing parameter "src"'],
    ['missing trg', 'src=en&dat=x', 'missing parameter "trg"'],
    ['empty src', 'src=&trg=es&dat=x', 'parameter "src": "" is not a language code'],
    ['malformed src', 'src=e!n&trg=es&dat=x', 'parameter "src": "e!n" is not a language code'],
    ['malformed trg', 'src=en&trg=*&dat=x', 'parameter "trg": "*" is not a language code'],
    ['duplicated src', 'src=en&src=fr&trg=es&dat=x', 'parameter "src" given more than once'],
    ['duplicated trg', 'src=en&trg=es&trg=es&dat=x', 'parameter "trg" given more than once'],
    ['src equal to trg', 'src=en&trg=en&dat=x', 'same language'],
    ['src equal to trg after canonicalization', 'src=eng&trg=EN&dat=x', 'same language ("en")'],
    ['no dat', 'src=en&trg=es', 'missing parameter "dat"'],
    ...['0', '-1', '2.5', '1e2', '', ' 3', '3 ', '0x10', '+3', 'two', '99999999999999999999'].map(
      (v): [string, string, string] => [`min=${JSON.stringify(v)}`, `${BASE}&min=${encodeURIComponent(v)}&max=5`, 'parameter "min" must be an integer >= 1'],
    ),
    ['max not an integer', `${BASE}&max=1.0`, 'parameter "max" must be an integer >= 1, got "1.0"'],
    ['max zero', `${BASE}&max=0`, 'parameter "max" must be an integer >= 1'],
    ['min > max', `${BASE}&min=2`, '"min" (2) is larger than "max" (1)'],
    ['duplicated max', `${BASE}&max=2&max=2`, 'parameter "max" given more than once'],
    ['timeout 0', `${BASE}&timeout=0`, 'parameter "timeout" must be an integer from 1 to 120, got "0"'],
    ['timeout 121', `${BASE}&timeout=121`, 'parameter "timeout" must be an integer from 1 to 120'],
    ['timeout not an integer', `${BASE}&timeout=1.5`, 'parameter "timeout" must be an integer from 1 to 120'],
    ['dom outside the enumeration', `${BASE}&dom=medicine`, 'parameter "dom" must be one of general, art'],
    ['dom with another case', `${BASE}&dom=Law`, 'got "Law"'],
    ['frm outside the enumeration', `${BASE}&frm=xml`, 'parameter "frm" must be one of text, html, got "xml"'],
    ['duplicated frm', `${BASE}&frm=text&frm=html`, 'parameter "frm" given more than once'],
    ['app with a space', `${BASE}&app=my+app`, 'parameter "app" must be 1 to 64'],
    ['app empty', `${BASE}&app=`, 'parameter "app" must be 1 to 64'],
    ['app of 65 characters', `${BASE}&app=${'a'.repeat(65)}`, 'parameter "app" must be 1 to 64'],
    ['app with a non-English letter', `${BASE}&app=caf%C3%A9`, 'parameter "app" must be 1 to 64'],
    ['duplicated app', `${BASE}&app=a&app=b`, 'parameter "app" given more than once'],
  ])('%s', (_rule, query, fragment) => {
    expectApiError(() => translate(query), 400, fragment);
  });

  it('accepts an app of exactly 64 characters', () => {
    expect(translate(`${BASE}&app=${'a'.repeat(64)}`).app).toHaveLength(64);
  });

  it('cuts a long echoed value short', () => {
    const error = expectApiError(() => translate(`${BASE}&dom=${'x'.repeat(500)}`), 400, 'parameter "dom"');
    expect(error.message.length).toBeLessThan(200);
  });

  it('reports a 400 before a 413', () => {
    expectApiError(() => translate(`src=en&trg=es&dat=${'a'.repeat(LIMIT + 1)}&timeout=0`), 400, 'timeout');
  });
});

describe('validateTranslate: text size (413)', () => {
  it.each([
    ['exactly the limit in one dat', [`${'a'.repeat(LIMIT)}`], true],
    ['one over the limit in one dat', [`${'a'.repeat(LIMIT + 1)}`], false],
    ['exactly the limit summed over dat values', ['a'.repeat(600), 'b'.repeat(400)], true],
    ['one over summed over dat values', ['a'.repeat(600), 'b'.repeat(401)], false],
    ['an emoji counts as one character', ['😀'.repeat(LIMIT)], true],
    ['one emoji over', ['😀'.repeat(LIMIT + 1)], false],
    ['a precomposed é counts as one character', ['\u00e9'.repeat(LIMIT)], true],
    ['a decomposed é counts as the two code points sent', ['e\u0301'.repeat(LIMIT / 2), 'x'], false],
  ])('%s', (_rule, dat, accepted) => {
    const query = `src=en&trg=es&${dat.map((d) => `dat=${encodeURIComponent(d)}`).join('&')}`;
    if (accepted) {
      expect(translate(query).dat).toEqual(dat);
    } else {
      expectApiError(() => translate(query), 413, `text too long: ${LIMIT + 1} characters sent, the limit is ${LIMIT}`);
    }
  });

  it('uses the configured limit', () => {
    expectApiError(() => translate('src=en&trg=es&dat=abcdef', 5), 413, '6 characters sent, the limit is 5');
    expect(translate('src=en&trg=es&dat=abcde', 5).dat).toEqual(['abcde']);
  });
});

describe('validatePairParams', () => {
  it('returns canonical codes', () => {
    expect(validatePairParams(parseQuery('src=iw&trg=EN-gb'))).toEqual({ src: 'he', trg: 'en-GB' });
  });

  it.each([
    ['missing src', 'trg=es', 'missing parameter "src"'],
    ['missing trg', 'src=en', 'missing parameter "trg"'],
    ['malformed trg', 'src=en&trg=e', 'parameter "trg": "e" is not a language code'],
    ['repeated src', 'src=en&src=de&trg=es', 'parameter "src" given more than once'],
    ['src equal to trg', 'src=es&trg=spa', 'same language'],
  ])('400 for %s', (_rule, query, fragment) => {
    expectApiError(() => validatePairParams(parseQuery(query)), 400, fragment);
  });
});

describe('authParam', () => {
  it.each([
    ['auth of any function', 'GetLanguages', 'auth=k1', 'k1'],
    ['no key', 'GetLanguages', '', undefined],
    ['auth of Translate', 'Translate', 'auth=k1', 'k1'],
    ['uid is not a key outside mode g1', 'Translate', 'uid=k1', undefined],
    ['uid in mode g1', 'Translate', 'mode=g1&uid=k1', 'k1'],
    ['auth in mode g1', 'Translate', 'mode=g1&auth=k1', 'k1'],
    ['key in mode g2', 'Translate', 'mode=g2&key=k2', 'k2'],
    ['auth in mode g2', 'Translate', 'mode=g2&auth=k2', 'k2'],
    ['key and auth alike in mode g2', 'Translate', 'mode=g2&auth=k2&key=k2', 'k2'],
    ['mode is ignored outside Translate', 'GetRoutes', 'mode=zz&key=k2&auth=k1', 'k1'],
  ])('%s', (_rule, fn, query, expected) => {
    expect(authParam(parseQuery(query), fn)).toBe(expected);
  });

  it.each([
    ['repeated auth', 'GetProviders', 'auth=secret-1&auth=secret-2', 'parameter "auth" given more than once'],
    ['repeated uid', 'Translate', 'mode=g1&uid=secret-1&uid=secret-1', 'parameter "uid" given more than once'],
    ['repeated key', 'Translate', 'mode=g2&key=secret-1&key=secret-2', 'parameter "key" given more than once'],
    ['key and auth differ', 'Translate', 'mode=g2&key=secret-1&auth=secret-2', 'carry different keys'],
    ['unknown mode', 'Translate', 'mode=g3&auth=secret-1', 'parameter "mode" must be g1 or g2'],
  ])('400 for %s, without echoing the key', (_rule, fn, query, fragment) => {
    const error = expectApiError(() => authParam(parseQuery(query), fn), 400, fragment);
    expect(error.message).not.toContain('secret');
  });
});
