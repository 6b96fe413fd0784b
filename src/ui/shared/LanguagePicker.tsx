/**
 * A language picker: a search box (by name or code) that filters a list box of languages named by
 * Intl.DisplayNames. A plain select keeps it keyboard- and screen-reader-friendly with no custom
 * combobox semantics to get wrong.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from './i18n';
import { languages, searchLanguages, shownCode } from './langs';

interface Props {
  id: string;
  label: string;
  codes: readonly string[];
  value: string;
  locale: string;
  onChange: (code: string) => void;
  /** An option listed first whatever the search (the popup's "Detect language"). */
  first?: { code: string; name: string };
  /** A list of sources: a region's code beside its language's is one entry (langs.ts `languages`). */
  source?: boolean;
}

export function LanguagePicker({ id, label, codes, value: chosen, locale, onChange, first, source = false }: Props) {
  const [query, setQuery] = useState('');
  // A code listed under a fuller one of its language (a stored `zh`, listed as `zh-Hans`) shows as that entry.
  const value = chosen === first?.code ? chosen : shownCode(chosen, codes, source);
  const all = useMemo(() => languages(codes, locale, source), [codes, locale, source]);
  const shown = searchLanguages(all, query, locale);
  // A search that narrows to one language picks it: typing a code is enough.
  const pickOnly = (q: string) => {
    const found = searchLanguages(all, q, locale);
    if (found.length === 1 && found[0] && found[0].code !== value) onChange(found[0].code);
  };
  // A search typed before the languages came (the worker was still asking the providers) picks
  // once they are here, as it would have had they been here first.
  useEffect(() => {
    if (query.trim()) pickOnly(query);
  }, [all]);
  // The current value stays selectable even when the search hides it.
  const list = shown.some((l) => l.code === value) || value === first?.code ? shown : [...all.filter((l) => l.code === value), ...shown];
  return (
    <div class="lang-picker">
      <label for={`${id}-select`}>{label}</label>
      <input
        id={`${id}-search`}
        type="search"
        placeholder={t('searchLanguage', 'Search name or code')}
        aria-label={t('searchLanguageFor', 'Search: $1', label)}
        value={query}
        onInput={(e) => {
          const q = e.currentTarget.value;
          setQuery(q);
          pickOnly(q);
        }}
      />
      <select id={`${id}-select`} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {first && <option value={first.code}>{first.name}</option>}
        {list.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name} ({l.code})
          </option>
        ))}
      </select>
    </div>
  );
}
