/**
 * Builds the extension: `vite build` -> dist/ (Chrome), `vite build --mode firefox` -> dist-firefox/.
 * Tests use vitest.config.ts, kept apart so the crx plugin is never loaded for them.
 */
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };
import pkg from './package.json' with { type: 'json' };

type Manifest = typeof manifest;

/** Gecko id of the Firefox build; it is also the add-on id in AMO and in enterprise policies. */
export const GECKO_ID = 'polyglot-translate@polyglot.invalid';

/**
 * Firefox MV3 has no extension service worker: the same entry runs as an event page
 * (`background.scripts`), and the add-on needs an id, the first version we test on (TOOLCHAIN.md)
 * and a data-collection declaration (required since Firefox 142 for new add-ons).
 */
export function firefoxManifest(m: Manifest): Record<string, unknown> {
  const { service_worker, ...background } = m.background;
  return {
    ...m,
    background: { ...background, scripts: [service_worker] },
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        strict_min_version: '142.0',
        // Nothing is sent to us; text goes only to the providers the user configures.
        data_collection_permissions: { required: ['none'] },
      },
    },
  };
}

/** package.json is the one place the version is set; both manifests take it from there. */
export function withVersion(m: Manifest, version: string = pkg.version): Manifest {
  return { ...m, version };
}

export default defineConfig(({ mode }) => {
  const firefox = mode === 'firefox';
  return {
    plugins: [
      preact(),
      crx({
        manifest: (firefox ? firefoxManifest(withVersion(manifest)) : withVersion(manifest)) as ManifestV3Export,
        browser: firefox ? 'firefox' : 'chrome',
        // A self-contained IIFE content script needs no loader, hence no web_accessible_resources
        // that any web page could probe to detect the extension.
        contentScripts: { standaloneFiles: ['src/content/index.ts', 'src/content/main-world.ts'] },
      }),
    ],
    build: {
      outDir: firefox ? 'dist-firefox' : 'dist',
      emptyOutDir: true,
      target: 'es2022',
      // AMO reviewers read the shipped code; unminified it needs no source submission to check.
      minify: !firefox,
    },
  };
});
