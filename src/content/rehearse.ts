/**
 * The page translator run once on a sample of its own while the page's first call is on its way:
 * V8 compiles a function when it first runs, and the first answer's write ran the answer reader,
 * the merge, the undo log and the relabelling for the first time, 25–40 ms of a fresh tab's main
 * thread between the answer's arrival and the first paragraph shown (docs/page-translation.md,
 * round of stop 71). Rehearsed in the wait, the answer finds them compiled. Only once the page is
 * being translated, which compiles the same code anyway: at a trigger's warning (stop 69) it cost
 * every page that was never translated a third more of the isolated world's heap.
 *
 * The sample is a document of its own (`DOMParser`'s: no browsing context, so nothing in it loads,
 * runs or lays out), shown by its tags' display, and translated by a stand-in that writes
 * its texts in capitals: nothing of the page is read or written, nothing is sent. It is not
 * restored: a restore also lets go of what the page's translation keeps page-wide (tags.ts
 * `forgetLiveParts`), and the sample is dropped whole, its observer with it.
 */
import type { TrdObj } from '../core/types';
import type { PageStatus } from '../shared/messages';
import { nextFrame } from './observe';
import { Pacer } from './pace';
import { PageTranslator, type TranslateFn } from './page';

/** A heading, prose with phrasing tags, a link's tooltip, a list: what most first screens hold. */
const SAMPLE =
  '<h2>A <em>short</em> title</h2><p>Some text with <b>bold</b> words, <a href="#one" title="A link">a link</a> and more.</p>' +
  '<ul><li>One item</li><li>Another <i>item</i></li></ul><p>The last &amp; least.</p>';

const BLOCKS: Record<string, string> = { html: 'block', body: 'block', h2: 'block', p: 'block', ul: 'block', li: 'list-item' };

/** Letters outside tags and references in capitals: a translation that keeps the markup as it came. */
export function capitals(markup: string): string {
  return markup.replace(/(<[^>]*>|&[^;\s]*;)|([^<&]+)/g, (_m, kept: string | undefined, text: string | undefined) => kept ?? (text ?? '').toUpperCase());
}

let rehearsed = false;

/**
 * Translates the sample once per document (later calls return at once); resolves with its text as
 * translated (tests), or undefined if it was rehearsed before. At most `timeoutMs` waited.
 */
export async function rehearse(timeoutMs = 2_000): Promise<string | undefined> {
  if (rehearsed) return undefined;
  rehearsed = true;
  // Parsed, not assigned as HTML: the sample is ours, but no markup goes into a document by `innerHTML` here.
  const doc = new DOMParser().parseFromString(`<!doctype html><html lang="en"><body>${SAMPLE}`, 'text/html');
  const translate: TranslateFn = async (params, onItem) => {
    const markup = String((params.dat as unknown[] | undefined)?.[0] ?? '');
    const item: TrdObj = { dat: capitals(markup), rid: 'rehearsal', cnt: 1, sum: 1, length: markup.length };
    onItem(item);
    return { status: 200, body: [item] };
  };
  let done = () => {};
  const translated = new Promise<void>((resolve) => (done = resolve));
  const page = new PageTranslator({
    translate,
    doc,
    viewport: false,
    display: (el) => BLOCKS[el.localName] ?? 'inline',
    flows: () => false,
    awaitsDefinition: () => false,
    // Nothing held for a scroll of the page's window.
    pacer: new Pacer({ frame: nextFrame, scrolls: null }),
    onStatus: (s: PageStatus) => {
      if (s.state !== 'translating') done();
    },
  });
  page.start('en', 'es');
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([translated, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  return doc.body.textContent ?? '';
}
