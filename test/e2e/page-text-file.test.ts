/**
 * A text file (`text/plain`) in the browser's viewer, in Chromium with the built extension and
 * Apertium pointed at the marker fake (`word` -> `⟦word⟧`): the viewer shows the file in one
 * `<pre>`, which on a page holds code and is left out; here it is the file's prose. It is sent
 * paragraph by paragraph (a list's items and a README's headings one by one, its code not at all),
 * so the blank lines between paragraphs stay where they were whatever a translator does with line
 * breaks.
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

const marked = (text: string) =>
  text.replace(/[^\n]+(?:\n(?![\t ]*(?:-|\n))[^\n]+)*/g, (p) => {
    const lead = /^\s*/.exec(p)![0];
    return `${lead}⟦${p.trim()}⟧`;
  });

describe('a text file in the browser\'s viewer', () => {
  const file = { 'content-type': 'text/plain; charset=utf-8' };
  const { send, open, settle, origin } = markerTabs({ '/notes.txt': [SHORT, file], '/long.txt': [LONG, file], '/README.md': [README, file] });

  for (const [name, path, text] of [
    ['a short file', '/notes.txt', SHORT],
    ['a long file', '/long.txt', LONG],
  ] as const) {
    it(`${name}: each paragraph and list item translated, the blank lines and the line breaks between items kept; restore exact`, async () => {
      const { page, tabId } = await open(`${origin()}${path}`);
      const pre = () => page.evaluate(() => document.querySelector('pre')!.textContent);
      const before = await page.evaluate(() => document.body.innerHTML);
      expect(await pre()).toBe(text);
      await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
      expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
      expect(await pre()).toBe(marked(text));
      await send({ type: 'page:restore', data: { tabId } });
      await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
      await page.close();
    });
  }

  it("a README served as text (raw from a forge): its headings and prose translated, its fenced code as it is; restore exact", async () => {
    const { page, tabId } = await open(`${origin()}/README.md`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
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
    await send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'bilingual' } });
    expect(await settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const shown = () =>
      page.evaluate(() => {
        const pre = document.querySelector('pre')!;
        const copy = pre.querySelector('[data-polyglot-bilingual]');
        return { own: pre.firstChild!.nodeValue, copy: copy?.textContent, last: pre.lastChild === copy };
      });
    await expect.poll(shown).toEqual({ own: SHORT, copy: marked(SHORT), last: true });
    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });
});
