/**
 * Translation memory: translations kept by provider, pair, domain, format and text, with the
 * provider that produced them and when; a hit costs no provider request. Implementations: in
 * memory (here; tests, bench, server without a file), IndexedDB (src/background/memory-idb.ts),
 * a JSONL file (src/server/memory-file.ts). All are size-capped with least-recently-used eviction.
 */
import type { Domain, Format } from '../types';

export interface MemoryKey {
  provider: string;
  src: string;
  trg: string;
  domain: Domain;
  format: Format;
  /** The segment exactly as sent to the provider (protected markup for frm=html). */
  text: string;
}

export interface MemoryEntry extends MemoryKey {
  translation: string;
  /** Epoch ms when the provider produced it. */
  at: number;
  /**
   * `translated`: the provider's answer for `text`. `output`: `text` is itself a translation into
   * `trg` (stored as its own translation), so a page that re-inserts translated text is not sent again.
   */
  kind: 'translated' | 'output';
}

export interface TranslationMemory {
  /** One result per key, in order; undefined for a miss. A hit counts as a use for eviction. */
  get(keys: readonly MemoryKey[]): Promise<(MemoryEntry | undefined)[]>;
  set(entries: readonly MemoryEntry[]): Promise<void>;
}

export const SEP = '\u0001';
export const memoryKey = (k: MemoryKey): string => [k.provider, k.src, k.trg, k.domain, k.format, k.text].join(SEP);

/** Default caps: ~20k segments is a few large pages; at ~1 kB per entry it stays far under 64 MB. */
export const DEFAULT_MAX_ENTRIES = 20_000;

/** An LRU map of entries (a Map keeps insertion order: a hit is re-inserted at the end). */
export class MemoryLru implements TranslationMemory {
  private readonly map = new Map<string, MemoryEntry>();

  constructor(
    readonly maxEntries = DEFAULT_MAX_ENTRIES,
    /** Told about entries evicted by the cap (the file implementation rewrites on many). */
    private readonly onEvict?: (n: number) => void,
  ) {}

  get size(): number {
    return this.map.size;
  }

  entries(): IterableIterator<MemoryEntry> {
    return this.map.values();
  }

  async get(keys: readonly MemoryKey[]): Promise<(MemoryEntry | undefined)[]> {
    return this.getSync(keys);
  }

  getSync(keys: readonly MemoryKey[]): (MemoryEntry | undefined)[] {
    return keys.map((k) => {
      const id = memoryKey(k);
      const hit = this.map.get(id);
      if (hit) {
        this.map.delete(id);
        this.map.set(id, hit);
      }
      return hit;
    });
  }

  async set(entries: readonly MemoryEntry[]): Promise<void> {
    this.setSync(entries);
  }

  setSync(entries: readonly MemoryEntry[]): void {
    for (const e of entries) {
      const id = memoryKey(e);
      // A provider's own translation is better evidence than the echo of an output.
      if (e.kind === 'output' && this.map.get(id)?.kind === 'translated') continue;
      this.map.delete(id);
      this.map.set(id, { ...e });
    }
    let evicted = 0;
    while (this.map.size > this.maxEntries) {
      this.map.delete(this.map.keys().next().value!);
      evicted += 1;
    }
    if (evicted > 0) this.onEvict?.(evicted);
  }
}

export function createMemory(maxEntries = DEFAULT_MAX_ENTRIES): TranslationMemory {
  return new MemoryLru(maxEntries);
}
