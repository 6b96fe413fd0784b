/**
 * "Translate selection": text selected on a 127.0.0.1 page, the context-menu handler invoked in
 * the worker (a real menu click is out of Playwright's reach), the bubble shows the first
 * translation, then the second route's alternative; Esc closes it. Routes: Apertium (a fake APy
 * that answers after 1.5 s) and LibreTranslate (a fake that answers at once), both upper-casing.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeApy, type FakeApy } from '../fakes/fake-apy';
import { startFakeLibre, type FakeLibre } from '../fakes/fake-libre';
import { evaluateInContentScript, launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { setSettings, storageSet } from './ui-helpers';

interface Snapshot {
  src: string;
  trg: string;
  results: { rid: string; text?: string; err?: string; ms: number }[];
  error: string;
  pending: boolean;
}

const snapshot = (page: Page, id: string) => evaluateInContentScript<Snapshot | null>(page, id, 'globalThis.polyglot.bubble.snapshot() ?? null');

/** A textarea `id` reading "Good morning, friends" added to `page`, focused, its characters `start` to `end` selected. */
const fieldSelected = (page: Page, id: string, start: number, end: number) =>
  page.evaluate(([id, start, end]) => {
    const area = document.createElement('textarea');
    area.id = id;
    area.value = 'Good morning, friends';
    document.body.append(area);
    area.focus();
    area.setSelectionRange(start, end);
  }, [id, start, end] as const);

describe('selection bubble', () => {
  let browser: ExtensionBrowser;
  let apy: FakeApy;
  let libre: FakeLibre;
  let page: Page;

  beforeAll(async () => {
    apy = await startFakeApy();
    apy.rule({ path: '/translate', fault: { type: 'delay', ms: 1500 } });
    libre = await startFakeLibre();
    // embed.test: a site of its own for the embedded post's frame, served by the same loopback server.
    browser = await launchExtension(undefined, { hostRules: ['MAP embed.test 127.0.0.1'] });
    const options = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(options, {
      providers: { 'apertium.ts': { enabled: true, url: apy.url }, 'libre.ts': { enabled: true, url: libre.url } },
      ranking: ['apertium.ts', 'libre.ts'],
      interlinguas: [],
    });
    // The browser's language is English like the page: the user's chosen target, as the bubble stores it.
    await storageSet(options, { 'ui:bubble': { trg: 'es' } });
    await options.close();
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 720, height: 420 });
    await page.goto(`${browser.pageOrigin}/article`);
    await page.evaluate(() => {
      document.body.style.cssText = 'font: 18px Georgia, serif; margin: 40px; color: #222';
      const p = document.getElementById('text')!;
      p.textContent = 'Hello world';
      p.insertAdjacentHTML('afterend', '<p>The bubble stays clear of the page styles: this paragraph is styled by the page, the bubble by itself.</p>');
      getSelection()!.selectAllChildren(p);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await apy?.close();
    await libre?.close();
  });

  it('shows the first translation, then the second route as it arrives; Esc closes it', async () => {
    await evaluateInContentScript(page, browser.id, '1');
    await browser.worker.evaluate(async (url) => {
      const c = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id: number; url: string }[]> }; contextMenus: { onClicked: { dispatch(info: object, tab: object): void } } } }).chrome;
      const [tab] = await c.tabs.query({ url: `${url}/*` });
      c.contextMenus.onClicked.dispatch({ menuItemId: 'translate-selection', selectionText: 'Hello world', frameId: 0, editable: false, pageUrl: tab!.url }, tab!);
    }, browser.pageOrigin);

    // First: libre's answer alone, Apertium still on its way.
    await expect.poll(async () => (await snapshot(page, browser.id))?.results.length ?? 0, { timeout: 5000, interval: 50 }).toBe(1);
    const first = (await snapshot(page, browser.id))!;
    expect(first).toMatchObject({ src: 'en', trg: 'es', pending: true, results: [{ rid: 'libre.ts', text: 'HELLO WORLD' }] });
    expect(await page.locator('polyglot-bubble').count()).toBe(1);
    // The page cannot look inside.
    expect(await page.evaluate(() => document.querySelector('polyglot-bubble')!.shadowRoot)).toBeNull();

    await expect.poll(async () => (await snapshot(page, browser.id))?.pending, { timeout: 8000 }).toBe(false);
    const all = (await snapshot(page, browser.id))!;
    expect(all.results.map((r) => r.rid)).toEqual(['libre.ts', 'apertium.ts']);
    expect(all.results[1]).toMatchObject({ text: 'HELLO WORLD' });
    expect(all.results[1]!.ms).toBeGreaterThanOrEqual(1400);
    await page.screenshot({ path: 'docs/screenshots/bubble.png' });
    // Printing the page prints the page, not the bubble.
    const bubbleDisplay = () => page.evaluate(() => getComputedStyle(document.querySelector('polyglot-bubble')!).display);
    await page.emulateMedia({ media: 'print' });
    expect(await bubbleDisplay()).toBe('none');
    await page.emulateMedia({ media: 'screen' });
    expect(await bubbleDisplay()).not.toBe('none');

    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
    expect(await snapshot(page, browser.id)).toBeNull();
  });

  it('translates a selection inside a textarea through the shortcut path, and closes on a click outside', async () => {
    await fieldSelected(page, 'area', 0, 12);
    await browser.worker.evaluate(async (url) => {
      const c = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id: number }[]>; sendMessage(id: number, m: object): Promise<unknown> } } }).chrome;
      const [tab] = await c.tabs.query({ url: `${url}/*` });
      // What the `translate-selection` command sends: every frame, the one with a selection acts.
      await c.tabs.sendMessage(tab!.id, { type: 'selection:show', data: { targeted: false } }).catch(() => undefined);
    }, browser.pageOrigin);
    await expect.poll(async () => (await snapshot(page, browser.id))?.results[0]?.text, { timeout: 5000 }).toBe('GOOD MORNING');
    await page.mouse.click(5, 400);
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
  });

  it('gives the focus back to the text field whose words it translated when Esc closes it, the selection kept', async () => {
    await fieldSelected(page, 'reply', 5, 12);
    await evaluateInContentScript(page, browser.id, 'globalThis.polyglot.bubble.show()');
    await expect.poll(async () => (await snapshot(page, browser.id))?.results[0]?.text, { timeout: 5000 }).toBe('MORNING');
    // The bubble took the focus (a keyboard reader is in it).
    expect(await page.evaluate(() => document.activeElement?.localName)).toBe('polyglot-bubble');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
    expect(await page.evaluate(() => {
      const area = document.activeElement as HTMLTextAreaElement;
      return [area.id, area.selectionStart, area.selectionEnd];
    })).toEqual(['reply', 5, 12]);
  });

  it("translates a French sentence selected on an English page from French: Chromium's detector is sure of it", async () => {
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      const p = document.createElement('p');
      p.textContent = 'Le président a annoncé hier une réforme des retraites.';
      document.body.append(p);
      getSelection()!.selectAllChildren(p);
    });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await evaluateInContentScript(page, browser.id, 'globalThis.polyglot.bubble.show()');
    await expect.poll(async () => (await snapshot(page, browser.id))?.src, { timeout: 5000 }).toBe('fr');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
  });

  it('shows all of itself on screen for a selection at the bottom right of the screen: over it, inside the right edge', async () => {
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'corner';
      p.style.cssText = 'position: fixed; right: 4px; bottom: 4px; margin: 0';
      p.textContent = 'Good evening';
      document.body.append(p);
      getSelection()!.selectAllChildren(p);
    });
    await evaluateInContentScript(page, browser.id, 'globalThis.polyglot.bubble.show()');
    await expect.poll(async () => (await snapshot(page, browser.id))?.results[0]?.text, { timeout: 5000 }).toBe('GOOD EVENING');
    const box = (await page.locator('polyglot-bubble').boundingBox())!;
    const selected = (await page.locator('#corner').boundingBox())!;
    // The viewport is 720 x 420 (beforeAll).
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(720);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(selected.y);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
  });

  /** An embedded post of another site (embed.test), `css` its frame's style, its paragraph `text` selected there; the frame's content script running. */
  async function embed(css: string, text: string): Promise<Frame> {
    const src = `http://embed.test:${new URL(browser.pageOrigin).port}/post`;
    await page.evaluate(async ({ src, css }) => {
      (document.activeElement as HTMLElement | null)?.blur();
      getSelection()!.removeAllRanges();
      document.getElementById('embed')?.remove();
      const frame = document.createElement('iframe');
      frame.id = 'embed';
      frame.src = src;
      frame.style.cssText = css;
      document.body.prepend(frame);
      scrollTo(0, 0);
      await new Promise((done) => (frame.onload = done));
    }, { src, css });
    const frame = page.frames().find((f) => f.url().startsWith(src))!;
    await evaluateInContentScript(frame, browser.id, '1');
    await frame.evaluate((text) => {
      const p = document.getElementById('text')!;
      p.textContent = text;
      p.style.margin = '4px 8px';
      getSelection()!.selectAllChildren(p);
    }, text);
    return frame;
  }

  /** The shortcut's message, to every frame of the tab: the one with a selection acts. */
  const shortcut = () => browser.worker.evaluate(async (url) => {
    const c = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id: number }[]>; sendMessage(id: number, m: object): Promise<unknown> } } }).chrome;
    const [tab] = await c.tabs.query({ url: `${url}/*` });
    await c.tabs.sendMessage(tab!.id, { type: 'selection:show', data: { targeted: false } }).catch(() => undefined);
  }, browser.pageOrigin);

  /** The shortcut pressed: the top page shows the bubble, with `text`, and none of `frames` does; the bubble's box and the embedded frame's. */
  async function shownOnTop(text: string, ...frames: Frame[]) {
    await shortcut();
    await expect.poll(async () => (await snapshot(page, browser.id))?.results[0]?.text, { timeout: 5000 }).toBe(text);
    for (const frame of frames) expect(await frame.locator('polyglot-bubble').count()).toBe(0);
    expect(await page.locator('polyglot-bubble').count()).toBe(1);
    return { box: (await page.locator('polyglot-bubble').boundingBox())!, at: (await page.locator('#embed').boundingBox())! };
  }

  it("shows a selection in a frame too small for the bubble (an embedded post) from the page around it, under the selection and whole; a click in the frame closes it", async () => {
    // 300 x 90 px, a 2 px border and 3 px of padding: the bubble (352 px wide) is cut in it.
    const frame = await embed('display: block; width: 300px; height: 90px; border: 2px solid #888; padding: 3px; margin: 20px 0 0 60px', 'Good night');
    const { box, at } = await shownOnTop('GOOD NIGHT', frame);
    const selected = await frame.evaluate(() => {
      const r = getSelection()!.getRangeAt(0).getBoundingClientRect();
      return { left: r.left, top: r.top, bottom: r.bottom };
    });
    // Under the selection as the top page sees it (the frame's place, border and padding), 4 px below.
    expect(Math.abs(box.y - (at.y + 5 + selected.bottom + 4))).toBeLessThanOrEqual(1);
    expect(Math.abs(box.x - (at.x + 5 + selected.left))).toBeLessThanOrEqual(1);
    // Whole: wider than the frame, inside the viewport (720 x 420).
    expect(box.width).toBeGreaterThan(at.width);
    expect(box.x + box.width).toBeLessThanOrEqual(720);
    expect(box.y + box.height).toBeLessThanOrEqual(420);
    // A click in the frame (on its paragraph, over the bubble), which the top page does not see, closes it.
    await page.mouse.click(at.x + 20, at.y + 5 + (selected.top + selected.bottom) / 2);
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
  });

  it('shows a selection in a small frame inside a frame from the top page, where it is on the screen through both', async () => {
    // A post of embed.test (600 x 300, a 1 px border) that embeds a strip of the top page's site (250 x 80, 6 px of padding).
    const outer = await embed('display: block; width: 600px; height: 300px; border: 1px solid #888; margin: 10px 0 0 30px', 'Outer text');
    const innerSrc = `${browser.pageOrigin}/strip`;
    const innerAt = await outer.evaluate(async (src) => {
      getSelection()!.removeAllRanges();
      const frame = document.createElement('iframe');
      frame.src = src;
      frame.style.cssText = 'display: block; width: 250px; height: 80px; border: 0; padding: 6px; margin: 30px 0 0 40px';
      document.body.append(frame);
      await new Promise((done) => (frame.onload = done));
      const r = frame.getBoundingClientRect();
      return { x: r.left + 6, y: r.top + 6 };
    }, innerSrc);
    const inner = page.frames().find((f) => f.url() === innerSrc)!;
    await evaluateInContentScript(inner, browser.id, '1');
    const selected = await inner.evaluate(() => {
      const p = document.getElementById('text')!;
      p.textContent = 'Sweet dreams';
      p.style.margin = '2px';
      getSelection()!.selectAllChildren(p);
      const r = getSelection()!.getRangeAt(0).getBoundingClientRect();
      return { left: r.left, bottom: r.bottom };
    });
    const { box, at } = await shownOnTop('SWEET DREAMS', inner, outer);
    expect(Math.abs(box.x - (at.x + 1 + innerAt.x + selected.left))).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y - (at.y + 1 + innerAt.y + selected.bottom + 4))).toBeLessThanOrEqual(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('polyglot-bubble').count()).toBe(0);
  });

  it('keeps the bubble in a frame that holds it, over its own selection', async () => {
    const frame = await embed('display: block; width: 600px; height: 380px; border: 0; margin: 0', 'Good luck');
    await shortcut();
    await expect.poll(() => frame.locator('polyglot-bubble').count(), { timeout: 5000 }).toBe(1);
    expect(await page.locator('polyglot-bubble').count()).toBe(0);
    await frame.press('body', 'Escape');
    await expect.poll(() => frame.locator('polyglot-bubble').count()).toBe(0);
    await page.evaluate(() => document.getElementById('embed')!.remove());
  });
});
