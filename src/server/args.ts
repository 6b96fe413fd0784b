/** Command line of `npm run serve`. */
import { parseArgs } from 'node:util';

export const USAGE = 'usage: npm run serve -- [--config <file>] [--port <n>] [--host <address>] [--state <file>]';

export interface ServerOptions {
  /** Settings document; absent: the defaults. */
  config?: string;
  /** 0 lets the system pick a free port (printed in the ready line). */
  port: number;
  host: string;
  /** Usage state file; default `<config>.state.json`; absent without config: usage kept in memory only. */
  state?: string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseServerArgs(argv: readonly string[]): ServerOptions {
  let values: { config?: string; port?: string; host?: string; state?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, state: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const port = Number(values.port ?? '0');
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, not "${values.port}"`);
  if (values.host === '') throw new UsageError('--host must not be empty');
  if (values.config === '' || values.state === '') throw new UsageError('--config and --state need a file name');
  const state = values.state ?? (values.config !== undefined ? `${values.config}.state.json` : undefined);
  return {
    port,
    host: values.host ?? '127.0.0.1',
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(state !== undefined ? { state } : {}),
  };
}
