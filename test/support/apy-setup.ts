/**
 * Global setup for tiers that need a real Apertium APy on 127.0.0.1:2737: reuses a running one,
 * otherwise starts it with ../shared/tools/apy.sh (and stops it at the end).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { requireShared } from './shared';

export const APY_URL = 'http://127.0.0.1:2737';

async function answering(): Promise<boolean> {
  try {
    const res = await fetch(`${APY_URL}/listPairs`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

export default async function setup(): Promise<() => void> {
  process.env.APY_URL = APY_URL;
  if (await answering()) return () => {};
  const script = requireShared('tools/apy.sh');
  if (!existsSync('/usr/share/apertium-apy/langNames.db')) {
    throw new Error(`Apertium APy is not installed: run \`bash ${script} install\` (as root) first.`);
  }
  execFileSync('bash', [script, 'start'], { stdio: 'inherit' });
  return () => {
    execFileSync('bash', [script, 'stop'], { stdio: 'inherit' });
  };
}
