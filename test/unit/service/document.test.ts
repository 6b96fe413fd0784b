import { describe, expect, it } from 'vitest';
import { fakeProvider, upperOutsideTags } from '../../fakes/fake-provider';
import type { TrdObj } from '../../../src/core/types';
import { body, harness } from './harness';

const langs = { src: ['en', 'es'], trg: ['en', 'es'] };
const doc = '<h1 class="t">Title</h1>\n<p>Hello <a href="/x" onclick="go()">world</a>, <img src="a.png" alt="a cat"> ok.</p>\n<pre>keep me</pre>';

const joined = (r: { body: unknown }) => (r.body as TrdObj[]).map((c) => c.dat).join('');

describe('Translate in document format', () => {
  it('returns chunks whose concatenation is the translated document with the input markup', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: doc });
    expect(r.status).toBe(200);
    const chunks = r.body as TrdObj[];
    expect(chunks.map((c) => c.cnt)).toEqual(chunks.map((_, i) => i + 1));
    expect(chunks.every((c) => c.sum === chunks.length && c.rid === 'a.ts' && !c.err)).toBe(true);
    expect(joined(r)).toBe(
      '<h1 class="t">TITLE</h1>\n<p>HELLO <a href="/x" onclick="go()">WORLD</a>, <img src="a.png" alt="A CAT"> OK.</p>\n<pre>keep me</pre>',
    );
    // what the provider saw: id-only tags, no attributes, no pre content
    const sent = a.stats.requests.flatMap((q) => q.segments).join('');
    expect(sent).not.toContain('href');
    expect(sent).not.toContain('keep me');
  });

  it('a background call waits at the provider behind one that is not', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, latencyMs: 20, limits: { chars: 5000, segments: 1 } });
    const { service } = harness([a.module], { providers: { 'a.ts': { enabled: true, rate: { concurrency: 1 } } } });
    const ask = (text: string, background: boolean) => service.call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: `<p>${text}</p>` }, { trusted: true, background });
    const first = ask('busy', false);
    await new Promise((r) => setTimeout(r, 5));
    const far = [ask('far one', true), ask('far two', true)];
    await new Promise((r) => setTimeout(r, 5));
    const near = ask('near', false);
    await Promise.all([first, near, ...far]);
    expect(a.stats.requests.map((q) => q.segments.join('').replace(/<[^>]*>/g, ''))).toEqual(['busy', 'near', 'far one', 'far two']);
  });

  it('joins several dat values with one space into one document', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: ['<b>one</b>', '<i>two</i>'], max: 3 });
    expect(joined(r)).toBe('<b>ONE</b> <i>TWO</i>');
  });

  it('goes through text markers for a provider without an HTML mode', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, html: false, transform: (s) => s.toUpperCase() });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello <b class="x">bold</b> world</p>' });
    expect(joined(r)).toBe('<p>HELLO <b class="x">BOLD</b> WORLD</p>');
    expect(a.stats.requests.every((q) => q.format === 'text' && !q.segments.join('').includes('<'))).toBe(true);
  });

  it('keeps a failed chunk original with its err while the others are translated', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, rejectText: 'poison' });
    const { call } = harness([a.module], { limits: { textSize: 5000 } });
    const big = `<p>${'good text. '.repeat(60)}</p><p>poison here</p><p>${'more text. '.repeat(60)}</p>`;
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: big });
    expect(r.status).toBe(200);
    const chunks = r.body as TrdObj[];
    const bad = chunks.filter((c) => c.err);
    expect(bad.length).toBe(1);
    expect(bad[0]!.dat).toContain('poison here');
    expect(bad[0]!.err).toMatch(/^400 /);
    expect(bad[0]!.length).toBe(0);
    expect(chunks.filter((c) => !c.err).every((c) => c.dat === upperOutsideTags(c.dat))).toBe(true);
  });

  it('fails a chunk over to the next route, which is reported as its rid', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, failWith: 502 });
    const b = fakeProvider({ id: 'b.ts', languages: langs });
    const { call } = harness([a.module, b.module], { interlinguas: [] });
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>hi</p>' });
    expect(r.body).toEqual([{ dat: '<p>HI</p>', rid: 'b.ts', cnt: 1, sum: 1, length: 2 }]);
  });

  it('answers 503 with the chunks when no route translated anything', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, failWith: 503 });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>hi</p>' });
    expect(r.status).toBe(503);
    expect(body<{ dat: TrdObj[] }>(r).dat[0]).toMatchObject({ dat: '<p>hi</p>', err: expect.stringMatching(/^503 /), length: 0 });
  });

  it('translates once more through text markers a text whose HTML answer read the markup as text (a tag or attribute translated)', async () => {
    const seen = new Map<string, number>();
    // The first answer to each text mangles its tags, as Apertium APy did under concurrent requests:
    // `<span id="2">` came back `<span Allez="2">`, `<a id="3">` came back `<Un id="3">`.
    const a = fakeProvider({
      id: 'a.ts',
      languages: langs,
      transform: (s) => {
        const n = (seen.get(s) ?? 0) + 1;
        seen.set(s, n);
        const up = upperOutsideTags(s);
        return n === 1 ? up.replace('<span id=', '<span Allez=').replace(/<a (id="\d+")>(.*?)<\/a>/, '<Un $1>$2</Un>') : up;
      },
    });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p><span class="n">3</span> <a href="#s">Software</a> and more</p>' });
    expect(joined(r)).toBe('<p><span class="n">3</span> <a href="#s">SOFTWARE</a> AND MORE</p>');
    expect(a.stats.requests.map((q) => q.format)).toEqual(['html', 'text']);
    // The wordless span is kept out of the text, as in HTML mode.
    expect(a.stats.requests[1]!.segments).toEqual(['[1][2] [3]Software[/3] and more[/1]']);
  });

  it('when the markers fail too, the mangled answer stands (the input\'s tags only, the text kept); moved or dropped tags are never asked again', async () => {
    // Mangles every HTML answer; refuses the text with markers.
    const always = fakeProvider({ id: 'a.ts', languages: langs, rejectText: '[1]', transform: (s) => upperOutsideTags(s).replace('<b id=', '<b Allez=') });
    const one = harness([always.module]);
    const r = await one.call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello <b class="x">bold</b></p>' });
    expect(r.status).toBe(200);
    expect(joined(r)).toBe('<p>HELLO BOLD</p>');
    expect(always.stats.requests).toHaveLength(2);
    // A translator's own choices: tags moved, dropped or repeated.
    const moved = fakeProvider({ id: 'a.ts', languages: langs, transform: (s) => upperOutsideTags(s).replace(/<i id="(\d+)">(.*?)<\/i>/, '$2').replace(/^<p id="(\d+)">(.*?) <b id="(\d+)">(.*?)<\/b>/, '<p id="$1"><b id="$3">$4</b> $2 <b id="$3">x</b>') });
    const two = harness([moved.module]);
    const m = await two.call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello <b>bold</b> <i>it</i></p>' });
    expect(joined(m)).toBe('<p><b>BOLD</b> HELLO x IT</p>');
    expect(moved.stats.requests).toHaveLength(1);
  });

  it('never lets provider markup into the result', async () => {
    const a = fakeProvider({
      id: 'a.ts',
      languages: langs,
      transform: (s) => s.replace('</p>', '<img src=x onerror=alert(1)><script>alert(2)</script></p>').replace('<a id=', '<a href="javascript:alert(3)" id='),
    });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>see <a href="/ok">this</a></p>' });
    const out = joined(r);
    expect(out).not.toMatch(/onerror|<script|javascript:|<img/);
    expect(out).toContain('<a href="/ok">this</a>');
  });

  it('a provider that strips every tag: one block gets the words; several blocks are sent again one by one, each with its own words, none twice', async () => {
    const strips = (s: string) => s.replace(/<[^>]*>/g, '').toUpperCase();
    const a = fakeProvider({ id: 'a.ts', languages: langs, transform: strips });
    const { call } = harness([a.module]);
    const one = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p class="k">Hello <a href="/x">world</a></p>' });
    // The link's tag is the provider's to drop (as any dropped tag); its words are in the paragraph.
    expect(joined(one)).toBe('<p class="k">HELLO WORLD</p>');
    expect(a.stats.requests).toHaveLength(1);
    // Before, the words came back beside the block, and the block as it was: 'HELLO WORLD SECOND ONE<p>Hello world</p>…'.
    const two = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p class="k">Hello <a href="/x">world</a></p>\n<p>Second one</p>' });
    expect(two.status).toBe(200);
    expect(two.body).toEqual([{ dat: '<p class="k">HELLO WORLD</p>\n<p>SECOND ONE</p>', rid: 'a.ts', cnt: 1, sum: 1, length: 21 }]);
    // The blocks go again as two texts of one request (the provider's batch), each one block.
    expect(a.stats.requests.slice(1).map((q) => q.segments)).toEqual([['<p id="1">Hello <a id="2">world</a></p>\n<p id="3">Second one</p>'], ['<p id="1">Hello <a id="2">world</a></p>', '<p id="1">Second one</p>']]);
  });

  it('a provider without an HTML mode that drops the text markers: the same, each block with its own words', async () => {
    const a = fakeProvider({ id: 'a.ts', languages: langs, html: false, transform: (s) => s.replace(/\[\/?\d+\]/g, '').toUpperCase() });
    const { call } = harness([a.module]);
    const r = await call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello <b>bold</b> world</p><p>Second one</p>' });
    expect(joined(r)).toBe('<p>HELLO BOLD WORLD</p><p>SECOND ONE</p>');
    expect(a.stats.requests.map((q) => q.segments)).toEqual([['[1]Hello [2]bold[/2] world[/1][3]Second one[/3]'], ['[1]Hello [2]bold[/2] world[/1]', '[1]Second one[/1]']]);
  });

  it('a block whose answer has no words and no tags: the chunk keeps its original with a 502 err, and the next route translates it', async () => {
    const empty = fakeProvider({ id: 'a.ts', languages: langs, transform: () => '' });
    const b = fakeProvider({ id: 'b.ts', languages: langs });
    const only = harness([empty.module]);
    const r = await only.call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello</p><p>world</p>' });
    expect(r.status).toBe(503);
    expect(body<{ dat: TrdObj[] }>(r).dat[0]).toMatchObject({ dat: '<p>Hello</p><p>world</p>', err: '502 answered without the block it was sent, and without words', length: 0 });
    const both = harness([empty.module, b.module], { interlinguas: [] });
    const t = await both.call('Translate', { src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello</p><p>world</p>' });
    expect(t.body).toEqual([{ dat: '<p>HELLO</p><p>WORLD</p>', rid: 'b.ts', cnt: 1, sum: 1, length: 10 }]);
  });
});
