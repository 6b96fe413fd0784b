/**
 * The compare view: every alternative side by side with its routes and latency, the words where
 * alternatives disagree highlighted, identical outputs merged, a copy button on each, and failed
 * routes listed with their err. Provider text is rendered as text nodes only (JSX escapes it).
 */
import { useState } from 'preact/hooks';
import { failures, formatMs, groupAlternatives, routeLabel, type RouteResult } from './alternatives';
import { markDisagreements } from './diff';
import { t } from './i18n';

interface Props {
  results: readonly RouteResult[];
  /** Set while routes are still running. */
  pending: boolean;
  /** Target language, so screen readers and fonts treat the text right. */
  lang: string;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function Compare({ results, pending, lang }: Props) {
  const [copied, setCopied] = useState<number | undefined>(undefined);
  const groups = groupAlternatives(results);
  const marked = markDisagreements(groups.map((g) => g.text));
  const failed = failures(results);
  return (
    <section class="compare" aria-label={t('alternatives', 'Alternatives')} aria-busy={pending}>
      <ul class="alternatives">
        {groups.map((g, i) => (
          <li class="alternative" key={g.text} data-routes={g.routes.map((r) => r.rid).join(' ')}>
            <div class="alt-head">
              <ul class="alt-routes">
                {g.routes.map((r) => (
                  <li key={r.rid}>
                    <code class="rid" title={r.rid}>{routeLabel(r.rid)}</code>{' '}
                    <span class="latency">{formatMs(r.ms)}</span>
                    {r.cached && <span class="cached" title={t('cachedHint', 'From the translation memory: no provider was asked')}> {t('cached', 'cached')}</span>}
                  </li>
                ))}
              </ul>
              <button type="button" class="copy" onClick={() => void copy(g.text).then((ok) => setCopied(ok ? i : undefined))}
                aria-label={t('copyAlternative', 'Copy alternative $1', String(i + 1))}>
                {copied === i ? t('copied', 'Copied') : t('copy', 'Copy')}
              </button>
            </div>
            <p class="alt-text" lang={lang}>
              {(marked[i] ?? []).map((tok, k) => (tok.differs ? <mark key={k}>{tok.text}</mark> : tok.text))}
            </p>
          </li>
        ))}
      </ul>
      {failed.length > 0 && (
        <div class="failed">
          <h3>{t('failedRoutes', 'Failed routes')}</h3>
          <ul>
            {failed.map((r) => (
              <li key={r.rid} data-rid={r.rid}>
                <code class="rid">{routeLabel(r.rid)}</code> <span class="err">{r.err}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {pending && <p class="pending" role="status">{t('waiting', 'Waiting for more routes…')}</p>}
    </section>
  );
}
