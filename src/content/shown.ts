/**
 * A document the browser prerenders (speculation rules, the address bar) runs its scripts, ours
 * too, before the user goes to it, and perhaps for a page never gone to. What depends on the page
 * being the tab's (asking the background whether to translate it: the background knows a tab by
 * its frame 0, which a prerendered page is not yet) waits until it is shown.
 */
export function whenShown(doc: Document, run: () => void): void {
  if ((doc as Document & { prerendering?: boolean }).prerendering === true) doc.addEventListener('prerenderingchange', () => run(), { once: true });
  else run();
}
