import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and `../shared` beside it (CI puts shared/ next to the clone). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = process.env.SHARED_DIR ?? resolve(ROOT, '../shared');

/** Throws a message saying what is missing, for tests that need ../shared. */
export function requireShared(what: string): string {
  const path = resolve(SHARED, what);
  if (!existsSync(path)) {
    throw new Error(
      `This test needs ${path} (the project's shared/ folder beside the clone, or SHARED_DIR). ` +
        'It is missing: check out shared/ next to this repository.',
    );
  }
  return path;
}
