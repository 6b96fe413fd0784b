/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 (random port), base URL
 * `<origin>/v1`. It checks requests as OpenAI does (path, method, JSON body, model, Bearer key when
 * it has one, "json" in the messages for JSON mode) and answers in OpenAI's shapes. Its "model"
 * reads the `{"segments":[...]}` user message and upper-cases text outside tags. Rules make it fail,
 * mangle its answer, hang or lag; every request is recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { upperOutsideTags } from './fake-provider';
import { answerFault, jsonSender, parseJson, startFakeServer, type FakeServer, type Rule } from './fake-service';

export type LlmFault =
  /** OpenAI's error body `{error:{message,type,code}}` with this status. */
  | { type: 'error'; status: number; code?: string; message?: string; retryAfter?: string }
  | { type: 'malformed' }
  /** 200 whose message content is this string (not the translations). */
  | { type: 'content'; content: string }
  /** 200 with the translations, changed by `mangle` (drop one, bad ids ...). */
  | { type: 'mangle'; mangle: (items: { id: number; text: string }[]) => unknown[] }
  | { type: 'refusal' }
  | { type: 'finish'; reason: 'length' | 'content_filter' }
  | { type: 'no-choices' }
  | { type: 'hang' }
  | { type: 'delay'; ms: number }
  | { type: 'reset' };

/** The first rule applies to every request OpenAI itself would accept. */
export type LlmRule = Rule<LlmFault>;

export interface LlmRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
}

export interface FakeLlm extends FakeServer<LlmRequest, LlmRule> {
  /** Base URL including `/v1`, as the llm.ts `url` setting takes it. */
  url: string;
}

export interface FakeLlmOptions {
  /** When set, requests must carry `Authorization: Bearer <key>`; when not, no Authorization at all. */
  key?: string;
  models?: readonly string[];
}

interface Message {
  role: string;
  content: string;
}

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' && m !== null && typeof (m as Message).role === 'string' && typeof (m as Message).content === 'string';

const send = jsonSender('application/json');
const FAULTS = { send, malformed: '{"choices": [' };

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const models = options.models ?? ['gpt-4o-mini', 'llama3'];
  const fail = (res: ServerResponse, status: number, message: string, code: string | null = null, headers?: Record<string, string>) =>
    send(res, status, { error: { message, type: code ?? 'invalid_request_error', param: null, code } }, headers);
  const completion = (res: ServerResponse, model: string, content: string | null, finish = 'stop', refusal: string | null = null) =>
    send(res, 200, {
      id: 'chatcmpl-fake', object: 'chat.completion', created: 1, model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: finish }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });

  /** What OpenAI itself would refuse; undefined when the request is valid. */
  const check = (req: IncomingMessage, path: string, body: unknown, res: ServerResponse): { model: string; segments: { id: number; text: string }[] } | undefined => {
    if (path !== '/v1/chat/completions') return void fail(res, 404, `Invalid URL (${req.method} ${path})`);
    if (req.method !== 'POST') return void fail(res, 405, 'Method not allowed');
    const auth = req.headers.authorization;
    if (options.key !== undefined && auth !== `Bearer ${options.key}`) {
      return void fail(res, 401, `Incorrect API key provided: ${auth?.slice(7, 12) ?? ''}***. You can find your API key at ...`, 'invalid_api_key');
    }
    if (options.key === undefined && auth !== undefined) return void fail(res, 400, 'this fake expects no Authorization header');
    if (!req.headers['content-type']?.startsWith('application/json')) return void fail(res, 400, 'content-type must be application/json');
    if (typeof body !== 'object' || body === null) return void fail(res, 400, 'We could not parse the JSON body of your request.');
    const b = body as Record<string, unknown>;
    if (typeof b.model !== 'string') return void fail(res, 400, 'you must provide a model parameter');
    if (!models.includes(b.model)) return void fail(res, 404, `The model \`${b.model}\` does not exist or you do not have access to it.`, 'model_not_found');
    if (!Array.isArray(b.messages) || !b.messages.every(isMessage) || b.messages.length < 2) return void fail(res, 400, 'messages must be a list of messages');
    if (b.stream !== false || b.temperature !== 0) return void fail(res, 400, 'this fake expects stream: false and temperature: 0');
    const format = b.response_format as { type?: string } | undefined;
    if (format !== undefined && format.type !== 'json_object') return void fail(res, 400, 'unknown response_format');
    if (format && !b.messages.some((m) => /json/i.test(m.content))) {
      return void fail(res, 400, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.");
    }
    // The segments are in the first user message; a retry appends the previous answer and a correction.
    const user = b.messages.find((m) => m.role === 'user');
    try {
      const parsed = JSON.parse(user?.content ?? '') as { segments?: { id: number; text: string }[] };
      if (!Array.isArray(parsed.segments)) throw new Error('no segments');
      return { model: b.model, segments: parsed.segments };
    } catch {
      return void fail(res, 400, 'this fake expects {"segments":[...]} as the user message');
    }
  };

  const fake = await startFakeServer<LlmRequest, LlmRule>({
    record: (raw, body, url) => ({ method: raw.method ?? '', path: url.pathname, headers: raw.headers, body: parseJson(body) }),
    respond: (ex) => {
      const { raw, res } = ex;
      const ok = check(raw, ex.req.path, ex.req.body, res);
      if (!ok) return;
      const translations = ok.segments.map((s) => ({ id: s.id, text: upperOutsideTags(s.text) }));
      const answer = (items: unknown[] = translations) => completion(res, ok.model, JSON.stringify({ translations: items }));
      answerFault(ex, ex.take(() => true), FAULTS, (own) => {
        switch (own?.type) {
          case undefined: return answer();
          case 'error': return fail(res, own.status, own.message ?? 'fake error', own.code ?? null, own.retryAfter ? { 'retry-after': own.retryAfter } : {});
          case 'content': return completion(res, ok.model, own.content);
          case 'mangle': return answer(own.mangle(translations));
          case 'refusal': return completion(res, ok.model, null, 'stop', "I'm sorry, I can't help with that.");
          case 'finish': return completion(res, ok.model, '{"translations":[{"id":1,"te', own.reason);
          case 'no-choices': return send(res, 200, { id: 'x', object: 'chat.completion', choices: [] });
        }
      });
    },
  });
  return Object.assign(fake, { url: `${fake.url}/v1` });
}
