import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { createConnectListener } from '../../../src/background/translate-port';
import type { CallOptions } from '../../../src/core/service-types';
import type { LooseParams, Params } from '../../../src/core/types';
import { callApi, send, translateChannel, translateStream } from '../../../src/shared/api';
import { PortClosedError, RemoteError } from '../../../src/shared/messages';
import { fakeEvent, PAGE_SENDER, SELF } from './fakes';

function runtimeAnswering(reply: unknown) {
  const sent: unknown[] = [];
  return {
    sent,
    runtime: {
      sendMessage: async (message: unknown) => {
        sent.push(message);
        return reply;
      },
      connect: () => {
        throw new Error('not used');
      },
    },
  };
}

/**
 * A runtime whose connect() is wired to the real worker-side port listener, through two linked
 * fake port ends, so the client and the worker code talk as in the browser.
 */
function linkedRuntime(call: (params: Params | LooseParams, options: CallOptions) => Promise<{ status: number; body: unknown }>) {
  const service = { call: (_fn: string, p: Params | LooseParams, o: CallOptions = {}) => call(p, o), flush: async () => {} };
  const listener = createConnectListener({ service, self: SELF });
  const connect = ({ name }: { name?: string } = {}) => {
    type End = Runtime.Port & { peer?: End; closed: boolean };
    const makeEnd = (sender?: Runtime.MessageSender): End => {
      const onMessage = fakeEvent<(m: unknown, p: Runtime.Port) => void>();
      const onDisconnect = fakeEvent<(p: Runtime.Port) => void>();
      const end: End = {
        name: name ?? '',
        closed: false,
        ...(sender ? { sender } : {}),
        onMessage,
        onDisconnect,
        postMessage: (m: unknown) => {
          const peer = end.peer!;
          queueMicrotask(() => !peer.closed && onMessageOf(peer).emit(structuredClone(m), peer));
        },
        disconnect: () => {
          if (end.closed) return;
          end.closed = true;
          const peer = end.peer!;
          peer.closed = true;
          queueMicrotask(() => onDisconnectOf(peer).emit(peer));
        },
      };
      return end;
    };
    const onMessageOf = (p: Runtime.Port) => p.onMessage as ReturnType<typeof fakeEvent<(m: unknown, p: Runtime.Port) => void>>;
    const onDisconnectOf = (p: Runtime.Port) => p.onDisconnect as ReturnType<typeof fakeEvent<(p: Runtime.Port) => void>>;
    const client = makeEnd();
    const worker = makeEnd(PAGE_SENDER);
    client.peer = worker;
    worker.peer = client;
    listener(worker);
    return client;
  };
  return { sendMessage: async () => undefined, connect } as unknown as Pick<Runtime.Static, 'sendMessage' | 'connect'>;
}

describe('send / callApi', () => {
  it('sends {type, data} and resolves with the data of the reply', async () => {
    const { sent, runtime } = runtimeAnswering({ data: { status: 200, body: { 'apertium.ts': 'Apertium' } } });
    expect(await callApi('GetProviders', {}, runtime)).toEqual({ status: 200, body: { 'apertium.ts': 'Apertium' } });
    expect(sent).toEqual([{ type: 'api', data: { fn: 'GetProviders', params: {} } }]);
  });

  it('rethrows {error} as a RemoteError with its status', async () => {
    const { runtime } = runtimeAnswering({ error: { status: 403, message: 'settings:set is not allowed from this page' } });
    const error = await send('settings:set', { settings: {} }, runtime).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ status: 403, message: 'settings:set is not allowed from this page' });
  });

  it('treats no reply at all as 503', async () => {
    const { runtime } = runtimeAnswering(undefined);
    await expect(send('settings:get', {}, runtime)).rejects.toMatchObject({ status: 503 });
  });
});

describe('translateStream', () => {
  it('delivers every item, then resolves with the reply', async () => {
    const runtime = linkedRuntime(async (_p, o) => {
      o.onResult?.({ rid: 'a.ts', text: ['uno'], length: 3 });
      o.onResult?.({ rid: 'b.ts', text: ['one'], length: 3 });
      return { status: 200, body: { dat: ['both'] } };
    });
    const items: unknown[] = [];
    const reply = await translateStream({ src: 'en', trg: 'es', dat: ['one'] }, (i) => items.push(i), {}, runtime);
    expect(items).toEqual([
      { rid: 'a.ts', text: ['uno'], length: 3 },
      { rid: 'b.ts', text: ['one'], length: 3 },
    ]);
    expect(reply).toEqual({ status: 200, body: { dat: ['both'] } });
  });

  it('aborting the signal rejects and aborts the call in the worker', async () => {
    let workerSignal: AbortSignal | undefined;
    const runtime = linkedRuntime((_p, o) => {
      workerSignal = o.signal;
      return new Promise(() => undefined);
    });
    const controller = new AbortController();
    const pending = translateStream({ dat: ['x'] }, () => undefined, { signal: controller.signal }, runtime);
    await new Promise((r) => setTimeout(r, 0));
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
    await new Promise((r) => setTimeout(r, 0));
    expect(workerSignal?.aborted).toBe(true);
  });
});

describe('send when nobody answers', () => {
  it('turns a rejected sendMessage (Chromium: port closed) into RemoteError 503', async () => {
    const runtime = {
      sendMessage: () => Promise.reject(new Error('The message port closed before a response was received.')),
      connect: () => {
        throw new Error('not used');
      },
    };
    const error = await send('settings:get', {}, runtime).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ status: 503, message: expect.stringContaining('port closed') });
  });
});

describe('translateChannel (many calls on one port)', () => {
  /** linkedRuntime, counting the ports opened. */
  function counted(call: Parameters<typeof linkedRuntime>[0]) {
    const inner = linkedRuntime(call);
    let ports = 0;
    const runtime = {
      ...inner,
      connect: (info?: { name?: string }) => {
        ports++;
        return inner.connect(info);
      },
    } as typeof inner;
    return { runtime, ports: () => ports };
  }

  it('runs overlapping calls on one port, each with its own items and reply', async () => {
    const { runtime, ports } = counted(async (p, o) => {
      const dat = (p as { dat: string[] }).dat;
      o.onResult?.({ rid: 'a.ts', text: dat.map((d) => d.toUpperCase()), length: 3 });
      await new Promise((r) => setTimeout(r, dat[0] === 'slow' ? 5 : 0));
      return { status: 200, body: { dat } };
    });
    const translate = translateChannel(runtime);
    const items: Record<string, unknown[]> = { slow: [], fast: [] };
    const replies = await Promise.all(
      ['slow', 'fast'].map((w) => translate({ src: 'en', trg: 'es', dat: [w] }, (i) => items[w]!.push(i))),
    );
    expect(replies).toEqual([
      { status: 200, body: { dat: ['slow'] } },
      { status: 200, body: { dat: ['fast'] } },
    ]);
    expect(items).toEqual({ slow: [{ rid: 'a.ts', text: ['SLOW'], length: 3 }], fast: [{ rid: 'a.ts', text: ['FAST'], length: 3 }] });
    // A third call while the port is still open uses it too.
    await translate({ dat: ['again'] }, () => undefined);
    expect(ports()).toBe(1);
  });

  it('aborting one call stops it in the worker and leaves the others running', async () => {
    const signals: AbortSignal[] = [];
    let release: () => void = () => undefined;
    const { runtime } = counted((_p, o) => {
      signals.push(o.signal!);
      return new Promise((resolve) => (release = () => resolve({ status: 200, body: { dat: ['ok'] } })));
    });
    const translate = translateChannel(runtime);
    const controller = new AbortController();
    const stopped = translate({ dat: ['a'] }, () => undefined, { signal: controller.signal });
    const kept = translate({ dat: ['b'] }, () => undefined);
    await new Promise((r) => setTimeout(r, 0));
    controller.abort(new Error('user left'));
    await expect(stopped).rejects.toThrow('user left');
    await new Promise((r) => setTimeout(r, 0));
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    release();
    await expect(kept).resolves.toEqual({ status: 200, body: { dat: ['ok'] } });
  });

  it("says in the worker when a background call is now waited for in the foreground (what the page's reader jumped to)", async () => {
    const hurried: string[] = [];
    let release: () => void = () => undefined;
    const done = new Promise<void>((r) => (release = r));
    const { runtime } = counted(async (p, o) => {
      const word = (p as { dat: string[] }).dat[0]!;
      void o.foreground?.then(() => hurried.push(word));
      await done;
      return { status: 200, body: { dat: [word] } };
    });
    const translate = translateChannel(runtime);
    let hurry: () => void = () => undefined;
    const foreground = new Promise<void>((r) => (hurry = r));
    const calls = [
      translate({ dat: ['far'] }, () => undefined, { background: true, foreground }),
      // A foreground call has nothing to hurry: the worker is told nothing of it.
      translate({ dat: ['near'] }, () => undefined, { foreground }),
      translate({ dat: ['left far'] }, () => undefined, { background: true }),
    ];
    await new Promise((r) => setTimeout(r, 0));
    expect(hurried).toEqual([]);
    hurry();
    await new Promise((r) => setTimeout(r, 0));
    expect(hurried).toEqual(['far']);
    release();
    expect(await Promise.all(calls)).toEqual(['far', 'near', 'left far'].map((w) => ({ status: 200, body: { dat: [w] } })));
  });

  it('a page back from the back/forward cache: the calls its closed port carried fail as lost, and the next call opens a new port', async () => {
    // Chromium closes the port as the page goes into the cache and tells the frozen page nothing:
    // here, a worker that never answers, and the page's `pageshow` (persisted) on its way back.
    const page = new EventTarget();
    const saved = { add: globalThis.addEventListener, remove: globalThis.removeEventListener };
    Object.assign(globalThis, { addEventListener: page.addEventListener.bind(page), removeEventListener: page.removeEventListener.bind(page) });
    try {
      let answer = false;
      const { runtime, ports } = counted(() => (answer ? Promise.resolve({ status: 200, body: { dat: ['x'] } }) : new Promise(() => undefined)));
      const translate = translateChannel(runtime);
      const many = translate({ dat: ['one'] }, () => undefined);
      const single = translateStream({ dat: ['alone'] }, () => undefined, {}, runtime);
      const shown = (persisted: boolean) => page.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
      // A page shown afresh (its first load) loses nothing.
      shown(false);
      await new Promise((r) => setTimeout(r, 0));
      shown(true);
      await expect(many).rejects.toBeInstanceOf(PortClosedError);
      await expect(single).rejects.toBeInstanceOf(PortClosedError);
      answer = true;
      await expect(translate({ dat: ['two'] }, () => undefined)).resolves.toEqual({ status: 200, body: { dat: ['x'] } });
      expect(ports()).toBe(3);
    } finally {
      Object.assign(globalThis, { addEventListener: saved.add, removeEventListener: saved.remove });
    }
  });

  it('closes the port once idle, and a later call opens a new one', async () => {
    const { runtime, ports } = counted(async () => ({ status: 200, body: { dat: ['x'] } }));
    const translate = translateChannel(runtime, 1);
    await translate({ dat: ['one'] }, () => undefined);
    await new Promise((r) => setTimeout(r, 10));
    await translate({ dat: ['two'] }, () => undefined);
    expect(ports()).toBe(2);
  });
});

