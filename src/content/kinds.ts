/**
 * What the walk knows of an element, read once per element (segment.ts walks with it): whether it
 * lays out inline (all it holds does), is hidden, lays its children out as items, and tags.ts
 * `inspect`'s bits (excluded, and why; prose attributes; what it says of `translate`). Layout is
 * read from the tag where no author style can have changed it, else from computed style. Also
 * whether an element or an ancestor is left out (`skipped`), for what the page changes later.
 */
import { BLOCK_TAGS, BY_PAGE, EXCLUDED, EXCLUDED_ANY_LANG, excluded, inspect, PROSE_ATTR, SAYS_NO, SAYS_YES, TAG_DISPLAY, untouchedDocument } from './tags';
import { mayHost, pageShadow, type ShadowOf } from './shadow';
import { alike, isSplitLine, LINE_TAGS, splitLinesIn, textFlows, type LineReader } from './split-lines';

/** Bits of an element's kind, above those of tags.ts `inspect` (whose EXCLUDED, EXCLUDED_ANY_LANG, PROSE_ATTR, BY_PAGE, SAYS_NO and SAYS_YES it keeps). */
const INLINE = 256;
export const NONE = 512;
/** A flex or grid container: its children are laid out as blocks (CSS Display: "blockified"). */
const ITEMS = 1024;
export const EX = EXCLUDED;
/**
 * Nesting walked on one stack: a block deeper than this is left for later and walked from a fresh
 * stack (discovery's loop, or `drain`), and an element this deep inside inline content counts as a
 * block. A 30,000-level page overflowed the stack, which left discovery unfinished and the page
 * "translating" for ever (seen in CI on the 10,000-level e2e page).
 */
export const MAX_NESTING = 256;
/** By tags.ts TAG_DISPLAY bits: 0 (ask computed style), TAG_INLINE, TAG_BLOCK, TAG_NONE. */
const TAG_DISPLAYS = ['', 'inline', 'block', 'none'] as const;

export interface SegmentOptions {
  /** Primary subtag of the page's language: elements whose `lang` says otherwise are skipped. */
  src?: string;
  /** Computed display of an element; injectable so tests can state layout. */
  display?: (el: Element) => string;
  /** Whether blocks' text flows from one into the next, as a split text's lines do (split-lines.ts `textFlows`); injectable so tests can state layout. */
  flows?: (lines: readonly Element[]) => boolean;
  /** Elements never to touch (the progress indicator's host). */
  ignore?: (el: Element) => boolean;
  /** Called for each shadow root met, so it can be observed too. */
  onShadowRoot?: (root: ShadowRoot) => void;
  /** An element's shadow root, open or closed (shadow.ts); injectable so tests can state closed roots. */
  shadow?: ShadowOf;
  /**
   * Called for each element met with no shadow root that may get one later (shadow.ts `mayHost`):
   * a custom element whose definition has not come yet (upgrades.ts) or that attaches its root
   * later, an empty mount point a script renders into later (late-roots.ts); `inline` if it lays
   * out as an inline box (not an inline-block: display inline or contents). Once it has one,
   * `upgraded` finds what the root holds.
   */
  onRootless?: (el: Element, inline: boolean) => void;
  /**
   * Called for each element met that has no computed style (display `''`) while the page lays out:
   * a node its parent's shadow root does not show (Chrome; Firefox computes a style for it), so
   * the parent has a root, maybe a closed one `shadow` was not asked for.
   */
  onUnshown?: (el: Element) => void;
  /**
   * Links and buttons side by side, and the parts of a run cut by separators, are units of their
   * own; default on. Off in bilingual mode, where the copy of the row goes under the row: a copy
   * per link or part would be a block inside each, breaking the row into lines.
   */
  items?: boolean;
}

/** The element kinds the walk reads; `Segmenter` (segment.ts) walks with them. */
export abstract class ElementKinds {
  /** INLINE, NONE, ITEMS and tags.ts `inspect`'s bits of each element seen. */
  private kind = new WeakMap<Element, number>();
  private readonly computed: ((el: Element) => string) | undefined;
  protected readonly shadow: ShadowOf;
  private inlineNesting = 0;
  /**
   * Whether an element's children are the lines of a split text (split-lines.ts), by element.
   * Kept when the rest is forgotten: translated, the lines no longer flow as they did.
   */
  private lineGroups = new WeakMap<Element, boolean>();
  private readonly lineReader: LineReader;

  constructor(protected readonly opts: SegmentOptions = {}) {
    this.computed = opts.display;
    this.shadow = opts.shadow ?? pageShadow;
    this.lineReader = {
      isInline: (el) => this.isInline(el),
      isBlock: (el) => this.displayOf(el, false) === 'block',
      flows: opts.flows ?? textFlows,
    };
  }

  /** The bits read of `el` so far, if any (asking reads nothing). */
  protected known(el: Element): number | undefined {
    return this.kind.get(el);
  }

  /**
   * Whether the children of `parent` are laid out as blocks, one unit each (a flex or grid
   * container: a row of cards, a byline of spans, a bare-link menu); not in bilingual mode (as
   * `SegmentOptions.items`).
   */
  protected laysOutItems(parent: Element | ShadowRoot, hidden: boolean): boolean {
    return this.opts.items !== false && parent.nodeType === 1 && (this.kindOf(parent as Element, hidden) & ITEMS) !== 0;
  }

  protected breaksRun(n: Node): boolean {
    return n.nodeType === 1 && (!this.isInline(n as Element) || !!this.opts.ignore?.(n as Element));
  }

  /**
   * Whether `n`, which the page put in or took out, lays out as a block (a run stops at it): read
   * as the walk reads it while it is in the page, and from what the walk read of it once it is out
   * (no style there); false where nothing was.
   */
  isBlockNode(n: Node): boolean {
    if (n.nodeType !== 1) return false;
    if (n.isConnected) return this.breaksRun(n);
    const k = this.known(n as Element);
    return k !== undefined && !(k & INLINE);
  }

  /**
   * The element or an ancestor is excluded: nothing it holds is translated. Below an element that
   * says `translate="yes"`, an ancestor that says no (and nothing else) does not count: the
   * nearest says.
   */
  skipped(el: Element): boolean {
    let yes = false;
    // Stops at the body (and below <html>, whose lang we set ourselves), as `document` does.
    for (let e: Element | null = el; e && e.parentElement; e = e.parentElement) {
      if (this.opts.ignore?.(e)) return true;
      if (e === e.ownerDocument.body) return untouchedDocument(e.ownerDocument);
      const bits = inspect(e, this.opts.src);
      if (bits & EX && !(yes && bits & SAYS_NO)) return true;
      if (bits & SAYS_YES) yes = true;
    }
    return false;
  }

  /** `el` says `translate="yes"` inside content the page says no to: its content is a unit's, apart from what is around it. */
  protected yesRoot(el: Element): boolean {
    return (this.kindOf(el, false) & SAYS_YES) !== 0 && !!el.parentElement && this.skipped(el.parentElement) && !this.skipped(el);
  }

  /**
   * Lets go of what was read of every element (the page is segmented: only what the page changes
   * is looked at again, read afresh). Measured: ~24 bytes per element, 65 kB on a long article.
   */
  forget(): void {
    this.kind = new WeakMap();
  }

  /** Reads `el` afresh next time (the page set one of its table attributes). */
  forgetElement(el: Element): void {
    this.kind.delete(el);
  }

  /** Reads `root` and every element in it afresh next time (what the page changed while it was out of the page). */
  forgetWithin(root: Node): void {
    if (root.nodeType !== 1) return;
    this.kind.delete(root as Element);
    this.lineGroups.delete(root as Element);
    for (const el of (root as Element).querySelectorAll('*')) this.kind.delete(el);
  }

  /**
   * The page added or removed children of `el`: whether it lays out inline (all it holds does)
   * may have changed, and so may that of each inline element it sits in. Read afresh next time,
   * or a link read inline before a block went into it would be a run's part and hold a unit of
   * its own as well.
   */
  childrenChanged(el: Element): void {
    this.kind.delete(el);
    this.lineGroups.delete(el);
    for (let e = el.parentElement; e; e = e.parentElement) {
      const known = this.kind.get(e);
      if (known === undefined || !(known & INLINE)) break;
      this.kind.delete(e);
    }
  }

  /** tags.ts `excluded(el)` (no language test), from what the segmenter read already where it can. */
  readonly opaque = (el: Element): boolean => {
    const known = this.kind.get(el);
    return known === undefined ? excluded(el) : (known & EXCLUDED_ANY_LANG) !== 0;
  };

  /** Whether `el` and everything in it lays out inline (so it belongs to its parent's unit). */
  isInline(el: Element, inHidden = false): boolean {
    return (this.kindOf(el, inHidden) & INLINE) !== 0;
  }

  protected kindOf(el: Element, inHidden: boolean): number {
    const known = this.kind.get(el);
    if (known !== undefined) return known;
    const bits = inspect(el, this.opts.src);
    const d = this.displayOf(el, inHidden, bits);
    if (d === '') this.opts.onUnshown?.(el);
    let k = bits & (EXCLUDED | EXCLUDED_ANY_LANG | PROSE_ATTR | BY_PAGE | SAYS_NO | SAYS_YES);
    if (d === 'none') k |= NONE | (BLOCK_TAGS.has(el.tagName.toUpperCase()) ? 0 : INLINE);
    else if (d === '' || d.startsWith('inline') || d.startsWith('ruby') || d === 'contents') k |= INLINE;
    else if (d === 'flex' || d === 'grid') k |= ITEMS;
    // A line of a split text: a part of the sentence its lines are (split-lines.ts).
    else if (d === 'block' && !(k & EX) && this.inSplitLines(el)) k |= INLINE;
    if (k & INLINE && this.rootOf(el, d === 'inline' || d === 'contents' || d === '')) k &= ~INLINE;
    if (k & INLINE && !(k & EX)) {
      const hidden = inHidden || (k & NONE) !== 0;
      if (this.inlineNesting >= MAX_NESTING) k &= ~INLINE;
      else {
        this.inlineNesting++;
        try {
          for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
            if (!this.isInline(c, hidden)) {
              k &= ~INLINE;
              break;
            }
          }
        } finally {
          this.inlineNesting--;
        }
      }
    }
    this.kind.set(el, k);
    return k;
  }

  /** `el`'s display: from the tag where no author style can have changed it (inside display:none, none), else computed. */
  private displayOf(el: Element, inHidden: boolean, bits = inspect(el, this.opts.src)): string {
    const tag = this.computed ? '' : inHidden ? 'none' : TAG_DISPLAYS[bits & TAG_DISPLAY]!;
    return tag === '' ? (this.computed ?? computedDisplay)(el) : tag;
  }

  /** Whether `el` is a line of a split text, or the mask around one, its parent's lines read once (split-lines.ts `splitLinesIn`). */
  private inSplitLines(el: Element): boolean {
    const parent = el.parentElement;
    if (!parent || !LINE_TAGS.has(el.localName)) return false;
    if (besideItsLike(el) && this.linesIn(parent) && isSplitLine(el)) return true;
    // A line inside its mask: the mask's parent holds the masks.
    const above = parent.parentElement;
    return above !== null && parent.childElementCount === 1 && besideItsLike(parent) && this.linesIn(above) && isSplitLine(el);
  }

  private linesIn(parent: Element): boolean {
    let found = this.lineGroups.get(parent);
    if (found === undefined) {
      // Not lines while they are read: reading a line's content may ask again (a block in it, alone in an element of the same parent's).
      this.lineGroups.set(parent, false);
      // A flex or grid container's children are items, each a unit (`laysOutItems`).
      const d = parent.childElementCount < 2 ? '' : this.displayOf(parent, false);
      found = d !== '' && !d.endsWith('flex') && !d.endsWith('grid') && d !== 'none' && splitLinesIn(parent, this.lineReader);
      this.lineGroups.set(parent, found);
    }
    return found;
  }

  /** `el`'s shadow root; an element with none that may get one is reported (`onRootless`), with whether it lays out inline. */
  protected rootOf(el: Element, inline: boolean): ShadowRoot | null {
    const root = this.shadow(el);
    if (!root && this.opts.onRootless && mayHost(el)) this.opts.onRootless(el, inline);
    return root;
  }

  protected hiddenEl(el: Element): boolean {
    return (this.kindOf(el, false) & NONE) !== 0 || el.hasAttribute('hidden');
  }
}

/** Whether an element beside `el` is of its tag and class, as a split text's lines are. */
function besideItsLike(el: Element): boolean {
  const s = el.nextElementSibling ?? el.previousElementSibling;
  return s !== null && alike(s, el);
}

function computedDisplay(el: Element): string {
  return getComputedStyle(el).display;
}
