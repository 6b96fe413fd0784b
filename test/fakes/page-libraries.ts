/**
 * Real page libraries that reshape text, served to the e2e tests' pages from node_modules: mark.js
 * (a highlighter: splits a text around a word and wraps it in a `<mark>`), Clamp.js (cuts a line's
 * last text word by word with an ellipsis, and takes its last nodes out where that is not enough)
 * shave (writes an element's words again, cut, with the ellipsis and the hidden rest in spans of
 * its own), linkify-element (puts a text's words again in a text, a link and a text, where it
 * holds an address) and rangy's class applier (an annotator's highlighter: splits the texts a
 * highlight starts and ends in, and puts a `<mark>` around each whole text between); and
 * Bootstrap and `focus-trap`, whose dialogs hold the focus; typewriter-effect, which types a word
 * into a sentence and erases it, again and again; Splitting.js and SplitType, which split a
 * heading into an element per letter (and SplitType per line) for an animation, and anime.js,
whose `splitText` splits one per line, word and letter, with the whole text for screen readers
beside the lines; Lettering.js (a jQuery plugin), which numbers each letter's class (`char1`,
`char2`…). Each page names the script it loads
 * (`<script src="/lib/mark.js">`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PageServer } from './page-server';

const require = createRequire(import.meta.url);

const FILES: Record<string, string> = {
  '/lib/mark.js': 'mark.js/dist/mark.min.js',
  '/lib/clamp.js': 'clamp-js/clamp.js',
  '/lib/shave.js': 'shave/dist/shave.global.js',
  '/lib/linkify.js': 'linkifyjs/dist/linkify.min.js',
  '/lib/linkify-element.js': 'linkify-element/dist/linkify-element.min.js',
  '/lib/rangy-core.js': 'rangy/lib/rangy-core.js',
  '/lib/rangy-classapplier.js': 'rangy/lib/rangy-classapplier.js',
  // Dialogs that hold the focus in them (page-dialog-scripts.test.ts).
  '/lib/bootstrap.js': 'bootstrap/dist/js/bootstrap.bundle.min.js',
  '/lib/tabbable.js': 'tabbable/dist/index.umd.min.js',
  '/lib/focus-trap.js': 'focus-trap/dist/focus-trap.umd.min.js',
  // A word typed and erased in a sentence, in a loop (page-lively.test.ts).
  '/lib/typewriter.js': 'typewriter-effect/dist/core.js',
  // A heading split into an element per letter or line for an animation (page-apertium.test.ts).
  '/lib/splitting.js': 'splitting/dist/splitting.js',
  '/lib/splitting.css': 'splitting/dist/splitting.css',
  '/lib/split-type.js': 'split-type/umd/index.min.js',
  // A file its package does not export: found from the package's main file (`libraryFile`).
  '/lib/anime.js': 'animejs:../bundles/anime.umd.min.js',
  '/lib/jquery.js': 'jquery',
  '/lib/lettering.js': 'letteringjs/jquery.lettering.js',
};

/**
 * A dialog held by the real `focus-trap` library, as it comes (a click outside it is stopped),
 * shown at load over `behind`; its words in `#in`, its button `#agree`.
 */
export const FOCUS_TRAP_PAGE = (behind: string, words: string) => `<!doctype html><html lang="en"><head><title>Terms</title></head><body>${behind}
<div id="dialog" role="dialog" aria-modal="true" style="position: fixed; inset: 20px; background: #fff; border: 1px solid">
<p id="in">${words}</p><button id="agree">I agree</button></div>
<script src="/lib/tabbable.js"></script><script src="/lib/focus-trap.js"></script>
<script>focusTrap.createFocusTrap('#dialog').activate();</script></body></html>`;

/** A `FILES` entry's path: a module path, or `package:path` from the package's main file for one its `exports` leave out. */
function libraryFile(file: string): string {
  const [pkg, rest] = file.split(':');
  return rest === undefined ? require.resolve(file) : join(dirname(require.resolve(pkg!)), rest);
}

/** Serves the libraries at `/lib/<name>.js`, and their styles at `/lib/<name>.css` (`FILES`). */
export function serveLibraries(server: PageServer): void {
  for (const [path, file] of Object.entries(FILES)) {
    server.set(path, readFileSync(libraryFile(file), 'utf8'), { 'content-type': path.endsWith('.css') ? 'text/css' : 'text/javascript' });
  }
}

/** mark.js on the page, as a search page uses it: `__mark(word)` marks the word in the body, `__unmark()` takes the marks out. */
export const MARK_SCRIPT = `<script src="/lib/mark.js"></script><script>
window.__mark = (word) => new Mark(document.body).mark(word, { separateWordSearch: false });
window.__unmark = () => new Mark(document.body).unmark();
</script>`;

/**
 * A card whose text the page fits to its box when the window is resized (`__fit(px)`, the page narrowed to px), with the real
 * Clamp.js (to one line, `useNativeClamp: false` as pages that clamp where the CSS one does not
 * reach) or the real shave (to 20 pixels: one line). The original fits; the test narrows the page,
 * as a reader narrowing the window. `card`: the card's markup (`id="card"`), one paragraph unless given.
 */
export const FIT_PAGE = (lib: 'clamp' | 'shave', card = '<p id="card">Find the walk in the <b>big walk</b> hills of the north.</p>') => `<!doctype html><html lang="en"><head><title>Fit</title>
<style>body { font: 16px/20px sans-serif } #card p { margin: 0 }</style></head><body>
${card}
<p id="still">A paragraph that stays as it is.</p>
<script src="/lib/${lib}.js"></script><script>
const card = document.getElementById('card');
window.__fit = (px) => {
  document.body.style.width = px + 'px';
  ${lib === 'clamp' ? "$clamp(card, { clamp: 1, useNativeClamp: false });" : "shave(card, 20);"}
};
</script></body></html>`;

/** One text of ~2 600 characters, a long paragraph of an article: translated in pieces at its sentences. */
export const LONG_TEXT = Array.from({ length: 30 }, (_, i) => `Sentence ${i} tells of the walk in the hills of the north, where the path goes on.`).join(' ');

/** A card of a run and a paragraph of its own, two units: Clamp.js takes the paragraph out before it cuts the run. */
export const RUN_AND_BLOCK_CARD = '<div id="card">Find the walk in the <b>big walk</b> hills of the north.<p>Second paragraph of the card.</p></div>';

/** A post whose addresses the page makes links of (`__linkify()`, as a chat does once it has drawn a message), with the real linkify-element. */
export const LINKIFY_PAGE = `<!doctype html><html lang="en"><head><title>Post</title></head><body>
<p id="post">Visit example.com for <b>more news about example.org</b> today.</p>
<p id="still">A paragraph that stays as it is.</p>
<script src="/lib/linkify.js"></script><script src="/lib/linkify-element.js"></script><script>
window.__linkify = () => linkifyElement(document.getElementById('post'));
</script></body></html>`;

/**
 * rangy's class applier on the page, as an annotator uses it: `__highlight(selector, from?, to?)`
 * puts `<mark class="hl">` on the element's words (from the `from`th character of its first text
 * to the `to`th of its last, where given), `__unhighlight(selector)` takes every highlight in it
 * away.
 */
export const HIGHLIGHT_SCRIPT = `<script src="/lib/rangy-core.js"></script><script src="/lib/rangy-classapplier.js"></script><script>
rangy.init();
const applier = rangy.createClassApplier('hl', { elementTagName: 'mark' });
const texts = (el) => {
  const out = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.data.trim()) out.push(n);
  return out;
};
const range = (selector, from, to) => {
  const el = document.querySelector(selector);
  const r = rangy.createRange();
  r.selectNodeContents(el);
  if (from !== undefined) r.setStart(texts(el)[0], from);
  if (to !== undefined) r.setEnd(texts(el).at(-1), to);
  return r;
};
window.__highlight = (selector, from, to) => applier.applyToRange(range(selector, from, to));
window.__unhighlight = (selector) => applier.undoToRange(range(selector));
</script>`;

/** A page of Playwright's (Chromium) or Puppeteer's (Firefox): both evaluate an expression in it. */
interface InPage {
  evaluate(expression: string): Promise<unknown>;
}

/** `window[fn](...args)` in `page`, the arguments written as JSON. */
const callIn = (page: InPage, fn: string, ...args: unknown[]) => page.evaluate(`window.${fn}(${args.map((a) => JSON.stringify(a) ?? 'undefined').join(', ')})`);

/** Highlights the words of the element at `selector` in `page` (`HIGHLIGHT_SCRIPT`), from and to where given. */
export const highlight = (page: InPage, selector: string, from?: number, to?: number) => callIn(page, '__highlight', selector, from, to);

/** Takes every highlight in the element at `selector` in `page` away. */
export const unhighlight = (page: InPage, selector: string) => callIn(page, '__unhighlight', selector);

/** Marks `word` in `page`'s body with mark.js (`MARK_SCRIPT`). */
export const markWord = (page: InPage, word: string) => callIn(page, '__mark', word);

/** Takes mark.js's marks out of `page`'s body. */
export const unmarkAll = (page: InPage) => callIn(page, '__unmark');
