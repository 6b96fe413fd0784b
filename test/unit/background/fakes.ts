/** Small hand-written fakes of the browser.* pieces the background uses. */
import type { Events, Runtime, Storage, Tabs } from 'webextension-polyfill';
import type { Self } from '../../../src/background/senders';

export const SELF: Self = {
  id: 'ext-id',
  origin: 'chrome-extension://ext-id',
  optionsPath: '/src/ui/options/index.html',
};

export const OPTIONS_SENDER: Runtime.MessageSender = {
  id: SELF.id,
  url: `${SELF.origin}${SELF.optionsPath}`,
  tab: { id: 3 } as Tabs.Tab,
};
export const PAGE_SENDER: Runtime.MessageSender = { id: SELF.id, url: `${SELF.origin}/src/ui/popup/index.html` };
export const CONTENT_SENDER = {
  id: SELF.id,
  url: 'http://127.0.0.1:8000/page.html',
  origin: 'http://127.0.0.1:8000',
  tab: { id: 7 } as Tabs.Tab,
} as Runtime.MessageSender;
export const OTHER_EXTENSION: Runtime.MessageSender = { id: 'other-id', url: 'chrome-extension://other-id/page.html' };

export interface FakeEvent<T extends (...args: never[]) => unknown> extends Events.Event<T> {
  emit(...args: Parameters<T>): void;
  readonly listeners: Set<T>;
}

export function fakeEvent<T extends (...args: never[]) => unknown>(): FakeEvent<T> {
  const listeners = new Set<T>();
  return {
    listeners,
    addListener: (l: T) => void listeners.add(l),
    removeListener: (l: T) => void listeners.delete(l),
    hasListener: (l: T) => listeners.has(l),
    emit: (...args: Parameters<T>) => {
      for (const l of [...listeners]) l(...args);
    },
  };
}

type OnChanged = Storage.Static['onChanged'] extends Events.Event<infer T> ? T : never;

/** storage.local with onChanged, as the browser fires it after a set. */
export function fakeStorage(initial: Record<string, unknown> = {}) {
  const data = new Map<string, unknown>(Object.entries(initial));
  const onChanged = fakeEvent<OnChanged>();
  let reads = 0;
  const area = {
    async get(keys?: null | string | string[] | Record<string, unknown>) {
      reads += 1;
      const names = typeof keys === 'string' ? [keys] : Array.isArray(keys) ? keys : [...data.keys()];
      return Object.fromEntries(names.filter((k) => data.has(k)).map((k) => [k, structuredClone(data.get(k))]));
    },
    async set(items: Record<string, unknown>) {
      const changes: Record<string, Storage.StorageChange> = {};
      for (const [k, v] of Object.entries(items)) {
        changes[k] = { oldValue: data.get(k), newValue: v };
        data.set(k, structuredClone(v));
      }
      onChanged.emit(changes, 'local');
    },
  };
  return { area, onChanged, data, reads: () => reads };
}

/** A runtime.Port pair end as the worker sees it. */
export function fakePort(name: string, sender: Runtime.MessageSender | undefined) {
  const onMessage = fakeEvent<(message: unknown, port: Runtime.Port) => void>();
  const onDisconnect = fakeEvent<(port: Runtime.Port) => void>();
  const posted: unknown[] = [];
  let disconnected = false;
  const port: Runtime.Port = {
    name,
    ...(sender ? { sender } : {}),
    onMessage,
    onDisconnect,
    postMessage: (m: unknown) => {
      if (disconnected) throw new Error('posted on a disconnected port');
      posted.push(structuredClone(m));
    },
    disconnect: () => {
      disconnected = true;
    },
  };
  return {
    port,
    posted,
    isDisconnected: () => disconnected,
    /** The other side sends. */
    send: (m: unknown) => onMessage.emit(m, port),
    /** The other side goes away. */
    close: () => {
      disconnected = true;
      onDisconnect.emit(port);
    },
  };
}
