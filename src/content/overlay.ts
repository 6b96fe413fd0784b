import { htmlElement } from '../ui/shared/html-element';

/**
 * Our elements in a page (progress indicator, chooser of alternatives, hover button): a host
 * appended to <html>, outside <body> (so body.innerHTML never shows it), with a closed shadow root
 * (page scripts cannot reach in) whose stylesheet starts from `:host{all:initial}` so no page CSS
 * leaks in and none of ours leaks out. None of them is printed: a page printed while the
 * indicator says "Retry" prints the page.
 */
export function overlayHost(doc: Document, tag: string, css: string, ...content: Node[]): HTMLElement {
  const host = htmlElement(doc, tag);
  const root = host.attachShadow({ mode: 'closed' });
  const style = htmlElement(doc, 'style');
  style.textContent = css + NOT_PRINTED;
  root.append(style, ...content);
  doc.documentElement.append(host);
  return host;
}

/** Last in an overlay's stylesheet (the selection bubble's has its own): what wins over its `:host{all:initial}` when printing. */
const NOT_PRINTED = '@media print{:host{display:none!important}}';

/** Where an overlay's box goes beside what it is about, in viewport pixels: `top` or `bottom` (it grows from there), `left`, and its limits. */
export interface Placement {
  top?: number;
  bottom?: number;
  left: number;
  maxHeight: number;
  maxWidth: number;
}

const GAP = 4;
/** The chooser's widest box (28rem at the usual 16 px). */
const WIDTH = 448;
/** Less room than this beside the paragraph (one that fills the screen): the box goes over it, at the top. */
const LEAST = 120;

/**
 * A box at most `width` wide beside `r` (a paragraph, a selection) in a `w`×`h` viewport, all of
 * it in view whatever it grows to as translations come (it scrolls inside): under `r` where half
 * the viewport fits there, else over it where that fits, else on the side with more room; over
 * `r` at the top when neither side has room. The chooser guessed 200 px and put a paragraph's
 * four translations past the bottom of the screen; the selection bubble always went under.
 */
export function placeBox(r: { top: number; bottom: number; left: number }, w: number, h: number, width = WIDTH): Placement {
  const want = Math.round(h / 2);
  const maxWidth = Math.min(width, Math.round(w * 0.9), w - 2 * GAP);
  const left = Math.round(Math.max(GAP, Math.min(r.left, w - maxWidth - GAP)));
  const below = h - Math.max(r.bottom, 0) - 2 * GAP;
  const above = Math.min(r.top, h) - 2 * GAP;
  if (below >= want || (below >= above && below >= LEAST)) return { top: Math.round(Math.max(r.bottom, 0) + GAP), left, maxHeight: Math.min(want, below), maxWidth };
  if (above >= LEAST) return { bottom: Math.round(h - Math.min(r.top, h) + GAP), left, maxHeight: Math.min(want, above), maxWidth };
  return { top: GAP, left, maxHeight: want, maxWidth };
}

/**
 * The part of the viewport an overlay can use: without its scrollbars (a classic scrollbar takes
 * 15 px of `innerWidth` on Linux and Windows), from the element that reports it (the root, or the
 * body in quirks mode: CSSOM's `clientWidth`); `innerWidth` and `innerHeight` where neither does.
 */
export function viewportSize(doc: Document): { w: number; h: number } {
  const root = doc.compatMode === 'BackCompat' ? doc.body : doc.documentElement;
  const win = doc.defaultView;
  return { w: root?.clientWidth || win?.innerWidth || 1024, h: root?.clientHeight || win?.innerHeight || 800 };
}
