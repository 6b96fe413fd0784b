/** Global setup for the integration tier: builds dist-server/server.mjs once (~0.3 s), the bundle `npm run serve` runs. */
import { execFileSync } from 'node:child_process';
import { ROOT } from './shared';

export default function setup(): void {
  execFileSync('sh', ['scripts/build-server.sh'], { cwd: ROOT, stdio: 'inherit' });
}
