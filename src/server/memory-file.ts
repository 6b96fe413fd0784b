/**
 * The server's translation memory: an append-only JSONL file, one entry per line, loaded into an
 * LRU map at start. New entries are appended (batched: one write per burst); when the file holds
 * twice as many lines as the cap allows entries, it is rewritten from the map through a temporary
 * file and a rename, so a crash leaves the old or the new file, never half of one. A torn last
 * line (a crash mid-append) is skipped on load. Recency of hits is not written: after a restart,
 * eviction follows the order entries were written in.
 * The file is read line by line and rewritten in pieces: at the default cap with page-sized
 * entries (~34 MB of JSONL), a rewrite built as one string raised RSS by ~160 MB, in pieces ~14 MB.
 */
import { createReadStream } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { DEFAULT_MAX_ENTRIES, MemoryLru, type MemoryEntry, type MemoryKey, type TranslationMemory } from '../core/scheduler/memory';
import { writeAtomic } from './state';

export interface FileMemory extends TranslationMemory {
  readonly path: string;
  readonly size: number;
  /** Waits for pending writes (call before exit). */
  flush(): Promise<void>;
}

/** Lines per write when the file is rewritten: ~0.5-1 MB pieces for page-sized entries. */
const REWRITE_LINES = 256;

const isEntry = (v: unknown): v is MemoryEntry => {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return ['provider', 'src', 'trg', 'domain', 'format', 'text', 'translation'].every((k) => typeof e[k] === 'string') && typeof e.at === 'number';
};

export async function openFileMemory(path: string, maxEntries = DEFAULT_MAX_ENTRIES): Promise<FileMemory> {
  const lru = new MemoryLru(maxEntries);
  let lines = 0;
  try {
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      if (!line) continue;
      try {
        const e: unknown = JSON.parse(line);
        if (isEntry(e)) lru.setSync([{ ...e, kind: e.kind === 'output' ? 'output' : 'translated' }]);
      } catch {
        // A torn line from a crash mid-append: the rest of the file is still good.
      }
      lines += 1;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }

  let pending: string[] = [];
  /** The write under way, and the one after it that every caller meanwhile shares. */
  let current: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  /** Everything pending, in one append (or a compaction). */
  async function writePending(): Promise<void> {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    // Compacted when the file holds twice what the memory keeps (its cap is by entries and by characters).
    if (lines + batch.length > 2 * Math.max(lru.size, 1)) {
      await rewrite();
    } else {
      await appendFile(path, batch.join(''), { encoding: 'utf8', mode: 0o600 });
      lines += batch.length;
    }
  }

  /**
   * One write at a time, and at most one waiting: entries set while a write is under way go in
   * the next one, which all their callers share. (A chain of one write per call grew without
   * bound under load, ~16k waiting calls with their entries after 50 s at 200 clients, since
   * each write costs an event-loop turn.)
   */
  function write(): Promise<void> {
    if (!current) {
      current = writePending().finally(() => {
        current = undefined;
      });
      return current;
    }
    const after = () => {
      next = undefined;
      return write();
    };
    next ??= current.then(after, after);
    return next;
  }

  async function rewrite(): Promise<void> {
    const all = [...lru.entries()];
    await writeAtomic(path, jsonl(all));
    lines = all.length;
  }

  return {
    path,
    get size() {
      return lru.size;
    },
    async get(keys: readonly MemoryKey[]) {
      return lru.getSync(keys);
    },
    async set(entries: readonly MemoryEntry[]) {
      lru.setSync(entries);
      for (const e of entries) pending.push(`${JSON.stringify(e)}\n`);
      await write();
    },
    flush: () => write(),
  };
}

/** Entries as JSONL, REWRITE_LINES lines per piece. */
function* jsonl(entries: readonly MemoryEntry[]): Generator<string> {
  for (let i = 0; i < entries.length; i += REWRITE_LINES) {
    yield entries
      .slice(i, i + REWRITE_LINES)
      .map((e) => `${JSON.stringify(e)}\n`)
      .join('');
  }
}
