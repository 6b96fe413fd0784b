/**
 * `npm run package`: the store uploads, versioned from package.json.
 *   artifacts/polyglot-translate-<version>-chrome.zip   dist/ (Chrome Web Store)
 *   artifacts/polyglot-translate-<version>-firefox.zip  dist-firefox/ (addons.mozilla.org)
 *   artifacts/polyglot-translate-<version>-source.zip   the tracked files (`git ls-files`), which AMO
 *                                                       asks for when the upload is built by tools
 * Builds both first (`--no-build` packs what is there) and refuses a Firefox build that `web-ext
 * lint` finds errors in. `--out <dir>` writes elsewhere. Zips are made with JSZip, entries sorted
 * and dated at the last commit, so the same tree gives the same bytes.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import JSZip from 'jszip';

const run = promisify(execFile);
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const NAME = 'polyglot-translate';

export interface Packages {
  version: string;
  chrome: string;
  firefox: string;
  source: string;
}

/** Files under `dir`, relative, `/`-separated, sorted; dotfiles (vite's `.vite/`) are left out. */
async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((p) => !p.split('/').some((part) => part.startsWith('.')))
    .sort();
}

/** Tracked files that exist in the working tree, without build output or dependencies. */
async function sourceFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const skip = /^(node_modules|dist|dist-firefox|artifacts)\//;
  const files = stdout.split('\0').filter((p) => p && !skip.test(p));
  const present = await Promise.all(files.map((p) => readFile(join(ROOT, p)).then(() => p, () => undefined)));
  return present.filter((p): p is string => p !== undefined).sort();
}

async function commitDate(): Promise<Date> {
  try {
    const { stdout } = await run('git', ['log', '-1', '--format=%ct'], { cwd: ROOT });
    const seconds = Number(stdout.trim());
    if (Number.isFinite(seconds) && seconds > 0) return new Date(seconds * 1000);
  } catch {
    // Not a git checkout: a fixed date still keeps the zip reproducible.
  }
  return new Date(Date.UTC(2020, 0, 1));
}

async function zip(base: string, files: readonly string[], out: string, date: Date): Promise<string> {
  const archive = new JSZip();
  for (const file of files) archive.file(file, await readFile(join(base, file)), { date, createFolders: false });
  const data = await archive.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 }, platform: 'UNIX' });
  await writeFile(out, data);
  return out;
}

async function lintFirefox(dir: string): Promise<void> {
  const { stdout } = await run('npx', ['web-ext', 'lint', '--source-dir', dir, '--output', 'json'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
    errors: { code: string; message: string; file?: string }[];
    warnings: { code: string; message: string; file?: string }[];
  };
  for (const w of report.warnings) console.warn(`web-ext lint warning ${w.code} ${w.file ?? ''}: ${w.message}`);
  if (report.errors.length > 0) {
    throw new Error(`web-ext lint: ${report.errors.map((e) => `${e.code} ${e.file ?? ''}: ${e.message}`).join('; ')}`);
  }
}

export async function makePackages(options: { out?: string; build?: boolean } = {}): Promise<Packages> {
  const out = resolve(options.out ?? join(ROOT, 'artifacts'));
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  if (options.build !== false) {
    await run('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT });
    await run('npx', ['vite', 'build', '--mode', 'firefox', '--logLevel', 'warn'], { cwd: ROOT });
  }
  const dist = join(ROOT, 'dist');
  const distFirefox = join(ROOT, 'dist-firefox');
  for (const dir of [dist, distFirefox]) {
    const built = (JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { version?: string }).version;
    if (built !== version) throw new Error(`${relative(ROOT, dir)}/manifest.json has version ${built}, package.json ${version}: build again`);
  }
  await lintFirefox(distFirefox);
  await mkdir(out, { recursive: true });
  const date = await commitDate();
  const file = (kind: string) => join(out, `${NAME}-${version}-${kind}.zip`);
  const [chrome, firefox, source] = await Promise.all([
    zip(dist, await filesIn(dist), file('chrome'), date),
    zip(distFirefox, await filesIn(distFirefox), file('firefox'), date),
    zip(ROOT, await sourceFiles(), file('source'), date),
  ]);
  return { version, chrome, firefox, source };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : undefined;
  makePackages({ ...(out ? { out } : {}), build: !args.includes('--no-build') }).then(
    (p) => {
      for (const path of [p.chrome, p.firefox, p.source]) console.log(relative(process.cwd(), path));
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    },
  );
}
