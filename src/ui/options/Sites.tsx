/**
 * Site and language rules, privacy routing included (docs/ui.md "Sites"). A browser preference,
 * not part of the settings document: each change is saved at once through sites:set (no Save
 * button), and the background's validation message names the field of a bad value.
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../../shared/api';
import type { SiteMode, SitePatch, SitePrefs, SiteRule } from '../../core/sites';
import { t } from '../shared/i18n';
import { load, merge, PAGE_KEY, type PagePrefs } from '../shared/store';

interface Props {
  show: (text: string, kind: 'ok' | 'error') => void;
}

function ModeSelect({ id, value, onMode, allowAsk }: { id: string; value: SiteMode | undefined; onMode: (m: SiteMode | undefined) => void; allowAsk: boolean }) {
  return (
    <select id={id} value={value ?? ''} onChange={(e) => onMode((e.currentTarget.value || undefined) as SiteMode | undefined)}>
      {allowAsk && <option value="">{t('siteAsk', 'When I ask')}</option>}
      <option value="always">{t('modeAlways', 'Always translate')}</option>
      <option value="never">{t('siteNever', 'Never')}</option>
    </select>
  );
}

export function Sites({ show }: Props) {
  const [prefs, setPrefs] = useState<SitePrefs | undefined>(undefined);
  const [host, setHost] = useState('');
  const [lang, setLang] = useState('');
  const [bilingual, setBilingual] = useState(false);
  const [hoverButton, setHoverButton] = useState(true);
  useEffect(() => {
    send('sites:get', {}).then(setPrefs, (e: unknown) => show(String(e), 'error'));
    load<PagePrefs>(PAGE_KEY, {}).then((p) => {
      setBilingual(p.bilingual === true);
      setHoverButton(p.hoverButton !== false);
    }, () => undefined);
  }, []);
  if (!prefs) return null;

  const change = async (patch: SitePatch): Promise<boolean> => {
    try {
      setPrefs(await send('sites:set', patch));
      return true;
    } catch (e) {
      show(`${t('saveRefused', 'Not saved:')} ${e instanceof Error ? e.message : String(e)}`, 'error');
      return false;
    }
  };
  // A rule that says nothing is dropped by the background's validation.
  const setRule = (site: string, rule: SiteRule) => void change({ sites: { [site]: rule } });
  const without = <T extends object, K extends keyof T>(o: T, k: K): Omit<T, K> => {
    const { [k]: _drop, ...rest } = o;
    return rest;
  };

  return (
    <section aria-labelledby="sites-title">
      <h2 id="sites-title">{t('sites', 'Sites')}</h2>
      <p class="hint">{t('sitesHint', 'Rules apply when a page loads; a rule for example.com covers its subdomains. Private sites send text only to local and on-device providers. Saved at once.')}</p>
      <table class="rules" data-testid="site-rules">
        <thead><tr><th>{t('site', 'Site')}</th><th>{t('siteMode', 'Translate this site')}</th><th>{t('target', 'Into')}</th><th>{t('private', 'Private')}</th><th>{t('siteShown', 'Shown')}</th><th /></tr></thead>
        <tbody>
          {Object.entries(prefs.sites).map(([site, rule]) => (
            <tr key={site} data-site={site}>
              <td>{site}</td>
              <td><ModeSelect id={`mode-${site}`} value={rule.mode} allowAsk onMode={(mode) => setRule(site, mode ? { ...without(rule, 'mode'), mode } : without(rule, 'mode'))} /></td>
              <td><input aria-label={t('targetOf', 'Target language for $1', site)} size={5} value={rule.trg ?? ''} placeholder={prefs.trg ?? t('browserLanguage', 'browser')}
                onChange={(e) => { const v = e.currentTarget.value.trim(); setRule(site, v ? { ...rule, trg: v } : without(rule, 'trg')); }} /></td>
              <td><input type="checkbox" aria-label={t('privateOf', 'Private: $1', site)} checked={rule.private === true}
                onChange={(e) => setRule(site, e.currentTarget.checked ? { ...rule, private: true } : without(rule, 'private'))} /></td>
              <td><select id={`shown-${site}`} aria-label={t('shownOf', 'How $1 is shown translated', site)}
                value={rule.bilingual === undefined ? '' : rule.bilingual ? 'bilingual' : 'replace'}
                onChange={(e) => { const v = e.currentTarget.value; setRule(site, v ? { ...rule, bilingual: v === 'bilingual' } : without(rule, 'bilingual')); }}>
                <option value="">{t('shownDefault', 'As by default')}</option>
                <option value="replace">{t('shownReplace', 'In place')}</option>
                <option value="bilingual">{t('shownBilingual', 'Bilingual')}</option>
              </select></td>
              <td><button type="button" onClick={() => void change({ sites: { [site]: null } })} aria-label={t('removeRuleOf', 'Remove the rule for $1', site)}>{t('remove', 'Remove')}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="field" onSubmit={(e) => { e.preventDefault(); if (host.trim()) void change({ sites: { [host.trim()]: { private: true } } }).then((ok) => ok && setHost('')); }}>
        <label for="new-site">{t('addSite', 'Add a private site')}</label>
        <input id="new-site" value={host} placeholder="example.com" onInput={(e) => setHost(e.currentTarget.value)} />
        <button type="submit">{t('add', 'Add')}</button>
      </form>
      <h3>{t('languageRules', 'Languages')}</h3>
      <ul class="rules" data-testid="language-rules">
        {Object.entries(prefs.languages).map(([code, mode]) => (
          <li key={code} class="field" data-lang={code}>
            <label for={`lang-${code}`}>{code}</label>
            <ModeSelect id={`lang-${code}`} value={mode} allowAsk={false} onMode={(m) => void change({ languages: { [code]: m ?? null } })} />
            <button type="button" onClick={() => void change({ languages: { [code]: null } })} aria-label={t('removeRuleOf', 'Remove the rule for $1', code)}>{t('remove', 'Remove')}</button>
          </li>
        ))}
      </ul>
      <form class="field" onSubmit={(e) => { e.preventDefault(); if (lang.trim()) void change({ languages: { [lang.trim()]: 'always' } }).then((ok) => ok && setLang('')); }}>
        <label for="new-lang">{t('addLanguage', 'Always translate pages in (code)')}</label>
        <input id="new-lang" value={lang} placeholder="fr" size={6} onInput={(e) => setLang(e.currentTarget.value)} />
        <button type="submit">{t('add', 'Add')}</button>
      </form>
      <p class="field">
        <label><input type="checkbox" id="bilingual-default" checked={bilingual}
          onChange={(e) => { const on = e.currentTarget.checked; setBilingual(on); void merge<PagePrefs>(PAGE_KEY, { bilingual: on }); }} />
        {t('bilingualDefault', 'Bilingual by default: the translation under the original, on sites without their own choice')}</label>
      </p>
      <p class="field">
        <label><input type="checkbox" id="hover-button" checked={hoverButton}
          onChange={(e) => { const on = e.currentTarget.checked; setHoverButton(on); void merge<PagePrefs>(PAGE_KEY, { hoverButton: on }); }} />
        {t('hoverButton', 'Show a button for other translations when the mouse rests on a translated paragraph')}</label>
      </p>
      <p class="field">
        <label for="auto-trg">{t('autoTarget', 'Translate automatically into (code)')}</label>
        <input id="auto-trg" size={6} value={prefs.trg ?? ''} placeholder={t('browserLanguage', 'browser')}
          onChange={(e) => void change({ trg: e.currentTarget.value.trim() || null })} />
      </p>
    </section>
  );
}
