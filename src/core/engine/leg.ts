/**
 * One provider translating a list of texts: texts are cut and packed to the provider's limits,
 * batches run concurrently, and a batch that fails for a reason that may lie in one of its
 * segments (400, 502) is retried segment by segment, so one bad text fails alone (decisions.md).
 */
import { ProviderError, toProviderError } from '../errors';
import { protectText } from '../html/protect';
import { misreadsTags } from '../html/tag-check';
import { leadingSpace, trailingSpace } from '../html/text';
import type { BatchOptions, Pair, Provider } from '../provider';
import { batches, codePoints, cut, type Piece } from './segments';

/** Provider requests of one leg in flight at once. */
const CONCURRENCY = 4;

export type Outcome = string | ProviderError;

const isBlank = (s: string) => s.trim() === '';

/** Providers often trim; the input's own leading/trailing white space (paragraph breaks) is kept. */
function keepEdges(source: string, translated: string): string {
  if (isBlank(source)) return source;
  return leadingSpace(source) + translated.trim() + trailingSpace(source);
}

async function runBatch(
  provider: Provider,
  batch: Piece[],
  pair: Pair,
  options: BatchOptions,
  signal: AbortSignal,
): Promise<Outcome[]> {
  try {
    const out = await provider.translateBatch(batch.map((p) => p.value), pair, options, signal);
    if (!Array.isArray(out) || out.length !== batch.length || out.some((s) => typeof s !== 'string')) {
      throw new ProviderError(502, `answered ${Array.isArray(out) ? out.length : 'no'} segments for ${batch.length}`);
    }
    return out;
  } catch (e) {
    const err = toProviderError(e);
    if (signal.aborted) throw err;
    if (batch.length > 1 && (err.code === 400 || err.code === 502)) {
      return (await Promise.all(batch.map((p) => runBatch(provider, [p], pair, options, signal)))).flat();
    }
    return batch.map(() => err);
  }
}

/** Runs tasks with at most `limit` at once; results in task order. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Translates every text; each result is the translation or the error of that text. */
export async function translateLeg(
  provider: Provider,
  texts: readonly string[],
  pair: Pair,
  options: BatchOptions,
  signal: AbortSignal,
): Promise<Outcome[]> {
  if (options.format === 'html' && !provider.html) return viaMarkers(provider, texts, pair, options, signal);
  const pieces: Piece[] = [];
  texts.forEach((text, i) => {
    if (isBlank(text)) return;
    // HTML fragments are never cut: a cut could fall inside a tag. The engine chunks documents itself.
    const parts = options.format === 'html' ? [text] : cut(text, provider.limits.chars);
    for (const value of parts) pieces.push({ text: i, value, chars: codePoints(value) });
  });
  // White space between cut pieces is kept as it is, never sent.
  const groups = batches(pieces.filter((p) => !isBlank(p.value)), provider.limits);
  const done = await pool(
    groups.map((g) => () => runBatch(provider, g, pair, options, signal)),
    CONCURRENCY,
  );
  const answers = new Map<Piece, Outcome>();
  groups.forEach((g, gi) => g.forEach((piece, pi) => answers.set(piece, done[gi]![pi]!)));
  if (options.format === 'html') await retryMisread(provider, answers, pair, options, signal);
  const joined: Outcome[] = texts.map((t) => (isBlank(t) ? t : ''));
  for (const piece of pieces) {
    const prev = joined[piece.text]!;
    const res = answers.get(piece) ?? piece.value;
    if (prev instanceof ProviderError) continue;
    if (res instanceof ProviderError) joined[piece.text] = res;
    else joined[piece.text] = prev + (options.format === 'text' ? keepEdges(piece.value, res) : res);
  }
  return joined;
}

/**
 * An HTML answer that misread its placeholder tags as words (tag-check.ts) is translated once
 * more through text markers (`viaMarkers`), which carry no markup for the provider to misread, and
 * replaced by that answer; if that fails too, the first stands (the rebuild keeps only the input's
 * own tags either way). Apertium APy did this under concurrent requests, where it cuts texts over
 * 1000 characters anywhere, inside a tag too; its adapter now keeps texts within 1000 or cuts them
 * outside the tags (apertium.ts `shortIds`, `cutHtml`), and this check stays for any provider
 * that misreads. Moved, dropped, repeated or added tags are a translator's choice, not a
 * misreading: never asked again.
 */
async function retryMisread(provider: Provider, answers: Map<Piece, Outcome>, pair: Pair, options: BatchOptions, signal: AbortSignal): Promise<void> {
  const mangled = [...answers].filter(([piece, out]) => typeof out === 'string' && misreadsTags(piece.value, out)).map(([piece]) => piece);
  if (mangled.length === 0 || signal.aborted) return;
  const again = await viaMarkers(provider, mangled.map((p) => p.value), pair, options, signal).catch(() => []);
  mangled.forEach((piece, i) => {
    const out = again[i];
    if (typeof out === 'string') answers.set(piece, out);
  });
}

/**
 * HTML for a provider without an HTML mode: the (id-only placeholder) markup becomes text markers
 * (`[1]Hello [2]world[/2][/1]`) that MT keeps like citation marks, and is rebuilt from the
 * input's own tags afterwards. One mechanism for every such provider.
 */
async function viaMarkers(provider: Provider, texts: readonly string[], pair: Pair, options: BatchOptions, signal: AbortSignal): Promise<Outcome[]> {
  const prots = texts.map((t) => protectText(t));
  // Id-only placeholder markup has no translatable attributes: one marker text per fragment.
  const marked = prots.map((p, i) => (p.segments.length === 1 ? p.segments[0]! : texts[i]!));
  const out = await translateLeg(provider, marked, pair, { ...options, format: 'text' }, signal);
  return out.map((o, i) => {
    const p = prots[i]!;
    if (o instanceof ProviderError || p.segments.length !== 1) return o;
    try {
      return p.restore([o]);
    } catch (e) {
      return toProviderError(e);
    }
  });
}
