/**
 * A long text in one Text node (a script's log, a transcript written with `textContent`), sent in
 * pieces at its sentences and written piece by piece into that node, in the order the answers
 * come. Each piece's undo keeps the pieces written before it, not the whole text as it was (a
 * node of 690 000 characters in 770 pieces held ~1 GB in Chromium's renderer while translated),
 * and restore writes the node once, as it was (it wrote it once per piece, each time whole).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageTranslator } from '../../src/content/page';
import { fakeTranslator, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const LINES = 600;
/** ~25 000 characters: 28 pieces. */
const LOG = Array.from({ length: LINES }, (_, i) => `Line ${i} of the log says the job went on.`).join(' ');
const upperText = (markup: string) => markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);

/** The log in a `<div>`, the page translated with every call held; the calls and a way to answer them. */
async function heldLog(extra = '') {
  const fake = fakeTranslator({ hold: true, reply: upperText });
  const body = `<div id="log">${LOG}</div>${extra}`;
  const { page, frames } = startPage(body, fake.translate, pages, { maxInFlight: 64 });
  await frames.settle();
  const text = document.getElementById('log')!.firstChild as Text;
  /** Answers the calls not answered yet, last first (as a slow provider's answers come: in any order). */
  const answerAll = async () => {
    for (let i = 0; i < 50 && page.status().state === 'translating'; i++) {
      for (const c of [...fake.calls].reverse()) c.release();
      await frames.settle();
    }
  };
  return { page, frames, fake, body, text, answerAll };
}

/** The changes to `node`'s text from now on, counted. */
function textWrites(node: Text) {
  const seen: MutationRecord[] = [];
  const mo = new MutationObserver((rs) => seen.push(...rs.filter((r) => r.type === 'characterData' && r.target === node)));
  mo.observe(node, { characterData: true });
  return () => {
    seen.push(...mo.takeRecords().filter((r) => r.type === 'characterData' && r.target === node));
    mo.disconnect();
    return seen.length;
  };
}

describe('a long text in one node, written in pieces', () => {
  it('answered in any order: the node reads translated, its one node kept; restore writes it once, as it was', async () => {
    const { page, fake, body, text, answerAll } = await heldLog('<p>After the log.</p>');
    const pieces = fake.calls.filter((c) => c.markup.includes('Line ')).length;
    expect(pieces).toBeGreaterThan(20);
    await answerAll();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    const log = document.getElementById('log')!;
    expect(log.childNodes).toHaveLength(1);
    expect(log.firstChild).toBe(text);
    expect(text.data).toBe(LOG.toUpperCase());
    const writes = textWrites(text);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
    expect(text.data).toBe(LOG);
    expect(writes()).toBe(1);
  });

  it('restored while half of its pieces are written: as it was, in one write', async () => {
    const { page, fake, body, text, frames } = await heldLog();
    const calls = fake.calls.filter((c) => c.markup.includes('Line '));
    for (const c of calls.filter((_, i) => i % 2 === 1)) c.release();
    await frames.settle();
    expect(text.data).not.toBe(LOG);
    expect(text.data).not.toBe(LOG.toUpperCase());
    const writes = textWrites(text);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
    expect(writes()).toBe(1);
  });

  it('the page writes its own words into the node once it is translated: they are translated, and restore keeps them', async () => {
    const { page, body, text, frames, answerAll } = await heldLog();
    await answerAll();
    text.data = 'The job is done.';
    await frames.settle();
    await answerAll();
    expect(text.data).toBe('THE JOB IS DONE.');
    page.restore();
    expect(text.data).toBe('The job is done.');
    expect(document.body.innerHTML).toBe(body.replace(LOG, 'The job is done.'));
  });

  it('the page adds a line to the node while its pieces are on their way: it is translated with the rest, and restore gives the page its text', async () => {
    const { page, fake, text, frames, answerAll } = await heldLog();
    const calls = fake.calls.filter((c) => c.markup.includes('Line '));
    for (const c of calls.slice(0, 5)) c.release();
    await frames.settle();
    const now = LOG + ' The job is done.';
    text.data = now;
    await frames.settle();
    await answerAll();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(text.data).toBe(now.toUpperCase());
    page.restore();
    expect(text.data).toBe(now);
  });
});
