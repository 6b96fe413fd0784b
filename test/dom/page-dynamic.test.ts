/**
 * Dynamic pages: mutation batches per frame with exact request counts, stale answers dropped,
 * the page's own changes re-translated, cancel, and the viewport-first order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STOP_AFTER_FAILED_CALLS } from '../../src/content/calls';
import { indicatorText } from '../../src/content/indicator';
import { PageTranslator } from '../../src/content/page';
import { Prioritizer } from '../../src/content/prioritize';
import { Segmenter, type Unit } from '../../src/content/segment';
import type { TrdObj } from '../../src/core/types';
import type { TranslateFn } from '../../src/content/jobs';
import { fakeTranslator, manualFrames, reverseUpper, startPage } from './page-fakes';

let pages: PageTranslator[] = [];
afterEach(() => {
  for (const p of pages) p.restore();
  pages = [];
});

const start = (body: string, fake: ReturnType<typeof fakeTranslator>, maxInFlight = 4) => startPage(body, fake.translate, pages, { maxInFlight });

describe('dynamic pages', () => {
  it('content added in one frame is translated in one request; a later frame brings one more', async () => {
    const fake = fakeTranslator();
    const { page, frames } = start('<main><p>First para</p></main>', fake);
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    const main = document.querySelector('main')!;
    for (let i = 0; i < 5; i++) main.append(Object.assign(document.createElement('p'), { textContent: `Added ${i}` }));
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup).toBe(['Added 0', 'Added 1', 'Added 2', 'Added 3', 'Added 4'].map((t, i) => `<p i=${i + 1}>${t}</p>`).join(''));
    expect([...main.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['FIRST PARA', 'ADDED 0', 'ADDED 1', 'ADDED 2', 'ADDED 3', 'ADDED 4']);
    main.append(Object.assign(document.createElement('p'), { textContent: 'Later one' }));
    await frames.settle();
    expect(fake.calls).toHaveLength(3);
    expect(main.lastElementChild!.textContent).toBe('LATER ONE');
    expect(page.status()).toMatchObject({ state: 'translated', done: 7, total: 7 });
  });

  it('an answer for text the page changed meanwhile is dropped; the new text is sent and written', async () => {
    const fake = fakeTranslator({ hold: true });
    const { page, frames } = start('<p id="p">Old text</p>', fake);
    await frames.settle();
    expect(fake.calls).toHaveLength(1);
    const p = document.getElementById('p')!;
    p.firstChild!.textContent = 'New text';
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup).toBe('<p i=1>New text</p>');
    // The stale answer arrives after the change: it must not be written.
    fake.calls[0]!.release();
    await frames.settle();
    expect(p.textContent).toBe('New text');
    expect(page.dropped).toBe(1);
    fake.calls[1]!.release();
    await frames.settle();
    expect(p.textContent).toBe('NEW TEXT');
    expect(page.status()).toMatchObject({ state: 'translated', done: 1, total: 1, errors: 0 });
  });

  it('a framework rewriting translated text gets it re-translated, and restore keeps the framework\'s text', async () => {
    const fake = fakeTranslator();
    const { page, frames } = start('<p id="p">Count: <span id="n">one item</span></p>', fake);
    await frames.settle();
    const text = document.getElementById('n')!.firstChild as Text;
    expect(text.data).toBe('ONE ITEM');
    text.data = 'two items';
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.markup).toBe('<p i=1>Count: <span i=2>two items</span></p>');
    expect(document.getElementById('p')!.innerHTML).toBe('COUNT: <span id="n">TWO ITEMS</span>');
    expect(document.getElementById('n')!.firstChild).toBe(text);
    page.restore();
    expect(document.getElementById('p')!.innerHTML).toBe('Count: <span id="n">two items</span>');
  });

  it("an SVG's title is translated once when the page changes its run, and an SVG the page adds has its title translated", async () => {
    const mark = (w: Element) => {
      for (const t of [...w.childNodes]) if (t.nodeType === 3 && /\S/.test((t as Text).data)) (t as Text).data = `«${(t as Text).data.trim()}»`;
    };
    const fake = fakeTranslator({ transform: mark });
    const { page, frames } = start('<main><p>Find <svg><title>Search the site</title></svg> it</p></main>', fake);
    await frames.settle();
    const title = () => [...document.querySelectorAll('svg title')].map((t) => t.textContent);
    expect(title()).toEqual(['«Search the site»']);
    const p = document.querySelector('p')!;
    p.firstChild!.textContent = 'Look ';
    await frames.settle();
    expect(p.firstChild!.textContent).toBe('«Look»');
    expect(title()).toEqual(['«Search the site»']);
    p.insertAdjacentHTML('beforeend', '<svg><title>Close the menu</title></svg>');
    await frames.settle();
    expect(title()).toEqual(['«Search the site»', '«Close the menu»']);
    page.restore();
    expect(document.querySelector('main')!.innerHTML).toBe('<p>Look <svg><title>Search the site</title></svg> it<svg><title>Close the menu</title></svg></p>');
  });

  it('a block the page puts into a translated link makes the link a block: no text in two units, every text translated, restore exact', async () => {
    const fake = fakeTranslator();
    const body = '<div><span>alpha</span><a href="/x">beta</a></div>';
    const { page, frames } = start(body, fake);
    await frames.settle();
    const div = document.querySelector('div')!;
    const link = document.querySelector('a')!;
    // A change beside the link: its run is read again, the link with it (inline then).
    div.insertAdjacentHTML('beforeend', '<b>added words</b>');
    await frames.settle();
    link.insertAdjacentHTML('beforeend', '<p>a new block</p>');
    await frames.settle();
    // The block's text went in one unit, not also in the run the link was part of.
    const sent = fake.calls.slice(2).flatMap((c) => [...c.markup.matchAll(/a new block/g)]);
    expect(sent).toHaveLength(1);
    div.insertAdjacentHTML('beforeend', '<b>more words</b>');
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    expect(div.innerHTML).toBe('<span>ALPHA</span><a href="/x">BETA<p>A NEW BLOCK</p></a><b>ADDED WORDS</b><b>MORE WORDS</b>');
    page.restore();
    expect(div.innerHTML).toBe('<span>alpha</span><a href="/x">beta<p>a new block</p></a><b>added words</b><b>more words</b>');
  });

  it('our own writes are not seen as changes (no request loops)', async () => {
    const fake = fakeTranslator();
    const { frames } = start(Array.from({ length: 20 }, (_, i) => `<p>Para ${i} <b>bold</b></p>`).join(''), fake);
    await frames.settle();
    const n = fake.calls.length;
    await frames.settle();
    await frames.settle();
    expect(fake.calls).toHaveLength(n);
  });

  it('cancel aborts every request in flight at once and sends no more', async () => {
    const fake = fakeTranslator({ hold: true });
    const body = Array.from({ length: 200 }, (_, i) => `<p>Paragraph number ${i} with some words in it.</p>`).join('');
    const { page, frames } = start(body, fake, 2);
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    page.cancel();
    expect(fake.calls.every((c) => c.signal?.aborted)).toBe(true);
    for (const c of fake.calls) c.release();
    await frames.settle();
    expect(fake.calls).toHaveLength(2);
    expect(page.status()).toMatchObject({ state: 'cancelled', done: 0 });
    expect(document.body.innerHTML).toBe(body);
  });

  it('a call that fails is counted as errors and leaves its units untouched', async () => {
    const fake = fakeTranslator({ reply: () => { throw new Error('provider down'); } });
    const { page, frames } = start('<p>One</p><p>Two</p>', fake);
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'translated', done: 0, total: 2, errors: 2, error: 'provider down' });
    expect(document.body.innerHTML).toBe('<p>One</p><p>Two</p>');
  });

  // A pair with no route, a refused key, a provider down: every call fails the same way.
  const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `<p>Paragraph number ${i} with words enough to fill a call on its own, or nearly: ${'word '.repeat(150)}</p>`).join('');

  it('calls failing in a row stop the page, the error kept, instead of sending every call to fail', async () => {
    const fake = fakeTranslator({ reply: () => { throw new Error('400 no route from en to fr'); } });
    const body = paragraphs(300);
    const { page, frames } = start(body, fake, 4);
    await frames.settle();
    // Each failure frees its slot for the next call until the stop; the calls then in flight are aborted.
    expect(fake.calls.length).toBeGreaterThanOrEqual(STOP_AFTER_FAILED_CALLS);
    expect(fake.calls.length).toBeLessThan(STOP_AFTER_FAILED_CALLS + 4);
    expect(fake.calls.slice(STOP_AFTER_FAILED_CALLS).every((c) => c.signal?.aborted)).toBe(true);
    const status = page.status();
    expect(status).toMatchObject({ state: 'cancelled', done: 0, errors: STOP_AFTER_FAILED_CALLS, error: '400 no route from en to fr', total: 300 });
    expect(indicatorText(status)).toBe(`Stopped at 0% · ${STOP_AFTER_FAILED_CALLS} failed: 400 no route from en to fr`);
    expect(document.body.innerHTML).toBe(body);
    // Asked again (the popup's button), it goes on (page-resume.test.ts): what failed is sent again, and fails again.
    page.start('en', 'es');
    await frames.settle();
    expect(page.status()).toMatchObject({ state: 'cancelled', errors: STOP_AFTER_FAILED_CALLS });
    expect(fake.calls.length).toBeGreaterThanOrEqual(2 * STOP_AFTER_FAILED_CALLS);
  });

  it('what was answered before the failures stays written, and restore is exact', async () => {
    let n = 0;
    const fake = fakeTranslator({
      reply: (markup) => {
        if (++n > 3) throw new Error('503 provider unavailable');
        return markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);
      },
    });
    const body = paragraphs(300);
    const { page, frames } = start(body, fake, 4);
    await frames.settle();
    const status = page.status();
    expect(status).toMatchObject({ state: 'cancelled', done: 3, errors: STOP_AFTER_FAILED_CALLS, error: '503 provider unavailable' });
    const ps = [...document.querySelectorAll('p')];
    expect(ps.slice(0, 3).every((p) => p.textContent!.startsWith('PARAGRAPH NUMBER'))).toBe(true);
    expect(ps.slice(3).every((p) => p.textContent!.startsWith('Paragraph number'))).toBe(true);
    page.restore();
    expect(document.body.innerHTML).toBe(body);
  });

  it('answers that each carry an error (a route failed inside a reply) stop the page the same way', async () => {
    const calls: string[] = [];
    const translate: TranslateFn = async (params, onItem) => {
      const markup = String((params.dat as string[])[0]);
      calls.push(markup);
      const item: TrdObj = { dat: markup, rid: 'fake.ts', cnt: 1, sum: 1, length: markup.length, err: '403 the key was refused' };
      onItem(item);
      return { status: 200, body: [item] };
    };
    document.body.innerHTML = paragraphs(300);
    const frames = manualFrames();
    const page = new PageTranslator({ translate, frame: frames.frame, viewport: false, maxInFlight: 4 });
    pages.push(page);
    page.start('en', 'es');
    await frames.settle();
    expect(calls.length).toBeLessThan(STOP_AFTER_FAILED_CALLS + 4);
    expect(page.status()).toMatchObject({ state: 'cancelled', done: 0, error: '403 the key was refused' });
  });

  it('failures between answers do not stop the page: each failed call is counted', async () => {
    let n = 0;
    const fake = fakeTranslator({
      reply: (markup) => {
        if (++n % 2 === 0) throw new Error('503 provider unavailable');
        return markup.replace(/>([^<]+)</g, (_, t: string) => `>${t.toUpperCase()}<`);
      },
    });
    const { page, frames } = start(paragraphs(40), fake, 4);
    await frames.settle();
    expect(fake.calls).toHaveLength(40);
    expect(page.status()).toMatchObject({ state: 'translated', done: 20, total: 40, errors: 20, error: '503 provider unavailable' });
    expect(indicatorText(page.status())).toBe('Translated · 20 failed: 503 provider unavailable');
  });

  it("a select's options the page fills or changes later are translated, each once; the rest of the page is not sent again; restore keeps the page's own", async () => {
    const fake = fakeTranslator();
    const { page, frames } = start('<form><p>Pick a size <select id="size"><option>Small one</option></select> and a country <select id="country"></select></p></form>', fake);
    await frames.settle();
    const calls = fake.calls.length;
    const size = document.getElementById('size')!;
    size.firstElementChild!.textContent = 'Tiny one';
    // A list the page fills once it has fetched it, and one more option after.
    const country = document.getElementById('country')!;
    country.append(...['France', 'Spain'].map((name) => Object.assign(document.createElement('option'), { value: name.toLowerCase(), textContent: name })));
    await frames.settle();
    country.append(Object.assign(document.createElement('option'), { value: 'other', textContent: 'Another one' }));
    await frames.settle();
    const texts = (el: Element) => [...el.querySelectorAll('option')].map((o) => o.textContent);
    expect([texts(size), texts(country)]).toEqual([['TINY ONE'], ['FRANCE', 'SPAIN', 'ANOTHER ONE']]);
    const sent = fake.calls.slice(calls).map((c) => c.markup).join('');
    expect(sent.match(/Tiny one|France|Spain|Another one/g)).toEqual(['Tiny one', 'France', 'Spain', 'Another one']);
    expect(sent).not.toMatch(/Pick a size/);
    // The form still sends what the page set (an option with no value sends its text: the page's).
    expect([...country.querySelectorAll('option')].map((o) => (o as HTMLOptionElement).value)).toEqual(['france', 'spain', 'other']);
    expect((size.firstElementChild as HTMLOptionElement).value).toBe('Tiny one');
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    expect(document.querySelector('form')!.outerHTML).toBe(
      '<form><p>Pick a size <select id="size"><option>Tiny one</option></select> and a country <select id="country"><option value="france">France</option><option value="spain">Spain</option><option value="other">Another one</option></select></p></form>',
    );
  });

  it('a block the page moves into a translated run cuts it: each part is translated again where it is; restore keeps the move', async () => {
    const { translate } = fakeTranslator({ transform: reverseUpper });
    const html = '<div id="d">Read <em>this</em> now<code>keep me</code></div><p id="p">Later</p>';
    const { page, frames } = startPage(html, translate, pages);
    await frames.settle();
    const d = document.getElementById('d')!;
    expect(d.innerHTML).toBe('<code>keep me</code> NOW<em>THIS</em>READ ');
    // Mutation records may not name the siblings of what the page inserted (happy-dom's do not):
    // the node's own siblings tell which run it cut.
    const reference = document.createElement('div');
    reference.innerHTML = html;
    reference.querySelector('code')!.before(reference.querySelector('#p')!);
    d.querySelector('code')!.before(document.getElementById('p')!);
    await frames.settle();
    expect(d.innerHTML).toBe('NOW<em>THIS</em>READ<p id="p">LATER</p><code>keep me</code>');
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe(reference.innerHTML);
  });

  it("the page moves a node in a sentence whose translation reordered it, or inserts one there: read translated, and restore keeps the page's change where the page made it", async () => {
    // The provider puts the words of a sentence in another order (an adjective after its noun).
    const { translate } = fakeTranslator({ transform: reverseUpper });
    const html = '<p id="p"><a id="a">one</a> <b id="b">two</b> <i id="i">three</i></p>';
    const { page, frames } = startPage(html, translate, pages);
    await frames.settle();
    const p = document.getElementById('p')!;
    expect(p.innerHTML).toBe('<i id="i">THREE</i> <b id="b">TWO</b> <a id="a">ONE</a>');
    // The same changes made to the page never translated: what restore must give.
    const reference = document.createElement('div');
    reference.innerHTML = html;
    const changes = (root: ParentNode) => {
      const [a, i] = [root.querySelector('#a')!, root.querySelector('#i')!];
      i.before(a);
      root.querySelector('#b')!.before(Object.assign(document.createElement('span'), { id: 'new', textContent: 'four' }));
    };
    changes(document);
    changes(reference);
    await frames.settle();
    expect(p.textContent).not.toMatch(/[a-z]/);
    expect(page.status()).toMatchObject({ state: 'translated', errors: 0 });
    page.restore();
    pages = [];
    expect(document.body.innerHTML).toBe(reference.innerHTML);
  });
});

describe('order', () => {
  function ranked(tops: number[]) {
    document.body.innerHTML = tops.map((_, i) => `<p>Unit ${i}</p>`).join('');
    document.querySelectorAll('p').forEach((p, i) => {
      const top = tops[i]!;
      p.getBoundingClientRect = () => ({ top, bottom: top + 20, left: 0, right: 100, width: 100, height: 20, x: 0, y: top, toJSON: () => ({}) });
    });
    const units = new Segmenter().document(document);
    const q = new Prioritizer<{ unit: Unit; seq: number }>({ observe: false, viewportHeight: () => 800 });
    units.forEach((unit, seq) => q.add({ unit, seq }));
    const name = (j: { unit: Unit }) => (j.unit.kind === 'range' ? j.unit.nodes[0]!.textContent : '');
    return { q, name };
  }

  it('the viewport first, then a screen around it, then the rest in document order', () => {
    const { q, name } = ranked([3000, 1200, 100, 5000, 500]);
    const first = q.take((() => { let n = 0; return () => n++ < 2; })());
    expect(first.map(name)).toEqual(['Unit 2', 'Unit 4']);
    const next = q.take(() => true);
    expect(next.map(name)).toEqual(['Unit 1', 'Unit 0', 'Unit 3']);
  });

  it('every fourth call starts from the far end, so the background never starves', () => {
    const { q, name } = ranked([100, 150, 200, 250, 300, 9000]);
    const one = () => { let n = 0; return () => n++ < 1; };
    const got = [q.take(one()), q.take(one()), q.take(one()), q.take(one())].map((t) => t.map(name)[0]);
    expect(got).toEqual(['Unit 0', 'Unit 1', 'Unit 2', 'Unit 5']);
  });

  it('two translated attributes of one element: the page sets one, that one is sent again, the other stays; restore is exact', async () => {
    const fake = fakeTranslator();
    const body = '<div title="Next page" aria-label="Go to the next page"><p>Read on</p></div>';
    const { page, frames } = start(body, fake);
    const original = document.body.innerHTML;
    await frames.settle();
    const div = document.querySelector('div')!;
    expect([div.getAttribute('title'), div.getAttribute('aria-label')]).toEqual(['NEXT PAGE', 'GO TO THE NEXT PAGE']);
    const calls = fake.calls.length;
    div.setAttribute('title', 'Another page');
    await frames.settle();
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(['<p i=1>Another page</p>']);
    expect([div.getAttribute('title'), div.getAttribute('aria-label')]).toEqual(['ANOTHER PAGE', 'GO TO THE NEXT PAGE']);
    page.restore();
    expect(document.body.innerHTML).toBe(original.replace('title="Next page"', 'title="Another page"'));
  });

  it("the document's title and description the page changes (an app's view, a count of unread messages) are translated again, as is a title it adds; restore gives the page's own", async () => {
    const fake = fakeTranslator();
    document.head.innerHTML = '<meta name="description" content="About the inbox">';
    document.body.innerHTML = '<p>Read on</p>';
    const frames = manualFrames();
    const page = new PageTranslator({ translate: fake.translate, frame: frames.frame, viewport: false, maxInFlight: 4 });
    pages.push(page);
    page.start('en', 'es');
    await frames.settle();
    const meta = document.querySelector('meta')!;
    expect([document.title, meta.content]).toEqual(['', 'ABOUT THE INBOX']);
    // An app sets the title of its view (the browser makes a <title> for it), later one with a count.
    document.title = 'Inbox';
    await frames.settle();
    expect(document.title).toBe('INBOX');
    const calls = fake.calls.length;
    document.title = 'Inbox (3 new)';
    meta.setAttribute('content', 'Three new messages');
    await frames.settle();
    expect(fake.calls.slice(calls).map((c) => c.markup)).toEqual(['<p i=1>Three new messages</p><p i=2>Inbox (3 new)</p>']);
    expect([document.title, meta.content]).toEqual(['INBOX (3 NEW)', 'THREE NEW MESSAGES']);
    // The page writes its title's text itself.
    document.querySelector('title')!.firstChild!.nodeValue = 'Inbox (4 new)';
    await frames.settle();
    expect(document.title).toBe('INBOX (4 NEW)');
    expect(page.status()).toMatchObject({ state: 'translated', done: 3, total: 3, errors: 0 });
    page.restore();
    expect([document.title, meta.content]).toEqual(['Inbox (4 new)', 'Three new messages']);
    expect(document.body.innerHTML).toBe('<p>Read on</p>');
    document.head.innerHTML = '';
  });

  it('reports a change of state at once and progress at most once per frame', async () => {
    const fake = fakeTranslator({ hold: true });
    document.head.innerHTML = '';
    document.body.innerHTML = Array.from({ length: 40 }, (_, i) => `<p>Paragraph number ${i} of the page</p>`).join('');
    const frames = manualFrames();
    const seen: string[] = [];
    const page = new PageTranslator({
      translate: fake.translate, frame: frames.frame, viewport: false, maxInFlight: 8, limit: 120,
      onStatus: (s) => seen.push(`${s.state} ${s.done}/${s.total}`),
    });
    pages.push(page);
    page.start('en', 'es');
    expect(seen[0]).toBe('translating 0/40');
    await frames.settle();
    // Eight calls in flight answer together: their writes, the slots they free and the calls
    // packed then are one frame, one progress report.
    const calls = fake.calls.length;
    expect(calls).toBe(8);
    const before = seen.length;
    for (const c of fake.calls) c.release();
    await frames.runFrame();
    await frames.runFrame();
    expect(seen.length - before).toBe(1);
    expect(seen.at(-1)).toMatch(/^translating \d+\/40$/);
    for (let i = 0; i < 20 && page.status().state === 'translating'; i++) {
      for (const c of fake.calls) c.release();
      await frames.settle();
    }
    expect(seen.at(-1)).toBe('translated 40/40');
    // Every report says something new: no two in a row alike.
    expect(seen.every((x, i) => i === 0 || x !== seen[i - 1])).toBe(true);
  });
});
