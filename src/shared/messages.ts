/**
 * The one protocol map between extension contexts and the background (docs/messages.md).
 * Each message name maps to its request and response; the wire forms below are derived from it.
 */
import type { Settings } from '../core/settings/types';
import type { ApiReply, LooseParams, TrdObj, TrObj } from '../core/types';

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

export const MESSAGE_TYPES: readonly MessageType[] = ['api', 'settings:get', 'settings:set'];

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
}

/** The worker posts one `result` per route (tr_obj) or chunk (trd_obj) as it settles, then `done`. */
export type TranslatePortMessage =
  | { type: 'result'; item: TrObj | TrdObj }
  | { type: 'done'; reply: ApiReply }
  | { type: 'error'; error: WireError };
