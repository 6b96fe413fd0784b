/** Global setup for the e2e tier: builds dist/ once (vite build takes 1-2 s) unless E2E_NO_BUILD=1. */
import { execFileSync } from 'node:child_process';
import { ROOT } from './shared';

export default function setup(): void {
  if (process.env.E2E_NO_BUILD === '1') return;
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
}
