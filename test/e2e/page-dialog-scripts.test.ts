/**
 * Our overlays in a dialog a script makes of a `<div>` and marks `role="dialog"` (most of the
 * web's modals: Bootstrap's, Radix's under shadcn/ui, those built on the `focus-trap` library).
 * Such a script holds the focus in its dialog (a focus trap) and reads a press outside it as
 * "close", or stops it. On <html>, the selection's bubble and the chooser lost the focus they
 * took at once (the keyboard then pressed the dialog's buttons, and Esc closed the page's dialog
 * with our chooser); with `focus-trap`, a click on the bubble's buttons or on the hover button
 * did nothing; with Radix, it closed the page's dialog. Now each goes inside the dialog
 * (overlay.ts `isDialogRole`), and so does the progress indicator while the focus is in it
 * (`pageTop`: `focus-trap` stopped a click on its Stop). The real libraries, served from
 * node_modules, in Chromium with the built extension and Apertium pointed at the marker fake
 * (`word` -> `⟦word⟧`).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../fakes/bundle';
import { markerTabs } from '../fakes/page-e2e';
import { FOCUS_TRAP_PAGE, serveLibraries } from '../fakes/page-libraries';
import { hoverButton, piercedBox, piercedText, texts } from './pierced';
import { storageSet } from './ui-helpers';

const js = { 'content-type': 'text/javascript' };

const WORDS = 'The terms of the service are written here, and they are long.';
const MARKED = `⟦${WORDS}⟧`;

/** The page behind the dialog: some seconds of calls at 1 s each (the indicator's Stop test). */
const BEHIND = Array.from({ length: 300 }, (_, i) => `<p>Paragraph number ${i} of the page behind the dialog.</p>`).join('');

/** Bootstrap's modal, shown at load: its script pulls the focus back into `.modal`, and Esc there hides it. */
const BOOTSTRAP = `<!doctype html><html lang="en"><head><title>Terms</title></head><body>${BEHIND}
<div class="modal" id="dialog" tabindex="-1"><div class="modal-dialog"><div class="modal-content"><div class="modal-body">
<p id="in">${WORDS}</p><button id="agree">I agree</button></div></div></div></div>
<script src="/lib/bootstrap.js"></script><script>new bootstrap.Modal(document.getElementById('dialog')).show();</script></body></html>`;

/** Radix's dialog in a React app (shadcn/ui's): a press outside its content closes it. */
const RADIX_SOURCE = `
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import * as Dialog from '@radix-ui/react-dialog';
const App = () => h(Dialog.Root, { defaultOpen: true },
  h(Dialog.Portal, null,
    h(Dialog.Overlay, { style: { position: 'fixed', inset: 0, background: '#0006' } }),
    h(Dialog.Content, { id: 'dialog', style: { position: 'fixed', inset: '20px', background: '#fff' } },
      h(Dialog.Title, null, 'Before you go on'),
      h(Dialog.Description, { id: 'in' }, ${JSON.stringify(WORDS)}),
      h(Dialog.Close, { id: 'agree' }, 'I agree'))));
createRoot(document.getElementById('root')).render(h(App));`;
const RADIX = `<!doctype html><html lang="en"><head><title>Terms</title></head><body>${BEHIND}
<div id="root"></div><script src="/radix-app.js"></script></body></html>`;

const LIBRARIES = [
  ['Bootstrap', '/bootstrap.html'],
  ['focus-trap', '/focus-trap.html'],
  ['Radix', '/radix.html'],
] as const;

/** The element the browser finds at the middle of `box` (a host stands for what is in its shadow root). */
const hitAt = (page: Page, box: { x: number; y: number; width: number; height: number }) =>
  page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName, { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 12) });
/** Where the focus is: our host stands for what is in its closed root. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.localName);
/** Whether the page's dialog is open, as its user sees it. */
const dialogShown = (page: Page) => page.evaluate(() => !!document.getElementById('dialog')?.checkVisibility());

describe("our overlays in a dialog a script makes of a <div> (Bootstrap, focus-trap, Radix)", () => {
  const driver = markerTabs({ '/bootstrap.html': BOOTSTRAP, '/focus-trap.html': FOCUS_TRAP_PAGE(BEHIND, WORDS), '/radix.html': RADIX });
  beforeAll(async () => {
    // The page and the browser are both in English: the bubble's target, as the user chose it.
    await storageSet(driver.control(), { 'ui:bubble': { trg: 'es' } });
    const server = driver.server();
    serveLibraries(server);
    server.set('/radix-app.js', await bundle(RADIX_SOURCE), js);
  });

  /** The page at `path`, its dialog shown (and its focus in it). */
  async function opened(path: string) {
    const { page, tabId } = await driver.open(`${driver.origin()}${path}`);
    await expect.poll(() => dialogShown(page)).toBe(true);
    await expect.poll(() => page.evaluate(() => !!document.getElementById('dialog')?.contains(document.activeElement))).toBe(true);
    return { page, tabId };
  }

  for (const [library, path] of LIBRARIES) {
    it(`${library}: the bubble for a sentence selected in the dialog keeps the focus, Tab stays in it, its Copy button copies; Esc closes the bubble, not the dialog`, async () => {
      const { page, tabId } = await opened(path);
      await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('in')!));
      await driver.translateSelection(tabId);
      await expect.poll(() => piercedText(page, 'polyglot-bubble')).toContain(MARKED);
      // What a focus trap's watch would have taken back by now.
      await new Promise((r) => setTimeout(r, 300));
      expect(await focused(page)).toBe('polyglot-bubble');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('polyglot-bubble');
      const copy = (await piercedBox(page, 'polyglot-bubble', (n) => n.localName === 'button' && texts(n).join('') === 'Copy'))!;
      expect(await hitAt(page, copy)).toBe('polyglot-bubble');
      await page.mouse.click(copy.x + copy.width / 2, copy.y + copy.height / 2);
      await expect.poll(() => piercedText(page, 'polyglot-bubble')).toContain('Copied');
      expect(await dialogShown(page)).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(await dialogShown(page)).toBe(true);
      await page.close();
    });

    it(`${library}: the indicator's Stop, pressed while the page translates, stops it and leaves the dialog open`, async () => {
      const { page, tabId } = await opened(path);
      await driver.stopByIndicator(page, tabId);
      expect(await dialogShown(page)).toBe(true);
      await page.close();
    });

    it(`${library}: translated, the hover button by the dialog's paragraph opens its chooser, which keeps the focus; Esc closes the chooser, not the dialog; restore exact`, async () => {
      const { page, tabId } = await opened(path);
      const before = await page.evaluate(() => document.body.innerHTML);
      await driver.translate(tabId);
      expect(await page.evaluate(() => document.getElementById('in')!.textContent)).toBe(MARKED);
      const words = (await page.locator('#in').boundingBox())!;
      await page.mouse.move(words.x + 4, words.y + words.height / 2, { steps: 3 });
      const button = await hoverButton(page);
      expect(button).toBeDefined();
      expect(await hitAt(page, button!)).toBe('polyglot-hover');
      await page.mouse.click(button!.x + button!.width / 2, button!.y + button!.height / 2);
      await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toContain(`Original (English)|${WORDS}|Show the original|apertium (shown)|${MARKED}`);
      expect(await dialogShown(page)).toBe(true);
      // The chooser put the focus on its one button ("Show the original"), and it stays there.
      await expect.poll(() => focused(page)).toBe('polyglot-alternatives');
      await new Promise((r) => setTimeout(r, 300));
      expect(await focused(page)).toBe('polyglot-alternatives');
      await page.keyboard.press('Escape');
      await expect.poll(() => piercedText(page, 'polyglot-alternatives')).toBe('');
      await new Promise((r) => setTimeout(r, 300));
      expect(await dialogShown(page)).toBe(true);
      await page.mouse.move(1, 1);
      await expect.poll(() => piercedBox(page, 'polyglot-hover', 'button')).toBeUndefined();
      await driver.send({ type: 'page:restore', data: { tabId } });
      await expect.poll(() => page.evaluate(() => document.body.innerHTML)).toBe(before);
      await page.close();
    });
  }
});
