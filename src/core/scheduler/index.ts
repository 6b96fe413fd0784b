/**
 * The decorators around every provider, applied once where providers are created
 * (src/core/routes/catalog.ts): translation memory outside, then coalescing + rate budget.
 */
import { misreadsTags } from '../html/tag-check';
import type { BatchOptions, Pair, Provider, ProviderSettings } from '../provider';
import { coalesce, type ScheduledProvider, type SchedulerOptions } from './coalesce';
import type { MemoryEntry, MemoryKey, TranslationMemory } from './memory';
import { rateFor } from './rates';

export type { ProviderHealth, HealthState } from './budget';
export type { ScheduledProvider } from './coalesce';
export type { MemoryEntry, MemoryKey, TranslationMemory } from './memory';
export { createMemory } from './memory';
export { rateFor, DEFAULT_RATES, type RateSettings } from './rates';

export interface ScheduleOptions extends SchedulerOptions {
  memory?: TranslationMemory;
  /** Epoch ms for the memory's `at` (the scheduler's own clock is monotonic). */
  wallClock?: () => number;
  /** Memory failures are not the caller's: they are reported here and the provider is asked. */
  warn?: (message: string) => void;
}

/** A hit costs no request; misses go to `inner`, and what it answers is stored with provenance. */
export function withMemory(inner: ScheduledProvider, memory: TranslationMemory, options: ScheduleOptions = {}, variant = ''): ScheduledProvider {
  const wallClock = options.wallClock ?? Date.now;
  const warn = options.warn ?? (() => {});
  // Another model or instance of the same provider translates differently: it has its own entries.
  const provider = variant ? `${inner.id}@${variant}` : inner.id;
  async function translateBatch(segments: readonly string[], pair: Pair, batch: BatchOptions, signal: AbortSignal): Promise<string[]> {
    const keyOf = (text: string): MemoryKey => ({ provider, src: pair.src, trg: pair.trg, domain: batch.domain, format: batch.format, text });
    let hits: (MemoryEntry | undefined)[];
    try {
      hits = await memory.get(segments.map(keyOf));
    } catch (e) {
      warn(`translation memory unreadable: ${(e as Error).message}`);
      hits = [];
    }
    // An HTML answer that misread its placeholder tags as words (tag-check.ts) is neither served
    // nor kept: the engine asks again another way (leg.ts), and a later page asks afresh.
    const mangled = (text: string, translation: string) => batch.format === 'html' && misreadsTags(text, translation);
    hits = hits.map((h, i) => (h && mangled(segments[i]!, h.translation) ? undefined : h));
    const misses = segments.flatMap((_, i) => (hits[i] ? [] : [i]));
    batch.onCached?.(segments.length - misses.length, segments.length);
    if (misses.length === 0) return hits.map((h) => h!.translation);
    const out = await inner.translateBatch(misses.map((i) => segments[i]!), pair, batch, signal);
    const at = wallClock();
    const result = segments.map((s, i) => hits[i]?.translation ?? s);
    const entries: MemoryEntry[] = [];
    misses.forEach((i, k) => {
      const translation = out[k];
      if (typeof translation !== 'string') return; // the engine reports the wrong count
      result[i] = translation;
      if (mangled(segments[i]!, translation)) return;
      entries.push({ ...keyOf(segments[i]!), translation, at, kind: 'translated' });
      if (translation !== segments[i]) entries.push({ ...keyOf(translation), translation, at, kind: 'output' });
    });
    // Not awaited: a slow disk must not delay the answer.
    memory.set(entries).catch((e: unknown) => warn(`translation memory not written: ${(e as Error).message}`));
    return out.length === misses.length ? result : out;
  }
  return { ...inner, translateBatch, health: () => inner.health() };
}

/** Wraps a provider with its rate budget (from `settings.rate` and the defaults) and the memory. */
export function scheduleProvider(provider: Provider, settings: ProviderSettings | undefined, options: ScheduleOptions = {}): ScheduledProvider {
  const scheduled = coalesce(provider, rateFor(provider.id, settings), options);
  const variant = [settings?.model, settings?.url].filter((v): v is string => typeof v === 'string' && v !== '').join(' ');
  return options.memory ? withMemory(scheduled, options.memory, options, variant) : scheduled;
}
