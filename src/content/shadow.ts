/**
 * An element's shadow root, open or closed. A page script cannot reach a closed root, but an
 * extension's content script can (Chrome's `chrome.dom.openOrClosedShadowRoot`, Chrome 88+;
 * Firefox's `Element.openOrClosedShadowRoot`, exposed to content scripts only): a web component
 * that closes its root still shows the page's text, and a translated page should not keep it in
 * the original language.
 */

export type ShadowOf = (el: Element) => ShadowRoot | null;

/**
 * Reads an element's root, open or closed. `everywhere`: it costs what `el.shadowRoot` does (a
 * DOM property, not an extension API call), so every element is asked.
 */
type ClosedReader = ((el: Element) => ShadowRoot | null | undefined) & { everywhere?: boolean };

interface ExtensionGlobals {
  chrome?: { dom?: { openOrClosedShadowRoot?: (el: Element) => ShadowRoot | null } };
}

/** What this browser gives a content script to read a closed root, if anything. */
export function closedReader(g: ExtensionGlobals = globalThis as ExtensionGlobals, proto: object | undefined = globalThis.Element?.prototype): ClosedReader | undefined {
  const chromeDom = g.chrome?.dom;
  if (typeof chromeDom?.openOrClosedShadowRoot === 'function') return (el) => chromeDom.openOrClosedShadowRoot!(el);
  // Firefox's is a property of every element, read as fast as `shadowRoot` (~0.35 µs an element
  // on aows-nba, the same as `shadowRoot` in the same content script).
  if (proto && 'openOrClosedShadowRoot' in proto) {
    return Object.assign((el: Element) => (el as Element & { openOrClosedShadowRoot: ShadowRoot | null }).openOrClosedShadowRoot, { everywhere: true });
  }
  return undefined;
}

/**
 * The elements that can host a shadow root besides custom elements (`attachShadow` throws on any
 * other): the DOM standard's list.
 */
const HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

/**
 * Whether `el` is where a closed root is looked for, and where a root may come later: a custom
 * element (a web component), or an empty element of the standard's list (a widget's mount point, a
 * `<div>` a script renders into: having no children of its own, it shows only its root). An
 * element with children and a closed root too is not looked into: the extension API costs a call
 * through the bindings (~3 µs), too much for every `div` and `span` of a long page (38 000
 * elements on the largest saved page; 1 051 of them are empty and could host one).
 */
export function mayHost(el: Element): boolean {
  const name = el.localName;
  return name.includes('-') || (HOSTS.has(name) && el.firstChild === null);
}

/**
 * A shadow reader (`ShadowOf`), and `lookInto`: whether `el` (any element) has a closed root we
 * can read; if so, the reader reads it from now on. Asked where the page shows that a host has
 * one: a child of it with no computed style (Chrome computes none for a node its host's root does
 * not show; Firefox does, and finds none this way).
 */
export type ShadowReader = ShadowOf & { lookInto: (el: Element) => boolean };

/**
 * `el.shadowRoot`, or its closed root where the browser lets us read it, asked only where a closed
 * root is looked for (`mayHost`, or a host `lookInto` found), or of every element where that costs
 * no more than `shadowRoot` (Firefox: a closed root over content of its host's own is found
 * there too). Our own overlays (closed roots too) live outside `<body>`, which is never walked.
 */
export function shadowReader(read: ClosedReader | undefined = closedReader()): ShadowReader {
  if (!read) return Object.assign((el: Element) => el.shadowRoot, { lookInto: () => false });
  if (read.everywhere) return Object.assign((el: Element) => read(el) ?? null, { lookInto: () => false });
  const readClosed = (el: Element): ShadowRoot | null => {
    try {
      return read(el) ?? null;
    } catch {
      // Chrome's API refuses what is not an HTMLElement (an SVG or MathML element with a hyphen).
      return null;
    }
  };
  // Hosts with children of their own whose closed root `lookInto` found.
  const found = new WeakSet<Element>();
  const shadow = (el: Element): ShadowRoot | null => {
    const open = el.shadowRoot;
    if (open || !(mayHost(el) || found.has(el))) return open;
    return readClosed(el);
  };
  const lookInto = (el: Element): boolean => {
    if (el.shadowRoot || !readClosed(el)) return false;
    found.add(el);
    return true;
  };
  return Object.assign(shadow, { lookInto });
}

/** This browser's reader of shadow roots, made once for the content script. */
let shared: ShadowReader | undefined;
export const pageShadow: ShadowReader = Object.assign((el: Element) => (shared ??= shadowReader())(el), {
  lookInto: (el: Element) => (shared ??= shadowReader()).lookInto(el),
});

/** Closed roots deeper than this are not looked into (a page nesting components without end). */
const MAX_ROOTS = 32;

/**
 * The node an event happened on, inside shadow roots too: a listener on the document is given the
 * host as `target` (events are retargeted at each shadow boundary). An open root's inside is in
 * the event's composed path; a closed root's is not, so for a pointer event the element at its
 * point inside a closed root we can read (`shadow`) is asked of that root.
 */
export function eventTarget(e: Event, shadow: ShadowOf = pageShadow): EventTarget | null {
  const target = e.composedPath()[0] ?? e.target;
  if (!(e instanceof MouseEvent) || !(target instanceof Element) || target.shadowRoot) return target;
  return intoRoots(target, e.clientX, e.clientY, shadow);
}

/**
 * The element at a point of `doc`'s viewport, inside shadow roots too: open ones, and closed ones
 * we can read (`shadow`). The document's `elementFromPoint` gives a root's host.
 */
export function deepAt(doc: Document, x: number, y: number, shadow: ShadowOf = pageShadow): Element | null {
  const hit = doc.elementFromPoint(x, y);
  return hit && intoRoots(hit, x, y, shadow);
}

/** From `target` (a host), the element at the point inside the roots we can read (`shadow`: open ones, closed ones where allowed), as deep as they go. */
function intoRoots(target: Element, x: number, y: number, shadow: ShadowOf): Element {
  for (let i = 0; i < MAX_ROOTS; i++) {
    const inner = shadow(target)?.elementFromPoint(x, y);
    // Nothing of the root's own there (a slotted child of the host's is retargeted to the host).
    if (!inner || inner === target) break;
    target = inner;
  }
  return target;
}

/**
 * The focused element, inside shadow roots too (the document's `activeElement` is their host):
 * open ones, and closed ones we can read (`shadow`).
 */
export function deepActive(doc: Document, shadow: ShadowOf = pageShadow): Element | null {
  let active = doc.activeElement;
  for (let i = 0; i < MAX_ROOTS && active; i++) {
    const inner = (active.shadowRoot ?? shadow(active))?.activeElement;
    if (!inner) break;
    active = inner;
  }
  return active;
}

/** Whether `n` is in the body of `doc`, counting the hosts of the shadow roots it is in. */
export function inBody(doc: Document, n: Node): boolean {
  let top = n;
  for (let root = top.getRootNode(); root instanceof ShadowRoot; root = top.getRootNode()) top = root.host;
  return !!doc.body?.contains(top);
}
