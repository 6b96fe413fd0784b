/**
 * The one protocol map between extension contexts and the background (docs/messages.md).
 * Each message name maps to its request and response; the wire forms below are derived from it.
 */
import type { ProviderHealth } from '../core/scheduler/index';
import type { Settings } from '../core/settings/types';
import type { LoadDecision, SitePatch, SitePrefs } from '../core/sites';
import type { ApiReply, LanguageLists, LooseParams, TrdObj, TrObj } from '../core/types';

/** Interface query parameters; repeatable ones (dat, rid) as arrays. */
export type ApiParams = LooseParams;

export interface Protocol {
  /** One of the four functions; the reply is exactly what the HTTP form would answer. */
  api: { request: { fn: string; params: ApiParams }; response: ApiReply };
  /** The settings document; provider keys and API keys left out unless withSecrets (options page only). */
  'settings:get': { request: { withSecrets?: boolean }; response: Settings };
  /** Replaces the settings document after validation; a bad one answers 400 naming the field. */
  'settings:set': {
    request: { settings: unknown };
    response: { status: 200; body: Settings } | { status: 400; body: { err: string } };
  };
  /** Translates the page in a tab (the active tab of the last focused window when tabId is left out). */
  'page:translate': { request: { tabId?: number; src?: string; trg: string } & PageOptions; response: PageStatus };
  /** Puts the page back exactly as it was. */
  'page:restore': { request: { tabId?: number }; response: PageStatus };
  /**
   * Stops every request of the page's translation at once, in every frame; what is translated
   * stays. From an extension page, or from a tab's top frame (the indicator's Stop: its own tab).
   */
  'page:cancel': { request: { tabId?: number }; response: PageStatus };
  /** Where the page's translation stands. */
  'page:status': { request: { tabId?: number }; response: PageStatus };
  /**
   * From the content script of each frame of a tab, once it has started: its progress. The tab's
   * badge and `page:status` count the top frame's units and its frames' (background/frame-progress.ts).
   */
  'page:progress': { request: PageStatus; response: { ok: true } };
  /** From the in-page indicator's Retry (a tab's top frame): every frame goes on with what failed. */
  'page:retry': { request: Record<string, never>; response: PageStatus };
  /** From the selection bubble: opens the popup (or a tab of it) with this text and pair. */
  'selection:open-popup': { request: { text: string; src?: string; trg?: string }; response: { ok: true } };
  /**
   * From the content script of a frame too small for the selection bubble: the tab's top frame
   * shows it, where the frames posted `key` (content/lift.ts); `shown` false if it did not.
   */
  'selection:lift': { request: { key: string; text: string; lang: string }; response: { shown: boolean } };
  /**
   * From the content script of a frame too small for a paragraph's chooser of alternatives: the
   * tab's top frame shows it, where the frames posted `key` (content/lift.ts, chooser-lift.ts),
   * with what it holds so far; `shown` false if it did not.
   */
  'chooser:lift': { request: { key: string; view: LiftedView }; response: { shown: boolean } };
  /** From that frame: a route's alternative as it arrives, or `done` once every route answered; to its tab's top frame. */
  'chooser:alt': { request: { key: string; alt?: LiftedAlternative; done?: true }; response: { ok: true } };
  /** From a tab's top frame: what the reader chose in a frame's chooser it shows, to that frame (`frameId`, from `chooser:show`). */
  'chooser:act': { request: { key: string; frameId: number; act: ChooserAct; rid?: string }; response: { ok: boolean } };
  /** Usage counted per API key name and per app (options page). */
  'usage:get': { request: Record<string, never>; response: UsageCounters };
  /** Per enabled provider: ok / limited / down, recent latency (src/core/scheduler). */
  health: { request: Record<string, never>; response: Record<string, ProviderHealth> };
  /** Site and language rules (docs/ui.md "Sites"): popup and options. */
  'sites:get': { request: Record<string, never>; response: SitePrefs };
  /** Changes rules (`null` removes one); a bad patch is an error 400 naming the field. */
  'sites:set': { request: SitePatch; response: SitePrefs };
  /** From a tab's top frame once the page has loaded: its language; the background applies the rules. */
  'page:loaded': { request: { lang: string; saysNo?: boolean }; response: LoadDecision };
  /** From a frame (not the top) once it has loaded: whether its page is translated, so it follows. */
  'page:frame': { request: Record<string, never>; response: FrameDecision };
  /** From a content script on a right-click: the context menu may ask to translate next; start the background and its language lists now. */
  'page:wake': { request: Record<string, never>; response: { ok: true } };
  /** The provider log and whether it is on (options page). */
  'log:get': { request: Record<string, never>; response: { on: boolean; entries: LogEntry[] } };
  /** Turns the provider log on or off (entries are kept until log:clear). */
  'log:set': { request: { on: boolean }; response: { on: boolean } };
  'log:clear': { request: Record<string, never>; response: { ok: true } };
}

/** One Translate from a site's content script: which providers got how many characters (never the text). */
export interface LogEntry {
  /** Epoch ms. */
  at: number;
  /** The web origin of the frame that asked. */
  site: string;
  providers: string[];
  chars: number;
}

/** What a frame that loaded after its page was translated does: the same as the page, or nothing. */
export type FrameDecision = { action: 'none' } | { action: 'translate'; trg: string; mode: PageMode; scope: PageScope };
/**
 * storage.local: `true` while some tab's page is translating or translated (background/frames.ts).
 * A frame sends `page:frame` when it loads only then.
 */
export const FRAMES_ASK_KEY = 'page:framesAsk';

/** Page translation in one tab (docs/page-translation.md). */
export type PageState = 'original' | 'translating' | 'translated' | 'cancelled';

/** replace: the translation in place of the original; bilingual: under each original block. */
export type PageMode = 'replace' | 'bilingual';
/** page: the whole page (viewport first); near: only what is within a screen of the viewport, more as it scrolls. */
export type PageScope = 'page' | 'near';

export interface PageOptions {
  /** Default 'replace'. */
  mode?: PageMode;
  /** Default 'page'. */
  scope?: PageScope;
}

export interface PageStatus {
  state: PageState;
  src?: string;
  trg?: string;
  /** Units written and units known; errors: units no route translated. */
  done: number;
  total: number;
  errors: number;
  /** The last error, e.g. `400 ...` from the engine. */
  error?: string;
  /** How the page is being translated (absent while original). */
  mode?: PageMode;
  scope?: PageScope;
  /** The route chosen for the rest of the page ("Use this route for the page"). */
  rid?: string;
  /** page:status only: the page's host name and language (`lang`, else detected), for the popup's site rules. */
  site?: string;
  lang?: string;
}

/** The units of a tab's frames other than the top, added up (background/frame-progress.ts). */
export interface FrameCounts {
  done: number;
  total: number;
  errors: number;
  /** The first frame's last error. */
  error?: string;
  /** Whether one of them is translating. */
  translating: boolean;
  /** Whether one of them is stopped (`cancelled`). */
  stopped: boolean;
}

const isCount = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
const PAGE_STATES: readonly unknown[] = ['original', 'translating', 'translated', 'cancelled'];

/** A content script's report in the form a page status has: a state, whole counts ≥ 0, an error as text. */
export function isPageStatus(v: unknown): v is PageStatus {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return PAGE_STATES.includes(s['state']) && isCount(s['done']) && isCount(s['total']) && isCount(s['errors']) && (s['error'] === undefined || typeof s['error'] === 'string');
}

/** A `FrameCounts` as the background sends it (checked where it arrives). */
export function isFrameCounts(v: unknown): v is FrameCounts {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return isCount(c['done']) && isCount(c['total']) && isCount(c['errors']) && typeof c['translating'] === 'boolean' && typeof c['stopped'] === 'boolean' && (c['error'] === undefined || typeof c['error'] === 'string');
}

/**
 * `top` (what a tab's top frame says) with its frames' units added: their parts, done and failed;
 * translating while one of them is, else stopped if one is (a translated top's). A page shown as
 * it is counts no frames.
 */
export function withFrames(top: PageStatus, frames: FrameCounts | undefined): PageStatus {
  if (!frames || top.state === 'original') return top;
  const state = top.state !== 'translated' ? top.state : frames.translating ? 'translating' : frames.stopped ? 'cancelled' : top.state;
  const error = top.error ?? frames.error;
  return { ...top, state, done: top.done + frames.done, total: top.total + frames.total, errors: top.errors + frames.errors, ...(error ? { error } : {}) };
}

/**
 * Whether a top frame's report starts its page afresh, after `before` (its last state): translating
 * with nothing done, from any other state (a resume has done some). Its frames' counts from before
 * are dropped then, and at `original`.
 */
export function startsAfresh(before: PageState | undefined, now: PageStatus): boolean {
  return now.state === 'translating' && now.done === 0 && before !== 'translating';
}

/**
 * What the background sends to a tab's content script (tabs.sendMessage), in the same wire form;
 * only the top frame answers, every frame acts.
 */
export interface TabProtocol {
  /** `lists`: the engine's language lists (GetLanguages' body), which the tab then does not ask for. */
  'page:translate': { request: { src?: string; trg: string; lists?: LanguageLists } & PageOptions; response: PageStatus };
  'page:restore': { request: Record<string, never>; response: PageStatus };
  'page:cancel': { request: Record<string, never>; response: PageStatus };
  'page:status': { request: Record<string, never>; response: PageStatus };
  /** Keyboard shortcut and context menu: translate to trg, or restore when translated. */
  'page:toggle': { request: { trg: string; mode?: PageMode; lists?: LanguageLists }; response: PageStatus };
  /** Keyboard shortcut: the frame with the focus opens the alternatives of the translated paragraph at its cursor. */
  'page:alternatives': { request: Record<string, never>; response: PageStatus };
  /** The indicator's Retry, through the background: each frame goes on with what failed, or was left by a stop. */
  'page:retry': { request: Record<string, never>; response: PageStatus };
  /** To the top frame: its frames' units, added up, for its indicator (on each change). */
  'page:frames': { request: FrameCounts; response: PageStatus };
  /** To one frame (any, not only the top): its own status; a frame that is gone does not answer. */
  'page:frame-status': { request: Record<string, never>; response: PageStatus };
}

/** Requests and characters, per key name (`keys`) and per app (`apps`). */
export interface UsageCounters {
  keys: Record<string, { requests: number; chars: number }>;
  apps: Record<string, { requests: number; chars: number }>;
}

/**
 * From the background to a tab's frames (context menu: the clicked frame with `targeted` and the
 * menu's selectionText; shortcut: every frame, the one with a selection acts). No reply; but with
 * `lift` (a frame's selection, `selection:lift`), sent to the top frame only: `{shown}`.
 */
export interface SelectionMessage {
  type: 'selection:show';
  data: { text?: string; targeted: boolean; lift?: { key: string; lang: string } };
}

export function isSelectionMessage(value: unknown): value is SelectionMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { type, data } = value as { type?: unknown; data?: { targeted?: unknown; text?: unknown; lift?: { key?: unknown; lang?: unknown } } };
  return type === 'selection:show' && typeof data === 'object' && data !== null && typeof data.targeted === 'boolean'
    && (data.text === undefined || typeof data.text === 'string')
    && (data.lift === undefined || (typeof data.lift?.key === 'string' && typeof data.lift.lang === 'string' && typeof data.text === 'string'));
}

/** A route's alternative for one paragraph, as a frame's chooser hands it to the top frame. */
export type LiftedAlternative = { rid: string; text: string; current: boolean; err?: undefined } | { rid: string; err: string; current: false; text?: undefined };

/** What a frame's chooser shows, handed to the top frame: content/choices.ts `Choice`, and the alternatives so far. */
export interface LiftedView {
  original: { text: string; lang: string; shown: boolean } | null;
  copy: 'shown' | 'hidden' | null;
  /** The page's target: the alternatives' language. */
  trg: string;
  alts: LiftedAlternative[];
}

/** Use a route's alternative, show the original, hide the copy, use a route for the page, or close. */
export type ChooserAct = 'pick' | 'original' | 'hide' | 'prefer' | 'close';
export const CHOOSER_ACTS: readonly ChooserAct[] = ['pick', 'original', 'hide', 'prefer', 'close'];

/**
 * From the background to a tab's frames, for a frame's chooser the top frame shows
 * (content/chooser-lift.ts): to the top frame, `chooser:show` (the view and the frame it is of;
 * reply `{shown}`) and `chooser:alt` (an alternative, or `done`); to that frame, `chooser:do` (the
 * reader's choice; reply `{ok}`).
 */
export type ChooserMessage =
  | { type: 'chooser:show'; data: { key: string; frameId: number; view: LiftedView } }
  | { type: 'chooser:alt'; data: { key: string; alt?: LiftedAlternative; done?: true } }
  | { type: 'chooser:do'; data: { key: string; act: ChooserAct; rid?: string } };

export function isChooserMessage(value: unknown): value is ChooserMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { type, data } = value as { type?: unknown; data?: { key?: unknown } };
  return (type === 'chooser:show' || type === 'chooser:alt' || type === 'chooser:do') && typeof data === 'object' && data !== null && typeof data.key === 'string';
}

export type TabMessageType = keyof TabProtocol;
export type TabMessage = { [K in TabMessageType]: { type: K; data: TabProtocol[K]['request'] } }[TabMessageType];
export const TAB_MESSAGE_TYPES: readonly TabMessageType[] = ['page:translate', 'page:restore', 'page:cancel', 'page:status', 'page:toggle', 'page:alternatives', 'page:retry', 'page:frames', 'page:frame-status'];

export function isTabMessage(value: unknown): value is TabMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { type, data } = value as { type?: unknown; data?: unknown };
  return (TAB_MESSAGE_TYPES as readonly unknown[]).includes(type) && typeof data === 'object' && data !== null;
}

export type MessageType = keyof Protocol;
export type RequestOf<K extends MessageType> = Protocol[K]['request'];
export type ResponseOf<K extends MessageType> = Protocol[K]['response'];

/** What travels: a discriminated union over the map. */
export type WireMessage = { [K in MessageType]: { type: K; data: RequestOf<K> } }[MessageType];

export interface WireError {
  status: number;
  message: string;
}

/** A reply is either the response or an error; errors are rethrown as RemoteError on the caller's side. */
export type WireReply<K extends MessageType> = { data: ResponseOf<K> } | { error: WireError };

export const MESSAGE_TYPES: readonly MessageType[] = [
  'api', 'settings:get', 'settings:set', 'page:translate', 'page:restore', 'page:cancel', 'page:status', 'page:progress', 'page:retry',
  'selection:open-popup', 'selection:lift', 'chooser:lift', 'chooser:alt', 'chooser:act', 'usage:get', 'health',
  'sites:get', 'sites:set', 'page:loaded', 'page:frame', 'page:wake', 'log:get', 'log:set', 'log:clear',
];

export function isWireMessage(value: unknown): value is WireMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { type, data } = value as { type?: unknown; data?: unknown };
  return (MESSAGE_TYPES as readonly unknown[]).includes(type) && typeof data === 'object' && data !== null;
}

/** An error that crossed a boundary, with the status the other side gave it. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

/**
 * A call the background never answered: the port it went on closed while it ran (the worker was
 * stopped or restarted). Nothing says the provider failed; the caller may send it again.
 */
export class PortClosedError extends RemoteError {
  constructor() {
    super(503, 'the background closed the translate port');
    this.name = 'PortClosedError';
  }
}

/** Any thrown value in wire form: an ApiError or RemoteError keeps its status, anything else is 500. */
export function toWireError(e: unknown): WireError {
  const status = typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number'
    ? (e as { status: number }).status
    : 500;
  return { status, message: e instanceof Error ? e.message : String(e) };
}

// --- The `translate` port: streaming Translate for the extension's own contexts. ---

export const TRANSLATE_PORT = 'translate';

/** The client posts this once after connecting. */
export interface TranslatePortRequest {
  params: ApiParams;
  /**
   * Work nobody is looking at yet (a page's call for content far from the viewport): its provider
   * requests wait behind every other caller's.
   */
  background?: boolean;
}

/** The worker posts one `result` per route (tr_obj) or chunk (trd_obj) as it settles, then `done`. */
export type TranslatePortMessage =
  /** `cached`: every segment of this result came from the translation memory. */
  | { type: 'result'; item: TrObj | TrdObj; cached?: boolean }
  | { type: 'done'; reply: ApiReply }
  | { type: 'error'; error: WireError };

/**
 * The `translate:many` port: the same streams, many on one port (page translation sends a call
 * every few ms; a port per call cost ~1 ms of the page's main thread to open). The client starts a
 * call with `{id, params}` and stops it with `{id, cancel: true}`; every message back carries its
 * call's id. Closing the port stops every call on it. `{id, hurry: true}` says a call sent as
 * `background` is now waited for in the foreground (the reader jumped to what it carries): what
 * of it still waits for the provider is served among the foreground work, by age.
 */
export const TRANSLATE_MANY_PORT = 'translate:many';

export type TranslateManyRequest = ({ id: number } & TranslatePortRequest) | { id: number; cancel: true } | { id: number; hurry: true };

export type TranslateManyMessage = TranslatePortMessage & { id: number };
