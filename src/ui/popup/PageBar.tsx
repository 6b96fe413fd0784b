/**
 * "Translate this page" / "Restore" for the active tab, through the page:* messages (the worker
 * forwards them to the tab's content script); progress is polled while the page is translating,
 * because the popup may open in the middle of a translation started by the shortcut.
 */
import { useEffect, useState } from 'preact/hooks';
import { isBilingual, type SitePrefs } from '../../core/sites';
import { send } from '../../shared/api';
import type { PageStatus } from '../../shared/messages';
import { isOne, t } from '../shared/i18n';
import { languageName, languages } from '../shared/langs';
import { shownEdit } from '../shared/sites';
import { load, merge, PAGE_KEY, type PagePrefs } from '../shared/store';

interface Props {
  /**
   * The page is translated into the popup's target from its own language (its `lang`, else the
   * browser's detector, content/index.ts), not from the popup's source: that is the text box's,
   * often left at the last pair typed (a French page sent as English came back as nonsense).
   */
  trg: string;
  /** The tab to act on; absent: the active tab (the toolbar popup's case). */
  tabId?: number;
  /** Source languages the engine knows: the choices for a page whose own language is wrong. */
  codes: readonly string[];
  locale: string;
}

function describe(s: PageStatus): string {
  switch (s.state) {
    // Left as it is, and why ("the page is already in es").
    case 'original': return s.error ? t('pageNotTranslated', 'Page not translated: $1', s.error) : t('pageOriginal', 'Page shown as it is');
    case 'translating': return t('pageTranslating', 'Translating page: $1 of $2', String(s.done), String(s.total));
    case 'translated':
      if (s.total === 0) return t('pageNothing', 'Nothing on this page to translate');
      if (s.errors === 0) return t('pageTranslated', 'Page translated');
      return isOne(s.errors)
        ? t('pageErrorsOne', 'Page translated; $1 part failed ($2)', String(s.errors), s.error ?? '')
        : t('pageErrors', 'Page translated; $1 parts failed ($2)', String(s.errors), s.error ?? '');
    // Stopped by the user, or after calls failed in a row: then why.
    case 'cancelled': return s.errors > 0 && s.error ? t('pageStoppedError', 'Page translation stopped: $1', s.error) : t('pageCancelled', 'Page translation stopped');
  }
}

function retryLabel(errors: number): string {
  return isOne(errors) ? t('retryPageOne', 'Retry the $1 failed part', String(errors)) : t('retryPage', 'Retry the $1 failed parts', String(errors));
}

export function PageBar({ trg, tabId, codes, locale }: Props) {
  const tab = tabId === undefined ? {} : { tabId };
  const [status, setStatus] = useState<PageStatus | undefined>(undefined);
  const [error, setError] = useState('');
  // Bilingual is remembered per site (SiteRule.bilingual); a page without a site (a file) and a
  // site without its own choice use the general default, `ui:page`.
  const [byDefault, setByDefault] = useState(false);
  const [prefs, setPrefs] = useState<SitePrefs | undefined>(undefined);
  // The page's language as the user names it ("Page in"), for a page whose `lang` is wrong
  // (a template's `lang="en"` on a French page); the content script keeps it for the document.
  const [pageLang, setPageLang] = useState<string | undefined>(undefined);
  const site = status?.site || undefined;
  const bilingual = prefs ? isBilingual(prefs, site, byDefault) : byDefault;

  // Only page:status tells the site and the language; the replies of page:translate and
  // page:restore keep the ones known (a reply without them made the bilingual box forget its site).
  const update = (next: PageStatus) =>
    setStatus((prev) => {
      const site = next.site ?? prev?.site;
      const lang = next.lang ?? next.src ?? prev?.lang;
      return { ...next, ...(site !== undefined ? { site } : {}), ...(lang !== undefined ? { lang } : {}) };
    });
  const run = (action: () => Promise<PageStatus>) => {
    setError('');
    action().then(update, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  /** Translates the tab; `src` named only when the user chose one, else the page's own (its content script decides). */
  const translate = (on = bilingual, lang = pageLang) =>
    run(() => send('page:translate', { ...tab, ...(lang ? { src: lang } : {}), trg, mode: on ? 'bilingual' : 'replace' }));

  useEffect(() => {
    // The popup of a tab without our content script (chrome:// pages) just shows no status.
    send('page:status', tab).then(setStatus, () => undefined);
    send('sites:get', {}).then(setPrefs, () => undefined);
    load<PagePrefs>(PAGE_KEY, {}).then((p) => setByDefault(p.bilingual === true), () => undefined);
  }, []);
  const toggleBilingual = (on: boolean) => {
    if (site) {
      shownEdit(site, (rule) => ({ ...rule, bilingual: on }), setPrefs, setError);
    } else {
      setByDefault(on);
      void merge<PagePrefs>(PAGE_KEY, { bilingual: on });
    }
    // A page already translated is shown again in the new mode.
    if (status && status.state !== 'original') translate(on);
  };
  const choosePageLang = (code: string) => {
    const lang = code === status?.lang ? undefined : code;
    setPageLang(lang);
    // A page shown translated is translated again from the language named.
    if (status && status.state !== 'original') translate(bilingual, code);
  };
  useEffect(() => {
    if (status?.state !== 'translating') return undefined;
    const timer = setInterval(() => send('page:status', tab).then(update, () => undefined), 500);
    return () => clearInterval(timer);
  }, [status?.state]);

  const translated = status !== undefined && status.state !== 'original';
  // Asked again as it is (same target, mode and language), a page stopped or translated with
  // failures goes on: what failed or was left is sent, what is written stays (content/page.ts).
  const asItIs = status?.trg === trg && status.mode === (bilingual ? 'bilingual' : 'replace') && (pageLang === undefined || pageLang === status.src);
  const goesOn = !asItIs ? undefined : status.state === 'cancelled' ? 'resume' : status.state === 'translated' && status.errors > 0 ? 'retry' : undefined;
  const own = status?.lang;
  // The page's own language first (named even when no provider reads it), then the engine's.
  const choices = own ? [{ code: own, name: languageName(own, locale) }, ...languages(codes.filter((c) => c !== own), locale, true)] : [];
  return (
    <div class="page-bar">
      {own && (
        <label class="page-lang">
          {t('pageLanguage', 'Page in')}
          <select id="page-lang" value={pageLang ?? own} onChange={(e) => choosePageLang(e.currentTarget.value)}>
            {choices.map((l) => <option key={l.code} value={l.code}>{l.name} ({l.code})</option>)}
          </select>
        </label>
      )}
      <button type="button" onClick={() => translate()}>
        {goesOn === 'resume' ? t('resumePage', 'Resume translating') : goesOn === 'retry' ? retryLabel(status!.errors) : t('translatePage', 'Translate this page')}
      </button>
      <button type="button" disabled={!translated} onClick={() => run(() => send('page:restore', tab))}>
        {t('restorePage', 'Restore')}
      </button>
      {status?.state === 'translating' && (
        // A cancel: requests stop at once, what is translated stays (Restore undoes it).
        <button type="button" onClick={() => run(() => send('page:cancel', tab))}>
          {t('stopPage', 'Stop')}
        </button>
      )}
      <label class="page-bilingual">
        <input type="checkbox" id="page-bilingual" checked={bilingual} onChange={(e) => toggleBilingual(e.currentTarget.checked)} />
        {site ? t('pageBilingualSite', 'Bilingual on this site: translation under the original') : t('pageBilingual', 'Bilingual: translation under the original')}
      </label>
      {status?.state === 'translating' && (
        <progress max={status.total || 1} value={status.done} aria-label={t('pageProgress', 'Page translation progress')} />
      )}
      <span class="page-status" role="status">{error || (status ? describe(status) : '')}</span>
    </div>
  );
}
