/**
 * Write-back on random runs and random answers (merge.ts): whatever a provider does to a unit's
 * markup (words reordered, tags moved, dropped, repeated, renumbered, invented), every live
 * element of the run stays in the page as the same node, every word of the answer is shown, and
 * restore gives back the run exactly: the same nodes, the same markup. Elements that show no text
 * at the run's edges (edges.ts) are not sent, and stay first and last.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOwn, type AnswerEl, type AnswerNode } from '../../src/content/answer';
import { markupAt, prepare } from '../../src/content/chunk';
import { mergeRange, UndoLog } from '../../src/content/merge';
import type { RangeUnit } from '../../src/content/segment';
import { core, listLabel } from '../../src/content/edges';
import { kids } from '../../src/content/tags';

/** A run's content: words with spaces at either edge, phrasing elements, placeholders. */
const WORD = fc.constantFrom('Hello', 'big', 'world', ' and ', ' the ', 'end.', ' ', 'é', '&', '<x>', 'a. ', '(iv) ', 'B.', 'c.\u00a0');
const ANCHOR = '<!--anchor-->';
/** A word a script split into an element per letter (split-words.ts `splitWord`): sent whole, written back a character a letter. */
const SPLIT_WORD = '<span class="ch">W</span><span class="ch">o</span><span class="ch">r</span><span class="ch">d</span>';
/** The same, each letter's class numbered (Lettering.js). */
const NUMBERED_WORD = '<span class="char1">W</span><span class="char2">o</span><span class="char3">r</span><span class="char4">d</span>';
/** The same in Splitting.js's word element, the word and each letter copied into attributes its style draws (`mirror`). */
const SPLITTING_WORD = `<span class="word" data-word="Word">${[...'Word'].map((c) => `<span class="char" data-char="${c}">${c}</span>`).join('')}</span>`;
const LEAF = fc.oneof(
  { weight: 6, arbitrary: fc.array(WORD, { minLength: 1, maxLength: 3 }).map((w) => ({ text: w.join('') })) },
  // A framework's mark before what follows (Lit's part, as a template's comment reads, and a list
  // item's; another framework's; React's separator between two texts), a hydrated fragment's ends
  // (Vue's, as the server wrote them), and its anchor (`<!--anchor-->`: an empty Text node, as Vue
  // keeps at a fragment's ends).
  { weight: 2, arbitrary: fc.constantFrom('<!--?lit$123456789$-->', '<!---->', '<!--v-if-->', '<!-- -->', '<!--[-->', '<!--]-->', ANCHOR, ANCHOR).map((html) => ({ html })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('<br>', '<img alt="">', '<code>x = 1</code>', '<span class="notranslate">Kept</span>', '<i class="icon"></i>', '<style>.x{}</style>', '<!-- c -->', '<span> </span>', '<span>↵</span>', '<b>?</b>', SPLIT_WORD, NUMBERED_WORD, SPLITTING_WORD)
      .map((html) => ({ html })),
  },
);
type Gen = { text: string } | { html: string } | { tag: string; kids: Gen[] };
const node: fc.Memo<Gen> = fc.memo((n) =>
  n <= 0
    ? LEAF
    : fc.oneof(
        { weight: 3, arbitrary: LEAF },
        { weight: 2, arbitrary: fc.tuple(fc.constantFrom('a', 'b', 'em', 'span', 'sub'), fc.array(node(n - 1), { minLength: 1, maxLength: 3 })).map(([tag, k]) => ({ tag, kids: k })) },
      ),
);
const run = fc.array(node(3), { minLength: 1, maxLength: 5 });

function html(g: Gen): string {
  if ('text' in g) return g.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if ('html' in g) return g.html;
  return `<${g.tag} class="c-${g.tag}">${g.kids.map(html).join('')}</${g.tag}>`;
}

/** What a provider may do to each element of the answer, chosen by the generator. */
type Op = 'keep' | 'upper' | 'reverse' | 'untag' | 'twice' | 'renumber' | 'adopt';
const OPS = fc.array(fc.constantFrom<Op>('keep', 'keep', 'upper', 'reverse', 'untag', 'twice', 'renumber', 'adopt'), { minLength: 40, maxLength: 40 });

function mangle(el: AnswerEl, ops: Op[], at = { i: 0 }): AnswerEl {
  const out: AnswerNode[] = [];
  for (const k of el.kids) {
    const op = ops[at.i++ % ops.length]!;
    if (typeof k === 'string') {
      out.push(op === 'upper' ? k.toUpperCase() : k);
      continue;
    }
    const m = mangle(k, ops, at);
    if (op === 'untag') out.push(...m.kids);
    else if (op === 'twice') out.push(m, { id: m.id, kids: ['again'] });
    else if (op === 'renumber') out.push({ id: (m.id ?? 0) + 500, kids: m.kids });
    // Moved into its previous sibling element: under a parent it never had.
    else if (op === 'adopt' && out.length && typeof out[out.length - 1] !== 'string') (out[out.length - 1] as AnswerEl).kids.push(m);
    else out.push(m);
  }
  if (ops[at.i++ % ops.length] === 'reverse') out.reverse();
  return { id: el.id, kids: out };
}

/** The answer's texts, each of which lands in one Text node. */
function leaves(el: AnswerEl): string[] {
  return el.kids.flatMap((k) => (typeof k === 'string' ? [k] : leaves(k)));
}

function elementsUnder(root: Element): Element[] {
  return [...root.querySelectorAll('*')];
}

const isMark = (n: Node) => n.nodeType === 8 || n.nodeType === 7;
const isAnchor = (n: Node) => n.nodeType === 3 && (n as Text).data === '';

/** The page's markup, each `<!--anchor-->` an empty Text node. */
function fill(div: Element, markup: string): void {
  div.innerHTML = markup;
  const walk = document.createTreeWalker(div, NodeFilter.SHOW_COMMENT);
  const found: Comment[] = [];
  while (walk.nextNode()) if ((walk.currentNode as Comment).data === 'anchor') found.push(walk.currentNode as Comment);
  for (const c of found) c.replaceWith(document.createTextNode(''));
}

/** How many of `anchors` are before each node of `run` but them. */
function segments(run: readonly Node[], anchors: readonly Node[]): Map<Node, number> {
  const out = new Map<Node, number>();
  let k = 0;
  for (const n of run) {
    if (anchors.includes(n)) k++;
    else out.set(n, k);
  }
  return out;
}

/**
 * A framework's parts among a run's nodes (parts.ts `partsOf`): a comment (and the comments right
 * after it), the node after them and the node after that (React's `<!-- -->`: not that one); Lit's
 * (`?lit$…$`, empty) and a hydrated fragment's start (`[`), a nested template's several nodes: on
 * to the next comment, or to the run's end; an empty one's (Svelte's block before it) and a
 * fragment's end (`]`), back to the comment before, or to the run's start. `last`: the part reaches
 * past the run.
 */
function partsIn(run: readonly Node[]): { nodes: Node[]; last: boolean }[] {
  const out: { nodes: Node[]; last: boolean }[] = [];
  for (let i = 0; i < run.length; i++) {
    if (!isMark(run[i]!)) continue;
    let shown = i + 1;
    while (shown < run.length && isMark(run[shown]!)) shown++;
    const data = (run[i] as Comment).data;
    let end = data === ' ' ? shown : shown + 1;
    let begin = i;
    if (data === '' || data === '[' || data.startsWith('?lit$')) while (end < run.length && !isMark(run[end]!)) end++;
    if (data === '' || data === ']') while (begin > 0 && !isMark(run[begin - 1]!)) begin--;
    out.push({ nodes: run.slice(begin, end + 1), last: end >= run.length });
  }
  return out;
}

describe('merge on random runs and answers', () => {
  it('words a provider puts into an element that had none are shown (found by the property below)', () => {
    const div = document.createElement('div');
    div.innerHTML = 'Hello <sub class="s"></sub> world';
    const sub = div.querySelector('sub')!;
    const unit: RangeUnit = { kind: 'range', parent: div, nodes: kids(div), anchor: null, whole: true, hidden: false };
    const m = prepare(unit);
    expect(markupAt(m)).toBe('<p i=1>Hello <sub i=2></sub> world</p>');
    const log = new UndoLog();
    mergeRange(unit, readOwn('<p i=1>Hola <sub i=2>grande</sub> mundo</p>')!.get(1)!, 1, m.entries, log);
    expect(div.innerHTML).toBe('Hola <sub class="s">grande</sub> mundo');
    expect(div.querySelector('sub')).toBe(sub);
    log.undo();
    expect(div.innerHTML).toBe('Hello <sub class="s"></sub> world');
  });

  /** `html` as a run of its own: its markup, and a merge of an answer into it, logged. */
  function runOf(html: string) {
    const div = document.createElement('div');
    div.innerHTML = html;
    const unit: RangeUnit = { kind: 'range', parent: div, nodes: kids(div), anchor: null, whole: true, hidden: false };
    const m = prepare(unit);
    const log = new UndoLog();
    return { div, original: div.innerHTML, markup: markupAt(m), log, merge: (answer: string) => mergeRange(unit, readOwn(answer)!.get(1)!, 1, m.entries, log, m.into) };
  }

  it("a Svelte block that ends past the run's silent end keeps its nodes in their order when the provider drops a tag (found by the property below, seed 85005)", () => {
    const { div, markup, log, merge } = runOf('<a class="c-a">Hello</a><a class="c-a">Hello</a><a class="c-a"><!--?lit$123456789$--></a><!---->');
    const links = [...div.querySelectorAll('a')];
    // The last link shows no words: not sent, it stays at the run's end with Svelte's comment.
    expect(markup).toBe('<p i=1><a i=2>Hello</a><a i=3>Hello</a></p>');
    merge('<p i=1>Hola<a i=3>Hola</a></p>');
    // The block, from the run's start to the empty comment, is what Svelte takes out: its nodes
    // stay in their order (the previous build put the first link after the second).
    expect([...div.querySelectorAll('a')]).toEqual(links);
    expect(div.lastChild!.nodeType).toBe(8);
    log.undo();
    expect(div.innerHTML).toBe('<a class="c-a">Hello</a><a class="c-a">Hello</a><a class="c-a"><!--?lit$123456789$--></a><!---->');
  });

  it('keeps a split word whole where the run keeps its own order (a fragment Vue ends after it): no text between its letters (found by the property below, seed 105005)', () => {
    const { div, original, markup, log, merge } = runOf(`<a class="c-a">Hello</a>Hello${SPLIT_WORD}<!--]-->`);
    expect(markup).toBe('<p i=1><a i=2>Hello</a>Hello<span i=3>Word</span></p>');
    // The translation puts the word first: the fragment keeps the run's order, and the texts go between its elements.
    merge('<p i=1><span i=3>Palabra</span>Hola<a i=2>Hola</a></p>');
    // The previous build put the text between the word's last two letters: "HolaPalHolaabra".
    expect(div.textContent).toBe('HolaHolaPalabra');
    log.undo();
    expect(div.innerHTML).toBe(original);
  });

  it('puts a text after a split word after its last letter where the run keeps its own order: a tag the provider repeats (found by the property below, seed 105005)', () => {
    const { div, original, log, merge } = runOf(`${SPLIT_WORD}<!---->`);
    // The word's tag twice: the second is not honoured, its text stays, after the word.
    merge('<p i=1><span i=2>Palabra</span><span i=2>otra</span></p>');
    // Put after the word's first letter, it read "Potraalabra".
    expect(div.textContent).toBe('Palabraotra');
    log.undo();
    expect(div.innerHTML).toBe(original);
  });

  it('keeps every live element, shows every word, and restores the run exactly', () => {
    fc.assert(
      fc.property(run, OPS, (gens, ops) => {
        const div = document.createElement('div');
        fill(div, gens.map(html).join(''));
        const original = div.innerHTML;
        const before = elementsUnder(div);
        const classes = before.map((el) => el.getAttribute('class'));
        const beforeKids = kids(div);
        const unit: RangeUnit = { kind: 'range', parent: div, nodes: kids(div), anchor: null, whole: true, hidden: false };
        const m = prepare(unit);
        const answer = mangle(readOwn(markupAt(m))!.get(1)!, ops);
        const kept = core(beforeKids).nodes;
        // A run with no word at all has nothing kept: all of it is its lead.
        const lead = kept.length ? beforeKids.slice(0, beforeKids.indexOf(kept[0]!)) : beforeKids;
        const trail = kept.length ? beforeKids.slice(beforeKids.indexOf(kept[kept.length - 1]!) + 1) : [];
        // Each element's content (its run and the silent nodes at its edges, which stay), and its parts.
        const runs = [div, ...before].map((el) => {
          const run = kids(el);
          const anchors = run.filter(isAnchor);
          return { el, run, parts: partsIn(run), anchors, segment: segments(run, anchors) };
        });
        const originals = new Set<Node>();
        for (const walk = document.createTreeWalker(div); walk.nextNode(); ) originals.add(walk.currentNode);
        const log = new UndoLog();
        mergeRange(unit, answer, 1, m.entries, log, m.into);
        log.seal();

        const after = kids(div);
        expect(after.slice(0, lead.length), original).toEqual(lead);
        expect(after.slice(after.length - trail.length), original).toEqual(trail);

        for (const el of before) expect(div.contains(el), el.outerHTML).toBe(true);
        expect(before.map((el) => el.getAttribute('class')), original).toEqual(classes);
        // A part stays whole: its nodes next to each other, in their order (a node the write made may
        // stand between them), and a last part after the rest of its element's content.
        for (const { el, run, parts, anchors, segment } of runs) {
          const now = kids(el).filter((n) => originals.has(n));
          // An anchor is never written, and each node of the element's content stays between the
          // same two anchors: a walk from one to the next takes out what it held.
          for (const a of anchors) expect([a.parentNode === el, (a as Text).data], original).toEqual([true, '']);
          const here = segments(now, anchors);
          for (const n of now) if (!anchors.includes(n)) expect([n.textContent, here.get(n)], original).toEqual([n.textContent, segment.get(n)]);
          for (const part of parts) {
            const at = now.indexOf(part.nodes[0]!);
            expect(now.slice(at, at + part.nodes.length), original).toEqual(part.nodes);
            if (part.last) expect(now.slice(at + part.nodes.length).filter((n) => run.includes(n)), original).toEqual([]);
          }
        }

        const shown = div.textContent!.replace(/\s+/g, ' ');
        for (const text of leaves(answer)) expect(shown, original).toContain(text.replace(/\s+/g, ' ').trim());
        // A list item's label was not sent: it is still where it was, before the translation.
        const label = listLabel(kept[0]);
        if (label) expect((kept[0] as Text).data.startsWith(label), original).toBe(true);
        // What Splitting.js's style draws of a letter, from its copy, is the letter shown; and of the
        // word, where its element holds its letters alone (a provider may put the word's text beside them).
        for (const el of div.querySelectorAll('[data-char]')) expect([el.getAttribute('data-char'), el.parentElement!.outerHTML], original).toEqual([el.textContent, el.parentElement!.outerHTML]);
        for (const el of div.querySelectorAll('[data-word]')) {
          if ([...el.childNodes].every((c) => (c as Element).hasAttribute?.('data-char'))) expect([el.getAttribute('data-word'), el.outerHTML], original).toEqual([el.textContent, el.outerHTML]);
        }

        log.undo();
        expect(div.innerHTML).toBe(original);
        expect(kids(div)).toEqual(beforeKids);
        expect(elementsUnder(div)).toEqual(before);
      }),
      { numRuns: 400, seed: 5 },
    );
  }, 60_000);
});
