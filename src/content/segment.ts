/**
 * Page units (STYLE.md "Page translation"), decided by computed style: an element whose children
 * are all inline is one unit, sent as HTML with its inline tags; a block with block children is
 * subdivided, and the inline runs between its block children are units of their own. Attribute
 * values (attributes.ts) are units of plain text.
 */
import { translatableAttributes } from './attributes';

/** A run of sibling nodes translated as one piece of HTML. */
export interface RangeUnit {
  kind: 'range';
  parent: Element | ShadowRoot;
  nodes: Node[];
  /** The sibling after the run when it was found: restore and reorder insert before it. */
  anchor: Node | null;
  /** The run is all of an element's content (so `dir` can go on that element). */
  whole: boolean;
  /** Inside a display:none subtree: translated last. */
  hidden: boolean;
}

/** Part of a text node too long for one request, split at sentence boundaries. */
export interface PieceUnit {
  kind: 'piece';
  group: PieceGroup;
  index: number;
  hidden: boolean;
}

export interface PieceGroup {
  text: Text;
  sources: string[];
  outs: (string | undefined)[];
}

export interface AttrUnit {
  kind: 'attr';
  el: Element;
  name: string;
  value: string;
  hidden: boolean;
}

export type Unit = RangeUnit | PieceUnit | AttrUnit;

/** Never translated, nothing inside looked at (their attributes neither). */
const SKIP_TAGS = new Set([
  'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TEXTAREA', 'CODE', 'KBD', 'SAMP', 'VAR', 'PRE', 'LISTING', 'XMP',
  'PLAINTEXT', 'MATH', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'VIDEO', 'AUDIO', 'SELECT', 'INPUT', 'IMG',
  'BR', 'WBR', 'HR', 'PICTURE', 'METER', 'PROGRESS', 'DATALIST', 'OPTION', 'OPTGROUP', 'HEAD', 'LINK', 'META',
]);

/** Used for display:none elements, whose computed display says nothing about their kind. */
const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'CENTER', 'DD', 'DETAILS', 'DIALOG', 'DIR', 'DIV',
  'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER',
  'HGROUP', 'HR', 'LI', 'MAIN', 'MENU', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD',
  'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'LEGEND', 'OPTGROUP', 'OPTION', 'SELECT', 'VIDEO', 'IFRAME', 'CANVAS',
]);

const HAS_LETTER = /\p{L}/u;

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

/** Why an element's content is left alone: the page says so, or it is not prose. */
export function excluded(el: Element, src?: string): boolean {
  if (SKIP_TAGS.has(el.tagName.toUpperCase())) return true;
  if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return true;
  if (el.getAttribute('translate')?.toLowerCase() === 'no') return true;
  if (el.classList.contains('notranslate')) return true;
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable.toLowerCase() !== 'false') return true;
  const lang = el.getAttribute('lang');
  if (src && lang && primary(lang) !== src) return true;
  return false;
}

export function primary(lang: string): string {
  return lang.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

export class Segmenter {
  private readonly inline = new WeakMap<Element, boolean>();
  private readonly display: (el: Element) => string;

  constructor(private readonly opts: SegmentOptions = {}) {
    this.display = opts.display ?? ((el) => getComputedStyle(el).display);
  }

  /** All units of a document: body, then title and description. */
  document(doc: Document): Unit[] {
    const out: Unit[] = [];
    const title = doc.querySelector('head > title');
    if (title && HAS_LETTER.test(title.textContent ?? '')) {
      out.push({ kind: 'range', parent: title, nodes: [...title.childNodes], anchor: null, whole: true, hidden: false });
    }
    for (const meta of doc.querySelectorAll('head > meta')) this.attrs(meta, false, out);
    if (doc.body) this.block(doc.body, false, out);
    return out;
  }

  /** Units inside `root` (a block, or content a page added). */
  subtree(root: Element | ShadowRoot, hidden: boolean, out: Unit[] = []): Unit[] {
    if (root instanceof Element && (excluded(root, this.opts.src) || this.opts.ignore?.(root))) return out;
    this.block(root, hidden, out);
    return out;
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
    for (const x of nodes) if (x instanceof Element) this.inlineAttrs(x, false, out);
    return out;
  }

  private breaksRun(n: Node): boolean {
    return n instanceof Element && (!this.isInline(n) || !!this.opts.ignore?.(n));
  }

  /** The element or an ancestor is excluded. */
  private skipped(el: Element): boolean {
    // Stops below <html>, whose lang we set ourselves.
    for (let e: Element | null = el; e && e.parentElement; e = e.parentElement) if (excluded(e, this.opts.src) || this.opts.ignore?.(e)) return true;
    return false;
  }

  /** Whether `el` and everything in it lays out inline (so it belongs to its parent's unit). */
  isInline(el: Element): boolean {
    let v = this.inline.get(el);
    if (v !== undefined) return v;
    const d = this.display(el);
    const tag = el.tagName.toUpperCase();
    if (d === 'none') v = !BLOCK_TAGS.has(tag);
    else v = d === '' || d.startsWith('inline') || d.startsWith('ruby') || d === 'contents';
    if (v && el.shadowRoot) v = false;
    if (v && !excluded(el, this.opts.src)) {
      for (const c of el.children) {
        if (!this.isInline(c)) {
          v = false;
          break;
        }
      }
    }
    this.inline.set(el, v);
    return v;
  }

  private hiddenEl(el: Element): boolean {
    return this.display(el) === 'none' || el.hasAttribute('hidden');
  }

  private block(parent: Element | ShadowRoot, hidden: boolean, out: Unit[]): void {
    if (parent instanceof Element) this.attrs(parent, hidden, out);
    let run: Node[] = [];
    const flush = (anchor: Node | null) => {
      if (run.length && runHasText(run, this.opts.src)) {
        out.push({ kind: 'range', parent, nodes: run, anchor, whole: anchor === null && run[0] === parent.firstChild, hidden });
        for (const n of run) if (n instanceof Element) this.inlineAttrs(n, hidden, out);
      } else for (const n of run) if (n instanceof Element) this.inlineAttrs(n, hidden, out);
      run = [];
    };
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (!(c instanceof Element)) {
        if (c.nodeType === 3) run.push(c);
        else if (run.length) run.push(c);
        continue;
      }
      if (this.opts.ignore?.(c)) continue;
      if (this.isInline(c)) {
        run.push(c);
        continue;
      }
      flush(c);
      if (c.tagName === 'SELECT') this.options(c, hidden, out);
      if (excluded(c, this.opts.src)) continue;
      const h = hidden || this.hiddenEl(c);
      if (c.shadowRoot) {
        this.opts.onShadowRoot?.(c.shadowRoot);
        this.block(c.shadowRoot, h, out);
      }
      this.block(c, h, out);
    }
    flush(null);
  }

  /** Attributes of an inline subtree, and the options of its selects. */
  private inlineAttrs(el: Element, hidden: boolean, out: Unit[]): void {
    if (el.tagName === 'SELECT') this.options(el, hidden, out);
    if (excluded(el, this.opts.src) && !SKIP_TAGS.has(el.tagName.toUpperCase())) return;
    this.attrs(el, hidden, out);
    if (excluded(el, this.opts.src)) return;
    for (const c of el.children) this.inlineAttrs(c, hidden, out);
  }

  private options(select: Element, hidden: boolean, out: Unit[]): void {
    if (excluded(select, this.opts.src) && select.tagName !== 'SELECT') return;
    if (select.closest('[translate="no" i], .notranslate')) return;
    for (const o of select.querySelectorAll('option')) {
      if (HAS_LETTER.test(o.textContent ?? '')) {
        out.push({ kind: 'range', parent: o, nodes: [...o.childNodes], anchor: null, whole: true, hidden });
      }
    }
  }

  private attrs(el: Element, hidden: boolean, out: Unit[]): void {
    // Titles of what nobody sees cost requests for nothing (the popular extension sent 2.5x a page's text).
    if (hidden && el.tagName !== 'META') return;
    for (const [name, value] of translatableAttributes(el)) out.push({ kind: 'attr', el, name, value, hidden });
  }
}

/** Whether a run has a letter outside excluded elements. */
export function runHasText(nodes: readonly Node[], src?: string): boolean {
  for (const n of nodes) {
    if (n.nodeType === 3) {
      if (HAS_LETTER.test((n as Text).data)) return true;
    } else if (n instanceof Element && !excluded(n, src) && runHasText([...n.childNodes], src)) return true;
  }
  return false;
}

/** The element that stands for a unit on screen (for the viewport order). */
export function unitElement(u: Unit): Element | null {
  if (u.kind === 'attr') return u.el;
  if (u.kind === 'piece') return u.group.text.parentElement;
  return u.parent instanceof Element ? u.parent : u.parent.host;
}
