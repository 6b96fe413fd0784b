/**
 * Web components defined after the page was segmented. A custom element whose definition is not
 * loaded yet has no shadow root: the walk finds nothing in it. When its script arrives (a module
 * loaded late, a component registered on first use), the upgrade attaches the root and renders
 * into it, and no MutationObserver hears of it (nothing in the light DOM changes), so its text
 * would stay in the original language on a page that says "translated".
 *
 * The isolated world a content script runs in has no `customElements` in Chrome, so a tiny script
 * in the page's world (main-world.ts, declared with `"world": "MAIN"`) answers the question for
 * us: asked for a name, it waits on the page's registry (`customElements.whenDefined`) and says
 * when it is defined. It only listens and answers; it patches nothing of the page's. Both sides
 * speak through events on the document, which the page can see and send too: an answer is only
 * a hint to look at the elements of that name we are waiting for (the page can send nothing
 * that makes us read or write anything else).
 */

/** Isolated world -> page world: "tell me when this custom element name is defined" (detail: the name). */
export const ASK_UPGRADE = 'polyglot-translate:when-defined';
/** Page world -> isolated world: "this name is defined now" (detail: the name). */
export const UPGRADED = 'polyglot-translate:defined';

interface Registry {
  whenDefined(name: string): Promise<unknown>;
}

/**
 * The page world's side: answers each name once it is defined (at once if it is already), one
 * wait per name at a time. A name that is not a valid custom element name is refused by the
 * registry and answered never.
 */
export function serveUpgrades(doc: Document, registry: Registry | null | undefined): void {
  if (!registry) return;
  // Taken at document_start, before the page's scripts: a page that later replaces these globals
  // (an old CustomEvent polyfill, a patched registry) does not change what we call.
  const whenDefined = registry.whenDefined.bind(registry);
  const Custom = CustomEvent;
  const dispatch = doc.dispatchEvent.bind(doc);
  const waiting = new Set<string>();
  doc.addEventListener(ASK_UPGRADE, (e) => {
    const name = (e as CustomEvent<unknown>).detail;
    if (typeof name !== 'string' || waiting.has(name)) return;
    waiting.add(name);
    whenDefined(name).then(
      () => {
        waiting.delete(name);
        dispatch(new Custom(UPGRADED, { detail: name }));
      },
      () => undefined,
    );
  });
}

/** Whether `el` is a custom element waiting for its definition (a name with a hyphen, not `:defined`). */
export function awaitsDefinition(el: Element): boolean {
  return el.localName.includes('-') && !el.matches(':defined');
}
