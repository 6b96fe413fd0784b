/**
 * Glossaries: per language pair and domain, terms the engine imposes on every provider
 * (docs/interface.md "Domains and glossaries"). Edits go into the settings document; Save stores it.
 */
import { DOMAINS } from '../../core/types';
import type { GlossarySettings, Settings } from '../../core/settings/types';
import { t } from '../shared/i18n';
import { termsToText, textToTerms } from './glossary-text';

export function Glossaries({ doc, onDoc }: { doc: Settings; onDoc: (next: Settings) => void }) {
  const list = doc.glossaries ?? [];
  const set = (next: GlossarySettings[]) => onDoc({ ...doc, glossaries: next });
  const change = (i: number, patch: Partial<GlossarySettings>) => set(list.map((g, k) => (k === i ? { ...g, ...patch } : g)));
  return (
    <section aria-labelledby="glossaries-title">
      <h2 id="glossaries-title">{t('glossaries', 'Glossaries')}</h2>
      <p class="hint">{t('glossariesHint', 'Terms every provider must use, per language pair and domain: one "source = target" per line.')}</p>
      <ul class="glossaries" data-testid="glossaries">
        {list.map((g, i) => (
          <li key={i}>
            <p class="field-row">
              <label>
                {t('glossarySource', 'From')}
                <input value={g.src} size={6} onChange={(e) => change(i, { src: e.currentTarget.value.trim() })} />
              </label>
              <label>
                {t('glossaryTarget', 'To')}
                <input value={g.trg} size={6} onChange={(e) => change(i, { trg: e.currentTarget.value.trim() })} />
              </label>
              <label>
                {t('glossaryDomain', 'Domain')}
                <select value={g.domain ?? 'general'} onChange={(e) => change(i, { domain: e.currentTarget.value })}>
                  {DOMAINS.map((d) => <option key={d} value={d}>{d}</option>)}
                </select>
              </label>
              <button type="button" onClick={() => set(list.filter((_, k) => k !== i))}>{t('remove', 'Remove')}</button>
            </p>
            <label>
              {t('glossaryTerms', 'Terms')}
              <textarea rows={4} value={termsToText(g.terms)} onChange={(e) => change(i, { terms: textToTerms(e.currentTarget.value) })} />
            </label>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => set([...list, { src: 'en', trg: 'es', domain: 'general', terms: {} }])}>
        {t('addGlossary', 'Add a glossary')}
      </button>
    </section>
  );
}
