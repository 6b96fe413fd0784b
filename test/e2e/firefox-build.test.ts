/** The Firefox build: its manifest transform, and `web-ext lint` passing with no errors. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared';

const run = promisify(execFile);
const DIST_FIREFOX = resolve(ROOT, 'dist-firefox');

interface LintMessage {
  code: string;
  message: string;
  file?: string;
}
interface LintReport {
  summary: { errors: number; warnings: number; notices: number };
  errors: LintMessage[];
  warnings: LintMessage[];
}

describe('Firefox build', () => {
  beforeAll(async () => {
    await run('npx', ['vite', 'build', '--mode', 'firefox', '--logLevel', 'warn'], { cwd: ROOT });
  });

  it('runs the background as an event page and declares the gecko settings', async () => {
    const manifest = JSON.parse(await readFile(resolve(DIST_FIREFOX, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['background']).toEqual({ scripts: [expect.stringMatching(/\.js$/)], type: 'module' });
    expect(manifest['browser_specific_settings']).toEqual({
      gecko: {
        id: expect.stringContaining('@'),
        strict_min_version: '142.0',
        data_collection_permissions: { required: ['none'] },
      },
    });
    // Keys never in storage.sync, and no host beyond loopback for now.
    expect(manifest['permissions']).toEqual(['storage', 'contextMenus']);
    expect(manifest['host_permissions']).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
    // Provider hosts beyond loopback: optional, requested from the options page (host-access.ts).
    expect(manifest['optional_host_permissions']).toEqual(['https://*/*', 'http://*/*']);
    expect(manifest['content_security_policy']).toEqual({
      extension_pages: "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    });
    expect(manifest).not.toHaveProperty('web_accessible_resources');
  });

  it('passes web-ext lint with no errors', async () => {
    // web-ext exits non-zero on errors; the JSON report is on stdout either way.
    const { stdout } = await run('npx', ['web-ext', 'lint', '--source-dir', DIST_FIREFOX, '--output', 'json'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
    expect(report.errors).toEqual([]);
    // The one warning left is Preact's own (its runtime supports dangerouslySetInnerHTML); none is ours.
    const ours: string[] = [];
    for (const w of report.warnings) {
      const code = w.file ? await readFile(resolve(DIST_FIREFOX, w.file), 'utf8') : '';
      if (!(w.code === 'UNSAFE_VAR_ASSIGNMENT' && code.includes('dangerouslySetInnerHTML'))) ours.push(`${w.code} ${w.file ?? ''}`);
    }
    expect(ours).toEqual([]);
    if (report.summary.warnings > 0) {
      console.warn(`web-ext lint warnings:\n${report.warnings.map((w) => `${w.code} ${w.file ?? ''}: ${w.message}`).join('\n')}`);
    }
  });
});
