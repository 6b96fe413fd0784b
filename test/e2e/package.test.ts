/** `npm run package`: store zips for Chrome and Firefox and AMO's source zip, versioned from package.json. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePackages, type Packages } from '../../scripts/package';
import { ROOT } from '../support/shared';

interface Manifest {
  version: string;
  background: { service_worker?: string; scripts?: string[] };
  browser_specific_settings?: { gecko?: { id?: string } };
}

const open = async (path: string) => JSZip.loadAsync(await readFile(path));
const manifestOf = async (zip: JSZip) => JSON.parse((await zip.file('manifest.json')?.async('string')) ?? 'null') as Manifest;

describe('npm run package', () => {
  let out: string;
  let packages: Packages;
  let version: string;

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'polyglot-package-'));
    version = (JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    packages = await makePackages({ out });
  });
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('names the zips after package.json version', () => {
    expect(packages.version).toBe(version);
    expect([packages.chrome, packages.firefox, packages.source].map((p) => basename(p))).toEqual([
      `polyglot-translate-${version}-chrome.zip`,
      `polyglot-translate-${version}-firefox.zip`,
      `polyglot-translate-${version}-source.zip`,
    ]);
  });

  it('Chrome zip: the manifest at the root, a service worker, the version from package.json', async () => {
    const zip = await open(packages.chrome);
    const manifest = await manifestOf(zip);
    expect(manifest.version).toBe(version);
    expect(manifest.background.service_worker).toMatch(/\.js$/);
    expect(manifest.browser_specific_settings).toBeUndefined();
    expect(zip.file(manifest.background.service_worker ?? '')).not.toBeNull();
    expect(zip.file('src/content/index.js')).not.toBeNull();
    // vite's own .vite/manifest.json is build metadata, not part of the extension.
    expect(Object.keys(zip.files).filter((f) => f.startsWith('.') || f.includes('/.'))).toEqual([]);
  });

  it('Firefox zip: background scripts, the gecko id, the same version', async () => {
    const zip = await open(packages.firefox);
    const manifest = await manifestOf(zip);
    expect(manifest.version).toBe(version);
    expect(manifest.background.scripts).toHaveLength(1);
    expect(zip.file(manifest.background.scripts?.[0] ?? '')).not.toBeNull();
    expect(manifest.browser_specific_settings?.gecko?.id).toContain('@');
  });

  it('source zip: tracked files to rebuild from, no dependencies or build output', async () => {
    const files = Object.keys((await open(packages.source)).files);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'manifest.json', 'vite.config.ts', 'src/background/index.ts', 'README.md']));
    expect(files.filter((f) => /^(node_modules|dist|dist-firefox|artifacts)\//.test(f))).toEqual([]);
  });

  it('gives the same bytes for the same tree', async () => {
    const again = await makePackages({ out: join(out, 'again'), build: false });
    for (const kind of ['chrome', 'firefox'] as const) {
      const [a, b] = await Promise.all([readFile(packages[kind]), readFile(again[kind])]);
      expect(a.equals(b)).toBe(true);
    }
  });
});
