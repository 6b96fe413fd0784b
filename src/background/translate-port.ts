/**
 * Streaming Translate over a Port named `translate`: each route's tr_obj (or chunk's trd_obj) is
 * posted as it settles, then the whole reply. Closing the port aborts the provider requests.
 */
import type { Runtime } from 'webextension-polyfill';
import type { TranslationService } from '../core/service-types';
import {
  TRANSLATE_PORT,
  toWireError,
  type TranslatePortMessage,
  type TranslatePortRequest,
} from '../shared/messages';
import type { ContentPolicy } from './content-calls';
import { classifySender, senderOrigin, type Self } from './senders';

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

/** The runtime.onConnect listener. Ports of other names are left to their own listeners. */
export function createConnectListener({ service, self, contentPolicy }: PortDeps) {
  return (port: Runtime.Port): void => {
    if (port.name !== TRANSLATE_PORT) return;
    const sender = port.sender;
    // Same audience as the `api` message: the extension's pages and content scripts.
    const kind = classifySender(sender, self);
    if (kind === undefined || !sender) {
      port.disconnect();
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
      const policy = kind === 'content' && contentPolicy ? contentPolicy('Translate', message.params, sender) : Promise.resolve(undefined);
      policy
        .then((prepared) => {
          if (prepared?.refuse) return prepared.refuse;
          return service
            .call('Translate', prepared?.params ?? message.params, {
              trusted: true,
              origin: senderOrigin(sender),
              signal: controller.signal,
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
    port.onMessage.addListener(onMessage);
  };
}
