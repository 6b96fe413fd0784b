/**
 * What the write-back leaves alone, in Chromium: a field the reader is typing in keeps its focus
 * and value, and an embedded frame is not reloaded, both when the translation keeps a run's order
 * (a comment in the run once moved all of it) and when it does reorder elements around them (the
 * moves go through `moveBefore`, which keeps their state). Restore is exact, also after the page
 * moved a node among those the translation reordered (it stays where the page put it).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markText } from '../fakes/marker-apy';
import { startHostileApy, type HostileApy } from '../fakes/hostile-apy';
import { translatePage, useApertiumAt } from '../fakes/page-e2e';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, type ExtensionBrowser } from './browser';

const PAGE = `<!doctype html><html lang="en"><head><title>Moves</title></head><body>
<p id="keep">Type your name <!-- field --><input id="name"> and watch <iframe id="frame" srcdoc="<b>Clip</b>"></iframe> below.</p>
<p id="swap">First <b>bold</b> then <input id="name2"> and <iframe id="frame2" srcdoc="<b>Clip</b>"></iframe> last.</p>
</body></html>`;

interface Seen {
  focus: string | undefined;
  values: string[];
  /** Each frame's mark set before translating: lost when the frame reloads. */
  kept: (number | undefined)[];
  keep: string;
  swap: string;
}

const look = (page: Page) =>
  page.evaluate((): Seen => {
    const frame = (id: string) => (document.getElementById(id) as HTMLIFrameElement).contentWindow as unknown as { __kept?: number };
    return {
      focus: document.activeElement?.id,
      values: ['name', 'name2'].map((id) => (document.getElementById(id) as HTMLInputElement).value),
      kept: [frame('frame').__kept, frame('frame2').__kept],
      keep: document.getElementById('keep')!.innerHTML,
      swap: document.getElementById('swap')!.innerHTML,
    };
  });

describe('write-back moves', () => {
  let browser: ExtensionBrowser;
  let apy: HostileApy;
  let server: PageServer;
  let page: Page;

  // Each test into its own language: the worker's translation memory would answer a second request.
  const translate = (trg: string) => translatePage(page, browser.id, 'en', trg);
  const restore = () => evaluateInContentScript(page, browser.id, 'globalThis.polyglot.page.restore().state');

  beforeAll(async () => {
    [browser, apy, server] = await Promise.all([launchExtension(), startHostileApy(), startPageServer()]);
    await useApertiumAt(browser, apy.url);
    server.set('/moves.html', PAGE);
    page = await browser.context.newPage();
    await page.goto(`${server.origin}/moves.html`);
    await page.evaluate(() => {
      for (const id of ['frame', 'frame2']) ((document.getElementById(id) as HTMLIFrameElement).contentWindow as unknown as { __kept: number }).__kept = 1;
    });
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), apy?.close(), server?.close()]);
  });

  it('a run in its own order with a comment in it: nothing moves, the field keeps focus and value, the frame stays loaded', async () => {
    const html = await page.evaluate(() => document.body.innerHTML);
    await page.fill('#name', 'Ada');
    await page.focus('#name');
    apy.reply = ({ q }) => markText(q);
    expect(await translate('es')).toMatchObject({ state: 'translated', errors: 0 });
    const seen = await look(page);
    expect(seen.keep).toBe('⟦Type your name⟧ <!-- field --><input id="name"> ⟦and watch⟧ <iframe id="frame" srcdoc="&lt;b&gt;Clip&lt;/b&gt;"></iframe> ⟦below.⟧');
    expect(seen).toMatchObject({ focus: 'name', values: ['Ada', ''], kept: [1, 1] });
    await page.keyboard.type(' Lovelace');
    await restore();
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(html);
    expect(await look(page)).toMatchObject({ focus: 'name', values: ['Ada Lovelace', ''], kept: [1, 1] });
  });

  it('a translation that reorders the field and the frame: the field moves keeping focus, the frame stays loaded', async () => {
    const html = await page.evaluate(() => document.body.innerHTML);
    await page.fill('#name2', 'Grace');
    await page.focus('#name2');
    // The provider puts the frame before the field (their placeholders swapped).
    // The APy adapter sends placeholder ids short (`i=N`, providers/apertium.ts).
    apy.reply = ({ q }) => markText(q.replace(/<code i=(\d+)><\/code> and <code i=(\d+)><\/code>/, '<code i=$2></code> and <code i=$1></code>'));
    expect(await translate('ca')).toMatchObject({ state: 'translated', errors: 0 });
    const seen = await look(page);
    expect(seen.swap).toBe('⟦First⟧ <b>⟦bold⟧</b> ⟦then⟧ <iframe id="frame2" srcdoc="&lt;b&gt;Clip&lt;/b&gt;"></iframe> ⟦and⟧ <input id="name2"> ⟦last.⟧');
    expect(seen).toMatchObject({ focus: 'name2', values: ['Ada Lovelace', 'Grace'], kept: [1, 1] });
    await restore();
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(html);
    expect(await look(page)).toMatchObject({ focus: 'name2', values: ['Ada Lovelace', 'Grace'], kept: [1, 1] });
  });

  it("a translation that swaps a sentence's words, then the page moves one of them: it stays where the page put it, translated and after restore", async () => {
    server.set('/sort.html', '<!doctype html><html lang="en"><body><p id="p">Pick <b id="t1">ripe apples</b> or <i id="t2">sweet pears</i> today</p></body></html>');
    const tab = await browser.context.newPage();
    await tab.goto(`${server.origin}/sort.html`);
    // What restore must give: the page's move made in the page never translated.
    const expected = await tab.evaluate(() => {
      const ref = document.getElementById('p')!.cloneNode(true) as Element;
      ref.querySelector('#t2')!.before(ref.querySelector('#t1')!);
      return ref.innerHTML;
    });
    apy.reply = ({ q }) => markText(q.replace(/<b i=(\d+)>([^<]*)<\/b> or <i i=(\d+)>([^<]*)<\/i>/, '<i i=$3>$4</i> or <b i=$1>$2</b>'));
    expect(await translatePage(tab, browser.id, 'en', 'es')).toMatchObject({ state: 'translated', errors: 0 });
    const p = tab.locator('#p');
    expect(await p.innerHTML()).toBe('⟦Pick⟧ <i id="t2">⟦sweet pears⟧</i> ⟦or⟧ <b id="t1">⟦ripe apples⟧</b> ⟦today⟧');
    await tab.evaluate(() => document.getElementById('t2')!.before(document.getElementById('t1')!));
    // The changed sentence is translated again as the page has it now: every word marked.
    await new Promise((r) => setTimeout(r, 300));
    await expect.poll(() => evaluateInContentScript(tab, browser.id, 'globalThis.polyglot.page.status().state')).toBe('translated');
    await expect.poll(async () => (await p.textContent())!.replace(/⟦[^⟧]*⟧/g, '')).not.toMatch(/[a-z]/i);
    await evaluateInContentScript(tab, browser.id, 'globalThis.polyglot.page.restore().state');
    expect(await p.innerHTML()).toBe(expected);
    await tab.close();
  });
});
