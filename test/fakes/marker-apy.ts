import { appendFileSync } from 'node:fs';
import { parseFragment, serialize, type DefaultTreeAdapterTypes } from 'parse5';
/**
 * An APy-compatible fake (127.0.0.1, random port) whose "translation" marks every run of text
 * outside tags that holds a letter: `word` becomes `⟦word⟧`. Page tests count the marks to see
 * which text was translated. Optional latency per request, to measure how soon the first screen
 * is written with a provider of latency L. `serveApyLike` is the APy surface it shares with
 * hostile-apy.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listPairsBody } from './fake-apy';
import { jsonSender, serve, type Served } from './fake-service';

export const MARK_OPEN = '⟦';
export const MARK_CLOSE = '⟧';

export interface MarkerApy {
  url: string;
  /** Translate requests answered so far, and the characters of `q` they carried. */
  readonly requests: number;
  readonly chars: number;
  /** When each translate request arrived (ms since the epoch, sub-millisecond). */
  readonly arrivals: readonly number[];
  latencyMs: number;
  /** A request whose `q` this says yes to is answered 500 (a provider failing some texts); none by default. */
  failing: ((q: string) => boolean) | undefined;
  close(): Promise<void>;
}

const PAIRS = ['eng-spa', 'spa-eng', 'eng-cat', 'cat-eng', 'eng-fra', 'fra-eng', 'eng-por', 'por-eng', 'eng-ara'];

/** Every text of the markup `q` with a letter, marked (its white space at the edges left outside the marks). */
export function markText(q: string): string {
  return q.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) => (tag !== undefined ? tag : markWords(text ?? '')));
}

/** One text (not markup: a `<` in it is a character) marked if it has a letter. */
function markWords(t: string): string {
  if (!/\p{L}/u.test(t)) return t;
  const lead = /^\s*/.exec(t)![0];
  const trail = /\s*$/.exec(t)![0];
  return `${lead}${MARK_OPEN}${t.trim()}${MARK_CLOSE}${trail}`;
}

/**
 * `markText`, and each element's content in reverse order (`<p i=1>Hello <b i=2>bold</b> world</p>`
 * -> `<p i=1> ⟦world⟧<b i=2>⟦bold⟧</b>⟦Hello⟧ </p>`): a translator that reorders every sentence,
 * as far as it can without taking a tag out of its parent. What is not in an element (a call's
 * units, side by side) keeps its order. Placeholders go back as sent (`i=1`, unquoted: the
 * adapter reads them so).
 */
export function reverseAndMark(q: string): string {
  const reverse = (node: DefaultTreeAdapterTypes.ParentNode, top: boolean): void => {
    for (const c of node.childNodes) {
      if ('childNodes' in c) reverse(c, false);
      else if (c.nodeName === '#text') (c as DefaultTreeAdapterTypes.TextNode).value = markWords((c as DefaultTreeAdapterTypes.TextNode).value);
    }
    if (!top) node.childNodes.reverse();
  };
  const fragment = parseFragment(q);
  reverse(fragment, true);
  return serialize(fragment).replace(/ i="(\d+)"/g, ' i=$1');
}

export interface ApyLike {
  pairs: readonly string[];
  latencyMs(): number;
  /** Called as a translate request arrives; what it returns makes the translation when the answer is sent (or an error, 500). */
  translate(args: URLSearchParams): () => string | Error;
  /** Answers a request outside APy's surface and returns true, or leaves it to APy. */
  elsewhere?(raw: IncomingMessage, res: ServerResponse, url: URL): boolean;
}

const send = jsonSender('application/json; charset=UTF-8');

/** APy's /listPairs and /translate (query and form arguments, last one wins), 404 for the rest. */
export function serveApyLike(apy: ApyLike): Promise<Served> {
  return serve((raw, res, body, url) => {
    if (apy.elsewhere?.(raw, res, url)) return;
    const args = new URLSearchParams(url.search);
    if (raw.method === 'POST') new URLSearchParams(body.toString('utf8')).forEach((v, k) => args.append(k, v));
    if (url.pathname === '/listPairs') return send(res, 200, listPairsBody(apy.pairs));
    if (url.pathname !== '/translate') return send(res, 404, { status: 'error', code: 404, message: 'Not Found', explanation: 'no such path' });
    const translation = apy.translate(args);
    const answer = () => {
      const text = translation();
      if (text instanceof Error) return send(res, 500, { status: 'error', code: 500, message: 'Internal Server Error', explanation: text.message });
      send(res, 200, { responseData: { translatedText: text }, responseDetails: null, responseStatus: 200 });
    };
    const latencyMs = apy.latencyMs();
    if (latencyMs > 0) setTimeout(answer, latencyMs);
    else answer();
  });
}

/**
 * `extraPairs`: more `xxx-yyy` pairs to list (a second route through an interlingua). `reorder`:
 * HTML is answered by `reverseAndMark` (text, as the engine's second try through text markers, by
 * `markText`).
 */
export async function startMarkerApy(latencyMs = 0, extraPairs: readonly string[] = [], options: { reorder?: boolean } = {}): Promise<MarkerApy> {
  let requests = 0;
  let chars = 0;
  const arrivals: number[] = [];
  const state: { latencyMs: number; failing: ((q: string) => boolean) | undefined } = { latencyMs, failing: undefined };
  const server = await serveApyLike({
    pairs: [...PAIRS, ...extraPairs],
    latencyMs: () => state.latencyMs,
    translate: (args) => {
      const q = args.getAll('q').at(-1) ?? '';
      requests++;
      chars += q.length;
      if (process.env.MARKER_APY_LOG) appendFileSync(process.env.MARKER_APY_LOG, `${q}\n=====\n`);
      arrivals.push(performance.timeOrigin + performance.now());
      if (state.failing?.(q)) return () => new Error('the pipeline failed on this text');
      const html = (args.getAll('format').at(-1) ?? 'txt') === 'html';
      return () => (options.reorder && html ? reverseAndMark(q) : markText(q));
    },
  });
  return {
    url: server.url,
    get requests() {
      return requests;
    },
    get chars() {
      return chars;
    },
    arrivals,
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(v: number) {
      state.latencyMs = v;
    },
    get failing() {
      return state.failing;
    },
    set failing(f: ((q: string) => boolean) | undefined) {
      state.failing = f;
    },
    close: server.close,
  };
}
