/**
 * The page translator rehearsed on a sample of its own while the page's first call is on its way
 * (content/rehearse.ts): the whole sample is translated, and nothing of the page is read into it
 * or written, nothing is sent; once per document.
 */
import { describe, expect, it } from 'vitest';
import { capitals, rehearse } from '../../src/content/rehearse';
import { PageTranslator } from '../../src/content/page';
import { marker, manualFrames } from './page-fakes';

describe('the rehearsal while the first call is on its way', () => {
  it('translates its own sample whole, leaves the page as it was and sends nothing; once per document', async () => {
    document.documentElement.lang = 'en';
    document.body.innerHTML = '<h2>News</h2><p id="p">Hello <b>world</b>, <a href="#x" title="A tip">here</a>.</p>';
    const before = document.documentElement.outerHTML;
    const seen: MutationRecord[] = [];
    const watch = new MutationObserver((records) => seen.push(...records));
    watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // The page's own translator, as the content script has it: the rehearsal is not it.
    const fake = marker();
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false });

    expect(await rehearse()).toBe('A SHORT TITLESOME TEXT WITH BOLD WORDS, A LINK AND MORE.ONE ITEMANOTHER ITEMTHE LAST & LEAST.');
    await new Promise((r) => setTimeout(r, 20));
    seen.push(...watch.takeRecords());
    expect(seen).toEqual([]);
    expect(document.documentElement.outerHTML).toBe(before);
    expect(fake.calls).toEqual([]);
    expect(page.status().state).toBe('original');
    expect(await rehearse()).toBeUndefined();

    // The page's translation after it, as without it.
    page.start('en', 'es');
    await frames.settle();
    expect(document.getElementById('p')!.textContent).toBe('⟦Hello ⟧⟦world⟧⟦, ⟧⟦here⟧⟦.⟧');
    expect(document.querySelector('a')!.title).toBe('⟦A tip⟧');
    page.restore();
    expect(document.documentElement.outerHTML).toBe(before);
    watch.disconnect();
  });

  it("is asked in a task after the page's first call left, only while that translation goes on", async () => {
    document.documentElement.lang = 'en';
    document.body.innerHTML = '<p>Hello world.</p>';
    const fake = marker();
    const frames = manualFrames();
    const asked: number[] = [];
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, rehearse: () => asked.push(fake.calls.length) });
    page.start('en', 'es');
    expect(asked).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    // Once, after the call.
    expect(asked).toEqual([1]);
    await frames.settle();
    page.restore();
    // Restored before its task: not asked.
    page.start('en', 'es');
    page.restore();
    await new Promise((r) => setTimeout(r, 10));
    expect(asked).toEqual([1]);
  });

  it("writes a call's texts in capitals, its tags and references as they came", () => {
    expect(capitals('<p i=1>Tom &amp; <b i=2>Jerry</b> &#233;t&eacute;</p>')).toBe('<p i=1>TOM &amp; <b i=2>JERRY</b> &#233;T&eacute;</p>');
  });
});
