import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Provider, ProviderSettings } from '../../../src/core/provider';
import llmDefault, { createLlm, DEFAULT_OPENAI_MODEL, llm, LLM_LANGUAGES, llmMissing } from '../../../src/providers/llm';
import { startFakeLlm, type LlmFault } from '../../fakes/fake-llm';
import { body, harness } from '../service/harness';
import { expectAbortIs408, fakeForFile, never, rejection, TEXT } from './harness';

const EN_DE = { src: 'en', trg: 'de' };
const KEY = 'sk-test-0123456789abcdef';

const fake = await fakeForFile(startFakeLlm({ key: KEY }));
const keyless = await fakeForFile(startFakeLlm());
afterEach(() => vi.unstubAllGlobals());

const make = (settings: ProviderSettings = {}): Provider => createLlm({ url: fake.url, key: KEY, model: 'gpt-4o-mini', ...settings }, { fetch: globalThis.fetch });
type Sent = { model: string; messages: { role: string; content: string }[]; temperature: number; stream: boolean; response_format?: unknown };
const sent = (i = 0, f = fake) => f.requests[i]?.body as Sent;

describe('llm.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(llmDefault).toBe(llm);
    expect(llm).toMatchObject({ id: 'llm.ts', needsKey: false, enabledByDefault: false, defaultUrl: 'https://api.openai.com/v1' });
    expect(make()).toMatchObject({ id: 'llm.ts', html: true, limits: { chars: 6000, segments: 40 } });
  });

  it('offers its built-in languages, any to any, in canonical codes', async () => {
    const langs = (await make().languages()) as { src: string[]; trg: string[] };
    expect(langs.src).toEqual(langs.trg);
    expect(langs.src).toEqual(expect.arrayContaining(['en', 'de', 'zh', 'zh-Hant', 'he', 'fil']));
    expect(langs.src.length).toBeGreaterThanOrEqual(50);
    for (const code of LLM_LANGUAGES) expect(Intl.getCanonicalLocales(code)[0]).toBe(code);
    expect(fake.requests).toHaveLength(0);
  });

  it('defaults the model only for OpenAI itself, which needs a key; elsewhere no model is a 400 without a request', async () => {
    const offline = { fetch: () => Promise.reject(new Error('no network')) };
    await expect(createLlm({ key: KEY }, offline).languages()).resolves.toBeDefined();
    expect(llmMissing({ key: KEY })).toBeUndefined();
    expect(DEFAULT_OPENAI_MODEL).toBe('gpt-4o-mini');
    const noKey = await rejection(createLlm({ url: 'https://api.openai.com/v1/' }, offline).languages());
    expect(noKey).toMatchObject({ code: 403, message: expect.stringMatching(/needs a key/) });
    expect(llmMissing({ url: keyless.url, model: 'llama3' })).toBeUndefined();
    const p = createLlm({ url: keyless.url }, { fetch: globalThis.fetch });
    expect((await rejection(p.languages())).code).toBe(400);
    const e = await rejection(p.translateBatch(['hi'], EN_DE, TEXT, never()));
    expect(e).toMatchObject({ code: 400, message: expect.stringMatching(/no model/) });
    expect(keyless.requests).toHaveLength(0);
  });

  it('uses only the injected fetch', async () => {
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', () => Promise.reject(new Error('global fetch used')));
    const calls: string[] = [];
    const p = createLlm({ url: fake.url, key: KEY, model: 'llama3' }, { fetch: (input, init) => (calls.push(String(input)), realFetch(input, init)) });
    expect(await p.translateBatch(['hi'], EN_DE, TEXT, never())).toEqual(['HI']);
    expect(calls).toEqual([`${fake.url}/chat/completions`]);
  });
});

describe('translateBatch', () => {
  it('posts one chat completion with the segments as JSON and reads the translations by id', async () => {
    const out = await make().translateBatch(['Hello', 'a "quoted"\nline 😀'], EN_DE, TEXT, never());
    expect(out).toEqual(['HELLO', 'A "QUOTED"\nLINE 😀']);
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    const b = sent();
    expect(Object.keys(b).sort()).toEqual(['messages', 'model', 'response_format', 'stream', 'temperature']);
    expect(b).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, stream: false, response_format: { type: 'json_object' } });
    expect(b.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(b.messages[0]!.content).toMatch(/from English \(en\) to German \(de\)/);
    expect(b.messages[0]!.content).not.toMatch(/HTML|terminology/);
    expect(JSON.parse(b.messages[1]!.content)).toEqual({ segments: [{ id: 1, text: 'Hello' }, { id: 2, text: 'a "quoted"\nline 😀' }] });
  });

  it('sends no Authorization without a key, and no response_format with jsonMode: false', async () => {
    const p = createLlm({ url: `${keyless.url}/`, model: 'llama3', jsonMode: false }, { fetch: globalThis.fetch });
    expect(await p.translateBatch(['x'], EN_DE, TEXT, never())).toEqual(['X']);
    expect(keyless.requests[0]?.headers.authorization).toBeUndefined();
    expect(sent(0, keyless)).not.toHaveProperty('response_format');
    expect(sent(0, keyless).model).toBe('llama3');
  });

  it('asks to keep the tags in html, names the domain and the script of Chinese', async () => {
    const html = '<b id="1">Hello</b> <i id="2">world</i>';
    expect(await make().translateBatch([html], { src: 'en', trg: 'zh' }, { format: 'html', domain: 'law' }, never())).toEqual(['<b id="1">HELLO</b> <i id="2">WORLD</i>']);
    const system = sent().messages[0]!.content;
    expect(system).toMatch(/to Simplified Chinese \(zh\)/);
    expect(system).toMatch(/HTML fragment: keep every tag with its id attribute/);
    expect(system).toMatch(/The text is about law and administration; use its terminology\./);
  });

  it('accepts an answer wrapped in a code fence and ids as strings, in any order', async () => {
    fake.rule({ fault: { type: 'content', content: '```json\n{"translations":[{"id":"2","text":"b"},{"id":1,"text":"a"}]}\n```' } });
    expect(await make().translateBatch(['x', 'y'], EN_DE, TEXT, never())).toEqual(['a', 'b']);
  });

  const broken: [string, LlmFault][] = [
    ['one translation missing', { type: 'mangle', mangle: (items) => items.slice(1) }],
    ['an extra translation', { type: 'mangle', mangle: (items) => [...items, { id: 9, text: 'x' }] }],
    ['a duplicated id', { type: 'mangle', mangle: (items) => [items[0], { ...items[0] }] }],
    ['text not a string', { type: 'mangle', mangle: (items) => items.map((t) => ({ ...t, text: 1 })) }],
    ['content that is not JSON', { type: 'content', content: 'Sure! Here are your translations.' }],
    ['no translations array', { type: 'content', content: '{"result":[]}' }],
  ];
  it.each(broken)('%s: asks once more, showing the model its answer, then succeeds', async (_name, fault) => {
    fake.rule({ fault, times: 1 });
    expect(await make().translateBatch(['one', 'two'], EN_DE, TEXT, never())).toEqual(['ONE', 'TWO']);
    expect(fake.requests).toHaveLength(2);
    const retry = sent(1).messages;
    expect(retry.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry[3]!.content).toMatch(/exactly one translation for each of the 2 ids/);
  });

  it.each(broken)('%s twice: 502 after exactly two requests', async (_name, fault) => {
    fake.rule({ fault });
    const e = await rejection(make().translateBatch(['one', 'two'], EN_DE, TEXT, never()));
    expect(e.code).toBe(502);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('errors by meaning', () => {
  const cases: [string, LlmFault, number, RegExp][] = [
    ['bad request', { type: 'error', status: 400, message: 'maximum context length exceeded' }, 400, /context length/],
    ['unknown model', { type: 'error', status: 404, code: 'model_not_found', message: 'The model `x` does not exist' }, 400, /does not exist/],
    ['exhausted quota on HTTP 429', { type: 'error', status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' }, 403, /no quota/],
    ['OpenRouter out of credits (402)', { type: 'error', status: 402, message: 'Insufficient credits' }, 403, /402/],
    ['server error', { type: 'error', status: 500, message: 'The server had an error' }, 502, /500/],
    ['overloaded', { type: 'error', status: 503, message: 'overloaded' }, 503, /503/],
    ['gateway timeout', { type: 'error', status: 504 }, 408, /504/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['no choices', { type: 'no-choices' }, 502, /choices/],
    ['a refusal', { type: 'refusal' }, 400, /refused/],
    ['content filter', { type: 'finish', reason: 'content_filter' }, 400, /content filter/],
    ['answer cut off', { type: 'finish', reason: 'length' }, 502, /cut off/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    fake.rule({ fault });
    const e = await rejection(make().translateBatch(['secret words'], EN_DE, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('secret');
    expect(fake.requests).toHaveLength(1);
  });

  it('a rate limit is 429 with Retry-After in ms', async () => {
    fake.rule({ fault: { type: 'error', status: 429, code: 'rate_limit_exceeded', message: 'Rate limit reached', retryAfter: '2' } });
    expect(await rejection(make().translateBatch(['x'], EN_DE, TEXT, never()))).toMatchObject({ code: 429, retryAfterMs: 2000 });
  });

  it('a wrong key is 403 and the message never quotes the key', async () => {
    const e = await rejection(make({ key: 'sk-wrong-key-42' }).translateBatch(['x'], EN_DE, TEXT, never()));
    expect(e.code).toBe(403);
    expect(e.message).not.toMatch(/sk-|wrong/);
  });

  it('an unreachable server is 503', async () => {
    const gone = await startFakeLlm();
    const url = gone.url;
    await gone.close();
    expect((await rejection(createLlm({ url, model: 'llama3' }, { fetch: globalThis.fetch }).translateBatch(['x'], EN_DE, TEXT, never()))).code).toBe(503);
  });

  it('abort cancels the HTTP request and is 408', async () => {
    await expectAbortIs408(fake, (signal) => make().translateBatch(['wait'], EN_DE, TEXT, signal), () => fake.requests);
  });
});

describe('through the service', () => {
  const configured = (extra: ProviderSettings = {}) => {
    const h = harness([llm]);
    h.settings.providers['llm.ts'] = { enabled: true, url: keyless.url, model: 'llama3', ...extra };
    return h;
  };

  it('is listed, routed and translates text and html', async () => {
    const { call } = configured();
    expect(body(await call('GetProviders', {}))).toEqual({ 'llm.ts': llm.name });
    expect(body(await call('GetRoutes', { src: 'en', trg: 'de' }))).toContain('llm.ts');
    const text = await call('Translate', { src: 'en', trg: 'de', dat: ['Hello', 'world'] });
    expect(text).toEqual({ status: 200, body: { dat: [{ rid: 'llm.ts', text: ['HELLO', 'WORLD'], length: 10 }] } });
    const html = await call('Translate', { src: 'en', trg: 'de', frm: 'html', dat: '<p>Hi <a href="/x">you</a></p>' });
    expect(html.status).toBe(200);
    expect(body<{ dat: string }[]>(html).map((c) => c.dat).join('')).toBe('<p>HI <a href="/x">YOU</a></p>');
  });

  it('is left out when disabled, and offers no routes without a model for a non-OpenAI url', async () => {
    const off = configured({ enabled: false });
    expect(body(await off.call('GetProviders', {}))).toEqual({});
    const noModel = configured({ model: undefined });
    expect(body(await noModel.call('GetLanguages', {}))).toEqual({ src: [], trg: [], exclude: [] });
    expect((await noModel.call('GetRoutes', { src: 'en', trg: 'de' })).status).toBe(400);
  });
});
