/**
 * Forms on a translated page, in Chromium with the built extension and Apertium pointed at the
 * marker fake (`word` -> `⟦word⟧`): what a reader sees is translated, what the form sends is what
 * the page wrote. A submit button's `value` is both its label and, where it has a `name`, the
 * value sent for it (`action=Delete the post`: a server that reads it would get the translation);
 * an option without a `value` sends its text.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';

const FORM = `<!doctype html><html lang="en"><head><title>Moderation</title></head><body>
<form id="native" action="/done.html" method="get">
  <label>Reason <input name="reason"></label>
  <select name="colour"><option>Light green</option><option selected>Dark orange</option></select>
  <input type="submit" id="delete" name="action" value="Delete the post">
  <input type="submit" id="keep" name="action" value="Keep the post">
  <input type="submit" id="plain" value="Send without a name">
</form>
<form id="scripted">
  <input type="hidden" name="action" value="Archive the thread">
  <input type="submit" id="archive" name="action" value="Archive the thread">
  <input type="submit" id="pin" name="action" value="Pin the thread">
</form>
<p id="sent">Nothing sent yet.</p>
<script>
  // An app that posts its form with fetch: the data as the page's script builds it.
  document.getElementById('scripted').addEventListener('submit', (e) => {
    e.preventDefault();
    window.__sent = [...new FormData(e.target, e.submitter)].map(([k, v]) => k + '=' + v);
  });
</script>
</body></html>`;

describe('forms on a translated page send what the page wrote', () => {
  const { send, open, translate, origin } = markerTabs({ '/form.html': FORM, '/done.html': '<!doctype html><html lang="en"><body><p>Done.</p></body></html>' });

  const labels = (page: Page) => page.locator('input[type=submit]').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));

  it('a form the browser submits sends the named button\'s and the option\'s own words, the reader\'s typing as typed, while the reader sees them translated', async () => {
    const { page, tabId } = await open(`${origin()}/form.html`);
    await translate(tabId);
    expect(await labels(page)).toEqual(['⟦Delete the post⟧', '⟦Keep the post⟧', '⟦Send without a name⟧', '⟦Archive the thread⟧', '⟦Pin the thread⟧']);
    expect(await page.locator('select option').allTextContents()).toEqual(['⟦Light green⟧', '⟦Dark orange⟧']);
    await page.locator('input[name=reason]').fill('spam and more spam');
    await Promise.all([page.waitForURL(/done\.html/), page.locator('#keep').click()]);
    const query = new URL(page.url()).searchParams;
    expect([...query].filter(([k]) => k !== 'tab')).toEqual([
      ['reason', 'spam and more spam'],
      ['colour', 'Dark orange'],
      ['action', 'Keep the post'],
    ]);
    await page.close();
  });

  it("a page's script that reads the form (new FormData with the submitter) gets the page's words, before and after restore; the hidden field with the same value is left as it is", async () => {
    const { page, tabId } = await open(`${origin()}/form.html`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await translate(tabId);
    await page.locator('#archive').click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __sent?: string[] }).__sent)).toEqual(['action=Archive the thread', 'action=Archive the thread']);
    await page.locator('#pin').click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __sent?: string[] }).__sent)).toEqual(['action=Archive the thread', 'action=Pin the thread']);
    // The page changes a button's label after the translation: that is what it sends, translated again.
    await page.evaluate(() => document.getElementById('pin')!.setAttribute('value', 'Pin it for a week'));
    await expect.poll(() => labels(page)).toContain('⟦Pin it for a week⟧');
    await page.locator('#pin').click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __sent?: string[] }).__sent)).toEqual(['action=Archive the thread', 'action=Pin it for a week']);
    await page.evaluate(() => document.getElementById('pin')!.setAttribute('value', 'Pin the thread'));
    await expect.poll(() => labels(page)).toContain('⟦Pin the thread⟧');

    await send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.locator('#pin').click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __sent?: string[] }).__sent)).toEqual(['action=Archive the thread', 'action=Pin the thread']);
    await page.close();
  });
});
