import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../../src/core/settings/validate';

describe('docs/settings.example.json', () => {
  it('is a valid settings document as README shows it', () => {
    const doc: unknown = JSON.parse(readFileSync(new URL('../../../docs/settings.example.json', import.meta.url), 'utf8'));
    const s = validateSettings(doc);
    expect(s.interlinguas).toEqual(['en', 'es']);
    expect(s.keys[0]?.name).toBe('my-app');
  });
});
