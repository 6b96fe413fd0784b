/**
 * Translation memory: translations kept by provider, pair, domain, format and text, with the
 * provider that produced them and when; a hit costs no provider request. Implementations: in
 * memory (here; tests, bench, server without a file), IndexedDB (src/background/memory-idb.ts),
 * a JSONL file (src/server/memory-file.ts). All are capped with least-recently-used eviction: by
 * entries, and the in-RAM ones also by characters held.
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
/**
 * What the in-RAM memories (server, tests) hold at most, in characters of keys, texts and
 * translations: ~4 large pages. Page chunks run to ~3 kB an entry, so 20k entries alone would
 * let the server's heap grow by ~56 MB (docs/speed.md "Memory").
 */
export const DEFAULT_MAX_CHARS = 6_000_000;

/** Characters an entry keeps in an LRU: its map key (which holds the text) and its own strings. */
const entryChars = (id: string, e: MemoryEntry): number => id.length + e.text.length + e.translation.length;

/** An LRU map of entries (a Map keeps insertion order: a hit is re-inserted at the end). */
export class MemoryLru implements TranslationMemory {
  private readonly map = new Map<string, MemoryEntry>();
  private heldChars = 0;

  constructor(
    readonly maxEntries = DEFAULT_MAX_ENTRIES,
    /** Told about entries evicted by the cap (the file implementation rewrites on many). */
    private readonly onEvict?: (n: number) => void,
    readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Characters held (keys, texts, translations): what `maxChars` caps. */
  get chars(): number {
    return this.heldChars;
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
      const old = this.map.get(id);
      if (e.kind === 'output' && old?.kind === 'translated') continue;
      if (old) {
        this.heldChars -= entryChars(id, old);
        this.map.delete(id);
      }
      // The entry's text is the caller's string (shared with its request), not a copy.
      const kept: MemoryEntry = { ...e };
      this.map.set(id, kept);
      this.heldChars += entryChars(id, kept);
    }
    let evicted = 0;
    while (this.map.size > this.maxEntries || (this.heldChars > this.maxChars && this.map.size > 1)) {
      const [id, oldest] = this.map.entries().next().value!;
      this.map.delete(id);
      this.heldChars -= entryChars(id, oldest);
      evicted += 1;
    }
    if (evicted > 0) this.onEvict?.(evicted);
  }
}

export function createMemory(maxEntries = DEFAULT_MAX_ENTRIES, maxChars = DEFAULT_MAX_CHARS): TranslationMemory {
  return new MemoryLru(maxEntries, undefined, maxChars);
}
