export const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * An HTML element made for a page, whatever kind of document it is. `createElement` makes an HTML
 * element only in an HTML document (or one served as `application/xhtml+xml`): in a document
 * served as XML (an XHTML page sent as `application/xml`, Chromium's view of an XML file, an SVG
 * image) it makes an element of no namespace, which has no `style`, is no button, and cannot host a
 * shadow root (`attachShadow` threw, and a translation asked there never ended).
 */
export function htmlElement<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K): HTMLElementTagNameMap[K];
export function htmlElement(doc: Document, tag: string): HTMLElement;
export function htmlElement(doc: Document, tag: string): HTMLElement {
  return doc.createElementNS(HTML_NS, tag) as HTMLElement;
}
