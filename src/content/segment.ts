/**
 * Page units (STYLE.md "Page translation"), decided by layout: an element whose children are all
 * inline is one unit, sent as HTML with its inline tags; a block with block children is subdivided,
 * and the inline runs between its block children are units of their own. Attribute values
 * (attributes.ts) are units of plain text.
 *
 * Layout is read from the tag where no author style can have changed it (tags.ts), else from
 * computed style, once per element. A walk can leave block subtrees for later (`Walk.defer`): the
 * viewport is segmented first and the rest in idle slices.
 */
import { translatableAttributes } from './attributes';
import { BLOCK_TAGS, excluded, kids, SKIP_TAGS, tagDisplay } from './tags';

import type { Later, Unit, Walk } from './units';

export { excluded, primary } from './tags';
export type { AttrUnit, Later, PieceGroup, PieceUnit, RangeUnit, Unit, Walk } from './units';

const HAS_LETTER = /\p{L}/u;
const INLINE = 1;
const NONE = 2;

export interface SegmentOptions {
  /** Primary subtag of the page's language: elements whose `lang` says otherwise are skipped. */
  src?: string;
  /** Computed display of an element; injectable so tests can state layout. */
  display?: (el: Element) => string;
  /** Elements never to touch (the progress indicator's host). */
  ignore?: (el: Element) => boolean;
  /** Called for each open shadow root met, so it can be observed too. */
  onShadowRoot?: (root: ShadowRoot) => void;
}

export class Segmenter {
  /** INLINE and NONE bits of each element seen. */
  private readonly kind = new WeakMap<Element, number>();
  private readonly computed: ((el: Element) => string) | undefined;

  constructor(private readonly opts: SegmentOptions = {}) {
    this.computed = opts.display;
  }

  /** All units of a document: title and description, then the body (what `defer` left aside aside). */
  document(doc: Document, walk: Walk = { out: [], later: [] }): Unit[] {
    const out = walk.out;
    const title = doc.querySelector('head > title');
    if (title && HAS_LETTER.test(title.textContent ?? '')) {
      out.push({ kind: 'range', parent: title, nodes: kids(title), anchor: null, whole: true, hidden: false });
    }
    for (const meta of doc.querySelectorAll('head > meta')) this.attrs(meta, false, out);
    if (doc.body) this.block(doc.body, false, walk);
    return out;
  }

  /** Units inside `root` (a block, or content a page added). */
  subtree(root: Element | ShadowRoot, hidden: boolean, out: Unit[] = []): Unit[] {
    if (root instanceof Element && (excluded(root, this.opts.src) || this.opts.ignore?.(root))) return out;
    this.block(root, hidden, { out, later: [] });
    return out;
  }

  /** A subtree a walk left for later (its shadow root first, as the walk would have). */
  resume(later: Later, walk: Walk): void {
    const el = later.el;
    if (el.shadowRoot) {
      this.opts.onShadowRoot?.(el.shadowRoot);
      this.block(el.shadowRoot, later.hidden, walk);
    }
    this.block(el, later.hidden, walk);
  }

  /**
   * Units for a node the page added or changed: the node's own subtree if it is a block, else the
   * inline run of its nearest block ancestor that holds it.
   */
  around(node: Node, out: Unit[] = []): Unit[] {
    if (node instanceof Element && !this.isInline(node)) {
      if (!this.skipped(node)) this.subtree(node, this.hiddenEl(node), out);
      return out;
    }
    let child: Node = node;
    let block = node.parentNode;
    while (block instanceof Element && this.isInline(block)) {
      child = block;
      block = block.parentNode;
    }
    if (!(block instanceof Element || block instanceof ShadowRoot) || (block instanceof Element && this.skipped(block))) return out;
    let first: Node = child;
    while (first.previousSibling && !this.breaksRun(first.previousSibling)) first = first.previousSibling;
    const nodes: Node[] = [];
    let n: Node | null = first;
    for (; n && !this.breaksRun(n); n = n.nextSibling) nodes.push(n);
    if (runHasText(nodes, this.opts.src)) {
      const whole = n === null && first === block.firstChild;
      out.push({ kind: 'range', parent: block, nodes, anchor: n, whole, hidden: false });
    }
    for (const x of nodes) if (x.nodeType === 1) this.inlineAttrs(x as Element, false, out);
    return out;
  }

  private breaksRun(n: Node): boolean {
    return n.nodeType === 1 && (!this.isInline(n as Element) || !!this.opts.ignore?.(n as Element));
  }

  /** The element or an ancestor is excluded. */
  private skipped(el: Element): boolean {
    // Stops below <html>, whose lang we set ourselves.
    for (let e: Element | null = el; e && e.parentElement; e = e.parentElement) if (excluded(e, this.opts.src) || this.opts.ignore?.(e)) return true;
    return false;
  }

  /** Whether `el` and everything in it lays out inline (so it belongs to its parent's unit). */
  isInline(el: Element, inHidden = false): boolean {
    return (this.kindOf(el, inHidden) & INLINE) !== 0;
  }

  private kindOf(el: Element, inHidden: boolean): number {
    const known = this.kind.get(el);
    if (known !== undefined) return known;
    // Inside display:none nothing has layout: the tag says (and no style is computed for it).
    const tag = this.computed ? '' : inHidden ? 'none' : tagDisplay(el);
    const d = tag === '' ? (this.computed ?? computedDisplay)(el) : tag;
    let k = 0;
    if (d === 'none') k = NONE | (BLOCK_TAGS.has(el.tagName.toUpperCase()) ? 0 : INLINE);
    else if (d === '' || d.startsWith('inline') || d.startsWith('ruby') || d === 'contents') k = INLINE;
    if (k & INLINE && el.shadowRoot) k &= ~INLINE;
    if (k & INLINE && !excluded(el, this.opts.src)) {
      const hidden = inHidden || (k & NONE) !== 0;
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (!this.isInline(c, hidden)) {
          k &= ~INLINE;
          break;
        }
      }
    }
    this.kind.set(el, k);
    return k;
  }

  private hiddenEl(el: Element): boolean {
    return (this.kindOf(el, false) & NONE) !== 0 || el.hasAttribute('hidden');
  }

  private block(parent: Element | ShadowRoot, hidden: boolean, walk: Walk): void {
    const out = walk.out;
    if (parent.nodeType === 1) this.attrs(parent as Element, hidden, out);
    let run: Node[] = [];
    const flush = (anchor: Node | null) => {
      if (run.length && runHasText(run, this.opts.src)) {
        out.push({ kind: 'range', parent, nodes: run, anchor, whole: anchor === null && run[0] === parent.firstChild, hidden });
      }
      for (const n of run) if (n.nodeType === 1) this.inlineAttrs(n as Element, hidden, out);
      run = [];
    };
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 1) {
        if (c.nodeType === 3 || run.length) run.push(c);
        continue;
      }
      const el = c as Element;
      if (this.opts.ignore?.(el)) continue;
      if (this.isInline(el, hidden)) {
        run.push(el);
        continue;
      }
      flush(el);
      if (el.tagName === 'SELECT') this.options(el, hidden, out);
      if (excluded(el, this.opts.src)) continue;
      const h = hidden || this.hiddenEl(el);
      const rank = walk.defer?.(el, h);
      if (rank !== undefined) walk.later.push({ el, hidden: h, rank });
      else this.resume({ el, hidden: h, rank: 0 }, walk);
    }
    flush(null);
  }

  /** Attributes of an inline subtree, and the options of its selects. */
  private inlineAttrs(el: Element, hidden: boolean, out: Unit[]): void {
    if (el.tagName === 'SELECT') this.options(el, hidden, out);
    const ex = excluded(el, this.opts.src);
    if (ex && !SKIP_TAGS.has(el.tagName.toUpperCase())) return;
    this.attrs(el, hidden, out);
    if (ex) return;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) this.inlineAttrs(c, hidden, out);
  }

  private options(select: Element, hidden: boolean, out: Unit[]): void {
    if (select.closest('[translate="no" i], .notranslate')) return;
    for (const o of select.querySelectorAll('option')) {
      if (HAS_LETTER.test(o.textContent ?? '')) out.push({ kind: 'range', parent: o, nodes: kids(o), anchor: null, whole: true, hidden });
    }
  }

  private attrs(el: Element, hidden: boolean, out: Unit[]): void {
    // Titles of what nobody sees cost requests for nothing (the popular extension sent 2.5x a page's text).
    if (hidden && el.tagName !== 'META') return;
    for (const [name, value] of translatableAttributes(el)) out.push({ kind: 'attr', el, name, value, hidden });
  }
}

function computedDisplay(el: Element): string {
  return getComputedStyle(el).display;
}

/** Whether a run has a letter outside excluded elements. */
export function runHasText(nodes: readonly Node[], src?: string): boolean {
  for (const n of nodes) if (hasText(n, src)) return true;
  return false;
}

function hasText(n: Node, src?: string): boolean {
  if (n.nodeType === 3) return HAS_LETTER.test((n as Text).data);
  if (n.nodeType !== 1 || excluded(n as Element, src)) return false;
  for (let c = n.firstChild; c; c = c.nextSibling) if (hasText(c, src)) return true;
  return false;
}

/** The element that stands for a unit on screen (for the viewport order). */
export function unitElement(u: Unit): Element | null {
  if (u.kind === 'attr') return u.el;
  if (u.kind === 'piece') return u.group.text.parentElement;
  return u.parent instanceof Element ? u.parent : u.parent.host;
}
