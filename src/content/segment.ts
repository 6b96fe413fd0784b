/**
 * Page units (STYLE.md "Page translation"), decided by layout: an element whose children are all
 * inline is one unit, sent as HTML with its inline tags; a block with block children is subdivided,
 * and the inline runs between its block children are units of their own. Attribute values
 * (attributes.ts) are units of plain text.
 *
 * Layout is read from the tag where no author style can have changed it (tags.ts), else from
 * computed style, once per element (kinds.ts). A walk can leave block subtrees for later
 * (`Walk.defer`): the viewport is segmented first and the rest in idle slices.
 */
import { HAS_LETTER, translatableAttributes } from './attributes';
import { listItems, splitRun, type Opaque } from './runs';
import { BY_PAGE, inspect, plainTextPre, PROSE_ATTR, SAYS_NO, SAYS_YES, SKIP_TAGS, untouchedDocument } from './tags';
import { ElementKinds, EX, MAX_NESTING, NONE } from './kinds';
import { isSvg, optionUnits, svgTitleUnits } from './apart';
import { wholeUnit, type Later, type RangeUnit, type Unit, type Walk } from './units';

export { excluded, primary } from './tags';
export type { SegmentOptions } from './kinds';
export type { AttrUnit, Later, PieceGroup, PieceUnit, RangeUnit, Unit, Walk } from './units';

export class Segmenter extends ElementKinds {
  /** Blocks on the stack now. */
  private nesting = 0;
  /** The links and buttons of the run runs.ts `listItems` looked at last. */
  private readonly items: Element[] = [];
  /** Whether an element's content is left out, outside and inside hidden content (made once, not per run). */
  private readonly exIn: readonly Opaque[] = [(el) => (this.kindOf(el, false) & EX) !== 0, (el) => (this.kindOf(el, true) & EX) !== 0];

  /** All units of a document: title and description, then the body (what `defer` left aside aside). */
  document(doc: Document, walk: Walk = { out: [], later: [] }): Unit[] {
    const out = walk.out;
    const title = doc.querySelector('head > title');
    if (title) this.headUnits(title, out);
    for (const meta of doc.querySelectorAll('head > meta')) this.attrs(meta, false, out);
    // A text file: its text is one unit, sent by paragraphs (fit.ts `pieces`): a translator keeps
    // no blank lines. The body's own translate="no", .notranslate or lang do not count: a page says
    // no at its root to keep the browser from translating it unasked (a framework's nodes broken by
    // a translator that replaces them), which the user overrules by asking; an editor's draft (and
    // an XML file's tree) is never touched.
    const file = plainTextPre(doc);
    if (file) out.push({ ...wholeUnit(file, false), paragraphs: true });
    else if (doc.body && !untouchedDocument(doc)) this.block(doc.body, false, walk);
    // A walk that leaves nothing for later by choice wants everything now.
    if (!walk.defer) this.drain(walk);
    return out;
  }

  /**
   * What `document` finds in `<head>`, for `node` as the page wrote or changed it there: the
   * document's title (its element or its text), a `<meta>`'s description. Nothing for another node
   * of `<head>`, nor for one outside it.
   */
  headUnits(node: Node, out: Unit[] = []): Unit[] {
    const el = node.nodeType === 1 ? (node as Element) : node.parentElement;
    const head = node.ownerDocument?.head;
    if (!el || !head || el.parentElement !== head) return out;
    if (el.localName === 'meta') this.attrs(el, false, out);
    else if (el.localName === 'title' && el === head.querySelector(':scope > title') && HAS_LETTER.test(el.textContent ?? '')) out.push(wholeUnit(el, false));
    return out;
  }

  /** Walks what a walk left for later, each from a fresh stack (what they leave, too). */
  private drain(walk: Walk): void {
    for (let i = 0; i < walk.later.length; i++) this.resume(walk.later[i]!, walk);
    walk.later.length = 0;
  }

  /**
   * Units inside `root` (a block, or content a page added), its own shadow root first: a web
   * component the page adds hosts its text there (units already translated are the caller's to
   * skip).
   */
  subtree(root: Element | ShadowRoot, hidden: boolean, out: Unit[] = []): Unit[] {
    if (root instanceof Element && this.opts.ignore?.(root)) return out;
    const walk: Walk = { out, later: [] };
    if (root instanceof Element) {
      const bits = inspect(root, this.opts.src);
      if (bits & SAYS_NO) this.yesWithin(root, hidden, walk);
      else if (!(bits & EX)) this.resume({ el: root, hidden, rank: 0 }, walk);
    } else this.block(root, hidden, walk);
    this.drain(walk);
    return out;
  }

  /** A subtree a walk left for later (its shadow root first, as the walk would have). */
  resume(later: Later, walk: Walk): void {
    const el = later.el;
    const root = this.rootOf(el, false);
    if (root) {
      this.opts.onShadowRoot?.(root);
      this.block(root, later.hidden, walk);
    }
    this.block(el, later.hidden, walk);
  }

  /**
   * Units for a node the page added or changed: the node's own subtree if it is a block, else the
   * inline run of its nearest block ancestor that holds it (its nodes into `run`); in `<head>`,
   * the document's title or description it is (`headUnits`: an app's view, a count of unread
   * messages), nothing else there being text.
   */
  around(node: Node, out: Unit[] = [], run?: Node[]): Unit[] {
    if (node.ownerDocument?.head?.contains(node)) return this.headUnits(node, out);
    // In a select (an option the page added or changed, a list it filled): its options, as the walk found them.
    const select = node.parentElement?.closest('select');
    if (select) {
      const parent = select.parentElement;
      if (!this.opts.ignore?.(select) && !(parent && this.skipped(parent))) this.apart(select, this.hiddenEl(select), out);
      return out;
    }
    if (node instanceof Element && !this.isInline(node)) {
      // Its own no (or another exclusion) is the subtree's to read: what says yes inside is found.
      const above = node.parentElement;
      if (!(above && this.skipped(above)) || !this.skipped(node)) this.subtree(node, this.hiddenEl(node), out);
      return out;
    }
    let child: Node = node;
    let block = node.parentNode;
    // The innermost element on the way that says translate="yes" inside a no: its content is a
    // unit of its own (`yesWithin`), unless its block is translated in bilingual mode (`apartYes`).
    let yes: [Element, Node] | undefined;
    while (block instanceof Element && this.isInline(block)) {
      if (!yes && this.yesRoot(block)) yes = [block, child];
      child = block;
      block = block.parentNode;
    }
    let parent: Element | ShadowRoot | null = block instanceof Element || block instanceof ShadowRoot ? block : null;
    const skipped = !parent || (parent instanceof Element && this.skipped(parent));
    if (yes && (skipped || this.opts.items !== false)) [parent, child] = yes;
    else if (skipped || !parent) return out;
    let first: Node = child;
    const nodes: Node[] = [];
    let n: Node | null;
    const items = this.laysOutItems(parent, false);
    // An element in a flex or grid container is a run of its own; texts between them are another.
    if (items && child.nodeType === 1) {
      nodes.push(child);
      n = child.nextSibling;
    } else {
      const breaks = (m: Node) => this.breaksRun(m) || (items && m.nodeType === 1);
      while (first.previousSibling && !breaks(first.previousSibling)) first = first.previousSibling;
      for (n = first; n && !breaks(n); n = n.nextSibling) nodes.push(n);
    }
    run?.push(...nodes);
    this.run(parent, nodes, n, n === null && first === parent.firstChild, false, out);
    return out;
  }

  /**
   * The units of the shadow root an element has now, attached since the walk met it without one
   * (`onRootless`: a definition come, a widget rendered); the rest of it was walked then. The root
   * is reported for observation, as the walk would have.
   */
  upgraded(el: Element, out: Unit[] = []): Unit[] {
    const root = el.isConnected ? this.shadow(el) : null;
    if (!root || this.skipped(el)) return out;
    // A host with a root lays out as a block (kindOf): read afresh.
    this.forgetElement(el);
    this.opts.onShadowRoot?.(root);
    return this.subtree(root, this.hiddenEl(el), out);
  }

  /** The attribute units of `el` (one the page set or changed), as the walk finds them (a description in `<head>`, as `document` does). */
  attributes(el: Element): Unit[] {
    const out: Unit[] = [];
    const parent = el.parentElement;
    if (parent && parent === el.ownerDocument.head) return this.headUnits(el, out);
    if (this.opts.ignore?.(el) || (parent && this.skipped(parent))) return out;
    const bits = inspect(el, this.opts.src);
    if (!(bits & EX) || keepsAttributes(el, bits)) this.attrs(el, false, out);
    return out;
  }

  /**
   * The units of the elements inside `el` (which the page says no to, and nothing else) that say
   * `translate="yes"` (HTML: the nearest `translate` decides): each the outermost such, reached
   * through no element left out for another reason (code, another language, an editor). Each is
   * walked as a block is, an inline one as a unit of its own.
   */
  private yesWithin(el: Element, hidden: boolean, walk: Walk): void {
    for (const d of el.querySelectorAll('[translate]')) {
      const value = d.getAttribute('translate')!.toLowerCase();
      if (value !== 'yes' && value !== '') continue;
      let h = hidden;
      let reached = true;
      for (let e = d.parentElement; e && e !== el; e = e.parentElement) {
        const k = this.kindOf(e, hidden);
        // Inside another that says yes (walked from there), or left out for more than the page's no.
        if (k & SAYS_YES || (k & EX && !(k & SAYS_NO)) || this.opts.ignore?.(e)) {
          reached = false;
          break;
        }
        if (k & NONE || e.hasAttribute('hidden')) h = true;
      }
      if (!reached || this.opts.ignore?.(d) || this.kindOf(d, hidden) & EX) continue;
      this.descend(d, h || this.hiddenEl(d), walk);
    }
  }

  /** Walks a block's subtree now, or leaves it for later (`Walk.defer`, or too deep for this stack). */
  private descend(el: Element, hidden: boolean, walk: Walk): void {
    const rank = walk.defer?.(el, hidden);
    if (rank !== undefined) walk.later.push({ el, hidden, rank });
    else if (this.nesting >= MAX_NESTING) walk.later.push({ el, hidden, rank: 0 });
    else {
      this.nesting++;
      try {
        this.resume({ el, hidden, rank: 0 }, walk);
      } finally {
        this.nesting--;
      }
    }
  }

  private block(parent: Element | ShadowRoot, hidden: boolean, walk: Walk): void {
    const out = walk.out;
    if (parent.nodeType === 1) this.attrs(parent as Element, hidden, out);
    let run: Node[] = [];
    const flush = (anchor: Node | null) => {
      if (run.length) this.run(parent, run, anchor, anchor === null && run[0] === parent.firstChild, hidden, out);
      run = [];
    };
    const items = this.laysOutItems(parent, hidden);
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 1) {
        // A comment starts a run too: a framework's (Lit's) marks the place of the text after it,
        // which the write keeps right after it (parts.ts).
        if (c.nodeType === 3 || c.nodeType === 8 || run.length) run.push(c);
        continue;
      }
      const el = c as Element;
      if (this.opts.ignore?.(el)) continue;
      if (this.isInline(el, hidden)) {
        if (items) flush(el);
        run.push(el);
        if (items) flush(el.nextSibling);
        continue;
      }
      flush(el);
      this.apart(el, hidden, out);
      const k = this.kindOf(el, hidden);
      if (k & SAYS_NO) this.yesWithin(el, hidden || this.hiddenEl(el), walk);
      if (k & EX) continue;
      this.descend(el, hidden || this.hiddenEl(el), walk);
    }
    flush(null);
  }

  /**
   * A run of inline nodes: a unit if it has a letter outside excluded elements (a unit per label
   * or part if it is a list of links and buttons or cut by separators: runs.ts); then the
   * attributes of its elements and the options of its selects, in document order. One walk finds
   * both.
   */
  private run(parent: Element | ShadowRoot, nodes: Node[], anchor: Node | null, whole: boolean, hidden: boolean, out: Unit[]): void {
    const attrs: Unit[] = [];
    let text = false;
    for (const n of nodes) if (this.scan(n, !text, hidden, attrs)) text = true;
    if (text) this.units(parent, nodes, anchor, whole, hidden, out);
    for (const a of attrs) out.push(a);
  }

  /** The units of a run with a letter: one, or one per label of a list or part cut by separators (runs.ts). */
  private units(parent: Element | ShadowRoot, nodes: Node[], anchor: Node | null, whole: boolean, hidden: boolean, out: Unit[]): void {
    // At its exact length: a list grown by push keeps room for 17 nodes, for as long as the page is translated.
    const run: RangeUnit = { kind: 'range', parent, nodes: nodes.slice(), anchor, whole, hidden };
    if (this.opts.items === false) {
      out.push(run);
      return;
    }
    const opaque = this.exIn[hidden ? 1 : 0]!;
    splitRun(run, opaque, listItems(nodes, opaque, this.items) ? this.items : null, out);
  }

  /** Whether `n` has a letter outside excluded elements (looked for only while `need`); its attribute units into `attrs`. */
  private scan(n: Node, need: boolean, hidden: boolean, attrs: Unit[]): boolean {
    if (n.nodeType === 3) return need && HAS_LETTER.test((n as Text).data);
    if (n.nodeType !== 1) return false;
    const el = n as Element;
    this.apart(el, hidden, attrs);
    const k = this.kindOf(el, hidden);
    if (k & EX) {
      if (keepsAttributes(el, k)) this.attrs(el, hidden, attrs);
      // What says translate="yes" inside is a unit apart, as a select's options are.
      if (k & SAYS_NO) this.apartYes(el, hidden, attrs);
      return false;
    }
    this.attrs(el, hidden, attrs);
    let found = false;
    for (let c = el.firstChild; c; c = c.nextSibling) if (this.scan(c, need && !found, hidden, attrs)) found = true;
    return found;
  }

  /**
   * The units of what says `translate="yes"` inside an element of a run the page says no to. Not in
   * bilingual mode (as `SegmentOptions.items`): its copy would be a block in the middle of the
   * sentence, beside the run's own copy under it.
   */
  private apartYes(el: Element, hidden: boolean, out: Unit[]): void {
    if (this.opts.items === false) return;
    const walk: Walk = { out, later: [] };
    this.yesWithin(el, hidden || this.hiddenEl(el), walk);
    this.drain(walk);
  }

  /** The units an excluded element holds apart from its run: a select's options, an SVG's titles. */
  private apart(el: Element, hidden: boolean, out: Unit[]): void {
    if (el.tagName === 'SELECT') optionUnits(el, hidden, out, (labelled) => this.attrs(labelled, hidden, out));
    else if (isSvg(el)) svgTitleUnits(el, hidden, out);
  }

  private attrs(el: Element, hidden: boolean, out: Unit[]): void {
    // Titles of what nobody sees cost requests for nothing (the popular extension sent 2.5x a page's text).
    if (hidden && el.tagName !== 'META') return;
    const known = this.known(el);
    if (known !== undefined && !(known & PROSE_ATTR)) return;
    for (const [name, value] of translatableAttributes(el)) out.push({ kind: 'attr', el, name, value, hidden });
  }
}

/**
 * An excluded element whose prose attributes are translated all the same: one left out for its tag
 * (an image's alt, a form control's placeholder), not one the page excludes (HTML: `translate="no"`
 * covers an element's translatable attributes too).
 */
function keepsAttributes(el: Element, bits: number): boolean {
  return !(bits & BY_PAGE) && SKIP_TAGS.has(el.tagName.toUpperCase());
}
