/**
 * The server as `npm run serve` runs it: scripts/serve.sh execs plain node on the bundle
 * (dist-server/server.mjs) with the shipped heap flags, so the child's pid is the server's and
 * signals reach it directly. The bundle is built once per run (server-build-setup.ts).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ROOT } from './shared';

export function spawnServer(args: readonly string[]): ChildProcessByStdio<null, Readable, Readable> {
  return spawn('sh', [join(ROOT, 'scripts/serve.sh'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SERVE_NO_BUILD: '1' },
  });
}
