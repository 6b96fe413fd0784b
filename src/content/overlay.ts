/**
 * Our elements in a page (progress indicator, chooser of alternatives, hover button): a host
 * appended to <html>, outside <body> (so body.innerHTML never shows it), with a closed shadow root
 * (page scripts cannot reach in) whose stylesheet starts from `:host{all:initial}` so no page CSS
 * leaks in and none of ours leaks out. None of them is printed: a page printed while the
 * indicator says "Retry" prints the page.
 */
export function overlayHost(doc: Document, tag: string, css: string, ...content: Node[]): HTMLElement {
  const host = doc.createElement(tag);
  const root = host.attachShadow({ mode: 'closed' });
  const style = doc.createElement('style');
  style.textContent = css + NOT_PRINTED;
  root.append(style, ...content);
  doc.documentElement.append(host);
  return host;
}

/** Last in an overlay's stylesheet (the selection bubble's has its own): what wins over its `:host{all:initial}` when printing. */
const NOT_PRINTED = '@media print{:host{display:none!important}}';
