/**
 * Answers the protocol map's messages (src/shared/messages.ts), each only from the senders its
 * handler allows. Every reply is `{data}` or `{error: {status, message}}`; nothing is thrown across.
 */
import type { Runtime } from 'webextension-polyfill';
import { ApiError } from '../core/errors';
import type { TranslationService } from '../core/service-types';
import {
  isWireMessage,
  toWireError,
  type MessageType,
  type RequestOf,
  type ResponseOf,
  type WireMessage,
  type WireReply,
} from '../shared/messages';
import { redactSecrets } from '../shared/secrets';
import type { ContentPolicy } from './content-calls';
import { PAGE_HANDLERS } from './page';
import { LOG_HANDLERS, type ProviderLog } from './provider-log';
import { SELECTION_HANDLERS } from './selection';
import { CHOOSER_HANDLERS } from './chooser-lift';
import { classifySender, senderOrigin, type Self, type SenderKind } from './senders';
import type { SettingsStore } from './settings';
import { SITES_HANDLERS, type SitesStore } from './sites';
import type { TabControl } from './tabs';
import type { FrameFlag } from './frames';
import type { FrameProgress } from './frame-progress';
import type { FrameCounts, PageStatus } from '../shared/messages';

export interface RouterDeps {
  service: Pick<TranslationService, 'call' | 'flush' | 'health' | 'warm' | 'lists'>;
  settings: SettingsStore;
  self: Self;
  /**
   * What a content script's `api` call goes through (privacy routing, provider log:
   * content-calls.ts); index.ts always gives it, hand-made test doubles may leave it out.
   */
  contentPolicy?: ContentPolicy;
  /** Site rules, provider log, tabs (sites.ts, provider-log.ts); absent: storage.local and the real tabs. */
  sites?: SitesStore;
  log?: ProviderLog;
  tabs?: TabControl;
  /** Whether frames ask about their page when they load (frames.ts); absent: storage's. */
  frames?: FrameFlag;
  /** Each tab's frames' progress (frame-progress.ts); absent: the worker's. */
  progress?: FrameProgress;
  /** Shows a tab's progress (its badge and the menu's title); absent: the browser's action. */
  badge?: (tabId: number, status: PageStatus) => Promise<void>;
  /** Tells a tab's top frame its frames' units (`page:frames`); absent: tabs.sendMessage. */
  tellTop?: (tabId: number, counts: FrameCounts) => Promise<unknown>;
  /** How long frames' reports are gathered before their sum is told (absent: 250 ms). */
  tellMs?: number;
  /** Asks one frame of a tab its own status (`page:frame-status`); absent: tabs.sendMessage. */
  askFrame?: (tabId: number, frameId: number) => Promise<PageStatus>;
}

export interface Context {
  kind: SenderKind;
  sender: Runtime.MessageSender;
}

export interface Handler<K extends MessageType> {
  /** Who may send it. */
  allow: readonly SenderKind[];
  handle(data: RequestOf<K>, ctx: Context, deps: RouterDeps): Promise<ResponseOf<K>>;
}

const EXTENSION_PAGES: readonly SenderKind[] = ['options', 'page'];
const EXTENSION_AND_CONTENT: readonly SenderKind[] = ['options', 'page', 'content'];

const HANDLERS: { [K in MessageType]: Handler<K> } = {
  api: {
    allow: EXTENSION_AND_CONTENT,
    async handle({ fn, params }, ctx, deps) {
      const { service } = deps;
      if (typeof fn !== 'string' || typeof params !== 'object' || params === null) {
        throw new ApiError(400, 'api: data must be {fn: string, params: object}');
      }
      // Privacy routing and the provider log apply to a site's calls, never to our own pages'.
      const prepared = ctx.kind === 'content' ? await deps.contentPolicy?.(fn, params, ctx.sender) : undefined;
      if (prepared?.refuse) return prepared.refuse;
      const reply = await service.call(fn, prepared?.params ?? params, { trusted: true, origin: senderOrigin(ctx.sender), ...prepared?.options });
      prepared?.done(reply);
      // Usage must survive the worker's death; the write need not delay the reply.
      service.flush().catch(() => undefined);
      return reply;
    },
  },
  'settings:get': {
    allow: EXTENSION_PAGES,
    async handle({ withSecrets }, ctx, { settings }) {
      const current = await settings.get();
      return withSecrets === true && ctx.kind === 'options' ? structuredClone(current) : redactSecrets(current);
    },
  },
  'settings:set': {
    allow: ['options'],
    async handle({ settings: doc }, _ctx, { settings }) {
      try {
        return { status: 200, body: await settings.set(doc) };
      } catch (e) {
        if (e instanceof ApiError && e.status === 400) return { status: 400, body: { err: e.message } };
        throw e;
      }
    },
  },
  health: {
    allow: EXTENSION_PAGES,
    async handle(_data, _ctx, { service }) {
      return service.health?.() ?? {};
    },
  },
  // page:translate/restore/cancel/status (extension pages, forwarded to the tab) and page:progress (content).
  ...PAGE_HANDLERS,
  // selection:open-popup and selection:lift (content: the bubble) and usage:get (options).
  ...SELECTION_HANDLERS,
  // chooser:lift/alt (a frame's chooser, to its top frame) and chooser:act (the top frame's choice, back).
  ...CHOOSER_HANDLERS,
  // sites:get/set (popup, options), page:loaded (content: applies the rules), log:* (options).
  ...SITES_HANDLERS,
  ...LOG_HANDLERS,
};

async function dispatch<K extends MessageType>(
  message: Extract<WireMessage, { type: K }>,
  ctx: Context,
  deps: RouterDeps,
): Promise<WireReply<K>> {
  const handler = HANDLERS[message.type] as Handler<K>;
  if (!handler.allow.includes(ctx.kind)) {
    return { error: { status: 403, message: `${message.type} is not allowed from ${ctx.kind === 'content' ? 'a content script' : 'this page'}` } };
  }
  try {
    return { data: await handler.handle(message.data as RequestOf<K>, ctx, deps) };
  } catch (e) {
    return { error: toWireError(e) };
  }
}

/**
 * Answers a message with a promise of the reply. Strangers and anything that is not a protocol
 * message get `undefined`: no reply at all, so a prober learns nothing.
 */
export function createMessageHandler(deps: RouterDeps) {
  return (message: unknown, sender: Runtime.MessageSender): Promise<WireReply<MessageType>> | undefined => {
    const kind = classifySender(sender, deps.self);
    if (kind === undefined || !isWireMessage(message)) return undefined;
    return dispatch(message, { kind, sender }, deps);
  };
}

/**
 * The handler as a runtime.onMessage listener in the form both browsers take: `return true` and
 * reply through sendResponse, which every Chromium and Firefox version supports; a returned
 * promise is not understood by older Chromium.
 */
export function asOnMessageListener(
  handle: (message: unknown, sender: Runtime.MessageSender) => Promise<unknown> | undefined,
): Runtime.OnMessageListenerCallback {
  const listener = (message: unknown, sender: Runtime.MessageSender, sendResponse: (response: unknown) => void) => {
    const reply = handle(message, sender);
    if (reply === undefined) return undefined;
    void reply.then(sendResponse);
    return true;
  };
  // The polyfill's types want `true` always; `undefined` is what leaves the message to others.
  return listener as Runtime.OnMessageListenerCallback;
}
