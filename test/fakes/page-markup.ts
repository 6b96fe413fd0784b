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

/** A change the page makes to one of its original nodes (picked by index, the same in both copies). */
export type Change =
  | { kind: 'text'; at: number; text: string }
  | { kind: 'remove'; at: number }
  | { kind: 'attr'; at: number; value: string }
  | { kind: 'append'; at: number; html: string }
  /** Puts back one of the elements removed before (a tab panel shown again), at the end of the page. */
  | { kind: 'putBack'; at: number }
  /** Makes an element an editor or says translate="no", class notranslate or lang="fr" on it (value), or takes that back (null). */
  | { kind: 'says'; at: number; name: 'contenteditable' | 'translate' | 'class' | 'lang'; value: string | null }
  /** Moves an element to before another in one step (a list sorted, a feed's item brought up), or to the end of the page. */
  | { kind: 'move'; at: number; to: number }
  /** Says the page's language on `<html>` again, a region of it, or none (a head manager's update: React Helmet's). */
  | { kind: 'pageLang'; value: string | null }
  /**
   * What a framework that keeps its parts by comments does (Lit): a text written into the node right
   * after a comment (where it is a text), or markup put right before a comment (a part's end).
   */
  | { kind: 'marked'; at: number; text: string }
  | { kind: 'markedBefore'; at: number; html: string }
  /**
   * Takes out a part shown as one node, a tag or a text (Lit's, Svelte's), or as a nested
   * template's nodes (Lit's): every node from the comment's next to the node that followed them
   * when the page was made (to the parent's end where none did), where the page never translated
   * still shows just those nodes there (`PageNodes.parts`).
   */
  | { kind: 'markedOut'; at: number }
  /**
   * Takes out a fragment (Vue's list or component with several roots) by walking from its first
   * end to its second (both empty Text nodes: `PageNodes.fragments`), where the page never
   * translated still has it whole.
   */
  | { kind: 'fragmentOut'; at: number };
export const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), at: fc.nat(), text: fc.constantFrom('new words', '', ' spaced out ') }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('attr' as const), at: fc.nat(), value: fc.constantFrom('a new tip', '') }),
  fc.record({ kind: fc.constant('append' as const), at: fc.nat(), html: fc.constantFrom('<b>added words</b>', 'more text', '<p>a new block</p>', '<span>|</span>') }),
  fc.record({ kind: fc.constant('putBack' as const), at: fc.nat() }),
);
export const changes = fc.array(change, { minLength: 1, maxLength: 4 });
/** The value each attribute says "leave this as it is" with (`lang`: another language than the page's English). */
const SAYS_VALUE = { contenteditable: 'true', translate: 'no', class: 'notranslate', lang: 'fr' } as const;
/** An element the page makes an editor (a comment the user edits), marks translate="no" or .notranslate or labels French, or takes that back. */
export const saysChange: fc.Arbitrary<Change> = fc.record({
  kind: fc.constant('says' as const),
  at: fc.nat(),
  name: fc.constantFrom('contenteditable' as const, 'translate' as const, 'class' as const, 'lang' as const),
  value: fc.constantFrom<string | null>('true', 'no', null),
}).map((c) => ({ ...c, value: c.value === null ? null : SAYS_VALUE[c.name] }));

/** The page says its language again on `<html>` (where a translation wrote the target's), a region of it, or none. */
export const pageLangChange: fc.Arbitrary<Change> = fc.record({ kind: fc.constant('pageLang' as const), value: fc.constantFrom<string | null>('en', 'en-US', null) });

/** An element the page moves elsewhere in one step (removed and added in one batch of changes). */
export const moveChange: fc.Arbitrary<Change> = fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() });

/** The changes of a page whose framework marks its parts with comments (Lit). */
export const markerChange: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('marked' as const), at: fc.nat(), text: fc.constantFrom('new words', ' spaced out ', '42') }),
  fc.record({ kind: fc.constant('markedBefore' as const), at: fc.nat(), html: fc.constantFrom('<b>added words</b>', 'more text', '<i>|</i>') }),
  fc.record({ kind: fc.constant('markedOut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('fragmentOut' as const), at: fc.nat() }),
);

/** A page's original nodes, and the elements a change removed (still out of the page). */
export interface PageNodes {
  root: Element;
  texts: Text[];
  elements: Element[];
  comments: Comment[];
  /**
   * For each comment followed by a node (a tag or a text: what the part shows), but React's
   * separator: the comment, that node, and the node after it (null: none), where a walk from the
   * comment stops (a part's ends). A Lit part that shows a nested template of several nodes
   * (generated as `<!--?lit$0$-->…<!--)-->`, the end's comment taken out as `nodesOf` reads the
   * page): the comment, those nodes, and the node after them.
   */
  parts: (readonly [Comment, readonly ChildNode[], ChildNode | null] | null)[];
  /** Each fragment's two ends (Vue's empty Text nodes). */
  fragments: (readonly [Text, Text])[];
  removed: Element[];
  /** What the last `pageLang` change said on `<html>` (undefined: none was made). */
  lang?: string | null;
}

/**
 * The ends of fragments written `<!--[-->` and `<!--]-->` in a generated page (each pair in one
 * parent), made empty Text nodes as Vue makes them: the pairs, first end first.
 */
function fragmentEnds(root: Element): (readonly [Text, Text])[] {
  const walk = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const marks: Comment[] = [];
  while (walk.nextNode()) if ((walk.currentNode as Comment).data === '[' || (walk.currentNode as Comment).data === ']') marks.push(walk.currentNode as Comment);
  const open: Text[] = [];
  const pairs: (readonly [Text, Text])[] = [];
  for (const c of marks) {
    const t = root.ownerDocument.createTextNode('');
    c.replaceWith(t);
    if (c.data === '[') open.push(t);
    else if (open.length) pairs.push([open.pop()!, t]);
  }
  return pairs;
}

/**
 * A node's texts and elements, in document order; a generated page's `<!--[-->` and `<!--]-->`
 * are made empty Text nodes first (`fragmentEnds`), which are not among its texts.
 */
export function nodesOf(root: Element): PageNodes {
  const fragments = fragmentEnds(root);
  const texts: Text[] = [];
  const elements: Element[] = [];
  const comments: Comment[] = [];
  const walk = (n: Node) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      // Not a fragment's end (nor a text a write left empty).
      if (c.nodeType === 3 && (c as Text).data !== '') texts.push(c as Text);
      else if (c.nodeType === 8) comments.push(c as Comment);
      else if (c.nodeType === 1) {
        elements.push(c as Element);
        walk(c);
      }
    }
  };
  walk(root);
  const nested = nestedEnds(comments);
  // The nested templates' ends `nestedEnds` took out are not the page's.
  const marks = comments.filter((c) => c.data !== ')');
  // React's separator between two texts is no part: React never walks from it.
  const parts = marks.map((c) => {
    const several = nested.get(c);
    if (several) return several;
    const shown = c.nextSibling;
    return c.data !== ' ' && (shown?.nodeType === 1 || shown?.nodeType === 3) ? ([c, [shown], shown.nextSibling] as const) : null;
  });
  return { root, texts, elements, comments: marks, parts, fragments, removed: [] };
}

/**
 * The parts of Lit's nested templates in a generated page (`<!--?lit$0$-->`, its nodes, then
 * `<!--)-->`, in one parent): each comment with its nodes and the node after the `<!--)-->`, which
 * is taken out (Lit marks no end: the end is the outer template's next node, or the parent's end).
 */
function nestedEnds(comments: readonly Comment[]): Map<Comment, readonly [Comment, readonly ChildNode[], ChildNode | null]> {
  const out = new Map<Comment, readonly [Comment, readonly ChildNode[], ChildNode | null]>();
  for (const c of comments) {
    if (!c.data.startsWith('?lit$')) continue;
    const shown: ChildNode[] = [];
    let n = c.nextSibling;
    while (n && !(n.nodeType === 8 && (n as Comment).data === ')')) {
      shown.push(n);
      n = n.nextSibling;
    }
    if (!n) continue;
    out.set(c, [c, shown, n.nextSibling]);
    n.remove();
  }
  return out;
}

/** Whether a part's nodes are still all that is between its comment and its end, in their order. */
function whole([mark, shown, end]: readonly [Comment, readonly ChildNode[], ChildNode | null]): boolean {
  let n = mark.nextSibling;
  for (const s of shown) {
    if (n !== s) return false;
    n = n.nextSibling;
  }
  return n === end;
}

/**
 * What Lit (and Svelte) do to take a part out: remove every node from the one after `mark` up to
 * `end`, the node that followed the part (null: to the parent's end). Past the parent's end the
 * walk fails, as Lit's does.
 */
export function takeOutPart(mark: Node, end: Node | null): void {
  for (let n = mark.nextSibling; n !== end; ) {
    if (!n) throw new Error(`the part's walk from its comment ran past the end of ${mark.parentNode?.nodeName}`);
    const next: ChildNode | null = n.nextSibling;
    n.remove();
    n = next;
  }
}

/**
 * What Vue does to take a fragment out (a list, a component with several roots): remove every
 * node from `start` (an empty Text node) to `end` (another), both included. Past the parent's end
 * the walk fails, as Vue's does.
 */
export function takeOutFragment(start: Node, end: Node): void {
  const parent = start.parentNode?.nodeName;
  for (let n: Node | null = start; ; ) {
    if (!n) throw new Error(`the fragment's walk ran past the end of ${parent}`);
    const next: Node | null = n.nextSibling;
    (n as ChildNode).remove();
    if (n === end) return;
    n = next;
  }
}

/**
 * Makes change `c` in a copy of the page. `twin`: the copy never translated, not yet changed by
 * `c`, where that is what decides (whether a part still shows just its tag).
 */
export function applyChange(c: Change, nodes: PageNodes, twin: PageNodes = nodes): void {
  if (c.kind === 'pageLang') {
    // On the document's <html> where the nodes are its body's; noted either way.
    const html = nodes.root.ownerDocument.documentElement;
    if (nodes.root === nodes.root.ownerDocument.body) {
      if (c.value === null) html.removeAttribute('lang');
      else html.setAttribute('lang', c.value);
    }
    nodes.lang = c.value;
    return;
  }
  const { texts, elements, comments, removed } = nodes;
  if (c.kind === 'markedOut') {
    // One of the parts the page was made with (both copies have them at the same places).
    const at = nodes.parts.flatMap((p, i) => (p ? [i] : []));
    const i = at[c.at % (at.length || 1)] ?? -1;
    const part = nodes.parts[i];
    const ref = twin.parts[i];
    // The part as the page made it, in the page never translated: its nodes alone between the comment and the end.
    if (!part || !ref || !nodes.root.contains(part[0]) || !twin.root.contains(ref[0]) || !whole(ref)) return;
    takeOutPart(part[0], part[2]);
    return;
  }
  if (c.kind === 'fragmentOut') {
    const i = c.at % (nodes.fragments.length || 1);
    const [start, end] = nodes.fragments[i] ?? [];
    const ref = twin.fragments[i];
    // Whole in the page never translated: both ends in one parent, in their order.
    if (!start || !end || !ref || !nodes.root.contains(start) || !twin.root.contains(ref[0]) || ref[0].parentNode !== ref[1].parentNode) return;
    if (!(ref[0].compareDocumentPosition(ref[1]) & Node.DOCUMENT_POSITION_FOLLOWING)) return;
    takeOutFragment(start, end);
    return;
  }
  if (c.kind === 'text') {
    if (texts.length) texts[c.at % texts.length]!.data = c.text;
    return;
  }
  if (c.kind === 'marked' || c.kind === 'markedBefore') {
    const mark = comments[c.at % (comments.length || 1)];
    // A part the page still shows, not one in excluded content.
    if (!mark || !nodes.root.contains(mark) || mark.parentElement?.closest('code, .notranslate')) return;
    if (c.kind === 'markedBefore') mark.before(document.createRange().createContextualFragment(c.html));
    else if (mark.nextSibling?.nodeType === 3) (mark.nextSibling as Text).data = c.text;
    return;
  }
  if (c.kind === 'putBack') {
    if (removed.length) nodes.root.append(removed.splice(c.at % removed.length, 1)[0]!);
    return;
  }
  if (!elements.length) return;
  const el = elements[c.at % elements.length]!;
  if (c.kind === 'move') {
    // Before an element in the page, not into itself, a void element or excluded content; past the last: to the end.
    if (!nodes.root.contains(el) || el === nodes.root) return;
    const before = c.to % (elements.length + 1) === elements.length ? null : elements[c.to % (elements.length + 1)]!;
    if (!before) nodes.root.append(el);
    else if (nodes.root.contains(before) && !el.contains(before) && !before.parentElement!.closest('code, select, .notranslate')) before.before(el);
    return;
  }
  if (c.kind === 'remove') {
    // Out of the page, not only out of a removed ancestor: a page puts back what it took out.
    if (nodes.root.contains(el) && el !== nodes.root) {
      el.remove();
      removed.push(el);
    }
  }
  else if (c.kind === 'attr') el.setAttribute('title', c.value);
  else if (c.kind === 'says') {
    // A class is added to and taken from the ones there (the page's own, or a hover state's).
    if (c.name === 'class') el.classList.toggle('notranslate', c.value !== null);
    else if (c.value === null) el.removeAttribute(c.name);
    else el.setAttribute(c.name, c.value);
  }
  // Content goes where a page would put it: not into a void element or excluded content.
  else if (!el.closest('br, img, code, .notranslate')) el.insertAdjacentHTML('beforeend', c.html);
}
