/**
 * Files the browser shows that are not HTML pages, in Chromium with the built extension and
 * Apertium pointed at the marker fake (`word` -> `⟦word⟧`).
 *
 * A text file (`text/plain`): the viewer shows the file in one `<pre>`, which on a page holds code
 * and is left out; here it is the file's prose. It is sent paragraph by paragraph (a list's items
 * and a README's headings one by one, its code not at all), so the blank lines between paragraphs
 * stay where they were whatever a translator does with line breaks.
 *
 * Documents served as XML: `createElement` makes no HTML element there, so our indicator could
 * not be made (`attachShadow` threw) and a translation asked never ended. An XHTML page served so
 * is translated as any page; an XML file's tree, an SVG image and JSON have nothing to translate.
 */
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';

const PARAGRAPH = (n: number) =>
  `Paragraph ${n} of the notes: the morning was cold and the path was long. We walked\npast the old mill and up to the ridge, where the wind was strong and the\nclouds were low over the valley.`;
/** A short file: one call could carry all of it. */
const SHORT = `A walk in the hills\n\n${PARAGRAPH(1)}\n\nWhat to take:\n- Bring water.\n- Bring a map.\n\n   An indented note at the end.\n`;
/** A long one: more than a call holds, and over Chromium's 65 536 characters a text node holds. */
const LONG = Array.from({ length: 400 }, (_, i) => PARAGRAPH(i + 1)).join('\n\n') + '\n';

/** A README as a forge serves it raw (`text/plain`), with a fenced block of code. */
const README = '# The walk planner\nPlan a walk in the hills.\n\n```sh\nnpm ci\n\n# then build it\nnpm run build\n```\n\n## Use\n   Open the page and pick a hill.\n';

/** An XHTML page served as XML, as some sites and generators do. */
const XHTML_PAGE = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>An XHTML page</title></head><body><h1 id="h">The walk planner</h1><p id="p">Plan a <b>long</b> walk in the hills.</p></body></html>';
const FEED = '<?xml version="1.0"?><rss version="2.0"><channel><title>The news of the day</title><item><title>A walk in the hills</title></item></channel></rss>';
const SVG_IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><title>A small map</title><text x="10" y="50">The river here</text></svg>';

const marked = (text: string) =>
  text.replace(/[^\n]+(?:\n(?![\t ]*(?:-|\n))[^\n]+)*/g, (p) => {
    const lead = /^\s*/.exec(p)![0];
    return `${lead}⟦${p.trim()}⟧`;
  });

describe("files the browser shows: text, XML, an SVG image, JSON, code", () => {
  const file = { 'content-type': 'text/plain; charset=utf-8' };
  const { send, open, settle, translate, origin, requests, apy } = markerTabs({
    '/notes.txt': [SHORT, file],
    '/long.txt': [LONG, file],
    '/README.md': [README, file],
    '/page.xhtml': [XHTML_PAGE, { 'content-type': 'application/xml' }],
    '/feed.xml': [FEED, { 'content-type': 'application/xml' }],
    '/map.svg': [SVG_IMAGE, { 'content-type': 'image/svg+xml' }],
    '/data.json': ['{"title": "The news of the day", "items": ["A walk in the hills"]}', { 'content-type': 'application/json' }],
    // A forge serves every file raw as text: a module's code is not prose.
    '/walk.py': ['# Plan a walk in the hills\ndef plan(hills):\n    return [h for h in hills if h.open]\n', file],
  });

  for (const [name, path, text] of [
    ['a short file', '/notes.txt', SHORT],
    ['a long file', '/long.txt', LONG],
  ] as const) {
    it(`${name}: each paragraph and list item translated, the blank lines and the line breaks between items kept; restore exact`, async () => {
      const { page, tabId } = await open(`${origin()}${path}`);
      const pre = () => page.evaluate(() => document.querySelector('pre')!.textContent);
      const before = await page.evaluate(() => document.body.innerHTML);
      expect(await pre()).toBe(text);
      await translate(tabId);
      expect(await pre()).toBe(marked(text));
      await send({ type: 'page:restore', data: { tabId } });
      await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
      // Node for node: translated, one Text node per paragraph; restored, the file's one again.
      expect(await page.evaluate(() => document.querySelector('pre')!.childNodes.length)).toBe(1);
      await page.close();
    });
  }

  it('a long file scrolled to its middle: the paragraphs on the screen are translated first, not the file from its start', async () => {
    const { page, tabId } = await open(`${origin()}/long.txt`);
    const paragraph = (n: number) =>
      page.evaluate((n) => {
        const pre = document.querySelector('pre')!;
        return [...pre.childNodes].find((t) => t.textContent!.includes(`Paragraph ${n} of the notes`))?.textContent ?? pre.textContent!.includes(`⟦Paragraph ${n} of`);
      }, n);
    // The screen shows paragraph 300 of 400.
    await page.evaluate(() => {
      const pre = document.querySelector('pre')!;
      const t = pre.firstChild as Text;
      const range = document.createRange();
      const at = t.data.indexOf('Paragraph 300 of');
      range.setStart(t, at);
      range.setEnd(t, at + 10);
      window.scrollBy(0, range.getBoundingClientRect().top - 100);
    });
    apy().latencyMs = 300;
    try {
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
      await expect.poll(() => paragraph(300), { interval: 20 }).toMatch(/^⟦/);
      expect(await paragraph(100)).toMatch(/^Paragraph 100/);
    } finally {
      apy().latencyMs = 0;
    }
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    await send({ type: 'page:restore', data: { tabId } });
    await page.close();
  });

  it("a README served as text (raw from a forge): its headings and prose translated, its fenced code as it is; restore exact", async () => {
    const { page, tabId } = await open(`${origin()}/README.md`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await translate(tabId);
    expect(await page.evaluate(() => document.querySelector('pre')!.textContent)).toBe(
      '⟦# The walk planner⟧\n⟦Plan a walk in the hills.⟧\n\n```sh\nnpm ci\n\n# then build it\nnpm run build\n```\n\n⟦## Use⟧\n   ⟦Open the page and pick a hill.⟧\n',
    );
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('bilingual: the file as it is, and its translation under it with the same paragraphs, blank lines and list lines; restore exact', async () => {
    const { page, tabId } = await open(`${origin()}/notes.txt`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await translate(tabId, 'bilingual');
    const shown = () =>
      page.evaluate(() => {
        const pre = document.querySelector('pre')!;
        const copy = pre.querySelector('[data-polyglot-bilingual]');
        const own = [...pre.childNodes].filter((n) => n.nodeType === 3).map((n) => (n as Text).data).join('');
        return { own, copy: copy?.textContent, last: pre.lastChild === copy };
      });
    await expect.poll(shown).toEqual({ own: SHORT, copy: marked(SHORT), last: true });
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('an XHTML page served as XML is translated in place and in bilingual mode (its copies are HTML elements), with its indicator; restore exact', async () => {
    const { page, tabId } = await open(`${origin()}/page.xhtml`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0, total: 3 });
    // Markup serialized as XML says its namespace on each element.
    expect(await page.evaluate(() => [document.title, document.getElementById('h')!.textContent, document.getElementById('p')!.innerHTML.replaceAll(' xmlns="http://www.w3.org/1999/xhtml"', '')])).toEqual([
      '⟦An XHTML page⟧',
      '⟦The walk planner⟧',
      '⟦Plan a⟧ <b>⟦long⟧</b> ⟦walk in the hills.⟧',
    ]);
    // The indicator is made: an HTML host with its closed root, outside the body.
    expect(await page.evaluate(() => document.querySelector('polyglot-progress')?.namespaceURI)).toBe('http://www.w3.org/1999/xhtml');
    await translate(tabId, 'bilingual');
    expect(await page.evaluate(() => [...document.querySelectorAll('[data-polyglot-bilingual]')].map((c) => [c.namespaceURI, c.textContent]))).toEqual([
      ['http://www.w3.org/1999/xhtml', '⟦The walk planner⟧'],
      ['http://www.w3.org/1999/xhtml', '⟦Plan a⟧ ⟦long⟧ ⟦walk in the hills.⟧'],
    ]);
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    expect(await page.title()).toBe('An XHTML page');
    await page.close();
  });

  for (const [name, path] of [
    ["an XML file's tree", '/feed.xml'],
    ['an SVG image', '/map.svg'],
    ['JSON', '/data.json'],
    ['a Python module served as text', '/walk.py'],
  ] as const) {
    it(`${name}: nothing to translate, said at once, nothing sent or changed`, async () => {
      const { page, tabId } = await open(`${origin()}${path}`);
      const before = await page.evaluate(() => document.documentElement.outerHTML);
      const sent = requests();
      expect(await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } })).not.toHaveProperty('error');
      expect(await settle(tabId)).toMatchObject({ state: 'translated', done: 0, total: 0, errors: 0 });
      expect(requests()).toBe(sent);
      await send({ type: 'page:restore', data: { tabId } });
      // Our indicator's host aside (it says there was nothing to translate), the document is as it was.
      expect(await page.evaluate(() => document.documentElement.outerHTML.replace(/<polyglot-progress[^>]*><\/polyglot-progress>/, ''))).toBe(before);
      await page.close();
    });
  }
});
