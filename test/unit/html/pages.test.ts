/**
 * Real pages from ../shared/pages: paragraphs come back byte for byte from identity answers, the
 * upper-casing fake provider changes only their text, and whole documents chunk and restore
 * exactly and fast enough for 100k+ character pages.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseFragment, serialize } from 'parse5';
import type { DefaultTreeAdapterTypes as P } from 'parse5';
import { splitDocument } from '../../../src/core/html/chunks';
import { protect, protectText } from '../../../src/core/html/protect';
import { upperOutsideTags } from '../../fakes/fake-provider';
import { requireShared } from '../../support/shared';
import { foreignMarkup } from './provenance';

const PAGES = requireShared('pages');
const read = (name: string): string => readFileSync(join(PAGES, name), 'utf8');
const SAMPLE = [
  'readability-wikipedia.html',
  'readability-lemonde-1.html',
  'readability-nytimes-1.html',
  'newspaper4k-arabic_article.html',
  'trafilatura-nhk.or.jp.k100.html',
  'postlight-www.spektrum.de.html',
  'trafilatura-toptal.com.python.html',
];

/** Source text of every <p> of a page that has letters in it. */
function paragraphs(html: string): string[] {
  const out: string[] = [];
  const visit = (nodes: readonly P.ChildNode[]): void => {
    for (const n of nodes) {
      if (!('tagName' in n)) continue;
      const l = n.sourceCodeLocation;
      if (n.tagName === 'p' && l?.endTag) {
        const src = html.slice(l.startOffset, l.endOffset);
        if (/\p{L}/u.test(src.replace(/<[^>]*>/g, ''))) out.push(src);
      } else visit(n.childNodes);
    }
  };
  visit(parse(html, { sourceCodeLocationInfo: true }).childNodes);
  return out;
}

const KEPT = new Set(['code', 'kbd', 'samp', 'var', 'pre', 'script', 'style', 'textarea', 'svg', 'math', 'noscript', 'template', 'title']);
const isKept = (el: P.Element): boolean =>
  KEPT.has(el.tagName) ||
  el.attrs.some((a) => (a.name === 'translate' && a.value === 'no') || (a.name === 'class' && /(^|\s)notranslate(\s|$)/.test(a.value)));

/** The fragment as parsed, with every text and translatable attribute upper-cased. */
function upperAll(html: string): string {
  const frag = parseFragment(html);
  const visit = (nodes: readonly P.ChildNode[]): void => {
    for (const n of nodes) {
      if (n.nodeName === '#text') (n as P.TextNode).value = (n as P.TextNode).value.toUpperCase();
      if (!('tagName' in n)) continue;
      const button = n.tagName === 'input' && n.attrs.some((a) => a.name === 'type' && /^(button|submit|reset)$/i.test(a.value));
      for (const a of n.attrs) {
        if (['alt', 'title', 'placeholder', 'aria-label'].includes(a.name) || (button && a.name === 'value')) a.value = a.value.toUpperCase();
      }
      visit(n.childNodes);
    }
  };
  visit(frag.childNodes);
  return serialize(frag);
}

/** Lower-case letters left in translated text (outside kept elements). */
function lowerLeft(html: string): string {
  let left = '';
  const visit = (nodes: readonly P.ChildNode[]): void => {
    for (const n of nodes) {
      if (n.nodeName === '#text') left += (n as P.TextNode).value.replace(/[^\p{Ll}]/gu, '');
      else if ('tagName' in n && !isKept(n)) visit(n.childNodes);
    }
  };
  visit(parseFragment(html).childNodes);
  return left;
}

describe.each(SAMPLE)('paragraphs of %s', (page) => {
  const paras = paragraphs(read(page));

  it('has paragraphs to test', () => {
    expect(paras.length).toBeGreaterThan(3);
  });

  it('come back byte for byte from identity answers (HTML and text markers)', () => {
    for (const para of paras) {
      const h = protect(para);
      expect(h.restore(h.segments), para).toBe(para);
      const t = protectText(para);
      expect(t.restore(t.segments), para).toBe(para);
    }
  });

  it('come back with only their text upper-cased from the upper-casing provider', () => {
    for (const para of paras) {
      const p = protect(para);
      const out = p.restore(p.segments.map(upperOutsideTags));
      expect(upperAll(out), para).toBe(upperAll(para));
      expect(lowerLeft(out), para).toBe('');
      expect(foreignMarkup(para, out)).toEqual([]);
    }
  });
});

describe('whole documents', () => {
  const largest = readdirSync(PAGES)
    .filter((f) => f.endsWith('.html'))
    .sort((a, b) => statSync(join(PAGES, b)).size - statSync(join(PAGES, a)).size)[0]!;

  it.each(['readability-wikipedia.html', 'trafilatura-proplanta.de.erloesobergrenze.html', 'readability-archive-of-our-own.html'])(
    '%s: chunks concatenate to the page, each restores exactly and holds at most 1000 characters unless it is one block',
    (page) => {
      const html = read(page);
      const chunks = splitDocument(html, 1000);
      expect(chunks.join('')).toBe(html);
      let over = 0;
      for (const c of chunks) {
        const p = protect(c);
        expect(p.restore(p.segments)).toBe(c);
        if (p.chars > 1000) over++;
      }
      expect(over).toBeLessThanOrEqual(Math.ceil(chunks.length / 10));
    },
  );

  it(`the largest page (${largest}) chunks, protects and restores exactly`, () => {
    const html = read(largest);
    const t0 = performance.now();
    const chunks = splitDocument(html, 1000);
    const t1 = performance.now();
    let restored = '';
    for (const c of chunks) {
      const p = protect(c);
      restored += p.restore(p.segments.map(upperOutsideTags));
    }
    const t2 = performance.now();
    const whole = protect(html);
    const back = whole.restore(whole.segments);
    const t3 = performance.now();
    console.log(
      `${largest} (${html.length} chars, ${chunks.length} chunks): split ${Math.round(t1 - t0)} ms, ` +
        `protect+restore of the chunks ${Math.round(t2 - t1)} ms, of the whole page ${Math.round(t3 - t2)} ms`,
    );
    expect(back).toBe(html);
    expect(restored.length).toBeGreaterThan(html.length * 0.9);
    // Speed is measured by the bench, not asserted here; the generous timeout only stops a
    // quadratic regression (minutes on this page) from hanging the suite.
  }, 120_000);
});
