/**
 * Answers as a provider or the engine could return them, for the answer reader's tests: mostly our
 * own markup (wrappers, phrasing tags with `i`, `br`/`img`, the entities the engine writes), mixed
 * with what only the HTML parser reads right (other tags and attributes, uppercase, stray or missing
 * end tags, nested `p` and `a`, unknown or numeric entities, CR and NUL).
 */
import fc from 'fast-check';

const TEXT = fc.constantFrom(
  'a', 'word', ' ', '  ', '\n', '\t', 'é', '😀', '\u00a0', '"', "'", '>', '=', '/',
  '&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&nbsp;', '&#160;', '&#x41;', '&#X2603;', '&#65;', '&#128512;',
  '&', '& ', '&amp', '&bogus;', '&#0;', '&#128;', '&#13;', '&#xD800;', '&#xFFFE;', '&#1114112;', '&copy;', '<', '< b', '\r', '\r\n', '\0',
);
const INLINE = fc.constantFrom('a', 'b', 'i', 'em', 'strong', 'span', 'sub', 'sup', 'code', 'q', 'small', 'font', 'u', 's', 'mark', 'time');
const OTHER = fc.constantFrom('div', 'li', 'P', 'B', 'script', 'table', 'td', 'style', 'textarea', 'template', 'select', 'nobr', 'button', 'pre');
const ID = fc.integer({ min: 1, max: 40 });
const ATTR = fc.oneof(
  { weight: 8, arbitrary: ID.map((n) => ` i=${n}`) },
  { weight: 2, arbitrary: ID.map((n) => ` i="${n}"`) },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: ID.map((n) => (n % 2 ? ` id="${n}"` : ` id=${n}`)) },
  { weight: 1, arbitrary: fc.constantFrom(' class=x', ' i=1x', ' i=0012', ' i="3" title="t"', ' i=1234567890', ' I=3', ' i =3', ' i=3/', ' id="3', " id='3'", ' i=""') },
);

const text = fc.array(TEXT, { minLength: 1, maxLength: 5 }).map((a) => a.join(''));

/** Phrasing content: well nested most of the time. */
const inline: fc.Memo<string> = fc.memo((n): fc.Arbitrary<string> => {
  const leaves = [
    { weight: 5, arbitrary: text },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('br', 'img'), ATTR).map(([t, a]) => `<${t}${a}>`) },
    { weight: 1, arbitrary: fc.constantFrom('</b>', '<b i=7>', '</p>', '<p i=9>', '<!-- c -->', '<br i=2/>', '</br>', '<a i=5>x<a i=6>y</a></a>', '<a i=5><span i=6><a i=7>z</a></span></a>',
      // More than three of one formatting element open with the same attributes (the parser's "Noah's Ark").
      '<b><b><b><b>deep</b></b></b></b>after', '<b i=1><b i=1><b i=1><b i=1>deep</b>x</b></b></b>', '<x-keep i=3></x-keep>') },
  ];
  if (n <= 0) return fc.oneof(...leaves);
  return fc.oneof(
    ...leaves,
    { weight: 4, arbitrary: fc.tuple(INLINE, ATTR, fc.array(inline(n - 1), { maxLength: 3 })).map(([t, a, k]) => `<${t}${a}>${k.join('')}</${t}>`) },
    { weight: 1, arbitrary: fc.tuple(OTHER, ATTR, inline(n - 1)).map(([t, a, k]) => `<${t}${a}>${k}</${t}>`) },
  );
});

/** One answer: wrappers (and what may stand between them). */
export const answerMarkup = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.tuple(ATTR, fc.array(inline(3), { maxLength: 4 })).map(([a, k]) => `<p${a}>${k.join('')}</p>`) },
      { weight: 1, arbitrary: fc.constantFrom(' ', '\n', 'stray words', '<b i=3>outside</b>', '<p i=4>unclosed', '</p>') },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((a) => a.join(''));

/** Only our own markup: the reader must take every one of these itself. */
export const ownMarkup = fc
  .array(
    fc.tuple(ID, fc.array(fc.oneof(fc.constantFrom('Hello ', 'wörld', ' &amp; ', '&lt;x&gt;', '&nbsp;', '&#160;', '😀', '"q"'), fc.tuple(INLINE, ID).map(([t, i]) => (t === 'a' ? `<span i=${i}>in</span>` : `<${t} i=${i}>in</${t}>`)), ID.map((i) => `<br i=${i}>`)), { maxLength: 6 })),
    { minLength: 1, maxLength: 4 },
  )
  .map((ws) => ws.map(([id, k]) => `<p i=${id}>${k.join('')}</p>`).join(''));
