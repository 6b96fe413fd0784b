import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../src/core/settings/types';
import { redactSecrets, restoreSecrets } from '../../../src/shared/secrets';

const SETTINGS: Settings = {
  providers: {
    'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' },
    'deepl.ts': { enabled: true, key: 'deepl-secret', url: 'https://api-free.deepl.com' },
  },
  ranking: ['deepl.ts', 'apertium.ts'],
  interlinguas: ['en'],
  keys: [{ name: 'my-app', key: 'k-12345678', quota: 100000 }],
  limits: { textSize: 1000 },
  extra: { kept: true },
};

describe('redactSecrets', () => {
  it('leaves every key out and keeps everything else', () => {
    const redacted = redactSecrets(SETTINGS);
    expect(JSON.stringify(redacted)).not.toContain('secret');
    expect(JSON.stringify(redacted)).not.toContain('k-12345678');
    expect(redacted.providers['deepl.ts']).toEqual({ enabled: true, url: 'https://api-free.deepl.com' });
    expect(redacted.keys).toEqual([{ name: 'my-app', quota: 100000 }]);
    expect(redacted['extra']).toEqual({ kept: true });
    // The original is untouched.
    expect(SETTINGS.providers['deepl.ts']?.key).toBe('deepl-secret');
  });
});

describe('restoreSecrets', () => {
  it('puts back the keys a redacted export left out, by provider id and key name', () => {
    const { doc, restored } = restoreSecrets(redactSecrets(SETTINGS), SETTINGS);
    expect(doc).toEqual(SETTINGS);
    expect(restored).toBe(2);
  });

  it('keeps keys the document brings and does not invent unknown ones', () => {
    const imported = {
      providers: { 'deepl.ts': { key: 'new-deepl' }, 'google.ts': { enabled: true } },
      keys: [{ name: 'my-app', key: 'k-new-key-1' }, { name: 'stranger' }],
    };
    const { doc, restored } = restoreSecrets(imported, SETTINGS);
    expect(doc).toEqual(imported);
    expect(restored).toBe(0);
  });

  it('leaves malformed documents to validation', () => {
    expect(restoreSecrets('nope', SETTINGS)).toEqual({ doc: 'nope', restored: 0 });
    expect(restoreSecrets({ providers: [1], keys: 'x' }, SETTINGS).doc).toEqual({ providers: [1], keys: 'x' });
  });
});
