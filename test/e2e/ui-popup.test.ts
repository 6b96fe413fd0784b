/**
 * The popup, opened as a tab (the real toolbar popup is out of Playwright's reach): pair and
 * domain, route reordering by keyboard and by drag, min=max=3 with the compare view filled route by
 * route, disagreement highlighted, and a failing route listed with its err.
 * Routes: Apertium (the real APy), LibreTranslate (a fake that upper-cases), chained through ca.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLibre, type FakeLibre } from '../fakes/fake-libre';
import { APY_URL } from '../support/apy-setup';
import { launchExtension, OPTIONS_PATH, type ExtensionBrowser } from './browser';
import { POPUP_PATH, setSettings, storageGet } from './ui-helpers';

const rowIds = (page: Page) => page.locator('[data-testid="routes"] > li').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

describe('popup: compare alternatives', () => {
  let browser: ExtensionBrowser;
  let libre: FakeLibre;
  let page: Page;

  beforeAll(async () => {
    libre = await startFakeLibre({ languages: { en: ['es', 'ca'], ca: ['es', 'en'], es: ['en', 'ca'] } });
    browser = await launchExtension();
    // settings:set is for the options page only.
    const options = await browser.openExtensionPage(OPTIONS_PATH);
    await setSettings(options, {
      providers: { 'apertium.ts': { enabled: true, url: APY_URL }, 'libre.ts': { enabled: true, url: libre.url } },
      ranking: ['apertium.ts', 'libre.ts'],
      interlinguas: ['ca'],
    });
    await options.close();
    page = await browser.openExtensionPage(POPUP_PATH);
    await page.setViewportSize({ width: 460, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
    await libre?.close();
  });

  it('picks a pair by searching names and codes, and a domain', async () => {
    // Typed at once, as a user may: the languages come from the providers (APy's list can take
    // seconds on a busy machine) and the search picks once they are there.
    await page.getByLabel('Search: From').fill('english');
    await expect.poll(() => page.locator('#src-select').inputValue(), { timeout: 15_000 }).toBe('en');
    await page.getByLabel('Search: To').fill('spa');
    await expect.poll(() => page.locator('#trg-select').inputValue()).toBe('es');
    expect(await page.locator('#trg-select option:checked').textContent()).toBe('Spanish (es)');
    await page.getByLabel('Domain').selectOption({ label: 'Technology' });
    await expect.poll(() => rowIds(page)).toEqual(['apertium.ts', 'libre.ts', 'apertium.ts,ca,apertium.ts', 'apertium.ts,ca,libre.ts', 'libre.ts,ca,apertium.ts', 'libre.ts,ca,libre.ts']);
  });

  it('reorders routes by keyboard and by drag, and remembers the order for the pair', async () => {
    await page.getByRole('button', { name: 'Move libre up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rowIds(page)).toEqual(['libre.ts', 'apertium.ts', 'apertium.ts,ca,apertium.ts', 'apertium.ts,ca,libre.ts', 'libre.ts,ca,apertium.ts', 'libre.ts,ca,libre.ts']);
    await expect(page.getByRole('status').filter({ hasText: 'moved to position 1' }).count()).resolves.toBe(1);
    // Drag the chained Apertium route onto the second row.
    await page.locator('[data-id="apertium.ts,ca,apertium.ts"]').dragTo(page.locator('[data-id="apertium.ts"]'));
    const order = ['libre.ts', 'apertium.ts,ca,apertium.ts', 'apertium.ts', 'apertium.ts,ca,libre.ts', 'libre.ts,ca,apertium.ts', 'libre.ts,ca,libre.ts'];
    await expect.poll(() => rowIds(page)).toEqual(order);
    await expect.poll(() => storageGet<Record<string, { order: string[] }>>(page, 'ui:routes')).toMatchObject({ 'en>es': { order } });
    // Reopened, the popup shows the same order.
    await page.reload();
    await expect.poll(() => rowIds(page)).toEqual(order);
  });

  it('translates with min=max=3: three routes side by side, disagreement marked, identical outputs merged', async () => {
    await page.getByLabel('Min').fill('3');
    await page.getByLabel('Min').blur();
    await page.getByLabel('Max').fill('3');
    await page.getByLabel('Max').blur();
    await page.getByLabel('Text to translate').fill('Hello world');
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    await expect.poll(() => page.locator('.alt-routes code').evaluateAll((c) => c.map((x) => x.getAttribute('title')).sort()), { timeout: 15_000 })
      .toEqual(['apertium.ts', 'apertium.ts,ca,apertium.ts', 'libre.ts'].sort());
    await expect.poll(() => page.locator('.pending').count()).toBe(0);
    const cards = await page.locator('.alternative').evaluateAll((els) => els.map((e) => ({
      routes: e.getAttribute('data-routes'),
      text: e.querySelector('.alt-text')?.textContent,
      marked: [...e.querySelectorAll('mark')].map((m) => m.textContent),
    })));
    const upper = cards.find((c) => c.routes === 'libre.ts');
    expect(upper).toEqual({ routes: 'libre.ts', text: 'HELLO WORLD', marked: ['HELLO', 'WORLD'] });
    // Apertium's direct and chained outputs: merged when equal, else each a card of its own.
    const apertium = cards.filter((c) => c.routes !== 'libre.ts');
    expect(apertium.flatMap((c) => c.routes?.split(' '))).toEqual(expect.arrayContaining(['apertium.ts', 'apertium.ts,ca,apertium.ts']));
    for (const c of apertium) expect(c.text).toMatch(/^Hola/);
    // Against HELLO WORLD every Apertium word disagrees.
    for (const c of apertium) expect(c.marked).toContain('Hola');
    expect(await page.locator('.latency').count()).toBe(3);
    const request = libre.requests.find((r) => r.path === '/translate');
    expect(request).toBeDefined();
    await page.locator('main').screenshot({ path: 'docs/screenshots/popup.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 24, 29)');
    await page.locator('main').screenshot({ path: 'docs/screenshots/popup-dark.png' });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('marks alternatives the translation memory answered as cached, asking no provider', async () => {
    const before = libre.requests.filter((r) => r.path === '/translate').length;
    expect(await page.locator('.cached').count()).toBe(0);
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    await expect.poll(() => page.locator('.alternative .cached').count(), { timeout: 15_000 }).toBe(3);
    expect(libre.requests.filter((r) => r.path === '/translate').length).toBe(before);
  });

  it('shows a failing route with its err while the others show text', async () => {
    libre.rule({ path: '/translate', fault: { type: 'status', status: 500, body: { error: 'engine crashed' } } });
    // A new text: the engine's translation memory would answer the old one without asking libre.
    await page.getByLabel('Text to translate').fill('Good morning');
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    const failed = () => page.evaluate(() => document.querySelector('.failed li[data-rid="libre.ts"] .err')?.textContent ?? '');
    await expect.poll(failed, { timeout: 15_000 }).toMatch(/^5\d\d libre\.ts/);
    await expect.poll(() => page.locator('.pending').count(), { timeout: 20_000 }).toBe(0);
    const texts = await page.locator('.alt-text').allTextContents();
    expect(texts.length).toBeGreaterThanOrEqual(1);
    for (const text of texts) expect(text).toMatch(/^Buenos d[ií]as/i);
    await page.locator('main').screenshot({ path: 'docs/screenshots/popup-failed-route.png' });
    libre.clearRules();
  });

  it('detects the text\'s language when From is "Detect language", and says when it cannot', async () => {
    await page.locator('#src-select').selectOption('auto');
    await page.getByLabel('Search: To').fill('');
    await page.locator('#trg-select').selectOption('en');
    await page.getByLabel('Text to translate').fill('');
    await expect.poll(() => page.locator('.routes-panel .empty').textContent()).toBe('The routes show once the text’s language is detected.');
    expect(await page.getByRole('button', { name: 'Swap languages' }).isDisabled()).toBe(true);
    await page.getByLabel('Text to translate').fill('Buenos días a todos. Hoy hace muy buen tiempo en la ciudad y vamos a pasear por el parque.');
    await expect.poll(() => page.locator('.detected').textContent()).toBe('Detected: Spanish');
    // The detected pair's routes, and the text box says its language.
    await expect.poll(() => rowIds(page)).toContain('libre.ts');
    expect(await page.getByLabel('Text to translate').getAttribute('lang')).toBe('es');
    const before = libre.requests.filter((r) => r.path === '/translate').length;
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    await expect.poll(() => page.locator('.alternative[data-routes="libre.ts"] .alt-text').textContent(), { timeout: 15_000 })
      .toBe('BUENOS DÍAS A TODOS. HOY HACE MUY BUEN TIEMPO EN LA CIUDAD Y VAMOS A PASEAR POR EL PARQUE.');
    const sent = libre.requests.filter((r) => r.path === '/translate').slice(before);
    expect(sent.map((r) => (r.body as { source?: string }).source)).toEqual(['es']);
    await expect.poll(() => page.locator('.pending').count(), { timeout: 20_000 }).toBe(0);
    await page.locator('main').screenshot({ path: 'docs/screenshots/popup-detect.png' });
    // The picker stays on "Detect language"; the recent pair is the detected one.
    await expect.poll(() => storageGet<{ src?: string; recent?: string[][] }>(page, 'ui:popup')).toMatchObject({ src: 'auto', recent: expect.arrayContaining([['es', 'en']]) });
    // Swap takes the detected language as the target.
    expect(await page.getByRole('button', { name: 'Swap languages' }).isDisabled()).toBe(false);

    // Nothing a detector can read: said beside the picker, and Translate explains instead of sending.
    await page.getByLabel('Text to translate').fill('12345 67890 !!!');
    await expect.poll(() => page.locator('.detected').textContent()).toBe('Could not tell the text’s language: pick it under From.');
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Could not tell the text’s language: pick it under From.');
    expect(libre.requests.filter((r) => r.path === '/translate').length).toBe(before + 1);
    // A short text: the detector's reading is a guess, and said so (CLD reads this as Galician).
    await page.getByLabel('Text to translate').fill('Buenos días a todos');
    await expect.poll(() => page.locator('.detected').textContent()).toBe('Detected: Galician (a guess: check it)');

    // A text in the target language: said, and nothing is sent.
    await page.locator('#trg-select').selectOption('es');
    await page.getByLabel('Text to translate').fill('Buenas noches a todos. Mañana vamos a pasear otra vez por el parque de la ciudad.');
    await expect.poll(() => page.locator('.detected').textContent()).toBe('Detected: Spanish');
    await expect.poll(() => page.locator('.routes-panel .empty').textContent()).toBe('The text is in Spanish already: pick another language under To.');
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The text is in Spanish already: pick another language under To.');
    expect(libre.requests.filter((r) => r.path === '/translate').length).toBe(before + 1);
    await page.locator('#src-select').selectOption('en');
    await expect.poll(() => page.locator('.detected').count()).toBe(0);
  });
});
