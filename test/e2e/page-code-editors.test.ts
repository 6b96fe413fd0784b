/**
 * Code shown in an editor on a page (LeetCode's and the TypeScript playground's Monaco, a docs
 * site's CodeMirror, Ace), and a terminal (xterm.js: a cloud shell's, a tutorial's): its lines are `<div>`s and `<span>`s, not a `<pre>`, and an editor the
 * reader can type in keeps them out of any `contenteditable` (Monaco reads keys from a hidden field;
 * CodeMirror's read-only view is `contenteditable="false"`). They were translated: `function`
 * read `⟦function⟧`, and as the user typed, each line the editor drew again was sent again. Now an
 * element with `role="code"` (Monaco's), and Ace's, CodeMirror 5's and xterm.js's roots by their
 * class, are left as they are (tags.ts). The real CodeMirror 6 and xterm.js (bundled by esbuild)
 * and Ace, and Monaco's markup, in Chromium with the built extension and Apertium pointed at the
 * marker fake.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../fakes/bundle';
import { markerTabs } from '../fakes/page-e2e';

const require = createRequire(import.meta.url);
const js = { 'content-type': 'text/javascript' };
const CODE = 'function hello(name) {\n  return "Hello " + name;\n}';

/** A read-only CodeMirror 6 and an editable one, as docs sites and playgrounds show code. */
const CODEMIRROR_SOURCE = `
import { EditorView, basicSetup } from 'codemirror';
import { EditorState } from '@codemirror/state';
import { Terminal } from '@xterm/xterm';
const doc = ${JSON.stringify(CODE)};
new EditorView({ doc, parent: document.getElementById('shown'), extensions: [basicSetup, EditorState.readOnly.of(true), EditorView.editable.of(false)] });
new EditorView({ doc, parent: document.getElementById('typed'), extensions: [basicSetup] });
const term = new Terminal({ rows: 4, cols: 60 });
term.open(document.getElementById('term'));
term.write('$ npm test\\r\\nAll the tests passed in two seconds.\\r\\n', () => (window.__ready = true));`;

/** Monaco's editor as it draws its lines (role="code" on its root: vscode's `ViewController`). */
const MONACO = `<div class="monaco-editor no-user-select showUnused vs" role="code" data-uri="inmemory://model/1"><div class="overflow-guard">
<div class="margin"><div class="line-numbers">1</div></div><textarea class="inputarea" aria-label="Editor content"></textarea>
<div class="view-lines monaco-mouse-cursor-text" role="presentation"><div class="view-line"><span><span class="mtk8">function</span><span class="mtk1">&nbsp;hello(name)&nbsp;{</span></span></div>
<div class="view-line"><span><span class="mtk1">&nbsp;&nbsp;</span><span class="mtk8">return</span><span class="mtk1">&nbsp;</span><span class="mtk20">"Hello&nbsp;"</span><span class="mtk1">&nbsp;+&nbsp;name;</span></span></div></div></div></div>`;

const PAGE = `<!doctype html><html lang="en"><head><title>Two sum</title></head><body>
<p id="intro">Write a function that says hello to the one it is given.</p>
<div id="shown"></div><div id="typed"></div><div id="term"></div><div id="ace" style="height: 80px">${CODE}</div>${MONACO}
<p id="outro">Run the code to see what it prints.</p>
<script src="/codemirror.js"></script><script src="/ace.js"></script>
<script>const ace1 = ace.edit('ace', { readOnly: true }); window.__ace = true;</script></body></html>`;

describe('code in an editor on the page (CodeMirror, Ace, Monaco), a terminal (xterm.js)', () => {
  const driver = markerTabs({ '/editors.html': PAGE });
  beforeAll(async () => {
    driver.server().set('/codemirror.js', await bundle(CODEMIRROR_SOURCE), js);
    driver.server().set('/ace.js', readFileSync(require.resolve('ace-builds/src-min-noconflict/ace.js'), 'utf8'), js);
  });

  it("the editors' code is not sent and shows as it was, the page's words around it translated; typing in an editor sends nothing; restore gives the words back", async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/editors.html`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __ready?: boolean; __ace?: boolean }).__ready && (window as unknown as { __ace?: boolean }).__ace)).toBe(true);
    const code = () =>
      page.evaluate(() => ['#shown .cm-content', '#typed .cm-content', '#ace .ace_content', '.view-lines', '#term .xterm-rows'].map((s) => (document.querySelector(s) as HTMLElement).innerText.replace(/\u00a0/g, ' ')));
    const before = await code();
    expect(before[0]).toContain('function hello(name) {');
    expect(before[3]).toContain('function hello(name) {');
    expect(before[4]).toContain('All the tests passed in two seconds.');
    await driver.translate(tabId);
    expect(await page.evaluate(() => document.getElementById('intro')!.textContent)).toBe('⟦Write a function that says hello to the one it is given.⟧');
    expect(await page.evaluate(() => document.getElementById('outro')!.textContent)).toBe('⟦Run the code to see what it prints.⟧');
    expect(await code()).toEqual(before);
    // The user types in the editable one: nothing is sent for it.
    const sent = driver.requests();
    await page.click('#typed .cm-content');
    await page.keyboard.type('// say it twice\n');
    await new Promise((r) => setTimeout(r, 600));
    expect(driver.requests()).toBe(sent);
    expect(await page.evaluate(() => document.querySelector('#typed .cm-content')!.textContent)).toContain('// say it twice');
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('⟦function');
    await driver.send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.getElementById('intro')!.textContent)).toBe('Write a function that says hello to the one it is given.');
    expect(await page.evaluate(() => document.getElementById('outro')!.textContent)).toBe('Run the code to see what it prints.');
    expect((await code()).filter((_, i) => i !== 1)).toEqual(before.filter((_, i) => i !== 1));
    await page.close();
  });
});
