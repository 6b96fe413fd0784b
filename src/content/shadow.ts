/**
 * An element's shadow root, open or closed. A page script cannot reach a closed root, but an
 * extension's content script can (Chrome's `chrome.dom.openOrClosedShadowRoot`, Chrome 88+;
 * Firefox's `Element.openOrClosedShadowRoot`, exposed to content scripts only): a web component
 * that closes its root still shows the page's text, and a translated page should not keep it in
 * the original language.
 */

export type ShadowOf = (el: Element) => ShadowRoot | null;

type ClosedReader = (el: Element) => ShadowRoot | null | undefined;

interface ExtensionGlobals {
  chrome?: { dom?: { openOrClosedShadowRoot?: (el: Element) => ShadowRoot | null } };
}

/** What this browser gives a content script to read a closed root, if anything. */
export function closedReader(g: ExtensionGlobals = globalThis as ExtensionGlobals, proto: object | undefined = globalThis.Element?.prototype): ClosedReader | undefined {
  const chromeDom = g.chrome?.dom;
  if (typeof chromeDom?.openOrClosedShadowRoot === 'function') return (el) => chromeDom.openOrClosedShadowRoot!(el);
  if (proto && 'openOrClosedShadowRoot' in proto) return (el) => (el as Element & { openOrClosedShadowRoot: ShadowRoot | null }).openOrClosedShadowRoot;
  return undefined;
}

/**
 * `el.shadowRoot`, or its closed root where the browser lets us read it. Closed roots are asked
 * of custom elements only (a name with a hyphen: web components, which is where closed roots
 * are used): the extension API costs a call through the bindings, too much for every `div` and
 * `span` of a long page, which may host a root too but seldom do. Our own overlays (closed roots
 * too) live outside `<body>`, which is never walked.
 */
export function shadowReader(read: ClosedReader | undefined = closedReader()): ShadowOf {
  if (!read) return (el) => el.shadowRoot;
  return (el) => {
    const open = el.shadowRoot;
    if (open || !el.localName.includes('-')) return open;
    try {
      return read(el) ?? null;
    } catch {
      // Chrome's API refuses what is not an HTMLElement (an SVG or MathML element with a hyphen).
      return null;
    }
  };
}

/**
 * The node an event happened on, inside an open shadow root too: a listener on the document is
 * given the host as `target` (events are retargeted at each shadow boundary). A closed root's
 * inside stays hidden from the path as well, so there it is still the host.
 */
export function eventTarget(e: Event): EventTarget | null {
  return e.composedPath()[0] ?? e.target;
}

/** The focused element, inside open shadow roots too (the document's `activeElement` is their host). */
export function deepActive(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether `n` is in the body of `doc`, counting the hosts of the shadow roots it is in. */
export function inBody(doc: Document, n: Node): boolean {
  let top = n;
  for (let root = top.getRootNode(); root instanceof ShadowRoot; root = top.getRootNode()) top = root.host;
  return !!doc.body?.contains(top);
}
