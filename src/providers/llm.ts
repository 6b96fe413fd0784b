/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, a local Ollama):
 * `POST {url}/chat/completions` (https://platform.openai.com/docs/api-reference/chat/create), `url`
 * being the base that includes `/v1` as OpenAI clients take it. Segments go out as JSON with ids and
 * must come back as `{"translations":[{"id":1,"text":"..."}]}`; an answer with missing, extra or
 * unknown ids is asked for again once, then fails with 502 (the engine retries segment by segment).
 */
import { ProviderError } from '../core/errors';
import type { BatchOptions, Pair, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import type { Domain } from '../core/types';
import { languageName as nameOf } from '../core/intl';
import { byStatus, fetchJson, isRecord, type Classify } from './lib/http';

const OPENAI_URL = 'https://api.openai.com/v1';
/** Used only against OpenAI itself: other endpoints (Ollama, OpenRouter) name their models differently. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
/** ~1500 tokens of input; with the JSON overhead the answer stays well inside small models' output limits. */
const MAX_CHARS = 6000;
const MAX_SEGMENTS = 40;

/** Major languages any capable chat model writes well; any to any (no service list to fetch). */
export const LLM_LANGUAGES: readonly string[] = [
  'ar', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'eu', 'fa', 'fi', 'fil', 'fr', 'ga', 'gl',
  'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ka', 'kn', 'ko', 'lt', 'lv', 'mk', 'ml', 'mr',
  'ms', 'nl', 'no', 'pa', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv', 'sw', 'ta', 'te', 'th', 'tr',
  'uk', 'ur', 'vi', 'zh', 'zh-Hant',
];

/** Wording for the prompt: the interface's own description of each domain (interface.md 4.1). */
const DOMAINS: Record<Exclude<Domain, 'general'>, string> = {
  art: 'arts, humanities and social sciences', law: 'law and administration', sci: 'natural science',
  tech: 'technology and engineering', info: 'information technology', tel: 'telecommunication and media',
  bio: 'health and biology', eco: 'economy and trade', agr: 'agriculture', travel: 'transport and travelling',
  mil: 'military matters', sport: 'sports and games',
};

/** `zh` alone would read as "Chinese", leaving the script to the model's guess. */
const languageName = (code: string): string => `${code === 'zh' ? 'Simplified Chinese' : nameOf(code)} (${code})`;

export function systemPrompt(pair: Pair, options: BatchOptions): string {
  const lines = [
    `You are a translation engine. Translate every segment from ${languageName(pair.src)} to ${languageName(pair.trg)}.`,
    'The user sends a JSON object {"segments":[{"id":1,"text":"..."}]}.',
    'Answer with a JSON object only: {"translations":[{"id":1,"text":"..."}]}, exactly one translation per segment, with the same ids, never merging or splitting segments.',
    'Translate the meaning faithfully; keep numbers, names, URLs, line breaks and leading or trailing spaces. Add no notes.',
  ];
  if (options.format === 'html') {
    lines.push('Each text is an HTML fragment: keep every tag with its id attribute exactly as written, each tag once, translate only the text between tags, move tags only where the target grammar needs it, and add no tags.');
  }
  if (options.domain !== 'general') lines.push(`The text is about ${DOMAINS[options.domain]}; use its terminology.`);
  return lines.join('\n');
}

/** OpenAI's and Ollama's error body: `{error: {message, type, code}}`. */
function serviceError(body: unknown): { message?: string; kind?: string } {
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error)) return {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { message: str(error.message), kind: str(error.code) ?? str(error.type) };
}

function classifier(key: string | undefined): Classify {
  return (f) => {
    const { message, kind } = serviceError(f.body);
    // OpenAI says 429 both for a rate limit and for an exhausted balance; only the first passes with time.
    if (kind === 'insufficient_quota') return new ProviderError(403, 'LLM: the account has no quota left');
    // 401 messages quote part of the key: never pass them on.
    if (f.status === 401 || f.status === 403) return new ProviderError(403, `LLM rejected the key (HTTP ${f.status})`);
    let detail = message?.slice(0, 200);
    if (detail && key) detail = detail.split(key).join('***');
    return byStatus(f, 'LLM', detail);
  };
}

interface Choice {
  content: string;
  finish?: string;
}

function firstChoice(body: unknown): Choice {
  const choice = isRecord(body) && Array.isArray(body.choices) ? (body.choices[0] as unknown) : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  if (!isRecord(choice) || !isRecord(message)) throw new ProviderError(502, 'LLM answered no choices[0].message');
  if (typeof message.refusal === 'string' && message.refusal !== '') throw new ProviderError(400, 'LLM: the model refused to translate this text');
  if (choice.finish_reason === 'content_filter') throw new ProviderError(400, "LLM: the provider's content filter stopped the answer");
  if (choice.finish_reason === 'length') throw new ProviderError(502, 'LLM: the answer was cut off at the output token limit');
  if (typeof message.content !== 'string') throw new ProviderError(502, 'LLM answered no message content');
  return { content: message.content };
}

/** The translations in id order, or why the model's answer is unusable (asked for once more). */
export function parseTranslations(content: string, count: number): string[] | string {
  // Without JSON mode some models wrap the object in a ```json fence or a sentence.
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.slice(start, end + 1));
  } catch {
    return 'Your answer was not a JSON object.';
  }
  const items = isRecord(parsed) ? parsed.translations : undefined;
  if (!Array.isArray(items)) return 'Your answer had no "translations" array.';
  const out = new Array<string | undefined>(count).fill(undefined);
  for (const item of items) {
    const id = isRecord(item) ? Number(item.id) : NaN;
    const text = isRecord(item) ? item.text : undefined;
    if (!Number.isInteger(id) || id < 1 || id > count || typeof text !== 'string' || out[id - 1] !== undefined) {
      return `Your answer had ${items.length} translations with ids that do not match the ${count} segments (ids 1 to ${count}, each once).`;
    }
    out[id - 1] = text;
  }
  const missing = out.flatMap((t, i) => (t === undefined ? [i + 1] : []));
  if (missing.length > 0) return `Your answer lacked the translations of ids ${missing.join(', ')}.`;
  return out as string[];
}

const baseUrl = (settings: ProviderSettings): string => (settings.url ?? OPENAI_URL).replace(/\/+$/, '');

/**
 * What these settings lack to work, if anything: a model anywhere but OpenAI (whose default is
 * known), a key for OpenAI itself (a local Ollama needs none). Static `needsKey` cannot say this.
 */
export function llmMissing(settings: ProviderSettings): ProviderError | undefined {
  const base = baseUrl(settings);
  if (!settings.model && base !== OPENAI_URL) return new ProviderError(400, `LLM: no model configured for ${base} (set the model setting of llm.ts)`);
  if (!settings.key && base === OPENAI_URL) return new ProviderError(403, 'LLM: OpenAI needs a key (set the key setting of llm.ts)');
  return undefined;
}

export function createLlm(settings: ProviderSettings, env: ProviderEnv): Provider {
  const base = baseUrl(settings);
  const key = settings.key || undefined;
  const model = settings.model || DEFAULT_OPENAI_MODEL;
  const missing = llmMissing(settings);
  // `jsonMode: false` for servers that refuse `response_format` (older llama.cpp, some proxies).
  const jsonMode = settings.jsonMode !== false;
  const classify = classifier(key);
  // Thrown before any request: the catalog then offers no routes through llm.ts.
  const requireSettings = (): void => {
    if (missing) throw missing;
  };

  async function complete(messages: { role: string; content: string }[], signal: AbortSignal): Promise<Choice> {
    const body = {
      model,
      messages,
      temperature: 0,
      stream: false,
      ...(jsonMode ? { response_format: { type: 'json_object' } } : {}),
    };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const answer = await fetchJson(env, { method: 'POST', url: `${base}/chat/completions`, headers, body: JSON.stringify(body) }, signal, 'LLM', classify);
    return firstChoice(answer);
  }

  return {
    id: llm.id,
    name: llm.name,
    limits: { chars: MAX_CHARS, segments: MAX_SEGMENTS },
    html: true,
    async languages() {
      requireSettings();
      return { src: [...LLM_LANGUAGES], trg: [...LLM_LANGUAGES] };
    },
    async translateBatch(segments, pair, options, signal) {
      requireSettings();
      const user = JSON.stringify({ segments: segments.map((text, i) => ({ id: i + 1, text })) });
      const messages = [{ role: 'system', content: systemPrompt(pair, options) }, { role: 'user', content: user }];
      let problem = '';
      for (let attempt = 0; attempt < 2; attempt++) {
        const { content } = await complete(messages, signal);
        const result = parseTranslations(content, segments.length);
        if (typeof result !== 'string') return result;
        problem = result;
        // The second try shows the model its own answer and what is wrong with it.
        messages.push({ role: 'assistant', content }, { role: 'user', content: `${result} Answer again with exactly one translation for each of the ${segments.length} ids.` });
      }
      throw new ProviderError(502, `LLM answered unusable JSON twice: ${problem}`);
    },
  };
}

export const llm: ProviderModule = {
  id: 'llm.ts',
  name: 'LLM (OpenAI-compatible chat completions)',
  // A local Ollama needs no key; OpenAI without one offers no routes (llmMissing).
  needsKey: false,
  defaultUrl: OPENAI_URL,
  enabledByDefault: false,
  configured: (settings) => llmMissing(settings) === undefined,
  create: (settings, env) => createLlm(settings, env),
};

export default llm;
