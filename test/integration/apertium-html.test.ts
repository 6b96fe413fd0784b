/**
 * Long HTML texts at the real APy, four at once as a page sends them: APy cuts a text over 1000
 * characters when more than two requests share its pipeline, at a space that can be inside a tag,
 * and the part after the cut came back with the tag's words translated (`<Giró id="1">`,
 * `<un id="2">`). apertium.ts sends placeholder ids short, which brings a page's calls back within
 * 1000 characters, and a text still longer in parts cut outside the tags.
 */
import { describe, expect, it } from 'vitest';
import { misreadsTags } from '../../src/core/html/tag-check';
import { createApertium, HTML_PART } from '../../src/providers/apertium';

const APY = process.env.APY_URL ?? 'http://127.0.0.1:2737';
const tags = (html: string): string[] => (html.match(/<[^>]*>/g) ?? []).sort();

describe('long HTML texts at APy, four at once', () => {
  it('come back with every tag as sent, page calls and longer texts', async () => {
    const sent: string[] = [];
    const spy: typeof fetch = (input, init) => {
      if (String(input).endsWith('/translate')) sent.push(new URLSearchParams(String(init?.body)).get('q') ?? '');
      return fetch(input, init);
    };
    const sentence = 'The <span id="1">quick brown fox</span> jumps over the <a id="2">lazy dog</a> and ';
    // APy's cut (the last space before 1000) falls inside `<a id="2">` after the first two
    // prefixes and inside `<span id="1">` after the others (found by moving the start).
    const texts = [30, 36, 75, 81, 30, 36, 75, 81].map((pad) => `${'x'.repeat(pad)} ${sentence.repeat(12)}`);
    for (const t of texts) expect(t.length).toBeGreaterThan(HTML_PART);
    // And texts of 2 500 characters, in parts.
    texts.push(...[0, 1, 2, 3].map((k) => `${'y'.repeat(k * 7)} ${sentence.repeat(30)}`));
    const apertium = createApertium({ url: APY }, { fetch: spy });
    const out = await apertium.translateBatch(texts, { src: 'en', trg: 'es' }, { format: 'html', domain: 'general' }, new AbortController().signal);
    texts.forEach((t, i) => {
      expect(misreadsTags(t, out[i]!)).toBe(false);
      expect(tags(out[i]!)).toEqual(tags(t));
    });
    expect(out[0]).toMatch(/perro/);
    for (const q of sent) expect(q.length).toBeLessThanOrEqual(HTML_PART);
    expect(sent.length).toBeGreaterThan(texts.length);
  });
});
