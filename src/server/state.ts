/**
 * The server's KeyValueStore: one JSON object in a state file (usage counters), loaded once at
 * start and rewritten whole on every change. Writes go to a temporary file that is fsynced and
 * renamed over the old one, so a crash leaves either the old or the new state, never half of one.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import type { KeyValueStore } from '../core/storage';

/** The state file exists but is not a JSON object: refusing to start beats silently resetting usage. */
export class CorruptStateError extends Error {
  override name = 'CorruptStateError';
}

export interface FileStore extends KeyValueStore {
  readonly path: string;
}

export async function openStateFile(path: string): Promise<FileStore> {
  const data = await load(path);
  let writing: Promise<void> | undefined;
  let dirty = false;

  /** Coalesces writes: callers that arrive while a write runs share the next one. */
  async function persist(): Promise<void> {
    dirty = true;
    while (writing) await writing.catch(() => undefined);
    if (!dirty) return;
    dirty = false;
    writing = writeAtomic(path, `${JSON.stringify(data, null, 1)}\n`).finally(() => {
      writing = undefined;
    });
    await writing;
  }

  return {
    path,
    async get<T>(key: string) {
      const value = data[key];
      return value === undefined ? undefined : (structuredClone(value) as T);
    },
    async set(key, value) {
      // Stored as its JSON form, so later mutation by the caller cannot change what is saved.
      data[key] = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
      await persist();
    },
  };
}

async function load(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new CorruptStateError(`state file ${path} is corrupt (${(e as Error).message}); fix or remove it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CorruptStateError(`state file ${path} is corrupt (not a JSON object); fix or remove it`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Writes a file so that a crash leaves the old or the new content, never a mix (temp file, fsync,
 * rename). The text may come in pieces, written one after another, so a large file (the
 * translation memory) never has to be one string in memory.
 */
export async function writeAtomic(path: string, text: string | Iterable<string>): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  const file = await open(tmp, 'w', 0o600);
  try {
    // On a handle, writeFile writes from the current position: the pieces follow each other.
    for (const piece of typeof text === 'string' ? [text] : text) await file.writeFile(piece, 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
