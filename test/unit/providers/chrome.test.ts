import { afterEach, describe, expect, it, vi } from 'vitest';
import chromeDefault, { chrome, CHROME_LANGUAGES, createChrome, type Availability, type ChromeTranslator, type TranslatorGlobal } from '../../../src/providers/chrome';
import { body, harness } from '../service/harness';
import { never, rejection, TEXT } from './harness';

const EN_DE = { src: 'en', trg: 'de' };
const domError = (name: string) => new DOMException('fake', name);

interface FakeOptions {
  availability?: Availability;
  /** 'hang': create() never settles, ignoring its signal, as Chrome does offline. */
  create?: 'ok' | 'hang' | Error;
  translate?: (text: string) => Promise<string>;
}

/** A stand-in for Chrome's `Translator` global that records what it is asked. */
function fakeTranslator(options: FakeOptions = {}) {
  const log = {
    availability: [] as unknown[],
    create: [] as { sourceLanguage: string; targetLanguage: string; signal?: AbortSignal }[],
    translate: [] as string[],
    destroyed: 0,
    open: 0,
    maxOpen: 0,
  };
  const api: TranslatorGlobal = {
    async availability(o) {
      log.availability.push(o);
      return options.availability ?? 'available';
    },
    create(o) {
      log.create.push(o);
      const mode = options.create ?? 'ok';
      if (mode === 'hang') return new Promise<ChromeTranslator>(() => undefined);
      if (mode instanceof Error) return Promise.reject(mode);
      const translator: ChromeTranslator = {
        async translate(text) {
          log.translate.push(text);
          log.maxOpen = Math.max(log.maxOpen, ++log.open);
          try {
            await new Promise((r) => setTimeout(r, 1));
            return await (options.translate?.(text) ?? text.toUpperCase());
          } finally {
            log.open--;
          }
        },
        destroy: () => void log.destroyed++,
      };
      return Promise.resolve(translator);
    },
  };
  vi.stubGlobal('Translator', api);
  return log;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('chrome.ts module', () => {
  it('describes itself as the registry expects', () => {
    expect(chromeDefault).toBe(chrome);
    expect(chrome).toMatchObject({ id: 'chrome.ts', needsKey: false, enabledByDefault: true });
    expect(chrome.defaultUrl).toBeUndefined();
    expect(chrome.needsUrl).toBeFalsy();
    expect(createChrome()).toMatchObject({ id: 'chrome.ts', html: false, limits: { chars: 5000, segments: 50 } });
  });

  it('is available only where Translator.create exists', () => {
    expect(chrome.available?.()).toBe(false);
    vi.stubGlobal('Translator', { availability: async () => 'available' });
    expect(chrome.available?.()).toBe(false);
    fakeTranslator();
    expect(chrome.available?.()).toBe(true);
  });

  it("offers Chrome's languages any to any, in canonical codes", async () => {
    const langs = (await createChrome().languages()) as { src: string[]; trg: string[] };
    expect(langs.src).toEqual(langs.trg);
    expect(langs.src).toHaveLength(39);
    expect(langs.src).toEqual(expect.arrayContaining(['en', 'de', 'he', 'no', 'zh', 'zh-Hant']));
    expect(langs.src).not.toContain('iw');
    expect(CHROME_LANGUAGES).toEqual(langs.src);
  });
});

describe('translateBatch', () => {
  it('creates one translator per pair, reuses it, and translates segment by segment', async () => {
    const log = fakeTranslator();
    const p = createChrome();
    expect(await p.translateBatch(['one', 'two', 'three'], EN_DE, TEXT, never())).toEqual(['ONE', 'TWO', 'THREE']);
    expect(await p.translateBatch(['four'], EN_DE, TEXT, never())).toEqual(['FOUR']);
    expect(log.translate).toEqual(['one', 'two', 'three', 'four']);
    expect(log.maxOpen).toBe(1);
    expect(log.create).toHaveLength(1);
    expect(log.create[0]).toMatchObject({ sourceLanguage: 'en', targetLanguage: 'de' });
    expect(log.availability).toEqual([{ sourceLanguage: 'en', targetLanguage: 'de' }]);
    await p.translateBatch(['x'], { src: 'he', trg: 'en' }, TEXT, never());
    // Chrome's list names Hebrew `iw`.
    expect(log.create[1]).toMatchObject({ sourceLanguage: 'iw', targetLanguage: 'en' });
  });

  it('two batches creating at once keep one translator and free the other', async () => {
    const log = fakeTranslator();
    const p = createChrome();
    await Promise.all([p.translateBatch(['a'], EN_DE, TEXT, never()), p.translateBatch(['b'], EN_DE, TEXT, never())]);
    await p.translateBatch(['c'], EN_DE, TEXT, never());
    expect(log.create).toHaveLength(2);
    expect(log.destroyed).toBe(1);
  });

  it("'unavailable' is 400 without creating anything", async () => {
    const log = fakeTranslator({ availability: 'unavailable' });
    const e = await rejection(createChrome().translateBatch(['x'], EN_DE, TEXT, never()));
    expect(e).toMatchObject({ code: 400, message: expect.stringMatching(/not supported on this device/) });
    expect(log.create).toHaveLength(0);
  });

  it.each(['downloadable', 'downloading'] as const)("'%s' creates (which downloads) and translates", async (availability) => {
    const log = fakeTranslator({ availability });
    expect(await createChrome().translateBatch(['hi'], EN_DE, TEXT, never())).toEqual(['HI']);
    expect(log.create[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('a download that never finishes (offline) ends with 408 when the signal aborts, and is aborted too', async () => {
    const log = fakeTranslator({ availability: 'downloadable', create: 'hang' });
    const ac = new AbortController();
    const pending = createChrome().translateBatch(['hi'], EN_DE, TEXT, ac.signal);
    await vi.waitFor(() => expect(log.create).toHaveLength(1));
    ac.abort();
    expect((await rejection(pending)).code).toBe(408);
    expect(log.create[0]?.signal?.aborted).toBe(true);
  });

  it('a translation that hangs ends with 408 on abort', async () => {
    const log = fakeTranslator({ translate: (t) => (t === 'stuck' ? new Promise<string>(() => undefined) : Promise.resolve(t)) });
    const ac = new AbortController();
    const pending = createChrome().translateBatch(['ok', 'stuck', 'never sent'], EN_DE, TEXT, ac.signal);
    await vi.waitFor(() => expect(log.translate).toEqual(['ok', 'stuck']));
    ac.abort();
    expect((await rejection(pending)).code).toBe(408);
    expect(log.translate).toEqual(['ok', 'stuck']);
  });

  const createErrors: [string, number][] = [['NotAllowedError', 503], ['NotSupportedError', 400], ['NetworkError', 503], ['OperationError', 502]];
  it.each(createErrors)('create failing with %s is %i, and is not cached', async (name, code) => {
    const log = fakeTranslator({ create: domError(name) });
    const p = createChrome();
    expect((await rejection(p.translateBatch(['secret'], EN_DE, TEXT, never()))).code).toBe(code);
    expect((await rejection(p.translateBatch(['secret'], EN_DE, TEXT, never()))).message).not.toContain('secret');
    expect(log.create).toHaveLength(2);
  });

  it('a text too long for the model is 400; other failures 502', async () => {
    fakeTranslator({ translate: (t) => Promise.reject(domError(t === 'long' ? 'QuotaExceededError' : 'UnknownError')) });
    const p = createChrome();
    expect((await rejection(p.translateBatch(['long'], EN_DE, TEXT, never()))).code).toBe(400);
    expect((await rejection(p.translateBatch(['other'], EN_DE, TEXT, never()))).code).toBe(502);
  });

  it('a destroyed translator is replaced by the next batch', async () => {
    let broken = true;
    const log = fakeTranslator({ translate: (t) => (broken ? Promise.reject(domError('InvalidStateError')) : Promise.resolve(t.toUpperCase())) });
    const p = createChrome();
    expect((await rejection(p.translateBatch(['a'], EN_DE, TEXT, never()))).code).toBe(502);
    broken = false;
    expect(await p.translateBatch(['a'], EN_DE, TEXT, never())).toEqual(['A']);
    expect(log.create).toHaveLength(2);
  });

  it('no Translator global at call time is 503', async () => {
    expect((await rejection(createChrome().translateBatch(['x'], EN_DE, TEXT, never()))).code).toBe(503);
  });
});

describe('through the service', () => {
  it('is listed, routed and translates where the runtime has Translator', async () => {
    fakeTranslator();
    const { call } = harness([chrome]);
    expect(body(await call('GetProviders', {}))).toEqual({ 'chrome.ts': chrome.name });
    expect(body(await call('GetRoutes', { src: 'en', trg: 'de' }))).toEqual(['chrome.ts']);
    expect(await call('Translate', { src: 'en', trg: 'de', dat: ['Hello', 'World'] })).toEqual({
      status: 200, body: { dat: [{ rid: 'chrome.ts', text: ['HELLO', 'WORLD'], length: 10 }] },
    });
  });

  it('is left out where there is no Translator, and when disabled', async () => {
    expect(body(await harness([chrome]).call('GetProviders', {}))).toEqual({});
    fakeTranslator();
    const h = harness([chrome]);
    h.settings.providers['chrome.ts'] = { enabled: false };
    expect(body(await h.call('GetProviders', {}))).toEqual({});
  });

  it('an offline download runs into the Translate timeout: 408 with the route err', async () => {
    fakeTranslator({ availability: 'downloadable', create: 'hang' });
    const reply = await harness([chrome]).call('Translate', { src: 'en', trg: 'de', dat: 'Hello', timeout: 1 });
    expect(reply.status).toBe(408);
    expect(reply.body).toMatchObject({ dat: [{ rid: 'chrome.ts', err: expect.stringMatching(/^408 /), length: 0 }] });
  });
});
