import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/core/errors';
import { coalesce } from '../../../src/core/scheduler/coalesce';
import { never, opts, pair, rate, scripted, sleep } from './scripted';

describe('coalescing', () => {
  it('packs concurrent calls into requests within the limits and gives each caller its own pieces in order', async () => {
    const s = scripted({ limits: { chars: 10, segments: 3 } });
    const p = coalesce(s.provider, rate());
    const calls = [['aaaa', 'bb'], ['cccc'], ['d', 'eeeeeeee', 'f'], ['gg']];
    const out = await Promise.all(calls.map((c) => p.translateBatch(c, pair, opts, never())));
    expect(out).toEqual(calls.map((c) => c.map((x) => x.toUpperCase())));
    for (const r of s.requests) {
      expect(r.segments.length).toBeLessThanOrEqual(3);
      expect(r.segments.join('').length).toBeLessThanOrEqual(10);
    }
    // Strict order, greedy: [aaaa bb cccc]=10 chars, [d]+eeeeeeee would be 9 -> [d eeeeeeee f]=10, [gg].
    expect(s.requests.map((r) => r.segments)).toEqual([['aaaa', 'bb', 'cccc'], ['d', 'eeeeeeee', 'f'], ['gg']]);
  });

  it('sends identical texts in flight once, to every caller that asked', async () => {
    const s = scripted({ latencyMs: 20 });
    const p = coalesce(s.provider, rate());
    const a = p.translateBatch(['same', 'x', 'same'], pair, opts, never());
    await sleep(5); // the first request is in flight
    const b = p.translateBatch(['same'], pair, opts, never());
    expect(await a).toEqual(['SAME', 'X', 'SAME']);
    expect(await b).toEqual(['SAME']);
    expect(s.requests.flatMap((r) => r.segments)).toEqual(['same', 'x']);
  });

  it('keeps pairs, domains and formats apart', async () => {
    const s = scripted({});
    const p = coalesce(s.provider, rate());
    await Promise.all([
      p.translateBatch(['a'], pair, opts, never()),
      p.translateBatch(['a'], { src: 'en', trg: 'fr' }, opts, never()),
      p.translateBatch(['a'], pair, { ...opts, format: 'html' }, never()),
      p.translateBatch(['a'], pair, { ...opts, domain: 'law' }, never()),
    ]);
    expect(s.requests).toHaveLength(4);
  });

  it('sends a call to an idle provider at once, and gathers a burst while a request is in flight', async () => {
    const s = scripted({ latencyMs: 30 });
    const p = coalesce(s.provider, rate({ windowMs: 40 }));
    const t0 = performance.now();
    await p.translateBatch(['alone'], pair, opts, never());
    expect(performance.now() - t0).toBeLessThan(45);
    // Calls in separate ticks, a few ms apart: the first goes at once, the rest share one request.
    const burst: Promise<string[]>[] = [];
    for (const t of ['b1', 'b2', 'b3', 'b4']) {
      burst.push(p.translateBatch([t], pair, opts, never()));
      await sleep(2);
    }
    await Promise.all(burst);
    expect(s.requests.slice(1).map((r) => r.segments)).toEqual([['b1'], ['b2', 'b3', 'b4']]);
  });

  it('one refused text fails alone: the other callers of its request are answered', async () => {
    const s = scripted({ answer: (seg) => (seg.includes('bad') ? new ProviderError(400, 'refused') : seg.map((x) => x.toUpperCase())) });
    const p = coalesce(s.provider, rate());
    const [ok, bad, ok2] = await Promise.allSettled([
      p.translateBatch(['one'], pair, opts, never()),
      p.translateBatch(['bad', 'two'], pair, opts, never()),
      p.translateBatch(['three'], pair, opts, never()),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: ['ONE'] });
    expect(ok2).toEqual({ status: 'fulfilled', value: ['THREE'] });
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 400 } });
    // The engine then retries the failed call text by text: answered without a request.
    const before = s.requests.length;
    expect(await p.translateBatch(['two'], pair, opts, never())).toEqual(['TWO']);
    await expect(p.translateBatch(['bad'], pair, opts, never())).rejects.toMatchObject({ code: 400 });
    expect(s.requests.length).toBe(before);
  });

  it('serves background texts after every other caller\'s, in any group, and moves one up when a caller waits for it in the foreground', async () => {
    const s = scripted({ latencyMs: 20, limits: { chars: 100, segments: 1 } });
    const p = coalesce(s.provider, rate({ concurrency: 1 }));
    const bg = { ...opts, background: true };
    // The provider busy with a first request, then a page's far calls queue, then a reader's.
    const first = p.translateBatch(['busy'], pair, opts, never());
    await sleep(2);
    const far = [p.translateBatch(['far one'], pair, bg, never()), p.translateBatch(['far two'], pair, bg, never()), p.translateBatch(['shared'], pair, bg, never())];
    await sleep(2);
    const near = p.translateBatch(['near'], pair, opts, never());
    const other = p.translateBatch(['a selection'], pair, { ...opts, format: 'html' }, never());
    const joined = p.translateBatch(['shared'], pair, opts, never());
    expect(await Promise.all([first, near, other, joined, ...far])).toEqual([['BUSY'], ['NEAR'], ['A SELECTION'], ['SHARED'], ['FAR ONE'], ['FAR TWO'], ['SHARED']]);
    expect(s.requests.map((r) => r.segments[0])).toEqual(['busy', 'near', 'shared', 'a selection', 'far one', 'far two']);
  });

  it('serves a background call among the foreground ones, by age, once its caller says it waits for it (a page call the reader jumped to)', async () => {
    const s = scripted({ latencyMs: 20, limits: { chars: 100, segments: 1 } });
    const p = coalesce(s.provider, rate({ concurrency: 1 }));
    const bg = { ...opts, background: true };
    let hurry = () => {};
    const foreground = new Promise<void>((r) => (hurry = r));
    // The provider busy; a page's far calls queue (the second one's caller may hurry it), then the
    // calls for the screen the reader jumps to.
    const first = p.translateBatch(['busy'], pair, opts, never());
    await sleep(2);
    const far = [p.translateBatch(['far one'], pair, bg, never()), p.translateBatch(['far two', 'far three'], pair, { ...bg, foreground }, never())];
    await sleep(2);
    const near = [p.translateBatch(['near one'], pair, opts, never()), p.translateBatch(['near two'], pair, opts, never())];
    hurry();
    await Promise.all([first, ...near, ...far]);
    // Sent before the screen's calls, it goes before them; the call nobody hurried stays last.
    expect(s.requests.map((r) => r.segments[0])).toEqual(['busy', 'far two', 'far three', 'near one', 'near two', 'far one']);
  });

  it('serves a background text that has waited a second among the others, by age: nothing starves', async () => {
    const s = scripted({ latencyMs: 300, limits: { chars: 100, segments: 1 } });
    const p = coalesce(s.provider, rate({ concurrency: 1 }));
    const all = [p.translateBatch(['busy'], pair, opts, never())];
    await sleep(5);
    all.push(p.translateBatch(['old'], pair, { ...opts, background: true }, never()));
    await sleep(5);
    for (const t of ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']) all.push(p.translateBatch([t], pair, opts, never()));
    await Promise.all(all);
    // One request every 300 ms: at 900 ms the old text had waited less than a second, at 1200 more.
    expect(s.requests.map((r) => r.segments[0])).toEqual(['busy', 'f1', 'f2', 'f3', 'old', 'f4', 'f5', 'f6']);
  }, 10_000);

  it('cancels a request nobody waits for, and keeps those still wanted', async () => {
    const s = scripted({ latencyMs: 50 });
    const p = coalesce(s.provider, rate());
    const ac = new AbortController();
    const gone = p.translateBatch(['mine'], pair, opts, ac.signal);
    const kept = p.translateBatch(['shared'], pair, opts, never());
    await sleep(5);
    ac.abort();
    await expect(gone).rejects.toMatchObject({ code: 408 });
    expect(await kept).toEqual(['SHARED']); // its request carried 'mine' too and went on
    const lone = new AbortController();
    const alone = p.translateBatch(['alone'], pair, opts, lone.signal);
    await sleep(5);
    lone.abort();
    await expect(alone).rejects.toMatchObject({ code: 408 });
    await sleep(5);
    expect(s.requests.at(-1)).toMatchObject({ segments: ['alone'], aborted: true });
  });

  it('retries a request that never answers, after an adaptive or configured timeout', async () => {
    const s = scripted({ answer: (seg, n) => (n === 0 ? 'hang' : seg) });
    const p = coalesce(s.provider, rate({ timeoutMs: 50 }));
    expect(await p.translateBatch(['x'], pair, opts, never())).toEqual(['x']);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[0]!.aborted).toBe(true);
  });

  it('treats a wrong number of segments as 502: retried, then text by text, then failed', async () => {
    const one = scripted({ answer: (seg) => (seg.length === 1 ? seg : ['merged']) });
    const p = coalesce(one.provider, rate());
    expect(await p.translateBatch(['a', 'b'], pair, opts, never())).toEqual(['a', 'b']);
    expect(one.requests.map((r) => r.segments.length)).toEqual([2, 2, 2, 1, 1]);
    const none = scripted({ answer: () => [] });
    const q = coalesce(none.provider, rate());
    await expect(q.translateBatch(['a'], pair, opts, never())).rejects.toMatchObject({ code: 502 });
  });
});
