/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 (random port), base URL
 * `<origin>/v1`. It checks requests as OpenAI does (path, method, JSON body, model, Bearer key when
 * it has one, "json" in the messages for JSON mode) and answers in OpenAI's shapes. Its "model"
 * reads the `{"segments":[...]}` user message and upper-cases text outside tags. Rules make it fail,
 * mangle its answer, hang or lag; every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upperOutsideTags } from './fake-provider';

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

export interface LlmRule {
  fault: LlmFault;
  times?: number;
}

export interface LlmRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
}

export interface FakeLlm {
  /** Base URL including `/v1`, as the llm.ts `url` setting takes it. */
  url: string;
  requests: LlmRequest[];
  readonly aborted: number;
  rule(rule: LlmRule): void;
  clearRules(): void;
  close(): Promise<void>;
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

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const models = options.models ?? ['gpt-4o-mini', 'llama3'];
  const requests: LlmRequest[] = [];
  let rules: LlmRule[] = [];
  let aborted = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message: string, code: string | null = null, headers?: Record<string, string>) =>
    send(res, status, { error: { message, type: code ?? 'invalid_request_error', param: null, code } }, headers);
  const completion = (res: ServerResponse, model: string, content: string | null, finish = 'stop', refusal: string | null = null) =>
    send(res, 200, {
      id: 'chatcmpl-fake', object: 'chat.completion', created: 1, model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: finish }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });

  const takeRule = (): LlmFault | undefined => {
    const rule = rules[0];
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.slice(1);
    return rule.fault;
  };

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

  const handle = (req: IncomingMessage, res: ServerResponse, path: string, body: unknown) => {
    const ok = check(req, path, body, res);
    if (!ok) return undefined;
    const translations = ok.segments.map((s) => ({ id: s.id, text: upperOutsideTags(s.text) }));
    const answer = (items: unknown[] = translations) => completion(res, ok.model, JSON.stringify({ translations: items }));
    const fault = takeRule();
    if (!fault) return answer();
    switch (fault.type) {
      case 'error': return fail(res, fault.status, fault.message ?? 'fake error', fault.code ?? null, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
      case 'malformed': return send(res, 200, '{"choices": [');
      case 'content': return completion(res, ok.model, fault.content);
      case 'mangle': return answer(fault.mangle(translations));
      case 'refusal': return completion(res, ok.model, null, 'stop', "I'm sorry, I can't help with that.");
      case 'finish': return completion(res, ok.model, '{"translations":[{"id":1,"te', fault.reason);
      case 'no-choices': return send(res, 200, { id: 'x', object: 'chat.completion', choices: [] });
      case 'hang': return undefined;
      case 'delay': {
        const timer = setTimeout(() => answer(), fault.ms);
        res.on('close', () => clearTimeout(timer));
        return undefined;
      }
      case 'reset': return req.socket.destroy();
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
      handle(req, res, path, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get aborted() {
      return aborted;
    },
    rule: (rule) => void rules.push({ ...rule }),
    clearRules: () => void (rules = []),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
