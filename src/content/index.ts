/**
 * The content script: page translation (page.ts) driven by the background's `page:*` messages, and
 * the engine, reached by message.
 *
 * The engine and the page translator are put on the global object of the content script's isolated
 * world. Page scripts run in another world and never see it, nor can other extensions; so it adds
 * no attack surface, while the e2e tests and the bench (through the DevTools protocol, which can
 * evaluate in an isolated world) reach it without any listener a page could talk to.
 */
import { languageOf, listedCode, sameLanguage } from '../core/lang';
import { mayTranslateOnLoad, storedSitePrefs } from '../core/sites';
import type { LanguageLists } from '../core/types';
import { callApi, send, translateChannel, translateStream } from '../shared/api';
import { ext } from '../shared/browser';
import { detectWithBrowser } from '../shared/detect';
import { CHORDS_KEY, DEFAULT_CHORDS, isChords } from '../shared/chords';
import { FRAMES_ASK_KEY, isFrameCounts, isTabMessage, toWireError, type PageOptions, type PageStatus, type TabMessage } from '../shared/messages';
import { installSelectionBubble, type SelectionBubble } from './bubble';
import { Chooser } from './chooser';
import { installChooserLift, liftChannel } from './chooser-lift';
import { HoverButton } from './hover';
import { t, uiLanguage } from '../ui/shared/i18n';
import { languageName } from '../ui/shared/langs';
import { load, PAGE_KEY, SITES_KEY, type PagePrefs } from '../ui/shared/store';
import { Indicator } from './indicator';
import { isOverlay } from './overlay';
import { PageTranslator } from './page';
import { rehearse } from './rehearse';
import { Reporter } from './reporter';
import { whenShown } from './shown';
import { rootSaysNo } from './tags';
import { wakeAhead } from './wake';

export interface ContentEngine {
  callApi: typeof callApi;
  translateStream: typeof translateStream;
  page: PageTranslator;
  /** Handles a tab message as if the background had sent it. */
  handle(message: TabMessage): Promise<PageStatus>;
  /** The selection bubble (context menu / shortcut "Translate selection"). */
  bubble: SelectionBubble;
  /** Alternatives in place (Alt+click on a translated paragraph). */
  chooser: Chooser;
  /** The button a resting mouse shows on a translated paragraph (it opens the chooser). */
  hover: HoverButton;
}

declare global {
  var polyglot: ContentEngine | undefined;
}

const top = window === window.top;
// Its Stop is the user's cancel: this document's requests stop at once, and every frame's through
// the background (`page:cancel`). Its Retry goes on in every frame, through the background
// (`page:retry`); this document's alone when the background cannot be reached. `page` is made
// below, before any status can show the buttons.
const indicator = new Indicator(
  document,
  () => {
    page.cancel();
    void send('page:cancel', {}).catch(() => undefined);
  },
  () =>
    void send('page:retry', {}).catch(() => {
      reporter.asked();
      page.retry();
    }),
);
const reporter = new Reporter({
  top,
  send: (status) => void send('page:progress', status).catch(() => undefined),
  status: () => page.status(),
  show: (tab) => indicator.show(tab),
  shown: () => indicator.shown(),
});

/** The page's status changed: told to the background, shown by the top frame's indicator; the chooser and the hover button go with the translation. */
function report(status: PageStatus): void {
  reporter.report(status);
  if (status.state === 'original') {
    chooser.close();
    hover.hide();
  }
}

// Back from the back/forward cache: what the background counts for this tab is the page the user
// left for; this one's status is told again (the calls it lost on the way in are sent again: api.ts
// `translateChannel`).
addEventListener('pageshow', (e) => {
  if ((e as PageTransitionEvent).persisted) reporter.report(page.status());
});

// Page translation sends a call every few ms: all of them on one port.
const pageCalls = translateChannel();
const page = new PageTranslator({
  translate: (params, onItem, options) => pageCalls(params, onItem, options),
  // A route's alternative for one paragraph, asked by the user: its own port, not ended by a Stop.
  ask: (params, onItem, options) => translateStream(params, onItem, options),
  onStatus: report,
  // Ours, also where one is in the page's body (over a modal dialog: overlay.ts `putOverlay`).
  ignore: isOverlay,
  rehearse: () => void rehearse().catch(() => undefined),
  routes: async (src, trg) => {
    const reply = await callApi('GetRoutes', { src, trg });
    return reply.status === 200 && Array.isArray(reply.body) ? reply.body.filter((r): r is string => typeof r === 'string') : [];
  },
});
// A frame's chooser too large for it is shown by the top frame (chooser-lift.ts).
const chooser = new Chooser(page, document, liftChannel(window, send));
chooser.listen(new AbortController().signal);
installChooserLift(chooser);
// The setting is read when the button would show (a mouse at rest on a new paragraph): one key,
// no storage.onChanged listener, so no other stored value (keys) is ever pushed to the page's process.
const hover = new HoverButton(page, chooser, document, {
  enabled: () => load<PagePrefs>(PAGE_KEY, {}).then((p) => p.hoverButton !== false),
});
hover.listen(new AbortController().signal);

/** What the browser's detector reads in the page's text, when it reads a language at all. */
async function detectedLanguage(): Promise<string | undefined> {
  const found = await detectWithBrowser((document.body?.innerText ?? '').slice(0, 4000));
  return found && languageOf(found);
}

/**
 * The page's language: its `lang`, else what the browser detects in its text, else English (the
 * likeliest). Its script too where it is not the language's usual one (`zh-TW`: `zh-Hant`, a
 * page a reader of `zh-Hans` has translated); not its region (`en-GB`: `en`).
 */
async function pageLanguage(): Promise<string> {
  return languageOf(document.documentElement.getAttribute('lang') ?? '') || (await detectedLanguage()) || 'en';
}

/** The engine's language lists, asked at each trigger (a provider may have been enabled since); undefined if it cannot say. */
async function engineLists(): Promise<LanguageLists | undefined> {
  const reply = await callApi('GetLanguages').catch(() => undefined);
  return reply?.status === 200 ? (reply.body as LanguageLists) : undefined;
}

/**
 * The lists a trigger carries (the background's, built as it was sent: no round trip to it on the
 * translation's path), else asked for.
 */
function listsOf(data: { lists?: LanguageLists }): Promise<LanguageLists | undefined> {
  const l = data.lists;
  return l && Array.isArray(l.src) && Array.isArray(l.trg) ? Promise.resolve(l) : engineLists();
}

/**
 * The language to translate the page from into `trg`, when the trigger names none (the shortcut,
 * the menu): its `lang`, unless that is `trg` and the text reads as another language with the
 * browser's detector (a template's `lang="en"` on a page written in Spanish).
 */
async function sourceFor(trg: string): Promise<string> {
  if (chosen) return chosen;
  // Read once per page: the popup's status asked it already, and `body.innerText` on a long page
  // without `lang` is not to be read again on the trigger's path.
  const src = await loadedLanguage();
  if (!sameLanguage(src, trg) || !document.documentElement.hasAttribute('lang')) return src;
  // The detector names a language, not always its script (Chromium reads Traditional Chinese as
  // `zh`): the page's label stands where the detector reads the same language.
  const read = await detectedLanguage();
  return read && read.split('-')[0] !== src.split('-')[0] ? read : src;
}

/**
 * Translates this document from `src` into `trg`, unless it is in `trg` already. Then it is left
 * as it is, the top frame saying so in its indicator ("Already in Spanish") and the status
 * carrying it as `error`; or, shown translated, it is restored (its original is in `trg`).
 *
 * Both go to the engine as it lists them (core/lang.ts `listedCode`): a page's `zh` is Google's
 * `zh-Hans`, a page's `zh-Hant` Chrome's on-device `zh-Hant`, a page's `nb` Google's `no`; before,
 * a Chinese page asked for `zh`, which only the on-device translator lists (none in Firefox). A
 * language the trigger named (the popup's "Page in", a site rule's) is compared whole: `pt` to
 * `pt-BR` is a translation; the page's own as `languageOf` reads it (`en-GB` is `en`, `zh-TW`
 * is not `zh-Hans`).
 */
async function startInto(src: string, trg: string, opts: PageOptions, named = false, lists: Promise<LanguageLists | undefined> = engineLists()): Promise<PageStatus> {
  const listed = await lists;
  const from = (listed && listedCode(src, listed.src, true)) ?? src;
  const into = (listed && listedCode(trg, listed.trg)) ?? trg;
  const same = from === into || (named ? src.toLowerCase() === trg.toLowerCase() : sameLanguage(src, trg));
  return startListed(from, into, opts, same);
}

function startListed(src: string, trg: string, opts: PageOptions, same: boolean): PageStatus {
  if (!same) {
    // Asked again as it is, a page goes on (a resume): its indicator shows how, as for a start.
    reporter.asked();
    return page.start(src, trg, opts);
  }
  if (page.status().state !== 'original') return page.restore();
  if (top) indicator.say(t('indicatorAlready', 'Already in $1', languageName(trg, uiLanguage())));
  return { ...page.status(), error: `the page is already in ${trg}` };
}

/** The language reported to the background once per page (site rules), reused by page:status. */
let detected: Promise<string> | undefined;
const loadedLanguage = () => (detected ??= pageLanguage());
/**
 * The page's language as the user named it (the popup's "Page in", for a page whose `lang` is
 * wrong): kept for this document, so the shortcut's and the menu's toggles and the popup's next
 * status use it too.
 */
let chosen: string | undefined;

/** The user put this document back: an app's own navigation does not translate it again (`askOnLoad`). */
let restored = false;
function restoredByUser(): PageStatus {
  restored = true;
  return page.restore();
}

async function handle(message: TabMessage): Promise<PageStatus> {
  switch (message.type) {
    case 'page:translate': {
      const { trg, mode, scope } = message.data;
      const state = page.status().state;
      const given = message.data.src;
      if (given) chosen = given;
      const lists = listsOf(message.data);
      const src = given ?? (state === 'original' ? await sourceFor(trg) : (page.status().src ?? (await sourceFor(trg))));
      return startInto(src, trg, { ...(mode ? { mode } : {}), ...(scope ? { scope } : {}) }, !!given, lists);
    }
    case 'page:toggle': {
      const state = page.status().state;
      if (state !== 'original') return restoredByUser();
      const { trg, mode } = message.data;
      const lists = listsOf(message.data);
      return startInto(await sourceFor(trg), trg, mode ? { mode } : {}, false, lists);
    }
    case 'page:alternatives':
      if (document.hasFocus()) chooser.openAtCursor();
      return page.status();
    case 'page:restore':
      return restoredByUser();
    case 'page:cancel':
      return page.cancel();
    case 'page:retry':
      reporter.asked();
      return page.retry();
    case 'page:frames':
      if (isFrameCounts(message.data)) reporter.frameCounts(message.data);
      return page.status();
    case 'page:frame-status':
      return page.status();
    case 'page:status':
      // The popup's site rules need the host and the language; only here, the badge needs neither.
      return { ...page.status(), site: location.hostname, lang: chosen ?? (await loadedLanguage()) };
  }
}

const runtime = ext().runtime;
runtime.onMessage.addListener(((message: unknown, sender: { id?: string; tab?: unknown }, sendResponse: (r: unknown) => void) => {
  // Only the background (or our own extension pages) may drive the page: never another tab.
  if (sender.id !== runtime.id || sender.tab !== undefined || !isTabMessage(message)) return undefined;
  const reply = handle(message).then(
    (data) => ({ data }),
    (e: unknown) => ({ error: toWireError(e) }),
  );
  // Every frame acts; only the top frame answers, or a frame's answer would race the top's (but
  // for the one message sent to a single frame).
  if (!top && message.type !== 'page:frame-status') return undefined;
  void reply.then(sendResponse);
  return true;
}) as Parameters<typeof runtime.onMessage.addListener>[0]);

const bubble = installSelectionBubble();

// The context menu's items and the shortcuts reach the background: wake it on a right-click or a
// held shortcut chord. The chords in effect (the user may rebind the shortcuts) are read once, at
// the first modifier's keydown, which comes before the chord's second: the manifest's until then.
let chords: readonly string[] = DEFAULT_CHORDS;
let chordsAsked = false;
// The page's `lang` is read then too, off the trigger's path: where it is not a language of one
// script (core/lang.ts `ONE_SCRIPT`: `zh-TW`, `sr`), a page's first reading of likely subtags
// (Intl's `maximize`, under `languageOf`) costs it 18–46 ms in Chromium.
wakeAhead(window, () => {
  void send('page:wake', {}).catch(() => undefined);
  setTimeout(() => languageOf(document.documentElement.getAttribute('lang') || 'en'), 0);
}, {
  chords: () => {
    if (!chordsAsked) {
      chordsAsked = true;
      void load<unknown>(CHORDS_KEY, undefined).then((c) => {
        if (isChords(c)) chords = c;
      });
    }
    return chords;
  },
});

// Site rules (always / never, per site and per language) are applied by the background once the
// top frame says the page has loaded and in which language; an `always` comes back as page:translate.
// So does a page loaded in a tab the user translated (a link followed, a reload) in the language of
// the page before. Only where a stored rule could translate this page, or while some tab is
// translated (`page:framesAsk`): elsewhere (most pages, and every page of a user without rules)
// neither its language is detected nor the background started. Both read at once.
/** Reports the page's language to the background where a stored rule could translate it (above). */
async function askOnLoad(): Promise<void> {
  const stored = await ext().storage.local.get([SITES_KEY, FRAMES_ASK_KEY]);
  if (stored[FRAMES_ASK_KEY] !== true && !mayTranslateOnLoad(storedSitePrefs(stored[SITES_KEY]), location.hostname)) return;
  await send('page:loaded', { lang: await loadedLanguage(), ...(rootSaysNo(document) ? { saysNo: true } : {}) });
}

// A page the browser prerendered asks once it is shown (shown.ts): asked before, it was refused as
// not the tab's top frame, and a provider would be paid for a page perhaps never read.
if (top && /^https?:$/.test(location.protocol)) {
  whenShown(document, () => {
    askOnLoad().catch(() => undefined);
    followAppNavigation(() => {
      // A new page of the app, maybe in another language: read afresh.
      detected = undefined;
      chosen = undefined;
      askOnLoad().catch(() => undefined);
    });
  });
}

/**
 * A single-page app's own navigation (its router's `history.pushState`) loads no page, so nothing
 * above runs again: it is asked again as at a load, once the app has had time to show the new
 * page, while this document is shown as it is (not translated, nor restored by the user: a page
 * translated goes on following the app's changes). A move within the page (only the `#hash`) is
 * not a new page. Through the Navigation API, which content scripts see in Chromium and in
 * Firefox (153 ESR); a browser without it asks on loads only.
 */
function followAppNavigation(onPage: () => void, settleMs = 600): void {
  const nav = (globalThis as { navigation?: EventTarget }).navigation;
  if (!nav) return;
  let at = location.pathname + location.search;
  let timer: ReturnType<typeof setTimeout> | undefined;
  nav.addEventListener('currententrychange', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const now = location.pathname + location.search;
      if (now === at) return;
      at = now;
      if (page.status().state === 'original' && !restored) onPage();
    }, settleMs);
  });
}

// A frame that loads after its page was translated (a lazy embed, a widget) follows the page; the
// frames present at the trigger got page:translate with the top. A frame already in the target
// language has nothing to translate.
// It asks only while some tab is translated (`page:framesAsk`, background/frames.ts): elsewhere a
// frame's load does not start the background.
// A frame of a prerendered page asks once that page is shown: before, the tab's page is another.
if (!top) {
  whenShown(document, () => {
    load<unknown>(FRAMES_ASK_KEY, false)
      .then((ask) => (ask === true ? send('page:frame', {}) : ({ action: 'none' } as const)))
      .then(async (decision) => {
        if (decision.action !== 'translate' || page.status().state !== 'original') return;
        await startInto(await loadedLanguage(), decision.trg, { mode: decision.mode, scope: decision.scope });
      })
      .catch(() => undefined);
  });
}

globalThis.polyglot = Object.freeze({ callApi, translateStream, page, handle, bubble, chooser, hover });
