/**
 * The client side of the protocol for every extension context (pages, content scripts): typed
 * `send`, the four functions as `callApi`, and streaming Translate as `translateStream`.
 */
import type { Runtime } from 'webextension-polyfill';
import { ext } from './browser';
import type { ApiReply, TrdObj, TrObj } from '../core/types';
import {
  PortClosedError,
  RemoteError,
  TRANSLATE_MANY_PORT,
  TRANSLATE_PORT,
  type ApiParams,
  type MessageType,
  type RequestOf,
  type ResponseOf,
  type TranslateManyMessage,
  type TranslateManyRequest,
  type TranslatePortMessage,
  type TranslatePortRequest,
  type WireReply,
} from './messages';

type Messaging = Pick<Runtime.Static, 'sendMessage' | 'connect'>;

export async function send<K extends MessageType>(
  type: K,
  data: RequestOf<K>,
  runtime: Messaging = ext().runtime,
): Promise<ResponseOf<K>> {
  let reply: WireReply<K> | undefined;
  try {
    reply = (await runtime.sendMessage({ type, data })) as WireReply<K> | undefined;
  } catch (e) {
    // Chromium rejects when no listener answered ("message port closed", "receiving end does not exist").
    throw new RemoteError(503, `no reply from the background: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Firefox resolves with undefined instead: the background refused the message or is missing.
  if (reply === undefined || reply === null) throw new RemoteError(503, 'no reply from the background');
  if ('error' in reply) throw new RemoteError(reply.error.status, reply.error.message);
  return reply.data;
}

/** Calls one of the four functions; resolves with `{status, body}` as the HTTP form would answer. */
export function callApi(fn: string, params: ApiParams = {}, runtime: Messaging = ext().runtime): Promise<ApiReply> {
  return send('api', { fn, params }, runtime);
}

export interface StreamOptions {
  /** Aborting disconnects the port, which aborts the provider requests in the worker. */
  signal?: AbortSignal;
  /** Work nobody is looking at yet: it waits behind every other caller's (TranslatePortRequest). */
  background?: boolean;
  /**
   * Resolves if that background work is now waited for in the foreground (the reader jumped to
   * what a page's call carries): `translateChannel` says so to the worker (TranslateManyRequest).
   */
  foreground?: Promise<void>;
}

/**
 * Translate with each route's tr_obj (or each chunk's trd_obj) passed to `onItem` as it settles;
 * resolves with the final reply, the same as `callApi('Translate', params)` would give.
 */
export function translateStream(
  params: ApiParams,
  onItem: (item: TrObj | TrdObj, meta: { cached: boolean }) => void,
  options: StreamOptions = {},
  runtime: Messaging = ext().runtime,
): Promise<ApiReply> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const port = runtime.connect({ name: TRANSLATE_PORT });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      globalThis.removeEventListener?.('pageshow', onShow);
      port.disconnect();
      action();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort);
    // Back from the back/forward cache: the port was closed as the page went in (translateChannel).
    const onShow = (e: Event) => {
      if ((e as PageTransitionEvent).persisted) finish(() => reject(new PortClosedError()));
    };
    globalThis.addEventListener?.('pageshow', onShow);
    port.onMessage.addListener((message: unknown) => {
      const m = message as TranslatePortMessage;
      if (m.type === 'result') onItem(m.item, { cached: m.cached === true });
      else if (m.type === 'done') finish(() => resolve(m.reply));
      else if (m.type === 'error') finish(() => reject(new RemoteError(m.error.status, m.error.message)));
    });
    port.onDisconnect.addListener(() => {
      finish(() => reject(new PortClosedError()));
    });
    const request: TranslatePortRequest = { params, ...(options.background ? { background: true } : {}) };
    port.postMessage(request);
  });
}

/** A streaming Translate call, as translateStream has it. */
export type StreamFn = (params: ApiParams, onItem: (item: TrObj | TrdObj, meta: { cached: boolean }) => void, options?: StreamOptions) => Promise<ApiReply>;

/**
 * translateStream for a caller that makes many calls (page translation): every call on one
 * `translate:many` port, opened with the first call and closed once no call has been running for
 * `idleMs` (an open port need not keep the worker up). The same results, order and errors as
 * translateStream; aborting a call sends a cancel for it; a port the worker closes fails the calls
 * it carried (503), and the next call opens a new one.
 */
export function translateChannel(runtime: Messaging = ext().runtime, idleMs = 2000): StreamFn {
  interface Pending {
    onItem: Parameters<StreamFn>[1];
    resolve(reply: ApiReply): void;
    reject(e: unknown): void;
  }
  let port: Runtime.Port | null = null;
  let seq = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const calls = new Map<number, Pending>();
  const close = () => {
    const p = port;
    port = null;
    p?.disconnect();
  };
  const settled = (id: number) => {
    calls.delete(id);
    if (calls.size === 0) {
      clearTimeout(idle);
      idle = setTimeout(close, idleMs);
    }
  };
  /** The calls `p` carried fail as lost (`PortClosedError`), and the next call opens a new port. */
  const lose = (p: Runtime.Port) => {
    if (port === p) port = null;
    const lost = [...calls.values()];
    calls.clear();
    for (const c of lost) c.reject(new PortClosedError());
  };
  // A page restored from the back/forward cache: Chromium closed its ports as it went in, and the
  // page, frozen, was told nothing; nothing would have answered its calls.
  globalThis.addEventListener?.('pageshow', (e) => {
    const p = port;
    if (!(e as PageTransitionEvent).persisted || !p) return;
    lose(p);
    p.disconnect();
  });
  const open = (): Runtime.Port => {
    const p = runtime.connect({ name: TRANSLATE_MANY_PORT });
    p.onMessage.addListener((message: unknown) => {
      const m = message as TranslateManyMessage;
      const call = calls.get(m.id);
      if (!call) return;
      if (m.type === 'result') return call.onItem(m.item, { cached: m.cached === true });
      settled(m.id);
      if (m.type === 'done') call.resolve(m.reply);
      else if (m.type === 'error') call.reject(new RemoteError(m.error.status, m.error.message));
    });
    p.onDisconnect.addListener(() => lose(p));
    return p;
  };
  return (params, onItem, options = {}) =>
    new Promise<ApiReply>((resolve, reject) => {
      const { signal } = options;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      clearTimeout(idle);
      const p = (port ??= open());
      const id = ++seq;
      const onAbort = () => {
        if (!calls.has(id)) return;
        settled(id);
        if (port === p) p.postMessage({ id, cancel: true } satisfies TranslateManyRequest);
        reject(signal?.reason);
      };
      calls.set(id, {
        onItem,
        resolve: (reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort);
      p.postMessage({ id, params, ...(options.background ? { background: true } : {}) } satisfies TranslateManyRequest);
      if (options.background) {
        options.foreground?.then(() => {
          if (calls.has(id) && port === p) p.postMessage({ id, hurry: true } satisfies TranslateManyRequest);
        }, () => undefined);
      }
    });
}
