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

export interface DefinitionsOptions {
  /** Whether an element waits for its definition (default `awaitsDefinition`). */
  waits?: (el: Element) => boolean;
  /** Whether definitions are still wanted (the page translated); a name defined otherwise is left waiting. */
  active: () => boolean;
  /** Told the elements of a name just defined, each once. */
  defined: (els: Element[]) => void;
}

/**
 * The isolated world's side: custom elements the walk met before their definition, by name. The
 * page's world is asked once per name; when it says a name is defined, `defined` is told the
 * elements of that name the registry did upgrade (an event the page sends early leaves the rest
 * waiting, and the page can make us look at nothing else). Until `stop`.
 */
export class Definitions {
  private readonly hosts = new Map<string, Set<Element>>();
  private listening: AbortController | null = null;
  private readonly waits: (el: Element) => boolean;

  constructor(
    private readonly doc: Document,
    private readonly opts: DefinitionsOptions,
  ) {
    this.waits = opts.waits ?? awaitsDefinition;
  }

  /** Follows `el` until its definition comes, if it waits for one; false if it does not. */
  wait(el: Element): boolean {
    if (!this.waits(el)) return false;
    const name = el.localName;
    const hosts = this.hosts.get(name);
    if (hosts) {
      hosts.add(el);
      return true;
    }
    this.hosts.set(name, new Set([el]));
    if (!this.listening) {
      this.listening = new AbortController();
      this.doc.addEventListener(UPGRADED, (e) => this.arrived((e as CustomEvent<unknown>).detail), { signal: this.listening.signal });
    }
    this.doc.dispatchEvent(new CustomEvent(ASK_UPGRADE, { detail: name }));
    return true;
  }

  stop(): void {
    this.listening?.abort();
    this.listening = null;
    this.hosts.clear();
  }

  private arrived(name: unknown): void {
    if (typeof name !== 'string' || !this.opts.active()) return;
    const hosts = this.hosts.get(name);
    if (!hosts) return;
    const ready = [...hosts].filter((el) => !this.waits(el));
    for (const el of ready) hosts.delete(el);
    if (hosts.size === 0) this.hosts.delete(name);
    this.opts.defined(ready);
  }
}
