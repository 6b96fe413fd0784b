/**
 * Test helper: what of an output's markup did not come from the input. Both are parsed as a browser
 * would (parse5); an element is identified by its tag and its attributes (translatable attribute
 * values may differ, since they are translated). Output may not hold more copies of an element
 * than the input did, nor comments, doctypes or processing the input did not have.
 */
import { parseFragment } from 'parse5';
import type { DefaultTreeAdapterTypes as P } from 'parse5';

const TRANSLATED = new Set(['alt', 'title', 'placeholder', 'aria-label', 'value']);

function signature(el: P.Element): string {
  const isButton = el.tagName === 'input';
  const attrs = el.attrs
    .map((a) => (TRANSLATED.has(a.name) && (a.name !== 'value' || isButton) ? `${a.name}=*` : `${a.name}=${JSON.stringify(a.value)}`))
    .sort();
  return `${el.namespaceURI} <${el.tagName} ${attrs.join(' ')}>`;
}

function census(html: string): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (nodes: readonly P.ChildNode[]): void => {
    for (const n of nodes) {
      let key: string | null = null;
      if ('tagName' in n) key = signature(n);
      else if (n.nodeName === '#comment') key = `<!--${(n as P.CommentNode).data}-->`;
      if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      if ('tagName' in n) visit(n.tagName === 'template' ? (n as P.Template).content.childNodes : n.childNodes);
    }
  };
  visit(parseFragment(html).childNodes);
  return counts;
}

/** Elements and comments of `output` that `input` lacks (or has fewer of). [] when all came from the input. */
export function foreignMarkup(input: string, output: string): string[] {
  const allowed = census(input);
  const problems: string[] = [];
  for (const [key, n] of census(output)) {
    const m = allowed.get(key) ?? 0;
    if (n > m) problems.push(`${key} x${n} (input has ${m})`);
  }
  return problems;
}
