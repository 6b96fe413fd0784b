/**
 * The settings document from `--config <file>`. Changes are picked up by a stat per request
 * (mtime, size, inode) rather than fs.watch: watch events are lost or doubled when editors replace
 * the file by rename, while a stat costs microseconds next to a translation. Requests that arrive
 * while a stat is under way share it: at 200 concurrent clients one stat per request was ~4% of
 * the server's main thread (docs/speed.md "Memory").
 */
import { readFile, stat } from 'node:fs/promises';
import { ApiError } from '../core/errors';
import type { Settings } from '../core/settings/types';
import { validateSettings } from '../core/settings/validate';

/** A config file that cannot be used; the message names the file and the field. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export async function readConfig(path: string): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`config ${path}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config ${path}: not valid JSON (${(e as Error).message})`);
  }
  try {
    return validateSettings(doc);
  } catch (e) {
    if (e instanceof ApiError) throw new ConfigError(`config ${path}: ${e.message}`);
    throw e;
  }
}

async function fingerprint(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Reads the config now (throws ConfigError) and returns the settings getter for ServiceDeps. A
 * later edit that breaks the file is reported on stderr once and the last good settings stay in
 * force, so a typo does not take a running server down.
 */
export async function configSettings(path: string, warn: (message: string) => void): Promise<() => Promise<Settings>> {
  let stamp = await fingerprint(path);
  let current = await readConfig(path);
  let checking: Promise<Settings> | undefined;

  const check = async (): Promise<Settings> => {
    const now = await fingerprint(path);
    // A missing file (mid-replace, or deleted) keeps the last good settings.
    if (now === undefined || now === stamp) return current;
    stamp = now;
    try {
      current = await readConfig(path);
      warn(`config ${path} reloaded`);
    } catch (e) {
      warn(`${(e as Error).message}; keeping the previous settings`);
    }
    return current;
  };

  return () =>
    (checking ??= check().finally(() => {
      checking = undefined;
    }));
}
