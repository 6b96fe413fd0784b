import { describe, expect, it } from 'vitest';
import { fakeProvider } from '../../fakes/fake-provider';
import { validateSettings } from '../../../src/core/settings/validate';
import type { GlossarySettings } from '../../../src/core/settings/types';
import type { TrdObj, TrObj } from '../../../src/core/types';
import { harness } from './harness';

const langs = { src: ['en', 'es'], trg: ['en', 'es'] };
const glossaries: GlossarySettings[] = [
  { domain: 'law', src: 'en', trg: 'es', terms: { court: 'tribunal', 'supreme court': 'Tribunal Supremo' } },
  { src: 'en', trg: 'es', terms: { 'Polyglot': 'Polyglot' } },
];
const text = (r: { body: unknown }) => (r.body as { dat: TrObj[] }).dat[0]!.text;

describe("the user's glossary", () => {
  it('imposes the target term on every provider, in the request domain only', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module], { glossaries });
    const law = await call('Translate', { src: 'en', trg: 'es', dom: 'law', dat: ['The court met.', 'The Supreme Court & the courtyard.', 'no terms'] });
    expect(text(law)).toEqual(['THE tribunal MET.', 'THE Tribunal Supremo & THE COURTYARD.', 'NO TERMS']);
    // the provider never saw a term it would have translated
    expect(a.stats.requests.flatMap((q) => q.segments).join(' ')).not.toMatch(/court\b/i);
    const general = await call('Translate', { src: 'en', trg: 'es', dat: 'The court met.' });
    expect(text(general)).toEqual(['THE COURT MET.']);
  });

  it('applies general entries in every domain and keeps the capital of a sentence start', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module], { glossaries: [{ src: 'en', trg: 'es', terms: { court: 'tribunal' } }] });
    const r = await call('Translate', { src: 'en', trg: 'es', dom: 'sci', dat: 'Court first, then court.' });
    expect(text(r)).toEqual(['Tribunal FIRST, THEN tribunal.']);
  });

  it('works in documents, leaving attributes, code and markup alone', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, html: false, transform: (s) => s.toUpperCase() });
    const { call } = harness([a.module], { glossaries });
    const r = await call('Translate', {
      src: 'en', trg: 'es', dom: 'law', frm: 'html',
      dat: '<p title="court">The <b>court</b> ruled.</p><code>court()</code>',
    });
    const out = (r.body as TrdObj[]).map((c) => c.dat).join('');
    expect(out).toBe('<p title="COURT">THE <b>tribunal</b> RULED.</p><code>court()</code>');
  });

  it('is validated with the field named', () => {
    expect(() => validateSettings({ glossaries: [{ src: 'en', trg: 'xx-!', terms: {} }] })).toThrow(/settings\.glossaries\[0\]\.trg/);
    expect(() => validateSettings({ glossaries: [{ src: 'en', trg: 'es', domain: 'cooking', terms: {} }] })).toThrow(/glossaries\[0\]\.domain/);
    expect(() => validateSettings({ glossaries: [{ src: 'en', trg: 'es', terms: { a: 3 } }] })).toThrow(/terms\["a"\]/);
    expect(validateSettings({ glossaries: [{ src: 'ENG', trg: 'spa', terms: { a: 'b' } }] }).glossaries).toEqual([{ src: 'en', trg: 'es', terms: { a: 'b' } }]);
  });
});

describe('glossary spacing', () => {
  it('puts back a space an engine dropped next to the term, except in scripts without spaces', async () => {
    const glue = (s: string) => s.replace(/ (<span)/g, '$1');
    const a = fakeProvider({ id: 'a.ts', languages: { src: ['en', 'es', 'ja'], trg: ['en', 'es', 'ja'] }, transform: (s) => glue(s).toUpperCase() });
    const { call } = harness([a.module], {
      glossaries: [
        { src: 'en', trg: 'es', terms: { world: 'mundo' } },
        { src: 'en', trg: 'ja', terms: { world: '世界' } },
      ],
    });
    const es = await call('Translate', { src: 'en', trg: 'es', dat: 'Hello world again' });
    expect((es.body as { dat: TrObj[] }).dat[0]!.text).toEqual(['HELLO mundo AGAIN']);
    const ja = await call('Translate', { src: 'en', trg: 'ja', dat: 'Hello world again' });
    expect((ja.body as { dat: TrObj[] }).dat[0]!.text).toEqual(['HELLO世界 AGAIN']);
  });
});
