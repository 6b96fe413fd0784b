import { htmlElement } from '../ui/shared/html-element';
import { deepActive, deepAt } from './shadow';

/**
 * Our elements in a page (progress indicator, chooser of alternatives, hover button): a host
 * appended to <html>, outside <body> (so body.innerHTML never shows it; over a modal dialog of the
 * page, inside it: `putOverlay`), with a closed shadow root
 * (page scripts cannot reach in) whose stylesheet starts from `:host{all:initial}` so no page CSS
 * leaks in and none of ours leaks out. None of them is printed: a page printed while the
 * indicator says "Retry" prints the page.
 */
export function overlayHost(doc: Document, tag: string, css: string, near: Node | null, ...content: Node[]): HTMLElement {
  const host = htmlElement(doc, tag);
  const root = host.attachShadow({ mode: 'closed' });
  const style = htmlElement(doc, 'style');
  style.textContent = css + NOT_PRINTED;
  root.append(style, ...content);
  putOverlay(host, near);
  return host;
}

/**
 * Appends an overlay's `host` where the user can see and use it. A modal dialog the page opened
 * (`showModal`) is drawn over the page with its backdrop, and makes everything outside it inert:
 * on <html>, the bubble for a sentence selected in the dialog, or the chooser and the hover button
 * of a paragraph in it, were drawn under the backdrop, and their buttons did nothing. So does an
 * element the page shows fullscreen. A popover of the page (a menu) is over them too, and a click
 * outside it (on our button beside it) closes it; a dialog a script makes of a `<div>` holds the
 * focus in it (`isDialogRole`). There an overlay about something (`near`: a
 * selection, a paragraph) goes inside the dialog (or that element) `near` is in, else the last one open, and
 * into the top layer as a manual popover: over the dialog, and not cut by its box. The indicator,
 * about the whole page, goes in the dialog the focus is in (`pageTop`), and back on <html> as
 * the focus leaves it (indicator.ts). Put again (the hover button, paragraph after paragraph,
 * the indicator at each report), it moves only if its place changed. Returns whether it is in
 * such an element.
 */
export function putOverlay(host: HTMLElement, near: Node | null): boolean {
  OVERLAYS.add(host);
  const doc = host.ownerDocument;
  const over = near ? overPage(doc, near) : null;
  const parent = over ?? doc.documentElement;
  if (host.parentNode !== parent) {
    parent.append(host);
    if (over) host.setAttribute('popover', 'manual');
    else host.removeAttribute('popover');
  }
  // The indicator, in a corner, grows with the page's zoom; and it is made on the trigger's path,
  // where reading a zoom could cost the page a style pass.
  if (near) unzoom(host, parent);
  if (!over) return false;
  try {
    if (!host.matches(':popover-open')) host.showPopover();
  } catch {
    // Its document not rendered: where it is, as it is.
  }
  return true;
}

/**
 * What an overlay about the whole page (the indicator) goes in (`putOverlay`), read at each of its
 * reports, so cheaply: the page's dialog the focus is in, a modal `<dialog>` (it makes all else
 * inert) or a script's (`isDialogRole`: its focus trap stops a click outside it, `focus-trap`'s);
 * else the last of the modal dialogs `opened` that is still open and modal (one that opened with
 * the focus left outside it: `ModalWatch`); else the element shown fullscreen; null where there is
 * none (it stays on <html>).
 */
export function pageTop(doc: Document, opened: readonly Element[] = []): Element | null {
  return upShown(deepActive(doc), (e) => isOver(e) && !e.matches(':popover-open')) ?? opened.findLast(isOpenModal) ?? shownFullscreen(doc);
}

/** A `<dialog>` shown modal (`showModal`), in the page. */
const isOpenModal = (el: Element): boolean => {
  try {
    return el.isConnected && el.matches(':modal');
  } catch {
    return false;
  }
};

/** A `<dialog>` shown modal: `:modal` is also the element shown fullscreen. */
const isModalDialog = (el: Element): boolean => el.localName === 'dialog' && isOpenModal(el);

/**
 * The modal dialogs of a document that are open, the newest last (`opened`), kept while an overlay
 * about the whole page is shown (the indicator): those open when it starts, then each as its
 * `toggle` event says (Chromium 132, Firefox 133). A modal dialog takes the focus in as it
 * opens, but a script may blur it at once (so that no button of it shows a focus ring, or a phone
 * opens no keyboard): the focus then is on <body>, inert behind the dialog, and the indicator,
 * placed by the focus, stayed under the backdrop, its Stop dead. `onChange` runs after each.
 *
 * A dialog in a component's shadow root (a consent banner's web component) says nothing outside
 * it: its `toggle` does not leave the root, and the document's query does not look in. One that
 * opens is seen as the focus goes into it (`focusin` leaves every root); one open when the
 * indicator starts, by what is at the viewport's middle a task later (its backdrop covers the
 * rest; one hit test, read where the layout is clean, not on the trigger's path), only when the
 * query found none. Each such dialog is then listened to for its own `toggle`.
 */
export class ModalWatch {
  opened: Element[] = [];
  private readonly ac = new AbortController();

  constructor(
    private readonly doc: Document,
    private readonly onChange: () => void,
  ) {
    try {
      this.opened = [...doc.getElementsByTagName('dialog')].filter(isOpenModal);
    } catch {
      // No `:modal` in this browser: nothing is modal.
    }
    const { signal } = this.ac;
    doc.addEventListener('toggle', this.toggled, { capture: true, signal });
    doc.addEventListener('focusin', () => this.add(upShown(deepActive(doc), isModalDialog)), { capture: true, signal });
    if (this.opened.length === 0) {
      setTimeout(() => {
        if (signal.aborted || typeof doc.elementFromPoint !== 'function') return;
        const { w, h } = viewportSize(doc);
        this.add(upShown(deepAt(doc, w / 2, h / 2), isModalDialog));
      });
    }
  }

  private readonly toggled = (e: Event): void => {
    const d = e.target;
    if (!(d instanceof Element) || d.localName !== 'dialog') return;
    this.opened = this.opened.filter((m) => m !== d && m.isConnected);
    if ((e as ToggleEvent).newState === 'open' && isOpenModal(d)) this.opened.push(d);
    this.onChange();
  };

  /** A modal dialog found open by the focus or a hit test, not by its `toggle` (in a shadow root). */
  private add(d: Element | null): void {
    if (!d || this.opened.includes(d)) return;
    this.opened.push(d);
    if (d.getRootNode() !== this.doc) d.addEventListener('toggle', this.toggled, { signal: this.ac.signal });
    this.onChange();
  }

  stop(): void {
    this.ac.abort();
    this.opened = [];
  }
}

/** Set on a host (`unzoom`): an overlay's box is zoomed by it, `zoom: var(--polyglot-zoom, 1)`. */
const ZOOM_VAR = '--polyglot-zoom';

/**
 * A page that zooms its root (`html { zoom: 1.5 }`, a dashboard fitting its screen) zooms all
 * inside it, ours too: the boxes placed by the paragraph's viewport rectangle landed half as far
 * again, at the wrong paragraph, and half as big again. Each overlay's stylesheet zooms its box
 * by `--polyglot-zoom`, the inverse of where its host is (`currentCSSZoom`: Chromium 128, Firefox
 * 126); a custom property, which the host's `all: initial` leaves as it is.
 */
function unzoom(host: HTMLElement, parent: Element): void {
  const k = (parent as Element & { currentCSSZoom?: number }).currentCSSZoom;
  if (k && k !== 1) host.style.setProperty(ZOOM_VAR, String(1 / k));
  else host.style.removeProperty(ZOOM_VAR);
}

/**
 * Whether `e` happened in the overlay `host`: by the event's path, as a listener on the document
 * is given a component's host as the target where the overlay is in its shadow root (over its
 * dialog), and ours is closed.
 */
export function within(e: Event, host: Element | null): boolean {
  return host !== null && e.composedPath().includes(host);
}

/**
 * Esc pressed in `doc` (until `signal` aborts), seen before the page's scripts see it: on the
 * window's capture phase. On the document's, Radix's dialog (shadcn/ui's) saw it first and closed.
 */
export function onEscape(doc: Document, fn: (e: KeyboardEvent) => void, signal: AbortSignal): void {
  const on = (e: Event) => (e as KeyboardEvent).key === 'Escape' && fn(e as KeyboardEvent);
  (doc.defaultView ?? doc).addEventListener('keydown', on, { capture: true, signal });
}

/** Every overlay host made, also once taken out of the page. */
const OVERLAYS = new WeakSet<Node>();

/** Whether `n` is one of our overlays' hosts: never the page's, where it is (its body, over a dialog). */
export const isOverlay = (n: Node): boolean => OVERLAYS.has(n);

/**
 * A record of nothing but our overlays put in or taken out of the page (over a dialog of the
 * page, its body is where they are): not the page's change. Before, the hover button put beside
 * a dialog's words made that dialog's unit look changed by the page, and it was sent again.
 */
export function onlyOverlays(r: MutationRecord): boolean {
  if (r.type !== 'childList') return false;
  const { addedNodes: added, removedNodes: removed } = r;
  if (added.length + removed.length === 0) return false;
  for (let i = 0; i < added.length; i++) if (!OVERLAYS.has(added[i]!)) return false;
  for (let i = 0; i < removed.length; i++) if (!OVERLAYS.has(removed[i]!)) return false;
  return true;
}

/** Elements that hold nothing that shows: a video, a frame or an image shown fullscreen. */
const REPLACED = new Set(['video', 'audio', 'iframe', 'img', 'canvas', 'embed', 'object', 'svg']);

/** A modal dialog, or a popover the page shows (a menu, a tooltip): in the top layer, over our overlays on <html>. */
const isOver = (n: Node): n is Element => {
  try {
    return n instanceof Element && ((n.localName === 'dialog' && n.matches(':modal')) || n.matches(':popover-open') || isDialogRole(n));
  } catch {
    return false;
  }
};

/** `role="dialog"` or `"alertdialog"` (the first of its tokens, as ARIA reads it). */
const DIALOG_ROLE = /^\s*(?:alert)?dialog(?:\s|$)/;

/**
 * A dialog the page makes of a `<div>` and says so (Bootstrap's modal, MUI's, Radix's, Headless
 * UI's, a11y-dialog, Angular CDK's): its script holds the focus in it (a focus trap) and takes a
 * press outside it for "close", or blocks it. On <html>, the focus our chooser and bubble took
 * was pulled back into the dialog at once (the keyboard then pressed the dialog's buttons, and Esc
 * closed the dialog with our chooser), and with the `focus-trap` library a click on our buttons
 * was stopped before it reached them: the hover button opened nothing. Inside it, they are in it.
 */
const isDialogRole = (el: Element): boolean => el.getAttribute('aria-modal') === 'true' || DIALOG_ROLE.test(el.getAttribute('role') ?? '');

/**
 * The open modal dialog, fullscreen element, popover or dialog of the page's own making
 * (`isDialogRole`) an overlay about `near` goes in (`putOverlay`), if any: the nearest one `near`
 * is in, else the last modal dialog open, else the fullscreen element.
 */
function overPage(doc: Document, near: Node): Element | null {
  // Without the top layer for our host (a browser before popovers), inside the dialog it would be
  // cut by its box: on <html> as before.
  if (typeof doc.documentElement.showPopover !== 'function') return null;
  const full = shownFullscreen(doc);
  const over = upShown(near, (e) => e === full || isOver(e));
  if (over) return over;
  let modals: Element[] = [];
  try {
    modals = [...doc.querySelectorAll('dialog:modal')];
  } catch {
    // No `:modal` in this browser.
  }
  return modals[modals.length - 1] ?? full;
}

/** The element the page shows fullscreen, unless it holds nothing that shows (`REPLACED`). */
function shownFullscreen(doc: Document): Element | null {
  const full = doc.fullscreenElement;
  return full && !REPLACED.has(full.localName) ? full : null;
}

/**
 * The first element `test` accepts from `n` up the tree as it is shown: into the slot it is shown
 * in (a component's dialog in its open shadow root showing the page's words), out of shadow roots.
 */
function upShown(n: Node | null, test: (e: Element) => boolean): Element | null {
  for (; n; n = (n as Partial<Slottable>).assignedSlot ?? n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (n instanceof Element && test(n)) return n;
  }
  return null;
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
  const { below, above } = roomAround(r, h);
  if (below >= want || (below >= above && below >= LEAST)) return { top: Math.round(Math.max(r.bottom, 0) + GAP), left, maxHeight: Math.min(want, below), maxWidth };
  if (above >= LEAST) return { bottom: Math.round(h - Math.min(r.top, h) + GAP), left, maxHeight: Math.min(want, above), maxWidth };
  return { top: GAP, left, maxHeight: want, maxWidth };
}

/** The height a box has under `r` and over it in a viewport `h` high, its gaps taken. */
export function roomAround(r: { top: number; bottom: number }, h: number): { below: number; above: number } {
  return { below: h - Math.max(r.bottom, 0) - 2 * GAP, above: Math.min(r.top, h) - 2 * GAP };
}

/**
 * Whether `doc`'s viewport holds a box `width` wide (the chooser's widest by default) beside `r`,
 * at that full width, with `room` under or over it: else a frame's box is shown by the top frame
 * (content/lift.ts).
 */
export function holdsBox(doc: Document, r: { top: number; bottom: number; left: number }, room: number, width = WIDTH): boolean {
  const { w, h } = viewportSize(doc);
  const { below, above } = roomAround(r, h);
  return placeBox(r, w, h, width).maxWidth >= width && Math.max(below, above) >= room;
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
