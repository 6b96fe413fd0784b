/**
 * Real page libraries that reshape text, served to the e2e tests' pages from node_modules: mark.js
 * (a highlighter: splits a text around a word and copies it into a new `<mark>` in its place).
 * Each page names the script it loads (`<script src="/lib/mark.js">`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PageServer } from './page-server';

const require = createRequire(import.meta.url);

const FILES: Record<string, string> = {
  '/lib/mark.js': 'mark.js/dist/mark.min.js',
};

/** Serves the libraries at `/lib/mark.js`. */
export function serveLibraries(server: PageServer): void {
  for (const [path, file] of Object.entries(FILES)) server.set(path, readFileSync(require.resolve(file), 'utf8'), { 'content-type': 'text/javascript' });
}

/** mark.js on the page, as a search page uses it: `__mark(word)` marks the word in the body, `__unmark()` takes the marks out. */
export const MARK_SCRIPT = `<script src="/lib/mark.js"></script><script>
window.__mark = (word) => new Mark(document.body).mark(word, { separateWordSearch: false });
window.__unmark = () => new Mark(document.body).unmark();
</script>`;

