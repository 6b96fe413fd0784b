import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, withDefaults } from '../../../src/core/settings/defaults';
import { validateSettings } from '../../../src/core/settings/validate';
import { expectApiError } from '../interface/api-error';

const KEY = { name: 'my-app', key: 'k-12345678', quota: 100000 };

describe('DEFAULT_SETTINGS and withDefaults', () => {
  it('is the documented fresh-install document', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      providers: {
        'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' },
        'google.ts': { enabled: true },
        'chrome.ts': { enabled: true },
      },
      ranking: ['apertium.ts', 'google.ts', 'chrome.ts'],
      interlinguas: ['en'],
      keys: [],
      limits: { textSize: 1000 },
    });
  });

  it('refuses edits in place, so the defaults cannot drift', () => {
    expect(() => DEFAULT_SETTINGS.keys.push(KEY)).toThrow(TypeError);
    expect(() => {
      DEFAULT_SETTINGS.limits.textSize = 5;
    }).toThrow(TypeError);
  });

  it('fills missing fields with copies that callers may change', () => {
    const settings = withDefaults({ ranking: ['deepl.ts'] });
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, ranking: ['deepl.ts'] });
    settings.keys.push(KEY);
    settings.limits.textSize = 5;
    expect(DEFAULT_SETTINGS.keys).toEqual([]);
    expect(DEFAULT_SETTINGS.limits.textSize).toBe(1000);
  });

  it('fills limits.textSize inside a given limits object', () => {
    expect(withDefaults({ limits: { perMinute: 3 } as never }).limits).toEqual({ textSize: 1000, perMinute: 3 });
  });
});

describe('validateSettings: accepted documents', () => {
  it('gives the defaults for an empty document', () => {
    expect(validateSettings({})).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps a full document and its unknown fields', () => {
    const doc = {
      providers: {
        'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' },
        'deepl.ts': { enabled: true, key: 'dk', url: 'https://api-free.deepl.com', future: [1] },
        'microsoft.ts': { enabled: false, region: 'westeurope' },
        'llm.ts': { url: 'http://localhost:11434/v1', model: 'llama3' },
        'mymemory.ts': { email: 'me@example.org' },
      },
      ranking: ['deepl.ts', 'google.ts', 'apertium.ts'],
      interlinguas: ['en', 'es'],
      keys: [KEY, { name: 'other', key: 'another-key', allowed: ['http://127.0.0.1:5173'], revoked: true }],
      limits: { textSize: 5000, extra: true },
      theme: 'dark',
    };
    expect(validateSettings(doc)).toEqual(doc);
  });

  it('canonicalizes interlinguas', () => {
    expect(validateSettings({ interlinguas: ['ENG', 'spa', 'zh_hans'] }).interlinguas).toEqual(['en', 'es', 'zh-Hans']);
  });

  it('fills a missing textSize inside limits', () => {
    expect(validateSettings({ limits: { other: 1 } }).limits).toEqual({ textSize: 1000, other: 1 });
  });

  it('accepts a quota of 0 and an empty keys list', () => {
    expect(validateSettings({ keys: [{ ...KEY, quota: 0 }] }).keys[0]?.quota).toBe(0);
    expect(validateSettings({ keys: [] }).keys).toEqual([]);
  });

  it('does not modify the document it is given', () => {
    const doc = { interlinguas: ['eng'] };
    validateSettings(doc);
    expect(doc).toEqual({ interlinguas: ['eng'] });
  });
});

describe('validateSettings: refused documents name the field', () => {
  it.each([
    ['a document that is not an object', [], 'settings: must be a JSON object'],
    ['null', null, 'settings: must be a JSON object'],
    ['providers not an object', { providers: [] }, 'settings.providers: must be an object'],
    ['a provider id without .ts', { providers: { deepl: {} } }, 'settings.providers["deepl"]: the name must be a provider id like "name.ts"'],
    ['a provider id in capitals', { providers: { 'DeepL.ts': {} } }, 'settings.providers["DeepL.ts"]: the name must be a provider id'],
    ['a provider entry not an object', { providers: { 'deepl.ts': true } }, 'settings.providers["deepl.ts"]: must be an object'],
    ['enabled not a boolean', { providers: { 'deepl.ts': { enabled: 'yes' } } }, 'settings.providers["deepl.ts"].enabled: must be true or false'],
    ['url not a URL', { providers: { 'deepl.ts': { url: 'api-free.deepl.com' } } }, 'settings.providers["deepl.ts"].url: must be an http(s) URL'],
    ['url of another scheme', { providers: { 'deepl.ts': { url: 'ftp://x.org' } } }, 'settings.providers["deepl.ts"].url: must be an http(s) URL'],
    ['url not a string', { providers: { 'deepl.ts': { url: 3 } } }, 'settings.providers["deepl.ts"].url: must be an http(s) URL'],
    ['a provider key not a string', { providers: { 'deepl.ts': { key: 12 } } }, 'settings.providers["deepl.ts"].key: must be a string'],
    ['a model not a string', { providers: { 'llm.ts': { model: null } } }, 'settings.providers["llm.ts"].model: must be a string'],
    ['ranking not an array', { ranking: 'deepl.ts' }, 'settings.ranking: must be an array'],
    ['a ranking entry not an id', { ranking: ['deepl'] }, 'settings.ranking[0]: must be a provider id like "name.ts"'],
    ['a ranking entry not a string', { ranking: ['deepl.ts', 4] }, 'settings.ranking[1]: must be a provider id'],
    ['a ranking entry twice', { ranking: ['a.ts', 'b.ts', 'a.ts'] }, 'settings.ranking[2]: "a.ts" is listed twice'],
    ['interlinguas not an array', { interlinguas: 'en' }, 'settings.interlinguas: must be an array'],
    ['an interlingua not a code', { interlinguas: ['en', 'es', 'e!'] }, 'settings.interlinguas[2]: not a language code'],
    ['an interlingua twice after canonicalization', { interlinguas: ['en', 'eng'] }, 'settings.interlinguas[1]: "en" is listed twice'],
    ['keys not an array', { keys: {} }, 'settings.keys: must be an array'],
    ['a key entry not an object', { keys: ['k-12345678'] }, 'settings.keys[0]: must be an object'],
    ['a key without a name', { keys: [{ key: 'k-12345678' }] }, 'settings.keys[0].name: must be a non-empty string'],
    ['a key with an empty name', { keys: [{ name: '', key: 'k-12345678' }] }, 'settings.keys[0].name: must be a non-empty string'],
    ['a key string shorter than 8', { keys: [{ name: 'a', key: 'short' }] }, 'settings.keys[0].key: must be a string of at least 8 characters'],
    ['a key not a string', { keys: [{ name: 'a', key: 123456789 }] }, 'settings.keys[0].key: must be a string'],
    ['a negative quota', { keys: [KEY, { ...KEY, name: 'b', key: 'k-other-key', quota: -1 }] }, 'settings.keys[1].quota: must be a non-negative integer'],
    ['a fractional quota', { keys: [{ ...KEY, quota: 1.5 }] }, 'settings.keys[0].quota: must be a non-negative integer'],
    ['a quota as a string', { keys: [{ ...KEY, quota: '100' }] }, 'settings.keys[0].quota: must be a non-negative integer'],
    ['allowed not an array', { keys: [{ ...KEY, allowed: 'https://a.example' }] }, 'settings.keys[0].allowed: must be an array'],
    ['an empty allowed entry', { keys: [{ ...KEY, allowed: ['x', ''] }] }, 'settings.keys[0].allowed[1]: must be a non-empty string'],
    ['revoked not a boolean', { keys: [{ ...KEY, revoked: 1 }] }, 'settings.keys[0].revoked: must be true or false'],
    ['two keys with one name', { keys: [KEY, { ...KEY, key: 'k-other-key' }] }, 'settings.keys[1].name: "my-app" is already the name of settings.keys[0]'],
    ['two keys with one key string', { keys: [KEY, { ...KEY, name: 'b' }] }, 'settings.keys[1].key: the same key as settings.keys[0]'],
    ['limits not an object', { limits: 1000 }, 'settings.limits: must be an object'],
    ['textSize 0', { limits: { textSize: 0 } }, 'settings.limits.textSize: must be an integer >= 1'],
    ['textSize fractional', { limits: { textSize: 10.5 } }, 'settings.limits.textSize: must be an integer >= 1'],
    ['textSize a string', { limits: { textSize: '1000' } }, 'settings.limits.textSize: must be an integer >= 1'],
    ['providers null', { providers: null }, 'settings.providers: must be an object'],
  ])('%s', (_rule, doc, message) => {
    expectApiError(() => validateSettings(doc), 400, message);
  });

  it('never quotes a key string in a message', () => {
    const secret = 'secret-key-123';
    for (const doc of [
      { keys: [{ name: 'a', key: secret }, { name: 'b', key: secret }] },
      { keys: [{ name: 'a', key: 'secret' }] },
      { providers: { 'deepl.ts': { key: 42, url: secret } } },
    ]) {
      const error = expectApiError(() => validateSettings(doc), 400, 'settings.');
      expect(error.message).not.toContain('secret');
    }
  });
});
