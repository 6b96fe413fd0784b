/** Source and target pickers, swap, and the recent pairs as one-click buttons. */
import type { ComponentChildren } from 'preact';
import type { LanguageLists } from '../../core/types';
import { t } from '../shared/i18n';
import { languageName } from '../shared/langs';
import { LanguagePicker } from '../shared/LanguagePicker';

interface Props {
  lists: LanguageLists;
  src: string;
  /** The source translated from: `src`, or the language detected when `src` is `first`'s (undefined until one is). */
  from: string | undefined;
  trg: string;
  locale: string;
  recent: readonly [string, string][];
  onPair: (src: string, trg: string) => void;
  /** The source picker's first option ("Detect language"). */
  first?: { code: string; name: string };
  /** Shown under the pickers (what was detected). */
  note?: ComponentChildren;
}

export function PairBar({ lists, src, from, trg, locale, recent, onPair, first, note }: Props) {
  const pairName = (s: string, g: string) => `${languageName(s, locale)} → ${languageName(g, locale)}`;
  // Swapping a detected source picks it.
  const canSwap = from !== undefined && lists.src.includes(trg) && lists.trg.includes(from);
  return (
    <div class="pair">
      <div class="pair-pickers">
        <LanguagePicker id="src" label={t('from', 'From')} codes={lists.src} value={src} locale={locale} onChange={(s) => onPair(s, trg)} first={first} source />
        <button type="button" class="icon swap" disabled={!canSwap} onClick={() => from !== undefined && onPair(trg, from)}
          aria-label={t('swap', 'Swap languages')} title={t('swap', 'Swap languages')}>⇄</button>
        <LanguagePicker id="trg" label={t('to', 'To')} codes={lists.trg} value={trg} locale={locale} onChange={(g) => onPair(src, g)} />
      </div>
      {note}
      {recent.length > 0 && (
        <nav class="recent" aria-label={t('recentPairs', 'Recent pairs')}>
          {recent.map(([s, g]) => (
            <button type="button" key={`${s}>${g}`} class="chip" aria-pressed={s === src && g === trg} onClick={() => onPair(s, g)}>
              {pairName(s, g)}
            </button>
          ))}
        </nav>
      )}
    </div>
  );
}
