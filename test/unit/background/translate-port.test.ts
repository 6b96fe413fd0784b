import { describe, expect, it } from 'vitest';
import { createConnectListener, stopPageCalls } from '../../../src/background/translate-port';
import type { CallOptions } from '../../../src/core/service-types';
import type { ApiReply, LooseParams, Params } from '../../../src/core/types';
import { CONTENT_SENDER, fakePort, OTHER_EXTENSION, PAGE_SENDER, SELF } from './fakes';

/** A Translate that reports two routes, then waits to be released (or aborted). */
function slowService() {
  const calls: { params: Params | LooseParams; options: CallOptions }[] = [];
  let release: (reply: ApiReply) => void = () => undefined;
  return {
    calls,
    release: (reply: ApiReply) => release(reply),
    async call(_fn: string, params: Params | LooseParams, options: CallOptions = {}) {
      calls.push({ params, options });
      options.onResult?.({ rid: 'a.ts', text: ['uno'], length: 3 }, { cached: true });
      options.onResult?.({ rid: 'b.ts', err: '503 provider unreachable', length: 0 });
      return new Promise<ApiReply>((resolve) => (release = resolve));
    },
    async flush() {},
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('translate port', () => {
  it('posts each result as it settles, then done', async () => {
    const service = slowService();
    const end = fakePort('translate', PAGE_SENDER);
    createConnectListener({ service, self: SELF })(end.port);
    end.send({ params: { src: 'en', trg: 'es', dat: ['one'], min: 2, max: 2 } });
    await tick();
    expect(end.posted).toEqual([
      { type: 'result', item: { rid: 'a.ts', text: ['uno'], length: 3 }, cached: true },
      { type: 'result', item: { rid: 'b.ts', err: '503 provider unreachable', length: 0 } },
    ]);
    expect(service.calls[0]?.options).toMatchObject({ trusted: true, origin: SELF.origin });
    service.release({ status: 200, body: { dat: [] } });
    await tick();
    expect(end.posted.at(-1)).toEqual({ type: 'done', reply: { status: 200, body: { dat: [] } } });
  });

  it('aborts the call when the caller disconnects, and posts nothing after', async () => {
    const service = slowService();
    const end = fakePort('translate', CONTENT_SENDER);
    createConnectListener({ service, self: SELF })(end.port);
    end.send({ params: { src: 'en', trg: 'es', dat: ['one'] } });
    await tick();
    const signal = service.calls[0]?.options.signal;
    expect(signal?.aborted).toBe(false);
    end.close();
    expect(signal?.aborted).toBe(true);
    service.release({ status: 200, body: { dat: [] } });
    await tick();
    expect(end.posted).toHaveLength(2);
  });

  it('disconnects strangers without calling the service, and ignores other port names', async () => {
    const service = slowService();
    const listener = createConnectListener({ service, self: SELF });
    const stranger = fakePort('translate', OTHER_EXTENSION);
    listener(stranger.port);
    expect(stranger.isDisconnected()).toBe(true);
    const other = fakePort('something-else', PAGE_SENDER);
    listener(other.port);
    expect(other.isDisconnected()).toBe(false);
    other.send({ params: {} });
    await tick();
    expect(service.calls).toEqual([]);
  });

  it('answers a malformed request with an error and runs one Translate per port', async () => {
    const service = slowService();
    const listener = createConnectListener({ service, self: SELF });
    const bad = fakePort('translate', PAGE_SENDER);
    listener(bad.port);
    bad.send({ nope: true });
    expect(bad.posted).toEqual([{ type: 'error', error: { status: 400, message: expect.any(String) } }]);
    const twice = fakePort('translate', PAGE_SENDER);
    listener(twice.port);
    twice.send({ params: {} });
    twice.send({ params: {} });
    await tick();
    expect(service.calls).toHaveLength(1);
  });

  it('translate:many: calls by id on one port, each background or not (a hurry brings one forward), a cancel or the closing aborts them', async () => {
    const service = slowService();
    const end = fakePort('translate:many', CONTENT_SENDER);
    createConnectListener({ service, self: SELF })(end.port);
    end.send({ id: 1, params: { src: 'en', trg: 'es', dat: ['one'] } });
    end.send({ id: 2, params: { src: 'en', trg: 'es', dat: ['two'] }, background: true });
    end.send({ id: 2, params: { src: 'en', trg: 'es', dat: ['again'] } });
    end.send({ id: 'x', params: {} });
    await tick();
    // The repeated id and the one that is not a number are refused; each call's results carry its id.
    expect(service.calls.map((c) => (c.params as { dat: string[] }).dat)).toEqual([['one'], ['two']]);
    // A page's call for content far from the viewport says so: it waits behind other callers'.
    expect(service.calls.map((c) => c.options.background)).toEqual([false, true]);
    expect(end.posted).toEqual([
      { id: 1, type: 'result', item: { rid: 'a.ts', text: ['uno'], length: 3 }, cached: true },
      { id: 1, type: 'result', item: { rid: 'b.ts', err: '503 provider unreachable', length: 0 } },
      { id: 2, type: 'result', item: { rid: 'a.ts', text: ['uno'], length: 3 }, cached: true },
      { id: 2, type: 'result', item: { rid: 'b.ts', err: '503 provider unreachable', length: 0 } },
    ]);
    // A hurry for the background call: its provider requests may now go with the foreground work.
    let hurried = false;
    void service.calls[1]?.options.foreground?.then(() => (hurried = true));
    expect(service.calls[0]?.options.foreground).toBeUndefined();
    end.send({ id: 2, hurry: true });
    end.send({ id: 9, hurry: true });
    await tick();
    expect(hurried).toBe(true);
    end.send({ id: 1, cancel: true });
    expect(service.calls.map((c) => c.options.signal?.aborted)).toEqual([true, false]);
    end.send({ id: 3, nope: true });
    expect(end.posted.at(-1)).toEqual({ id: 3, type: 'error', error: { status: 400, message: expect.any(String) } });
    end.close();
    expect(service.calls[1]?.options.signal?.aborted).toBe(true);
  });

  it("a Stop for a tab ends its frames' page calls in the worker at once, and drops those sent until the frames were told, posting nothing; other tabs' and the extension's go on", async () => {
    // Each call fails once its signal is aborted, as the service's do.
    const slow = slowService();
    const service = {
      ...slow,
      call: (fn: string, params: Params | LooseParams, options: CallOptions = {}) =>
        new Promise<ApiReply>((resolve, reject) => {
          options.signal?.addEventListener('abort', () => reject(options.signal!.reason));
          slow.call(fn, params, options).then(resolve);
        }),
    };
    const listen = createConnectListener({ service, self: SELF });
    const top = fakePort('translate:many', CONTENT_SENDER);
    const frame = fakePort('translate:many', { ...CONTENT_SENDER, frameId: 3 });
    const other = fakePort('translate:many', { ...CONTENT_SENDER, tab: { id: 8 } as typeof CONTENT_SENDER.tab });
    const popup = fakePort('translate:many', PAGE_SENDER);
    for (const [i, end] of [top, frame, other, popup].entries()) {
      listen(end.port);
      end.send({ id: 1, params: { src: 'en', trg: 'es', dat: [`call ${i}`] } });
    }
    await tick();
    const posted = [top, frame, other, popup].map((end) => end.posted.length);
    const release = stopPageCalls(7);
    expect(slow.calls.map((c) => c.options.signal?.aborted)).toEqual([true, true, false, false]);
    // A call the frame sent before it heard of the Stop: dropped, as the frame settles it.
    frame.send({ id: 5, params: { src: 'en', trg: 'es', dat: ['sent meanwhile'] } });
    await tick();
    expect(slow.calls).toHaveLength(4);
    release();
    // Nothing posted for the stopped calls (their frames settle them); the others still answer.
    expect([top, frame].map((end) => end.posted.length)).toEqual(posted.slice(0, 2));
    slow.release({ status: 200, body: { dat: [] } });
    await tick();
    expect(popup.posted.at(-1)).toMatchObject({ id: 1, type: 'done' });
    // Once every frame was told, a call the frame sends (a resume) runs.
    frame.send({ id: 2, params: { src: 'en', trg: 'es', dat: ['later'] } });
    await tick();
    expect(slow.calls.at(-1)?.options.signal?.aborted).toBe(false);
    for (const end of [top, frame, other, popup]) end.close();
    stopPageCalls(7)();
  });

  it('translate:many answers only the extension and its content scripts', () => {
    const stranger = fakePort('translate:many', OTHER_EXTENSION);
    createConnectListener({ service: slowService(), self: SELF })(stranger.port);
    expect(stranger.isDisconnected()).toBe(true);
  });
});
