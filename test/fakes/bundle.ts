/**
 * A page's script bundled for the browser by esbuild (React and Radix have no browser build of
 * their own; Lit and Svelte are imported as modules): `contents` and what it imports, from
 * node_modules, as one minified IIFE in production mode.
 */
import { build, type Plugin } from 'esbuild';

export async function bundle(contents: string, plugins: Plugin[] = []): Promise<string> {
  const out = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    plugins,
  });
  return out.outputFiles[0]!.text;
}
