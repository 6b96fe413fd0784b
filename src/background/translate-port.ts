/**
 * Streaming Translate over a Port named `translate`: each route's tr_obj (or chunk's trd_obj) is
 * posted as it settles, then the whole reply. Closing the port aborts the provider requests.
 * `translate:many` carries many such streams, each by its id (messages.ts).
 */
import type { Runtime } from 'webextension-polyfill';
import type { TranslationService } from '../core/service-types';
import {
  TRANSLATE_MANY_PORT,
  TRANSLATE_PORT,
  toWireError,
  type TranslateManyMessage,
  type TranslatePortMessage,
  type TranslatePortRequest,
} from '../shared/messages';
import type { ContentPolicy } from './content-calls';
import { classifySender, senderOrigin, type Self } from './senders';

type SenderKind = NonNullable<ReturnType<typeof classifySender>>;

export interface PortDeps {
  service: Pick<TranslationService, 'call' | 'flush'>;
  self: Self;
  /** As RouterDeps.contentPolicy: privacy routing and the provider log for content scripts. */
  contentPolicy?: ContentPolicy;
}

function isRequest(value: unknown): value is TranslatePortRequest {
  const params = (value as { params?: unknown } | null)?.params;
  return typeof params === 'object' && params !== null && !Array.isArray(params);
}

/** Each tab's page calls (its frames' `translate:many` ports), by the stop of each port's calls. */
const tabCalls = new Map<number, Set<() => void>>();
/** Tabs being stopped: page calls their frames send meanwhile are dropped (by how many stops). */
const stopping = new Map<number, number>();

/**
 * Ends the page calls of `tabId`'s frames where they wait in the worker (behind the provider's
 * limits), at once and silently, and drops those its frames send until `release` is called (once
 * each frame was told: background/page.ts `page:cancel`): a Stop for the tab sends nothing more,
 * not even a call a frame sent before it heard of the Stop. Each frame settles its own calls.
 */
export function stopPageCalls(tabId: number): () => void {
  stopping.set(tabId, (stopping.get(tabId) ?? 0) + 1);
  for (const stop of tabCalls.get(tabId) ?? []) stop();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (stopping.get(tabId) ?? 1) - 1;
    if (left > 0) stopping.set(tabId, left);
    else stopping.delete(tabId);
  };
}

/** The runtime.onConnect listener. Ports of other names are left to their own listeners. */
export function createConnectListener({ service, self, contentPolicy }: PortDeps) {
  /** One Translate, its results posted as they settle, then its reply (or its error). */
  const run = ({ params, background }: TranslatePortRequest, kind: SenderKind, sender: Runtime.MessageSender, signal: AbortSignal, post: (m: TranslatePortMessage) => void, foreground?: Promise<void>) => {
    const policy = kind === 'content' && contentPolicy ? contentPolicy('Translate', params, sender) : Promise.resolve(undefined);
    policy
      .then((prepared) => {
        if (prepared?.refuse) return prepared.refuse;
        return service
          .call('Translate', prepared?.params ?? params, {
            trusted: true,
            origin: senderOrigin(sender),
            signal,
            background: background === true,
            ...(foreground ? { foreground } : {}),
            onResult: (item, meta) => post({ type: 'result', item, ...(meta?.cached ? { cached: true } : {}) }),
            ...prepared?.options,
          })
          .then((reply) => {
            prepared?.done(reply);
            return reply;
          });
      })
      .then(
        (reply) => post({ type: 'done', reply }),
        (e: unknown) => post({ type: 'error', error: toWireError(e) }),
      )
      .finally(() => {
        service.flush().catch(() => undefined);
      });
  };

  return (port: Runtime.Port): void => {
    if (port.name !== TRANSLATE_PORT && port.name !== TRANSLATE_MANY_PORT) return;
    const sender = port.sender;
    // Same audience as the `api` message: the extension's pages and content scripts.
    const kind = classifySender(sender, self);
    if (kind === undefined || !sender) {
      port.disconnect();
      return;
    }
    if (port.name === TRANSLATE_MANY_PORT) {
      many(port, (request, signal, post, foreground) => run(request, kind, sender, signal, post, foreground), kind === 'content' ? sender.tab?.id : undefined);
      return;
    }
    const controller = new AbortController();
    let open = true;
    const post = (message: TranslatePortMessage) => {
      if (open) port.postMessage(message);
    };
    port.onDisconnect.addListener(() => {
      open = false;
      controller.abort(new DOMException('the caller closed the translate port', 'AbortError'));
    });

    let started = false;
    const onMessage = (message: unknown) => {
      // One Translate per port: a second request would mix two streams.
      if (started) return;
      started = true;
      port.onMessage.removeListener(onMessage);
      if (!isRequest(message)) {
        post({ type: 'error', error: { status: 400, message: 'translate: expected {params: object}' } });
        return;
      }
      run(message, kind, sender, controller.signal, post);
    };
    port.onMessage.addListener(onMessage);
  };
}

/** One call of a `translate:many` port: what aborts it, and (a background call's) what hurries it. */
interface ManyCall {
  ac: AbortController;
  hurry?: () => void;
}

/**
 * `translate:many`: calls by id on one port; a cancel or the port's closing aborts them, and so
 * does a Stop for the tab of the content script that opened it (`stopPageCalls`; nothing posted,
 * and what it sends until its frames were told is dropped). A hurry moves a background call's
 * provider requests still waiting among the foreground ones (`TranslateManyRequest`).
 */
function many(
  port: Runtime.Port,
  run: (request: TranslatePortRequest, signal: AbortSignal, post: (m: TranslatePortMessage) => void, foreground?: Promise<void>) => void,
  tabId?: number,
): void {
  const calls = new Map<number, ManyCall>();
  let open = true;
  const abortAll = (why: string) => {
    for (const c of calls.values()) c.ac.abort(new DOMException(why, 'AbortError'));
    calls.clear();
  };
  const stop = () => abortAll('the tab stopped translating');
  if (tabId !== undefined) {
    const stops = tabCalls.get(tabId) ?? new Set();
    tabCalls.set(tabId, stops.add(stop));
  }
  port.onDisconnect.addListener(() => {
    open = false;
    abortAll('the caller closed the translate port');
    if (tabId === undefined) return;
    const stops = tabCalls.get(tabId);
    stops?.delete(stop);
    if (stops?.size === 0) tabCalls.delete(tabId);
  });
  port.onMessage.addListener((message: unknown) => {
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return;
    if ((message as { cancel?: unknown }).cancel === true) {
      calls.get(id)?.ac.abort(new DOMException('the caller stopped this call', 'AbortError'));
      calls.delete(id);
      return;
    }
    if ((message as { hurry?: unknown }).hurry === true) {
      calls.get(id)?.hurry?.();
      return;
    }
    const post = (m: TranslatePortMessage) => {
      if (!open || !calls.has(id)) return;
      if (m.type !== 'result') calls.delete(id);
      const out: TranslateManyMessage = { ...m, id };
      port.postMessage(out);
    };
    // A repeated id would mix two streams: refused, the running call goes on.
    if (calls.has(id)) return;
    // Sent before its frame heard of the tab's Stop: the frame settles it (`stopPageCalls`).
    if (tabId !== undefined && stopping.has(tabId)) return;
    const call: ManyCall = { ac: new AbortController() };
    calls.set(id, call);
    if (!isRequest(message)) {
      post({ type: 'error', error: { status: 400, message: 'translate: expected {id: number, params: object}' } });
      return;
    }
    const foreground = message.background === true ? new Promise<void>((resolve) => (call.hurry = resolve)) : undefined;
    run(message, call.ac.signal, post, foreground);
  });
}
