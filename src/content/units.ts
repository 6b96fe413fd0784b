/** The units of page translation, and what a segmentation walk leaves for later. */
import { BY_PAGE, inspect, kids, SAYS_NO, SAYS_YES, SVG_NS } from './tags';

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
  /** Sent paragraph by paragraph, however short (a text file's: fit.ts `pieces`). */
  paragraphs?: true;
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
  /** The pieces not sent (a text file's code), which no unit stands for: shown as their source. */
  kept?: ReadonlySet<number>;
  /**
   * What the last piece's write left in `text`: `piecesShown` of `outs` as they are (undefined
   * once `outs` change otherwise). A write that finds it there keeps `outs`, not that text, in
   * its undo log (undo.ts `piece`).
   */
  shown?: string;
}

/** What a long text reads with the pieces `outs` hold: each translated, or its source. */
export function piecesShown(g: PieceGroup, outs: readonly (string | undefined)[] = g.outs): string {
  return g.sources.map((s, i) => outs[i] ?? s).join('');
}

export interface AttrUnit {
  kind: 'attr';
  el: Element;
  name: string;
  value: string;
  hidden: boolean;
}

export type Unit = RangeUnit | PieceUnit | AttrUnit;

/** A block subtree left for later, with the rank its `defer` gave it. */
export interface Later {
  el: Element;
  hidden: boolean;
  rank: number;
}

/** One segmentation pass: units found, and the subtrees `defer` chose to leave for later. */
export interface Walk {
  out: Unit[];
  later: Later[];
  /** A rank to leave this block subtree for later, or undefined to segment it now. */
  defer?: (el: Element, hidden: boolean) => number | undefined;
}

/**
 * A unit of all of `el`'s content (a title, an option, a link of a list): its nodes at their exact
 * length (a list grown by push keeps room for 17 nodes, for as long as the page is translated).
 */
export function wholeUnit(el: Element, hidden: boolean): RangeUnit {
  return { kind: 'range', parent: el, nodes: kids(el).slice(), anchor: null, whole: true, hidden };
}

/** A run as the page holds it now: all of its element's content where it was that (a write may reorder or add nodes), else its nodes. */
export function runNow(u: RangeUnit): RangeUnit {
  return u.whole ? { ...u, nodes: kids(u.parent) } : u;
}

/** Whether any of the unit's own nodes is in the page still (false: the page removed them all). */
export function unitOnPage(u: Unit): boolean {
  if (u.kind === 'attr') return u.el.isConnected;
  if (u.kind === 'piece') return u.group.text.isConnected;
  for (const n of u.nodes) if (n.isConnected) return true;
  return false;
}

/** The unit's own nodes: what keeps it when set aside (follow.ts). */
export function unitNodes(u: Unit): readonly Node[] {
  return u.kind === 'attr' ? [u.el] : u.kind === 'piece' ? [u.group.text] : u.nodes;
}

/**
 * Where to look for a run again after a change: its nodes still in place (the change may have cut
 * it in two: a block added into one of its links, the part after the cut a unit of its own now),
 * else its parent; and those the page moved elsewhere, where they are now (a link taken out and
 * put back at the end of the page).
 */
export function runRoots(u: RangeUnit, into: Set<Node>): void {
  let inPlace = false;
  for (const n of u.nodes) {
    if (n.parentNode === u.parent) {
      into.add(n);
      inPlace = true;
    } else if (n.isConnected) into.add(n);
  }
  if (!inPlace) into.add(u.parent);
}

/** `inspect`'s bits of what the page says of an element's translation: no, yes, editable. */
const SAYS = BY_PAGE | SAYS_NO | SAYS_YES;

/**
 * What a unit holds, as one number: for a run, its nodes at any depth, what each of its elements
 * says of translation (`translate`, `.notranslate`, `contenteditable`) and the words of its texts
 * (a hash); and for every unit, whether what it sits in is left out by the page (`leftOut`; a text
 * piece's or an attribute's values the undo log reads). What the page changed out of the page,
 * where no change is seen, shows as another number (removals.ts `putBack`): a node added, a text
 * our write had left as it was (a `|` between two links) given new words, a part of a sentence
 * the page stopped saying no to, a panel it made editable.
 */
export function unitShape(u: Unit): number {
  const out = leftOut(u.kind === 'range' ? u.parent : u.kind === 'attr' ? u.el : u.group.text.parentElement) ? 1 : 0;
  if (u.kind !== 'range') return out;
  // FNV-1a over each node's type and each text's characters.
  let h = 0x811c9dc5 ^ out;
  const mix = (c: number) => {
    h = Math.imul(h ^ c, 0x01000193);
  };
  const walk = (n: Node) => {
    mix(n.nodeType);
    if (n.nodeType === 3) {
      const data = (n as Text).data;
      for (let i = 0; i < data.length; i++) mix(data.charCodeAt(i));
    } else if (n.nodeType === 1) mix(inspect(n as Element) & SAYS);
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
  };
  // A whole element's content is what its element holds now (the page may have added some), as
  // long as its nodes are there; once the page took them out (a link moved elsewhere), they are
  // what it held, wherever they went.
  if (u.whole && u.nodes.every((n) => n.parentNode === u.parent)) for (let c = u.parent.firstChild; c; c = c.nextSibling) walk(c);
  else for (const n of u.nodes) walk(n);
  return h >>> 0;
}

/**
 * Whether the page leaves `el`'s content out (segment.ts, kinds.ts `skipped`): the nearest
 * element that says no, or yes, decides; an editor anywhere above leaves it out. Up to the body,
 * whose own word does not count, or as far as a subtree out of the page goes (so the same unit
 * reads the same out of the page and put back).
 */
function leftOut(el: Element | ShadowRoot | null): boolean {
  let yes = false;
  for (let e = el?.nodeType === 1 ? (el as Element) : null; e && e !== e.ownerDocument.body; e = e.parentElement) {
    const bits = inspect(e);
    if (bits & BY_PAGE && !(yes && bits & SAYS_NO)) return true;
    if (bits & SAYS_YES) yes = true;
  }
  return false;
}

/** The element that stands for a unit on screen (for the viewport order). */
export function unitElement(u: Unit): Element | null {
  if (u.kind === 'attr') return u.el;
  if (u.kind === 'piece') return u.group.text.parentElement;
  if (!(u.parent instanceof Element)) return u.parent.host;
  // An SVG's title has no box of its own: what it names does.
  return u.parent.localName === 'title' && u.parent.namespaceURI === SVG_NS ? (u.parent.parentElement ?? u.parent) : u.parent;
}
