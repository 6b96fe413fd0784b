/**
 * Shadow roots attached after the walk met their host without one. A custom element that attaches
 * its root on some event after its upgrade, or an empty `<div>` a widget's script renders into once
 * it loads, changes nothing in the light DOM: no MutationObserver hears of it, and the root's text
 * would stay in the original language on a page that says "translated". (A custom element waiting
 * for its definition is upgrades.ts's: the registry says when.)
 *
 * What a root shows changes its host's box (an empty block grows from 0 px high), so the hosts that
 * may get one (shadow.ts `mayHost`) and lay out as a box are watched with a ResizeObserver, and each
 * whose size changed is asked for its root again. Not found this way: a host whose box does not
 * change (a slot sized by the page's CSS beforehand), and a host laid out inline (a custom element
 * the page's CSS gives no display, until its root's own `:host` rule does), whose size a
 * ResizeObserver does not report.
 */

/** Sizes watched: a callback told the elements whose box changed (the first time: all of them). */
export type SizeWatch = (changed: (els: readonly Element[]) => void) => {
  observe(el: Element): void;
  unobserve(el: Element): void;
  disconnect(): void;
};

/** `SizeWatch` by the browser's ResizeObserver. */
export const resizeWatch: SizeWatch = (changed) => {
  const ro = new ResizeObserver((entries) => changed(entries.map((e) => e.target)));
  return { observe: (el) => ro.observe(el), unobserve: (el) => ro.unobserve(el), disconnect: () => ro.disconnect() };
};

/**
 * Hosts watched at most. The observer checks every target's size at each frame while the page is
 * translated: measured in Chromium on a page animated by a transform (so no layout), 4.7-5.4 ms
 * of main thread per frame with none watched, 4.5-5.2 with 1 000 or 2 000, 5.3-5.6 with 5 000.
 * The largest saved page has 1 051 empty elements that could host a root.
 */
const MAX_WATCHED = 2_000;

export interface LateRootsOptions {
  /** An element's shadow root, open or closed (shadow.ts). */
  shadow: (el: Element) => ShadowRoot | null;
  /** Told the watched hosts that have a root now (each once: it is no longer watched). */
  rooted: (hosts: Element[]) => void;
  sizes?: SizeWatch;
  /** Runs the look at changed hosts (the page's DOM timer). */
  timed?: (fn: () => void) => void;
}

export class LateRoots {
  private readonly watched = new Set<Element>();
  private watch: ReturnType<SizeWatch> | null = null;

  constructor(private readonly opts: LateRootsOptions) {}

  /** Watches `el` until it has a root, or until `stop`. */
  add(el: Element): void {
    if (this.watched.has(el) || this.watched.size >= MAX_WATCHED) return;
    this.watch ??= (this.opts.sizes ?? resizeWatch)((els) => this.changed(els));
    this.watched.add(el);
    this.watch.observe(el);
  }

  /** Stops watching everything (restore). */
  stop(): void {
    this.watch?.disconnect();
    this.watch = null;
    this.watched.clear();
  }

  private changed(els: readonly Element[]): void {
    const hosts: Element[] = [];
    const look = () => {
      for (const el of els) {
        if (!this.watched.has(el)) continue;
        // A host the page took out is let go: one it puts back is walked again as added content.
        if (!el.isConnected || this.opts.shadow(el)) {
          this.watched.delete(el);
          this.watch?.unobserve(el);
          if (el.isConnected) hosts.push(el);
        }
      }
    };
    if (this.opts.timed) this.opts.timed(look);
    else look();
    if (hosts.length) this.opts.rooted(hosts);
  }
}
