/**
 * The toolbar popup: pair, domain, text, the pair's routes, and the compare view filled route by
 * route from translateStream. Preferences live in storage.local (`ui:popup`, `ui:routes`).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { callApi, send, translateStream } from '../../shared/api';
import type { ProviderHealth } from '../../core/scheduler/index';
import { DOMAINS, type Domain, type LanguageLists, type TrObj } from '../../core/types';
import { resultOf, type RouteResult } from '../shared/alternatives';
import { Compare } from '../shared/Compare';
import { domainLabel } from '../shared/domains';
import { t, uiLanguage } from '../shared/i18n';
import { languageOf, listedCode } from '../../core/lang';
import { codeFor, languageName } from '../shared/langs';
import { readLanguage } from '../../shared/detect';
import { applyPref, pairKey, prefOf, pushRecent, ridOf, ROUTES_KEY, type RoutePref, type RouteRow } from '../shared/routes';
import { HANDOFF_KEY, load, POPUP_KEY, remove, save, type Handoff, type PopupPrefs } from '../shared/store';
import { PageBar } from './PageBar';
import { PairBar } from './PairBar';
import { RoutesPanel, type Limits } from './RoutesPanel';
import { SitePanel } from './SitePanel';

/**
 * `?tab=<id>`: the tab the page bar and the site panel act on when the popup is opened as a tab
 * (where the active tab is the popup itself); the toolbar popup has none and acts on the active tab.
 */
function tabParam(): number | undefined {
  const n = Number(new URLSearchParams(globalThis.location?.search ?? '').get('tab') ?? NaN);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

const errOf = (body: unknown): string => (body as { err?: string } | null)?.err ?? JSON.stringify(body);

/** The source picker's "Detect language": the text's language is read by the browser's detector. */
const AUTO = 'auto';

/**
 * What the detector read in a text: a code of the source list, or `null` (none, or `name` that no
 * provider translates from); `sure` as the detector says (a short text's reading is a guess).
 */
interface Detected {
  text: string;
  code: string | null;
  name?: string;
  sure?: boolean;
}

/** The detector's reading of `text` against the source list. */
async function detect(text: string, codes: readonly string[], locale: string): Promise<Detected> {
  const found = await readLanguage(text);
  if (!found) return { text, code: null };
  return { text, code: codeFor(found.language, codes) ?? null, name: languageName(found.language, locale), sure: found.sure };
}

/** The pair's routes in the user's stored order. */
async function routesOf(src: string, trg: string): Promise<RouteRow[]> {
  const [reply, stored] = await Promise.all([callApi('GetRoutes', { src, trg }), load<Record<string, RoutePref>>(ROUTES_KEY, {})]);
  return reply.status === 200 ? applyPref(reply.body as string[], stored[pairKey(src, trg)]) : [];
}

export function Popup() {
  const locale = uiLanguage();
  const tabId = tabParam();
  const [lists, setLists] = useState<LanguageLists>({ src: [], trg: [], exclude: [] });
  /** Until the worker has the providers' language lists (a woken worker asks them first). */
  const [listsLoading, setListsLoading] = useState(true);
  const [prefs, setPrefs] = useState<PopupPrefs | undefined>(undefined);
  // A new user's popup detects the text's language; a pair picked (or a recent one) is remembered.
  const [src, setSrc] = useState(AUTO);
  const [detected, setDetected] = useState<Detected | undefined>(undefined);
  // The browser's language, in its script where that is not the usual one (`zh-TW`: `zh-Hant`),
  // as the engine lists it once the lists come; Spanish for an English browser.
  const [trg, setTrg] = useState(() => {
    const own = languageOf(locale) ?? 'en';
    return own === 'en' ? 'es' : own;
  });
  const [dom, setDom] = useState<Domain>('general');
  const [text, setText] = useState('');
  const [limits, setLimits] = useState<Limits>({ min: 2, max: 3, timeout: 20 });
  const [rows, setRows] = useState<RouteRow[]>([]);
  /** The pair (`pairKey`) `rows` are for. */
  const [rowsPair, setRowsPair] = useState('');
  const [routesLoading, setRoutesLoading] = useState(true);
  const [health, setHealth] = useState<Record<string, ProviderHealth> | undefined>(undefined);
  const [results, setResults] = useState<RouteResult[]>([]);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  const running = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    void (async () => {
      const [p, handoff] = await Promise.all([load<PopupPrefs>(POPUP_KEY, {}), load<Handoff | undefined>(HANDOFF_KEY, undefined)]);
      if (p.src) setSrc(p.src);
      if (p.trg) setTrg(p.trg);
      if (p.dom && (DOMAINS as readonly string[]).includes(p.dom)) setDom(p.dom as Domain);
      setLimits({ min: p.min ?? 2, max: p.max ?? 3, timeout: p.timeout ?? 20 });
      // Text sent by the selection bubble's "open in popup" within the last minute.
      if (handoff && Date.now() - handoff.at < 60_000) {
        setText(handoff.text);
        if (handoff.src) setSrc(handoff.src);
        if (handoff.trg) setTrg(handoff.trg);
        void remove(HANDOFF_KEY);
      }
      setPrefs(p);
      try {
        const reply = await callApi('GetLanguages');
        if (reply.status === 200) {
          const body = reply.body as LanguageLists;
          setLists(body);
          if (!p.trg && !(handoff && Date.now() - handoff.at < 60_000 && handoff.trg)) setTrg((t) => listedCode(t, body.trg) ?? t);
        }
        else setError(errOf(reply.body));
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        setListsLoading(false);
      }
    })();
  }, []);

  // "Detect language": the text is read once the user pauses typing.
  const detecting = src === AUTO && text.trim() !== '' && lists.src.length > 0;
  useEffect(() => {
    if (!detecting) return;
    let live = true;
    const timer = setTimeout(() => void detect(text, lists.src, locale).then((d) => live && setDetected(d)), 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [detecting, text, lists.src]);

  /** The source translated from: the one picked, or what was detected in the text as it is now. */
  const from = src !== AUTO ? src : detecting && detected?.text === text ? (detected.code ?? undefined) : undefined;

  useEffect(() => {
    if (!prefs) return;
    if (!from) {
      setRows([]);
      setRowsPair('');
      setRoutesLoading(false);
      return;
    }
    let live = true;
    setRoutesLoading(true);
    void routesOf(from, trg).then((next) => {
      if (!live) return;
      setRows(next);
      setRowsPair(pairKey(from, trg));
      setRoutesLoading(false);
      // After GetRoutes: the worker has built the catalog the health numbers are about.
      send('health', {}).then(setHealth, () => undefined);
    });
    return () => {
      live = false;
    };
  }, [from, trg, prefs]);

  const remember = (patch: PopupPrefs) => {
    const next = { ...prefs, src, trg, dom, ...limits, ...patch };
    setPrefs(next);
    void save(POPUP_KEY, next);
  };

  const changeRows = (next: RouteRow[]) => {
    setRows(next);
    if (rowsPair) void load<Record<string, RoutePref>>(ROUTES_KEY, {}).then((all) => save(ROUTES_KEY, { ...all, [rowsPair]: prefOf(next) }));
  };

  const translate = async () => {
    if (!text.trim()) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setResults([]);
    setError('');
    // Translating before the pause that detects: the text is read now.
    let source = from;
    if (src === AUTO && !source) {
      const d = detected?.text === text ? detected : await detect(text, lists.src, locale);
      if (controller.signal.aborted) return;
      setDetected(d);
      if (!d.code) {
        setError(notDetected(d));
        return;
      }
      source = d.code;
    }
    if (!source) return;
    if (source === trg) {
      setError(alreadyIn(source, locale));
      return;
    }
    remember({ recent: pushRecent(prefs?.recent ?? [], [source, trg]) });
    setPending(true);
    const start = performance.now();
    const seen: RouteResult[] = [];
    const add = (item: TrObj, cached = false) => {
      if (seen.some((r) => r.rid === item.rid)) return;
      seen.push(resultOf(item, performance.now() - start, cached));
      setResults([...seen]);
    };
    // The order shown, or the stored one when the pair was only just detected.
    const rid = ridOf(rowsPair === pairKey(source, trg) ? rows : await routesOf(source, trg));
    try {
      const reply = await translateStream(
        { src: source, trg, dat: [text], dom, min: limits.min, max: limits.max, timeout: limits.timeout, ...(rid.length ? { rid } : {}) },
        (item, meta) => add(item as TrObj, meta.cached),
        { signal: controller.signal },
      );
      // Anything the reply holds that did not stream (a 503 lists every failed route).
      const body = reply.body as { dat?: TrObj[]; err?: string };
      (Array.isArray(body.dat) ? body.dat : []).forEach((item) => add(item));
      if (reply.status !== 200) setError(errOf(reply.body));
    } catch (e) {
      if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    } finally {
      if (running.current === controller) setPending(false);
    }
  };

  return (
    <main class="popup">
      <header>
        <h1>{t('extName', 'Polyglot Translate')}</h1>
        <PageBar trg={trg} tabId={tabId} codes={lists.src} locale={locale} />
      </header>
      <SitePanel trg={trg} locale={locale} tabId={tabId} />
      <PairBar lists={lists} src={src} from={from} trg={trg} locale={locale} recent={prefs?.recent ?? []}
        first={{ code: AUTO, name: t('detectLanguage', 'Detect language') }}
        onPair={(s, g) => { setSrc(s); setTrg(g); remember({ src: s, trg: g }); }}
        note={listsLoading ? <p class="detected" role="status">{t('loadingLanguages', 'Loading the languages the providers translate…')}</p> : detecting && detected?.text === text && (
          <p class={detected.code ? 'detected' : 'detected error'} role="status">
            {!detected.code ? notDetected(detected)
              : detected.sure ? t('detectedAs', 'Detected: $1', languageName(detected.code, locale))
              : t('detectedUnsure', 'Detected: $1 (a guess: check it)', languageName(detected.code, locale))}
          </p>
        )} />
      <div class="row">
        <label for="dom">{t('domain', 'Domain')}</label>
        <select id="dom" value={dom} onChange={(e) => { const d = e.currentTarget.value as Domain; setDom(d); remember({ dom: d }); }}>
          {DOMAINS.map((d) => <option key={d} value={d}>{domainLabel(d)}</option>)}
        </select>
      </div>
      <label for="text" class="block-label">{t('textLabel', 'Text to translate')}</label>
      <textarea id="text" rows={4} lang={from} value={text} onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void translate(); }} />
      <RoutesPanel rows={rows} onRows={changeRows} limits={limits} loading={routesLoading} health={health}
        empty={src === AUTO && !from ? t('routesAfterDetect', 'The routes show once the text’s language is detected.') : from === trg ? alreadyIn(trg, locale) : undefined}
        onLimits={(l) => { setLimits(l); remember(l); }} />
      <p class="actions">
        <button type="button" class="primary" id="translate" disabled={!text.trim()} onClick={() => void translate()}>
          {t('translate', 'Translate')}
        </button>
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      {(results.length > 0 || pending) && <Compare results={results} pending={pending} lang={trg} />}
    </main>
  );
}

/** Why a text's language is not used: the detector read none, or one no provider translates from. */
function notDetected(d: Detected): string {
  return d.name
    ? t('detectedNoRoute', 'Detected $1, which no provider translates from: pick the language under From.', d.name)
    : t('notDetected', 'Could not tell the text’s language: pick it under From.');
}

/** Said when the text is in the target language already (detected so, or picked so). */
function alreadyIn(code: string, locale: string): string {
  return t('textAlreadyIn', 'The text is in $1 already: pick another language under To.', languageName(code, locale));
}
