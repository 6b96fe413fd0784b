/**
 * The chooser of a paragraph in an embedded post too small for it (a frame of another site, 300 x
 * 120 px), in Chromium with the built extension: Alt+click in the frame, and the top page shows the
 * chooser under the paragraph, whole; the reader's choice there is written into the frame's page.
 * Apertium is the marker fake (`word` -> `⟦word⟧`), with a second route through Catalan (marked twice).
 */
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';
import { piercedBox, piercedText } from './pierced';

const POST = `<!doctype html><html lang="en"><head><title>A post</title></head>
<body style="margin: 6px; font: 16px sans-serif"><p id="post" style="margin: 0">Good <b>night</b> and good luck, said the anchor at the end of each evening news</p></body></html>`;

/** The top page: a paragraph, and the post of embed.test in a frame with a 2 px border and 3 px of padding. */
const top = (port: string) => `<!doctype html><html lang="en"><head><title>News</title></head>
<body style="margin: 20px"><p id="lead">The news of the day</p>
<iframe id="embed" src="http://embed.test:${port}/post.html" style="display: block; width: 300px; height: 120px; border: 2px solid #888; padding: 3px; margin-left: 40px"></iframe>
</body></html>`;

describe("the chooser of an embedded post's paragraph", () => {
  // embed.test: a site of its own for the post's frame, served by the same loopback server.
  const { send, open, translate, server } = markerTabs({ '/post.html': POST }, { hostRules: ['MAP embed.test 127.0.0.1'] }, ['cat-spa'], ['ca']);
  beforeAll(() => server().set('/top.html', top(new URL(server().origin).port)));

  const chooserText = (page: Page) => piercedText(page, 'polyglot-alternatives');
  const postOf = (page: Page): Frame => page.frames().find((f) => f.url().startsWith('http://embed.test'))!;
  const postHtml = (frame: Frame) => frame.evaluate(() => document.getElementById('post')!.innerHTML);

  it('is shown by the top page under the paragraph, whole; Enter writes the other route into the post; a click in the post closes it; restore exact', async () => {
    const { page, tabId } = await open(`${server().origin}/top.html`);
    await page.setViewportSize({ width: 720, height: 480 });
    const frame = postOf(page);
    const before = await frame.evaluate(() => document.body.innerHTML);
    await translate(tabId);
    await expect.poll(() => postHtml(frame), { timeout: 5000 }).toBe('⟦Good⟧ <b>⟦night⟧</b> ⟦and good luck, said the anchor at the end of each evening news⟧');

    await frame.click('#post', { position: { x: 12, y: 9 }, modifiers: ['Alt'] });
    await expect.poll(() => chooserText(page), { timeout: 5000 }).toContain('apertium → ca → apertium|⟦⟦Good⟧⟧ ⟦⟦night⟧⟧ ⟦⟦and good luck, said the anchor at the end of each evening news⟧⟧|Use this');
    expect(await chooserText(page)).toMatch(/^Original \(English\)\|Good night and good luck, said the anchor at the end of each evening news\|Show the original\|apertium \(shown\)\|⟦Good⟧ ⟦night⟧ ⟦and good luck, said the anchor at the end of each evening news⟧\|/);
    // Drawn by the top page only, under the paragraph as the top page sees it (the frame's place,
    // border and padding), 4 px below; wider than the frame, inside the viewport.
    expect(await frame.locator('polyglot-alternatives').count()).toBe(0);
    const at = (await page.locator('#embed').boundingBox())!;
    const para = await frame.evaluate(() => {
      const r = document.getElementById('post')!.getBoundingClientRect();
      return { left: r.left, bottom: r.bottom };
    });
    const box = (await piercedBox(page, 'polyglot-alternatives', 'div'))!;
    expect(Math.abs(box.y - (at.y + 5 + para.bottom + 4))).toBeLessThanOrEqual(1);
    expect(Math.abs(box.x - (at.x + 5 + para.left))).toBeLessThanOrEqual(1);
    expect(box.width).toBeGreaterThan(at.width + 100);
    expect(box.x + box.width).toBeLessThanOrEqual(720);

    // The focus is on the other route's "Use this", in the top page: Enter writes it into the post,
    // its bold word the same element.
    const bold = await frame.evaluateHandle(() => document.querySelector('#post b'));
    await page.keyboard.press('Enter');
    await expect.poll(() => postHtml(frame)).toBe('⟦⟦Good⟧⟧ <b>⟦⟦night⟧⟧</b> ⟦⟦and good luck, said the anchor at the end of each evening news⟧⟧');
    expect(await frame.evaluate((b) => b === document.querySelector('#post b'), bold)).toBe(true);
    await expect.poll(() => chooserText(page)).toBe('');

    // Again: a click in the post, which the top page does not see, closes it.
    await frame.click('#post', { position: { x: 12, y: 9 }, modifiers: ['Alt'] });
    await expect.poll(() => chooserText(page), { timeout: 5000 }).toContain('Show the original');
    await frame.click('#post', { position: { x: 12, y: 9 } });
    await expect.poll(() => chooserText(page)).toBe('');
    // "Show the original", clicked in the top page: the post reads as it did.
    await frame.click('#post', { position: { x: 12, y: 9 }, modifiers: ['Alt'] });
    await expect.poll(() => chooserText(page), { timeout: 5000 }).toContain('Show the original');
    const original = (await piercedBox(page, 'polyglot-alternatives', 'button'))!;
    await page.mouse.click(original.x + original.width / 2, original.y + original.height / 2);
    await expect.poll(() => postHtml(frame)).toBe('Good <b>night</b> and good luck, said the anchor at the end of each evening news');
    await expect.poll(() => chooserText(page)).toBe('');

    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    await expect.poll(() => frame.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('stays in a frame that holds it', async () => {
    const { page, tabId } = await open(`${server().origin}/top.html`);
    await page.setViewportSize({ width: 720, height: 480 });
    await page.evaluate(() => {
      document.getElementById('embed')!.style.cssText = 'display: block; width: 600px; height: 400px; border: 0';
    });
    const frame = postOf(page);
    await translate(tabId);
    await expect.poll(() => postHtml(frame), { timeout: 5000 }).toContain('⟦');
    await frame.click('#post', { position: { x: 12, y: 9 }, modifiers: ['Alt'] });
    await expect.poll(() => frame.locator('polyglot-alternatives').count(), { timeout: 5000 }).toBe(1);
    expect(await page.locator('polyglot-alternatives').count()).toBe(0);
    await page.close();
  });
});
