/**
 * Where our overlays are. Over a modal dialog the page opened (`showModal`: a cookie notice, terms to accept,
 * a product's quick view). Such a dialog is drawn over the page with its backdrop and makes
 * everything outside it inert: the selection's bubble, the chooser and the hover button, on
 * <html>, were drawn under the backdrop and their buttons did nothing (a click reached the dialog).
 * Each now goes in the dialog, in the top layer (overlay.ts `putOverlay`); so over an element
 * shown fullscreen, and in a popover the page shows (a menu), which a click on our button outside
 * it closed. On a page that zooms its root, beside the paragraph they are about, at their size.
 * The progress indicator goes in the modal dialog the focus is in, and back on <html> once it
 * closes. What the user sees is
 * read as the browser hit-tests it (`elementFromPoint` at the overlay's middle, and a real click),
 * in Chromium with the built extension and Apertium pointed at the marker fake (`word` -> `⟦word⟧`).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';
import { hoverButton, piercedBox, piercedText, texts } from './pierced';
import { storageSet } from './ui-helpers';

const PAGE = `<!doctype html><html lang="en"><head><title>Terms</title></head><body>
<p id="behind">Behind the dialog there is the page.</p>
<dialog id="terms"><h2>Before you go on</h2><p id="in">The terms of the service are written here, and they are long.</p>
<form method="dialog"><button>I agree</button></form></dialog>
<script>document.getElementById('terms').showModal();</script></body></html>`;

/** The element the browser finds at the middle of `box` (a host stands for what is in its shadow root). */
const hitAt = (page: Page, box: { x: number; y: number; width: number; height: number }) =>
  page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName, { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 12) });
/** A dialog whose words are one unit (no paragraph inside): what we put in it is inside that unit. */
const PLAIN = `<!doctype html><html lang="en"><head><title>Notice</title></head><body><p>Behind the dialog there is the page.</p>
<dialog id="terms">Plain words in a dialog with <b>bold</b> text and more words after them.</dialog>
<script>document.getElementById('terms').showModal();</script></body></html>`;

/** An element the page shows fullscreen at a click (a slideshow, a reader view). */
const STAGE = `<!doctype html><html lang="en"><head><title>Slides</title></head><body><button id="full">Full screen</button>
<div id="stage" style="background: white"><p id="caption">The words of the slide are shown over the whole screen.</p></div>
<script>document.getElementById('full').onclick = () => document.getElementById('stage').requestFullscreen();</script></body></html>`;

/** A popover the page shows (a menu): a click outside it closes it. */
const MENU = `<!doctype html><html lang="en"><head><title>Menu</title></head><body><p>Behind the menu there is the page.</p>
<div popover id="menu" style="width: 24rem"><p id="item">The words of the menu are here for the reader.</p></div>
<script>document.getElementById('menu').showPopover();</script></body></html>`;

/** A component whose modal dialog, in its open shadow root, shows the page's words through a slot (Material's md-dialog does so). */
const COMPONENT = `<!doctype html><html lang="en"><head><title>Component</title></head><body><p>Behind the dialog.</p>
<x-dialog><p id="slotted">The words slotted into the dialog of a component are here.</p></x-dialog>
<script>customElements.define('x-dialog', class extends HTMLElement {
  connectedCallback() { const r = this.attachShadow({ mode: 'open' }); r.innerHTML = '<dialog><h2>A component</h2><slot></slot></dialog>'; r.querySelector('dialog').showModal(); }
});</script></body></html>`;

/** A paragraph narrower than the page: its hover button is beside it, past a gap. */
const NARROW = `<!doctype html><html lang="en"><head><title>Narrow</title></head><body><p id="narrow" style="width: 300px">A paragraph to rest the mouse on, then its button.</p></body></html>`;

/** A long page whose terms are a modal dialog at load: its translation takes some seconds at 1 s a call. */
const LONG_TERMS = `<!doctype html><html lang="en"><head><title>Terms</title></head><body>${Array.from(
  { length: 300 },
  (_, i) => `<p>Paragraph number ${i} of the long page behind the dialog.</p>`,
).join('')}
<dialog id="terms"><p>The terms of the service are written here, and they are long.</p><form method="dialog"><button>I agree</button></form></dialog>
<script>document.getElementById('terms').showModal();</script></body></html>`;

/** The same, its script taking the focus out of the dialog as it opens (no focus ring on its button): the focus on <body>. */
const BLURRED_TERMS = LONG_TERMS.replace('.showModal();', '.showModal(); document.activeElement.blur();');

/**
 * A component whose modal dialog is in its closed shadow root (a consent banner's web component),
 * its script taking the focus out of the dialog as it opens: the dialog's `toggle` does not leave
 * the root, and no query of the document finds it. `open()` and `close()` are the component's.
 */
const CLOSED_TERMS = LONG_TERMS.replace(/<dialog[^]*$/, `<x-terms></x-terms>
<script>customElements.define('x-terms', class extends HTMLElement {
  #root = this.attachShadow({ mode: 'closed' });
  connectedCallback() { this.#root.innerHTML = '<dialog><p>The terms of the service are written in a component.</p><form method="dialog"><button>I agree</button></form></dialog>'; this.open(); }
  open() { this.#root.querySelector('dialog').showModal(); this.#root.activeElement.blur(); }
  close() { this.#root.querySelector('dialog').close(); }
  get shown() { return this.#root.querySelector('dialog').open; }
});</script></body></html>`);

/** A paragraph with room on both sides, for a translation into Arabic (right to left). */
const CENTRED = `<!doctype html><html lang="en"><head><title>Centred</title></head><body><p id="centred" style="width: 300px; margin-left: 200px">A paragraph to rest the mouse on, then its button.</p></body></html>`;

/** A page that zooms its root by half as much again. */
const ZOOMED = `<!doctype html><html lang="en" style="zoom: 1.5"><head><title>Zoomed</title></head><body>${Array.from(
  { length: 8 },
  (_, i) => `<p id="z${i}" style="width: 300px">Paragraph ${i} of the zoomed page has its words.</p>`,
).join('')}</body></html>`;

const dialogOpen = (page: Page) => page.evaluate(() => (document.getElementById('terms') as HTMLDialogElement).open);

describe('our overlays over a modal dialog of the page', () => {
  const driver = markerTabs({ '/terms.html': PAGE, '/plain.html': PLAIN, '/stage.html': STAGE, '/menu.html': MENU, '/zoomed.html': ZOOMED, '/component.html': COMPONENT, '/narrow.html': NARROW, '/centred.html': CENTRED, '/long-terms.html': LONG_TERMS, '/blurred-terms.html': BLURRED_TERMS, '/closed-terms.html': CLOSED_TERMS });
  const apy = () => driver.apy();
  beforeAll(async () => {
    // The page and the browser are both in English: the bubble's target, as the user chose it.
    await storageSet(driver.control(), { 'ui:bubble': { trg: 'es' } });
  });

  /**
   * The page at `path` translated, the mouse resting on `words` until the hover button shows, the
   * button (over the dialog, as the browser hit-tests it) clicked: the chooser opens. The page's
   * body before, and the calls sent until then.
   */
  async function translatedWithChooser(path: string, words: string, hit = hitAt) {
    const { page, tabId } = await driver.open(`${driver.origin()}${path}`);
    const before = await page.evaluate(() => document.body.innerHTML);
    await driver.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
    expect(await driver.settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    const requests = apy().requests;
    const box = (await page.locator(words).boundingBox())!;
    await page.mouse.move(box.x + 4, box.y + box.height / 2, { steps: 3 });
    const button = await hoverButton(page);
    expect(button).toBeDefined();
    expect(await hit(page, button!)).toBe('polyglot-hover');
    await page.mouse.click(button!.x + button!.width / 2, button!.y + button!.height / 2);
    return { page, tabId, before, requests };
  }

  it('the bubble for a sentence selected in the dialog is over it and answers; Esc closes the bubble, then the dialog', async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/terms.html`);
    await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('in')!));
    await driver.translateSelection(tabId);
    await expect.poll(() => piercedText(page, 'polyglot-bubble')).toContain('⟦The terms of the service are written here, and they are long.⟧');
    const bubble = (await piercedBox(page, 'polyglot-bubble', 'div'))!;
    expect(await hitAt(page, bubble)).toBe('polyglot-bubble');
    // Its Copy button, clicked as a user does, copies the translation.
    const copy = (await piercedBox(page, 'polyglot-bubble', (n) => n.localName === 'button' && texts(n).join('') === 'Copy'))!;
    expect(await hitAt(page, copy)).toBe('polyglot-bubble');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
    expect(await dialogOpen(page)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await dialogOpen(page)).toBe(false);
    await page.close();
  });

  it("translated: the hover button by a paragraph in the dialog is over it, and a click on it opens that paragraph's chooser, over it; Esc closes the chooser alone; restore exact", async () => {
    const { page, tabId, before, requests } = await translatedWithChooser('/terms.html', '#in');
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toContain('Original (English)|The terms of the service are written here, and they are long.');
    const chooser = (await piercedBox(page, 'polyglot-alternatives', 'div'))!;
    expect(await hitAt(page, chooser)).toBe('polyglot-alternatives');
    await page.keyboard.press('Escape');
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toBe('');
    expect(await dialogOpen(page)).toBe(true);
    // Our elements in the dialog are not the page's: nothing of theirs was sent.
    expect(apy().requests).toBe(requests);
    expect(await page.evaluate(() => document.getElementById('in')!.textContent)).toBe('⟦The terms of the service are written here, and they are long.⟧');
    await page.mouse.move(1, 1);
    await driver.send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it("a dialog that is one unit: the hover button and the chooser in it are not the page's change (nothing sent again), and are gone at restore", async () => {
    const { page, tabId, before, requests } = await translatedWithChooser('/plain.html', '#terms');
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toContain('apertium (shown)|⟦Plain words in a dialog with⟧ ⟦bold⟧ ⟦text and more words after them.⟧');
    // What a frame or two of the page's watch would have sent again.
    await new Promise((r) => setTimeout(r, 500));
    expect(apy().requests).toBe(requests);
    expect(await driver.settle(tabId)).toMatchObject({ state: 'translated', done: 3, total: 3 });
    // Restored with the chooser open, the mouse on the words: the page as it was.
    await driver.send({ type: 'page:restore', data: { tabId } });
    await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
    const words = (await page.locator('#terms').boundingBox())!;
    await page.mouse.move(words.x + 30, words.y + words.height / 2, { steps: 3 });
    await new Promise((r) => setTimeout(r, 800));
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(before);
    await page.close();
  });

  it('the bubble for words selected in an element shown fullscreen is over it', async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/stage.html`);
    await page.click('#full');
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.id)).toBe('stage');
    await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('caption')!));
    await driver.translateSelection(tabId);
    await expect.poll(() => piercedText(page, 'polyglot-bubble')).toContain('⟦The words of the slide are shown over the whole screen.⟧');
    expect(await hitAt(page, (await piercedBox(page, 'polyglot-bubble', 'div'))!)).toBe('polyglot-bubble');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
    await page.close();
  });

  it("a paragraph in a popover the page shows: a click on the hover button opens the chooser and leaves the popover open; Esc closes the chooser alone", async () => {
    const { page } = await translatedWithChooser('/menu.html', '#item');
    const menuOpen = () => page.evaluate(() => document.getElementById('menu')!.matches(':popover-open'));
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toContain('apertium (shown)|⟦The words of the menu are here for the reader.⟧');
    expect(await menuOpen()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toBe('');
    expect(await menuOpen()).toBe(true);
    await page.close();
  });

  it('on a page that zooms its root: the hover button at the right of the paragraph, the chooser and the bubble just under it (where half the screen is free), at their own size', async () => {
    const { page, tabId } = await translatedWithChooser('/zoomed.html', '#z2');
    const paragraph = (await page.locator('#z2').boundingBox())!;
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toContain('apertium (shown)');
    const chooser = (await piercedBox(page, 'polyglot-alternatives', 'div'))!;
    // Within a pixel and a half: the boxes are placed at whole pixels.
    const near = (got: number, want: number) => expect(Math.abs(got - want), `${got} for ${want}`).toBeLessThanOrEqual(1.5);
    near(chooser.x, paragraph.x);
    near(chooser.y, paragraph.y + paragraph.height + 4);
    await page.keyboard.press('Escape');
    await page.mouse.move(1, 1);
    await page.mouse.move(paragraph.x + 4, paragraph.y + paragraph.height / 2, { steps: 3 });
    const button = await hoverButton(page);
    near(button!.x, paragraph.x + paragraph.width + 4);
    near(button!.y, paragraph.y);
    expect(button).toMatchObject({ width: 24, height: 24 });
    await page.mouse.move(1, 1);
    await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('z2')!));
    await driver.translateSelection(tabId);
    await expect.poll(() => piercedText(page, 'polyglot-bubble')).toContain('⟦Paragraph 2 of the zoomed page has its words.⟧');
    const bubble = (await page.locator('polyglot-bubble').boundingBox())!;
    near(bubble.y, paragraph.y + paragraph.height + 4);
    expect(bubble.width).toBe(352);
    await page.close();
  });

  it("a component's modal dialog in its open shadow root, showing the page's words through a slot: the bubble, the hover button and the chooser are over it", async () => {
    // The browser's hit test in the component's root (the document's answers with its host).
    const hitInComponent = (page: Page, box: { x: number; y: number; width: number; height: number }) =>
      page.evaluate(({ x, y }) => document.querySelector('x-dialog')!.shadowRoot!.elementFromPoint(x, y)?.localName, { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 12) });
    const { page, tabId } = await translatedWithChooser('/component.html', '#slotted', hitInComponent);
    await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toContain('apertium (shown)|⟦The words slotted into the dialog of a component are here.⟧');
    expect(await hitInComponent(page, (await piercedBox(page, 'polyglot-alternatives', 'div'))!)).toBe('polyglot-alternatives');
    await page.keyboard.press('Escape');
    await driver.send({ type: 'page:restore', data: { tabId } });
    await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('slotted')!));
    await driver.translateSelection(tabId);
    await expect.poll(() => piercedText(page, 'polyglot-bubble')).toContain('⟦The words slotted into the dialog of a component are here.⟧');
    expect(await hitInComponent(page, (await piercedBox(page, 'polyglot-bubble', 'div'))!)).toBe('polyglot-bubble');
    await page.close();
  });

  it("the indicator over a modal dialog: its Stop, pressed as a user does, stops the page; the dialog closed, it is back on <html>", async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/long-terms.html`);
    // Before stop 58, the browser's hit test found the dialog: the indicator was under its backdrop.
    await driver.stopByIndicator(page, tabId);
    expect(await dialogOpen(page)).toBe(true);
    await page.evaluate(() => (document.getElementById('terms') as HTMLDialogElement).close());
    await expect.poll(() => page.evaluate(() => document.querySelector('polyglot-progress')?.parentElement?.localName)).toBe('html');
    expect(await hitAt(page, (await piercedBox(page, 'polyglot-progress', 'div'))!)).toBe('polyglot-progress');
    await page.close();
  });

  it('the indicator over a modal dialog whose script took the focus out of it, open at load or while the page translates: its Stop stops the page', async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/blurred-terms.html`);
    expect(await page.evaluate(() => document.activeElement?.localName)).toBe('body');
    // Before stop 65, placed by the focus, the indicator stayed on <html>, under the backdrop.
    await driver.stopByIndicator(page, tabId);
    expect(await dialogOpen(page)).toBe(true);
    await page.evaluate(() => (document.getElementById('terms') as HTMLDialogElement).close());
    await expect.poll(() => page.evaluate(() => document.querySelector('polyglot-progress')?.parentElement?.localName)).toBe('html');
    // Opened while the page translates, the focus taken out of it at once.
    apy().latencyMs = 1000;
    try {
      await driver.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
      await expect.poll(() => piercedText(page, 'polyglot-progress'), { timeout: 10_000 }).toMatch(/^Translating… \d+%\|Stop$/);
      await page.evaluate(() => {
        (document.getElementById('terms') as HTMLDialogElement).showModal();
        (document.activeElement as HTMLElement).blur();
      });
      await expect.poll(() => page.evaluate(() => document.querySelector('polyglot-progress')?.parentElement?.id)).toBe('terms');
      const stop = (await piercedBox(page, 'polyglot-progress', 'button'))!;
      expect(await hitAt(page, stop)).toBe('polyglot-progress');
      await page.mouse.click(stop.x + stop.width / 2, stop.y + stop.height / 2);
      await expect.poll(async () => ((await driver.send({ type: 'page:status', data: { tabId } })).data as { state: string }).state).toBe('cancelled');
    } finally {
      apy().latencyMs = 0;
    }
    expect(await dialogOpen(page)).toBe(true);
    await page.close();
  });

  it("the indicator over a modal dialog in a component's closed shadow root, the focus taken out of it, open at load or while the page translates: its Stop stops the page", async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/closed-terms.html`);
    type Terms = HTMLElement & { open(): void; close(): void; shown: boolean };
    const shown = () => page.evaluate(() => (document.querySelector('x-terms') as Terms).shown);
    const state = async () => ((await driver.send({ type: 'page:status', data: { tabId } })).data as { state: string }).state;
    expect(await page.evaluate(() => document.activeElement?.localName)).toBe('body');
    expect(await shown()).toBe(true);
    apy().latencyMs = 1000;
    try {
      for (const opened of ['at load', 'while the page translates']) {
        await driver.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'es', mode: 'replace' } });
        await expect.poll(() => piercedText(page, 'polyglot-progress'), { timeout: 10_000 }).toMatch(/^Translating… \d+%\|Stop$/);
        if (opened !== 'at load') await page.evaluate(() => (document.querySelector('x-terms') as Terms).open());
        // Before stop 66, on <html> under the backdrop, found by neither the focus nor the
        // document's dialogs: a click on its Stop reached the backdrop.
        await expect.poll(() => piercedBox(page, 'x-terms', 'polyglot-progress'), { message: opened }).toBeDefined();
        const stop = (await piercedBox(page, 'polyglot-progress', 'button'))!;
        await page.mouse.click(stop.x + stop.width / 2, stop.y + stop.height / 2);
        await expect.poll(state, { message: opened }).toBe('cancelled');
        expect(await shown()).toBe(true);
        await page.evaluate(() => (document.querySelector('x-terms') as Terms).close());
        // Closed, its `toggle` heard on the dialog itself: back on <html>, in view.
        await expect.poll(() => page.evaluate(() => document.querySelector('polyglot-progress')?.parentElement?.localName), { message: opened }).toBe('html');
      }
    } finally {
      apy().latencyMs = 0;
    }
    await page.close();
  });

  it('translated into Arabic: the hover button at the end of the first line, left of the paragraph', async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/centred.html`);
    await driver.send({ type: 'page:translate', data: { tabId, src: 'en', trg: 'ar', mode: 'replace' } });
    expect(await driver.settle(tabId)).toMatchObject({ state: 'translated', errors: 0 });
    expect(await page.evaluate(() => document.getElementById('centred')!.dir)).toBe('rtl');
    const words = (await page.locator('#centred').boundingBox())!;
    await page.mouse.move(words.x + words.width - 4, words.y + words.height / 2, { steps: 3 });
    const button = (await hoverButton(page))!;
    // Before stop 58, at its right, over the start of its first line.
    expect(button).toMatchObject({ x: words.x - 4 - 24, y: words.y, width: 24 });
    await page.close();
  });

  it('the hover button stays while the mouse rests on it', async () => {
    const { page, tabId } = await driver.open(`${driver.origin()}/narrow.html`);
    await driver.translate(tabId);
    const words = (await page.locator('#narrow').boundingBox())!;
    await page.mouse.move(words.x + 4, words.y + words.height / 2, { steps: 3 });
    const button = await hoverButton(page);
    await page.mouse.move(button!.x + button!.width / 2, button!.y + button!.height / 2, { steps: 5 });
    // Before stop 57 it went 0.4 s after the mouse came to rest on it.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await piercedBox(page, 'polyglot-hover', 'button')).toEqual(button);
    await page.mouse.move(words.x + 4, words.y + 200);
    await expect.poll(() => piercedBox(page, 'polyglot-hover', 'button')).toBeUndefined();
    await page.close();
  });
});
