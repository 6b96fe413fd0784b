import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVIDERS, providerModule } from '../../../src/providers/index';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const files = readdirSync(`${root}src/providers`).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.test.ts'));

describe('provider registry', () => {
  it('has provider files to check', () => {
    expect(files).toContain('apertium.ts');
  });

  it.each(files)('%s is registered under its file name', async (file) => {
    const module = providerModule(file);
    expect(module?.id).toBe(file);
    const imported = (await import(`${root}src/providers/${file}`)) as { default?: unknown };
    expect(imported.default).toBe(module);
  });

  it('registers nothing without a file, and each id once', () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...files].sort());
    expect(providerModule('nope.ts')).toBeUndefined();
  });

  it.each(files)("%s has a row in README.md's provider table", (file) => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const rows = readme.split('\n').filter((line) => line.startsWith(`| \`${file}\` |`));
    expect(rows).toHaveLength(1);
  });
});

describe('a fresh install', () => {
  it('enables exactly the providers whose modules say enabledByDefault, all ranked', async () => {
    const { DEFAULT_SETTINGS } = await import('../../../src/core/settings/defaults');
    const byDefault = PROVIDERS.filter((p) => p.enabledByDefault).map((p) => p.id).sort();
    expect(Object.keys(DEFAULT_SETTINGS.providers).sort()).toEqual(byDefault);
    expect([...DEFAULT_SETTINGS.ranking].sort()).toEqual(byDefault);
  });
});

describe('the rate table', () => {
  it('names only registered providers', async () => {
    const { DEFAULT_RATES } = await import('../../../src/core/scheduler/index');
    const ids = new Set(PROVIDERS.map((p) => p.id as string));
    expect(Object.keys(DEFAULT_RATES).filter((id) => !ids.has(id))).toEqual([]);
  });
});
