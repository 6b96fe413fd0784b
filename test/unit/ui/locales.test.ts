/** Every UI string name used in code exists in each locale, with the same placeholders. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/shared';

type Messages = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const used = new Set<string>();
// `t('name', …)` in the pages and the content script, `getMessage?.('name')` in the background (menus).
for (const file of ['src/ui', 'src/content', 'src/background'].flatMap((dir) => sources(join(ROOT, dir)))) {
  for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bt|getMessage\??\.?)\(\s*'(\w+)'/g)) used.add(m[1]!);
}
// The manifest's own words (its description, the shortcuts' names in the browser's list).
for (const m of readFileSync(join(ROOT, 'manifest.json'), 'utf8').matchAll(/__MSG_(\w+)__/g)) used.add(m[1]!);
const LOCALES = readdirSync(join(ROOT, 'public/_locales'));
const load = (lang: string) => JSON.parse(readFileSync(join(ROOT, 'public/_locales', lang, 'messages.json'), 'utf8')) as Messages;

describe('_locales', () => {
  it('has English (the manifest default_locale) and at least one more language', () => {
    expect(LOCALES).toContain('en');
    expect(LOCALES.length).toBeGreaterThanOrEqual(2);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as { default_locale?: string };
    expect(manifest.default_locale).toBe('en');
  });

  it.each(LOCALES)('%s names every string the UI uses, with the placeholders of English', (lang) => {
    const messages = load(lang);
    const english = load('en');
    expect([...used].filter((name) => !(name in messages))).toEqual([]);
    for (const [name, entry] of Object.entries(english)) {
      expect(Object.keys(messages[name]?.placeholders ?? {}), name).toEqual(Object.keys(entry.placeholders ?? {}));
    }
  });
});
