/**
 * `npm run serve -- --config <file> --port <n> [--host 127.0.0.1] [--state <file>] [--memory <file>]`:
 * the interface
 * over HTTP on the extension's engine. Prints one line `listening on http://<host>:<port>` when
 * ready; on SIGTERM/SIGINT stops accepting, lets in-flight requests finish (5 s at most), writes
 * usage and exits 0. Exit 2: bad arguments, config or state file.
 * `--memory`: the translation memory (JSONL); default beside the state file
 * (`<state without .json>.memory.jsonl`); without a state file it is kept in RAM only.
 */
import type { AddressInfo } from 'node:net';
import { createService } from '../core/service';
import { withDefaults } from '../core/settings/defaults';
import type { Settings } from '../core/settings/types';
import { memoryStore, type KeyValueStore } from '../core/storage';
import { PROVIDERS } from '../providers/index';
import { parseServerArgs, USAGE, UsageError, type ServerOptions } from './args';
import { ConfigError, configSettings } from './config';
import { serverFetch } from './fetch';
import { createHttpServer } from './http';
import { openFileMemory, type FileMemory } from './memory-file';
import { CorruptStateError, openStateFile } from './state';
import { Usage } from '../core/usage/usage';
import { createMemory, type TranslationMemory } from '../core/scheduler/index';

const DRAIN_MS = 5000;
const warn = (message: string) => console.error(message);

/** `--memory <file>` / `--memory=<file>`, taken out before the other arguments are parsed. */
function takeMemoryArg(argv: string[]): { rest: string[]; memory?: string } {
  const rest: string[] = [];
  let memory: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--memory') {
      memory = argv[++i];
      if (!memory) throw new UsageError('--memory needs a file name');
    } else if (a.startsWith('--memory=')) memory = a.slice('--memory='.length);
    else rest.push(a);
  }
  return memory !== undefined ? { rest, memory } : { rest };
}

interface Deps {
  settings: () => Promise<Settings>;
  store: KeyValueStore;
  memory: TranslationMemory;
  file?: FileMemory;
}

async function setup(options: ServerOptions, memoryPath: string | undefined): Promise<Deps> {
  const defaults = withDefaults({});
  const settings = options.config !== undefined ? await configSettings(options.config, warn) : async () => defaults;
  if (options.state === undefined) warn('no --config or --state: usage is kept in memory only');
  const store = options.state !== undefined ? await openStateFile(options.state) : memoryStore();
  // Counters of the wrong shape would fail every request with a 500: refuse to start instead.
  await new Usage(store).load().catch((e: unknown) => {
    throw new CorruptStateError(`state file ${options.state}: ${(e as Error).message}; fix or remove it`);
  });
  const path = memoryPath ?? (options.state !== undefined ? `${options.state.replace(/\.json$/, '')}.memory.jsonl` : undefined);
  if (path === undefined) return { settings, store, memory: createMemory() };
  const file = await openFileMemory(path);
  return { settings, store, memory: file, file };
}

async function main(): Promise<void> {
  let options: ServerOptions;
  let deps: Deps;
  try {
    const { rest, memory } = takeMemoryArg(process.argv.slice(2));
    options = parseServerArgs(rest);
    deps = await setup(options, memory);
  } catch (e) {
    if (e instanceof UsageError) warn(`${e.message}\n${USAGE}`);
    else if (e instanceof ConfigError || e instanceof CorruptStateError) warn(e.message);
    else throw e;
    process.exit(2);
  }
  const service = createService({ ...deps, providers: PROVIDERS, fetch: serverFetch(), warn });
  const server = createHttpServer(service, { log: warn });

  let stopping = false;
  // Keep-alive connections would otherwise hold close() open until the drain deadline.
  server.on('request', (_req, res) => res.on('finish', () => stopping && setImmediate(() => server.closeIdleConnections())));
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    await closed;
    clearTimeout(deadline);
    try {
      await service.flush();
      await deps.file?.flush();
    } catch (e) {
      warn(`could not write usage: ${(e as Error).message}`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  server.on('error', (e) => {
    warn(`cannot listen on ${options.host}:${options.port}: ${e.message}`);
    process.exit(1);
  });
  server.listen(options.port, options.host, () => {
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    process.stdout.write(`listening on http://${host}:${port}\n`);
  });
}

void main();
