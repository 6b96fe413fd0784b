/**
 * Generated pages for the page translator's property tests: leaves (words, excluded content,
 * images, controls) nested in inline elements and blocks.
 */
import fc from 'fast-check';

/** A block's markup around its content (a `td` or `li` comes with the table or list it needs). */
function wrap(tag: string, inner: string): string {
  if (tag === 'td') return `<table><tbody><tr><td>${inner}</td></tr></tbody></table>`;
  if (tag === 'li') return `<ul><li>${inner}</li></ul>`;
  return `<${tag}>${inner}</${tag}>`;
}

/** A body: `leaf` content nested `depth` deep in `inline` (an opening tag, attributes included) and `block` elements. */
export function pageBody(opts: { leaf: fc.Arbitrary<string>; inline: fc.Arbitrary<string>; block: fc.Arbitrary<string>; depth: number; maxLength: number }): fc.Arbitrary<string> {
  const content: fc.Memo<string> = fc.memo((n) =>
    n <= 0
      ? opts.leaf
      : fc.oneof(
          { weight: 3, arbitrary: opts.leaf },
          { weight: 2, arbitrary: fc.tuple(opts.inline, fc.array(content(n - 1), { minLength: 1, maxLength: 3 })).map(([t, k]) => `<${t}>${k.join('')}</${t.split(' ')[0]}>`) },
          { weight: 2, arbitrary: fc.tuple(opts.block, fc.array(content(n - 1), { minLength: 1, maxLength: 3 })).map(([t, k]) => wrap(t, k.join(''))) },
        ),
  );
  return fc.array(content(opts.depth), { minLength: 1, maxLength: opts.maxLength }).map((k) => k.join(''));
}
