/**
 * Apertium APy (https://wiki.apertium.org/wiki/Apertium-apy): a rule-based MT server, usually
 * self-hosted. Speaks `GET /listPairs` and form-encoded `POST /translate`.
 * Facts this relies on (checked against APy 0.11.7's handlers): codes are ISO 639-3, some with a
 * variant (`por_BR`, `cat_valencia`); only the last `q` of a request is translated, so one text per
 * request; long inputs are silently truncated under load, so requests stay <= 4000 characters;
 * an HTML text longer than 1000 characters is cut by APy under load anywhere, inside a tag too, so
 * placeholder ids are sent short (`shortIds`) and a text still longer goes in parts of at most
 * 1000, each cut outside the tags (`cutHtml`);
 * `markUnknown` defaults to `yes`, which prefixes unknown words with `*`; `no` leaves the other
 * marks, `#` (a form the generator could not make: "Es una #programa de software") and `@` (a
 * word the bilingual dictionary lacks), which `unmark` removes.
 */
import { codePoints } from '../core/html/text';
import { canonicalLanguage } from '../core/lang';
import { ProviderError } from '../core/errors';
import type { BatchOptions, LanguageSupport, Pair, Provider, ProviderEnv, ProviderModule, ProviderSettings } from '../core/provider';
import { fetchJson, isRecord, type Classify, type HttpCall } from './lib/http';

const PAIRS_TTL_MS = 10 * 60 * 1000;
const MAX_CHARS = 4000;
/**
 * The longest HTML text APy translates whole. When more than two requests share a pipeline, its
 * `split_for_translation` cuts a longer text at a full stop or a space in the second half of each
 * 1000 characters (else at 1000), and deformats each part apart: a cut at the space of
 * `<span id="44">` leaves `id="44">` to be translated as words (`<span Allez="44">`, `<Giró
 * id="1">`). Alone on its pipeline it cuts only past 4096 bytes, which 1000 characters never reach.
 */
export const HTML_PART = 1000;
/** The engine's placeholder tags (html/protect.ts), and the same with a short id as APy is sent them. */
const PLACEHOLDER = /<([a-z][a-z0-9-]*) id="(\d+)">/g;
const SHORT = /<([a-z][a-z0-9-]*) i=(\d+)>/;
const SHORTS = new RegExp(SHORT.source, 'g');

/**
 * `<span id="44">` sent as `<span i=44>`: a page's call is up to 1000 characters of the content
 * script's own markup, whose `i=N` the engine writes as `id="N"`, and 40% of them became longer
 * than `HTML_PART` (up to 1146 characters), each then a second request. APy gives tags back as
 * they came. Not done to a text that has such a tag already.
 */
function shortIds(html: string): string {
  return SHORT.test(html) ? html : html.replace(PLACEHOLDER, '<$1 i=$2>');
}

/**
 * The answer's short ids written back as the engine sent them; any other tag stays as it came (a
 * provider could write `<b id="3">` itself, so nothing is added that it could not).
 */
function longIds(html: string): string {
  return html.replace(SHORTS, '<$1 id="$2">');
}

/** Parallel requests per batch: APy serves ~20 req/s with 4 clients on 2 cores (TOOLCHAIN.md). */
const CONCURRENCY = 4;

interface PairList {
  support: LanguageSupport;
  /** `src|trg` in canonical codes -> APy's `langpair` value. */
  langpairs: Map<string, string>;
  at: number;
}

/** Optional hooks for tests (a clock for the pair-list cache). */
export interface ApertiumOptions {
  now?: () => number;
}

export function createApertium(settings: ProviderSettings, env: ProviderEnv, options: ApertiumOptions = {}): Provider {
  const base = (settings.url ?? apertium.defaultUrl ?? '').replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  let cached: PairList | undefined;

  const call = (path: string, init: Omit<HttpCall, 'url'>, signal: AbortSignal): Promise<unknown> =>
    fetchJson(env, { ...init, url: `${base}${path}` }, signal, 'Apertium', classify);

  async function pairList(signal: AbortSignal): Promise<PairList> {
    if (cached && now() - cached.at < PAIRS_TTL_MS) return cached;
    const body = await call('/listPairs', {}, signal);
    const data = isRecord(body) ? body.responseData : undefined;
    if (!Array.isArray(data)) throw new ProviderError(502, 'Apertium listPairs answered no responseData');
    cached = { ...mapPairs(data), at: now() };
    return cached;
  }

  async function translateOne(text: string, langpair: string, format: BatchOptions['format'], signal: AbortSignal): Promise<string> {
    if (format !== 'html') return request(text, langpair, 'txt', signal);
    const short = shortIds(text);
    // APy counts characters as code points: a text of 1 000 with letters beyond the BMP (𝐁𝐀𝐂𝐊) is whole.
    const parts = codePoints(short) > HTML_PART ? cutHtml(short) : [short];
    // All at once, as APy queues the parts of a text it cuts itself: its pipeline takes them in turn.
    const out = (await Promise.all(parts.map((part) => request(part, langpair, 'html', signal)))).join('');
    return short === text ? out : longIds(out);
  }

  async function request(text: string, langpair: string, format: 'html' | 'txt', signal: AbortSignal): Promise<string> {
    if (text.trim() === '') return text; // nothing to translate (a blank text or part): spare the request
    const form = new URLSearchParams({ langpair, q: text, format, markUnknown: 'no' });
    const body = await call('/translate', { method: 'POST', body: form }, signal);
    const data = isRecord(body) ? body.responseData : undefined;
    const translated = isRecord(data) ? data.translatedText : undefined;
    if (typeof translated !== 'string') throw new ProviderError(502, 'Apertium answered no translatedText');
    return unmark(text, translated);
  }

  return {
    id: apertium.id,
    name: apertium.name,
    limits: { chars: MAX_CHARS, segments: 1 },
    html: true,
    async languages(signal = new AbortController().signal) {
      return (await pairList(signal)).support;
    },
    async translateBatch(segments, pair, batch, signal) {
      const too = segments.find((s) => codePoints(s) > MAX_CHARS);
      if (too !== undefined) throw new ProviderError(400, `text of ${codePoints(too)} characters exceeds Apertium's ${MAX_CHARS}`);
      // A stale list still maps codes correctly; refetch only when the pair is not in it.
      const langpair = cached?.langpairs.get(pairKey(pair)) ?? (await pairList(signal)).langpairs.get(pairKey(pair));
      if (langpair === undefined) throw new ProviderError(400, `Apertium has no pair ${pair.src}->${pair.trg}`);
      return mapLimited(segments, CONCURRENCY, signal, (text, s) => translateOne(text, langpair, batch.format, s));
    },
  };
}

/**
 * A `#` or `@` mark (several, after a chain of two legs) at the start of a word: after a space,
 * a tag, an opening bracket or quote, a dash, an entity (`&#xA0;#Plazo` in an HTML answer) or a
 * text marker (`[3]#programa`, engine/leg.ts `viaMarkers`).
 */
const MARK = /(^|[\s>([{"'«¿¡\/\u2013\u2014;\]-])([#@]+)(?=[\p{L}\p{N}])([\p{L}\p{N}_]*)/gu;
/** Words that carry `#` or `@` in the text sent: hashtags and handles, kept as they are. */
const TAGGED = /[#@][\p{L}\p{N}_]+/gu;

/** Words of capitals and digits, two or more with a capital among them (a Roman numeral, an acronym): "IV", "XXI", "G7". */
const CAPITALS = /(?<![\p{L}\p{N}])(?=\p{N}*\p{Lu})[\p{Lu}\p{N}]{2,}(?![\p{L}\p{N}])/gu;

/**
 * Apertium's `#` and `@` marks removed, the word kept as Apertium wrote it (the lemma, where `#`
 * says the inflected form could not be made): a reader sees "Es una programa de software", as
 * `markUnknown=no` shows unknown words without their `*`. A hashtag or handle of the text sent
 * ("#MeToo", "@nasa"), which Apertium passes through, is kept. A marked word that is a word of
 * capitals of the text sent in other letter case (its "IV Pleno" made "#Iv Plenary": the numeral
 * was read, and its form not made) is shown as it was sent.
 */
export function unmark(sent: string, translated: string): string {
  if (!/[#@]/.test(translated)) return translated;
  const own = new Set(sent.match(TAGGED) ?? []);
  let capitals: Map<string, string> | undefined;
  return translated.replace(MARK, (all: string, before: string, marks: string, word: string) => {
    if (own.has(marks.slice(-1) + word)) return all;
    capitals ??= new Map((sent.match(CAPITALS) ?? []).map((w) => [w.toLowerCase(), w]));
    return before + (capitals.get(word.toLowerCase()) ?? word);
  });
}

const LT = 0x3c;
/** Where a sentence ends: a space after one of these (a closing quote or bracket between them too). */
const STOPS = new Set(['.', '!', '?', '\u3002', '\u2026']);
const CLOSERS = new Set(['"', "'", ')', ']', '\u201d', '\u2019', '\u00bb']);

/** The index just past the tag (or comment) that starts at `at`; the text's length if it never ends. */
function tagEnd(html: string, at: number): number {
  if (html.startsWith('<!--', at)) {
    const end = html.indexOf('-->', at + 4);
    return end < 0 ? html.length : end + 3;
  }
  let quote = '';
  for (let i = at + 1; i < html.length; i++) {
    const c = html[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return html.length;
}

/**
 * `html` in parts of at most `max` UTF-16 code units (so at most `max` characters) whose
 * concatenation is `html`. Each cut is outside every tag, comment and character reference: after
 * the last sentence end in the part's second half, else after its last space or before its last
 * tag, else (one long word) at `max`, never within a surrogate pair. Rule-based translation goes
 * sentence by sentence, so a cut at a sentence's end changes nothing of the translation. A tag
 * longer than `max` stays whole, in a longer part.
 */
export function cutHtml(html: string, max = HTML_PART): string[] {
  const parts: string[] = [];
  let start = 0;
  while (html.length - start > max) {
    const end = start + max;
    const half = start + (max >> 1);
    let sentence = -1;
    let soft = -1;
    let i = start;
    while (i < end) {
      if (html.charCodeAt(i) === LT) {
        if (i > start) soft = i;
        const close = tagEnd(html, i);
        if (close > end) break;
        i = close;
        continue;
      }
      const c = html[i]!;
      if (/\s/.test(c) && i > start) {
        soft = i + 1;
        let j = i - 1;
        while (j > start && CLOSERS.has(html[j]!)) j--;
        if (STOPS.has(html[j]!)) sentence = i + 1;
      }
      i++;
    }
    let cut: number;
    if (sentence > half) cut = sentence;
    else if (soft > start) cut = soft;
    // One word up to `end`, or a tag there that began at `start` (any later one gave a soft cut).
    else cut = i >= end ? safeTextCut(html, start, end) : tagEnd(html, i);
    parts.push(html.slice(start, cut));
    start = cut;
  }
  parts.push(html.slice(start));
  return parts;
}

/** A cut at `end` in a run of text, moved back off a character reference or a surrogate pair. */
function safeTextCut(html: string, start: number, end: number): number {
  let cut = end;
  const amp = html.lastIndexOf('&', cut - 1);
  if (amp > start && amp >= cut - 12 && !html.slice(amp, cut).includes(';')) cut = amp;
  const code = html.charCodeAt(cut);
  if (code >= 0xdc00 && code <= 0xdfff && cut - 1 > start) cut--;
  return cut;
}

/** Canonical pairs from APy's list; a canonical pair reached by several APy codes keeps the plain one. */
function mapPairs(data: unknown[]): Omit<PairList, 'at'> {
  const langpairs = new Map<string, string>();
  const pairs: Pair[] = [];
  for (const item of data) {
    if (!isRecord(item) || typeof item.sourceLanguage !== 'string' || typeof item.targetLanguage !== 'string') continue;
    const src = canonicalLanguage(item.sourceLanguage.replace(/_/g, '-'));
    const trg = canonicalLanguage(item.targetLanguage.replace(/_/g, '-'));
    if (src === undefined || trg === undefined || src === trg) continue;
    const langpair = `${item.sourceLanguage}|${item.targetLanguage}`;
    const key = pairKey({ src, trg });
    const known = langpairs.get(key);
    if (known === undefined) pairs.push({ src, trg });
    if (known === undefined || (known.includes('_') && !langpair.includes('_'))) langpairs.set(key, langpair);
  }
  return { support: { pairs }, langpairs };
}

/** Runs `task` over `items` with at most `limit` at once; results in input order. First failure aborts the rest. */
async function mapLimited<T, R>(items: readonly T[], limit: number, signal: AbortSignal, task: (item: T, signal: AbortSignal) => Promise<R>): Promise<R[]> {
  const inner = new AbortController();
  const stop = () => inner.abort(signal.reason);
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T, inner.signal);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => worker().catch((e: unknown) => {
      inner.abort();
      throw e;
    })));
    return results;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * APy's errors are `{status:'error', code, message, explanation}`. Its 400 explains what it refused
 * (`That pair is not installed`); its 503 means a stuck pipeline, not an unreachable server: 502.
 */
const classify: Classify = (f) => {
  const explanation = isRecord(f.body) && typeof f.body.explanation === 'string' ? f.body.explanation : undefined;
  if (f.status === 400) return new ProviderError(400, explanation ?? 'Apertium refused the input');
  if (f.status >= 500) return new ProviderError(502, `Apertium answered HTTP ${f.status}${explanation ? `: ${explanation}` : ''}`);
  return undefined;
};

const pairKey = (p: Pair): string => `${p.src}|${p.trg}`;

export const apertium: ProviderModule = {
  id: 'apertium.ts',
  name: 'Apertium',
  needsKey: false,
  defaultUrl: 'http://127.0.0.1:2737',
  enabledByDefault: true,
  create: (settings, env) => createApertium(settings, env),
};

export default apertium;
