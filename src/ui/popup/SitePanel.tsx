/**
 * The rule for the current tab's site (docs/ui.md "Sites"): translate it always / never / when
 * asked, keep its text on local providers only, and always translate pages in its language. Saved
 * at once through sites:set (the background validates and stores them in `ui:sites`).
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../../shared/api';
import { ruleLanguage, type SiteMode, type SitePatch, type SitePrefs, type SiteRule } from '../../core/sites';
import { t } from '../shared/i18n';
import { languageName } from '../shared/langs';
import { shownChange, shownEdit } from '../shared/sites';

interface Props {
  /** The popup's target: what `always` translates into. */
  trg: string;
  locale: string;
  /** The tab whose site is shown; absent: the active tab. */
  tabId?: number;
}

export function SitePanel({ trg, locale, tabId }: Props) {
  const [page, setPage] = useState<{ site: string; lang?: string } | undefined>(undefined);
  const [prefs, setPrefs] = useState<SitePrefs | undefined>(undefined);
  const [error, setError] = useState('');

  useEffect(() => {
    // No content script (browser pages, the store): no site, no panel.
    send('page:status', tabId === undefined ? {} : { tabId }).then((s) => s.site && setPage({ site: s.site, ...(s.lang ? { lang: s.lang } : {}) }), () => undefined);
    send('sites:get', {}).then(setPrefs, () => undefined);
  }, []);
  if (!page || !prefs) return null;

  const rule: SiteRule = prefs.sites[page.site] ?? {};
  const change = (patch: SitePatch) => {
    setError('');
    shownChange(patch, setPrefs, setError);
  };
  const site = page.site;
  const setRule = (edit: (rule: SiteRule) => SiteRule) => {
    setError('');
    shownEdit(site, edit, setPrefs, setError);
  };
  // The language's rule is kept by its primary code: a page in `zh-Hant` is under Chinese's rule (core/sites.ts `ruleLanguage`).
  const lang = page.lang && ruleLanguage(page.lang);

  return (
    <details class="site-panel" open>
      <summary>{t('thisSite', 'This site: $1', page.site)}</summary>
      <p class="field">
        <label for="site-mode">{t('siteMode', 'Translate this site')}</label>
        <select id="site-mode" value={rule.mode ?? ''}
          onChange={(e) => {
            const mode = e.currentTarget.value as SiteMode | '';
            setRule(({ mode: _old, trg: _trg, ...rest }) => (mode ? { ...rest, mode, ...(mode === 'always' ? { trg } : {}) } : rest));
          }}>
          <option value="">{t('siteAsk', 'When I ask')}</option>
          <option value="always">{t('siteAlways', 'Always (into $1)', rule.mode === 'always' && rule.trg ? rule.trg : trg)}</option>
          <option value="never">{t('siteNever', 'Never')}</option>
        </select>
      </p>
      <p class="field">
        <label><input type="checkbox" id="site-private" checked={rule.private === true}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setRule(({ private: _p, ...rest }) => (on ? { ...rest, private: true } : rest));
          }} />
        {t('sitePrivate', 'Private: only local and on-device providers')}</label>
      </p>
      {lang && (
        <p class="field">
          <label><input type="checkbox" id="lang-always" checked={prefs.languages[lang] === 'always'}
            onChange={(e) => change({ languages: { [lang]: e.currentTarget.checked ? 'always' : null }, ...(e.currentTarget.checked && !prefs.trg ? { trg } : {}) })} />
          {t('langAlways', 'Always translate pages in $1', languageName(lang, locale))}</label>
        </p>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </details>
  );
}
