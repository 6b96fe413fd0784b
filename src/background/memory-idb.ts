/**
 * The extension's translation memory in IndexedDB (through `idb`), so it survives the service
 * worker and stays out of its RAM (the worker must stay under 64 MB on the largest page). One
 * object store keyed by the memory key, with a `used` index (last hit or write) for LRU eviction.
 * Eviction runs after every EVICT_EVERY writes, not each one: counting is a full index scan.
 *
 * Lookups stand before every provider request, so they read in a read-only transaction: those run
 * side by side, while read-write ones queue behind each other and each waits for its commit (a
 * read-write lookup took 40-60 ms before each request of a page translation). A hit's LRU time is
 * refreshed in a read-write transaction of its own, not waited for; it is created before the
 * lookup returns, so it precedes any later write, and the order of eviction stays exact. Writes
 * are `relaxed`: a cache need not wait for the disk.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { DEFAULT_MAX_ENTRIES, memoryKey, type MemoryEntry, type MemoryKey, type TranslationMemory } from '../core/scheduler/memory';

interface Stored extends MemoryEntry {
  id: string;
  used: number;
}

interface MemorySchema extends DBSchema {
  tm: { key: string; value: Stored; indexes: { used: number } };
}

export const MEMORY_DB = 'translation-memory';
const EVICT_EVERY = 200;

export interface IdbMemoryOptions {
  name?: string;
  maxEntries?: number;
  now?: () => number;
}

export function idbMemory(options: IdbMemoryOptions = {}): TranslationMemory & { count(): Promise<number>; open(): Promise<unknown> } {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  let writes = 0;
  let db: Promise<IDBPDatabase<MemorySchema>> | undefined;
  const open = () => {
    db ??= openDB<MemorySchema>(options.name ?? MEMORY_DB, 1, {
      upgrade(d) {
        d.createObjectStore('tm', { keyPath: 'id' }).createIndex('used', 'used');
      },
    });
    return db;
  };

  const write = (d: IDBPDatabase<MemorySchema>) => d.transaction('tm', 'readwrite', { durability: 'relaxed' });

  async function evict(d: IDBPDatabase<MemorySchema>): Promise<void> {
    const tx = write(d);
    let extra = (await tx.store.count()) - maxEntries;
    let cursor = extra > 0 ? await tx.store.index('used').openCursor() : null;
    while (cursor && extra > 0) {
      await cursor.delete();
      extra -= 1;
      cursor = await cursor.continue();
    }
    await tx.done;
  }

  return {
    open,
    async get(keys: readonly MemoryKey[]) {
      const d = await open();
      const tx = d.transaction('tm', 'readonly');
      const found = await Promise.all(keys.map((k) => tx.store.get(memoryKey(k))));
      const hits = found.filter((e): e is Stored => e !== undefined);
      if (hits.length > 0) {
        // A hit counts as a use: it moves to the young end of the LRU order.
        const touch = write(d);
        const t = now();
        for (const e of hits) touch.store.put({ ...e, used: t }).catch(() => undefined);
        touch.done.catch(() => undefined);
      }
      return found.map((e) => {
        if (!e) return undefined;
        const { id: _id, used: _used, ...entry } = e;
        return entry;
      });
    },
    async set(entries: readonly MemoryEntry[]) {
      if (entries.length === 0) return;
      const d = await open();
      const tx = write(d);
      const t = now();
      await Promise.all(
        entries.map(async (e) => {
          const id = memoryKey(e);
          if (e.kind === 'output' && (await tx.store.get(id))?.kind === 'translated') return;
          await tx.store.put({ ...e, id, used: t });
        }),
      );
      await tx.done;
      writes += entries.length;
      // A small cap is checked more often, so it is never overshot by more than a tenth.
      if (writes >= Math.min(EVICT_EVERY, Math.ceil(maxEntries / 10))) {
        writes = 0;
        await evict(d);
      }
    },
    async count() {
      return (await open()).count('tm');
    },
  };
}
