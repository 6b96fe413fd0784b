/**
 * The hover affordance for alternatives in place: the mouse resting on a translated paragraph for
 * half a second shows a small button by the end of its first line (its top right corner; top left
 * in a right-to-left paragraph), and clicking it opens the chooser as
 * Alt+click does (which stays, with the keyboard shortcut). Shown when the chooser has something
 * to show (the paragraph's original in replace mode; in bilingual mode, where the original is on
 * the page, a button that hides the translation), and named for it, and the options allow it (`ui:page`
 * hoverButton, default on); hidden when the pointer leaves both the paragraph and the button, on a
 * scroll, on a press elsewhere, when the chooser opens and on restore. Touch and pen have no
 * hover: they never show it. An overlay host (overlay.ts), like the chooser.
 */
import { t } from '../ui/shared/i18n';
import { overlayHost, putOverlay, viewportSize, within } from './overlay';
import { eventTarget } from './shadow';
import { plainTextPre } from './tags';
import { htmlElement } from '../ui/shared/html-element';

export const HOVER_TAG = 'polyglot-hover';

const SIZE = 24;

const CSS =
  ':host{all:initial!important}' +
  `button{position:fixed;z-index:2147483647;width:${SIZE}px;height:${SIZE}px;margin:0;padding:0;box-sizing:border-box;zoom:var(--polyglot-zoom,1);` +
  'font:14px/1 system-ui,sans-serif;color:#202124;background:#fff;border:1px solid #999;border-radius:50%;' +
  'box-shadow:0 1px 4px #0004;cursor:pointer;opacity:.85}button:hover,button:focus-visible{opacity:1}' +
  '@media (prefers-color-scheme:dark){button{color:#e8eaed;background:#202124;border-color:#666}}';

export interface HoverActions {
  /** The element showing the translated unit at `node`; null where there is none. */
  translatedAt(node: Node): Element | null;
  /** What the chooser offers beside the other routes: the original hidden by its translation, or hiding the translation (no button when nothing). */
  offers(at?: Element): 'original' | 'hide' | null;
}

export interface HoverChooser {
  open(node: Node): boolean;
}

export interface HoverOptions {
  /** Whether the user wants the button (the options' setting); read each time it would show. */
  enabled?: () => Promise<boolean>;
  /** How long the mouse rests on a paragraph before the button shows. */
  dwellMs?: number;
  /** How long the button stays once the pointer has left the paragraph (time to reach it). */
  graceMs?: number;
}

export class HoverButton {
  private host: HTMLElement | null = null;
  private button: HTMLButtonElement | null = null;
  /** The unit the button is shown for, the one the pointer is resting on, and the node under it. */
  private shownFor: Element | null = null;
  private resting: Element | null = null;
  private target: Node | null = null;
  private dwell: ReturnType<typeof setTimeout> | undefined;
  private leave: ReturnType<typeof setTimeout> | undefined;
  private readonly dwellMs: number;
  private readonly graceMs: number;
  private readonly enabled: () => Promise<boolean>;

  constructor(
    private readonly page: HoverActions,
    private readonly chooser: HoverChooser,
    private readonly doc: Document = document,
    opts: HoverOptions = {},
  ) {
    this.dwellMs = opts.dwellMs ?? 500;
    this.graceMs = opts.graceMs ?? 400;
    this.enabled = opts.enabled ?? (async () => true);
  }

  /** The unit the button is shown for (null: hidden). */
  get shown(): Element | null {
    return this.shownFor;
  }

  /** Follows the mouse until `signal` aborts. */
  listen(signal: AbortSignal): void {
    const opts = { capture: true, passive: true, signal };
    this.doc.addEventListener('pointerover', (e) => this.over(e), opts);
    this.doc.addEventListener('pointerdown', (e) => !within(e, this.host) && this.hide(), opts);
    this.doc.defaultView?.addEventListener('scroll', () => this.hide(), opts);
    signal.addEventListener('abort', () => this.hide(), { once: true });
  }

  /** What the button's click does: the chooser for the unit under the mouse. */
  activate(): boolean {
    const target = this.target;
    this.hide();
    return !!target && this.chooser.open(target);
  }

  hide(): void {
    clearTimeout(this.dwell);
    clearTimeout(this.leave);
    this.resting = this.shownFor = this.target = null;
    this.host?.remove();
    this.host = this.button = null;
  }

  private over(e: PointerEvent): void {
    if (e.pointerType !== 'mouse') return;
    // On the button: it stays. Known by the event's path (`within`): `eventTarget` looks into
    // closed roots, ours too, and gave the button inside, which is no paragraph; the button went
    // 0.4 s after the mouse came to rest on it.
    if (within(e, this.host)) {
      clearTimeout(this.leave);
      return;
    }
    const target = eventTarget(e);
    if (!(target instanceof Node)) return;
    const el = this.translatedAt(target);
    if (el && (el === this.shownFor || el === this.resting)) {
      // Moving inside the paragraph (across its links and inline elements).
      clearTimeout(this.leave);
      this.target = target;
      return;
    }
    clearTimeout(this.dwell);
    this.resting = el;
    if (this.host) {
      clearTimeout(this.leave);
      this.leave = setTimeout(() => this.hide(), this.graceMs);
    }
    if (!el) return;
    this.dwell = setTimeout(() => {
      void this.enabled()
        .catch(() => true)
        .then((on) => {
          const offers = this.page.offers(el);
          if (offers && on && this.resting === el && this.translatedAt(target) === el) this.show(el, target, offers);
        });
    }, this.dwellMs);
  }

  /**
   * The translated paragraph at `target` the button is for: none in a text file, whose one element
   * holds all its paragraphs (there Alt+click, at the paragraph under the mouse, and the shortcut,
   * at the caret, open them).
   */
  private translatedAt(target: Node): Element | null {
    const el = this.page.translatedAt(target);
    return el && el === plainTextPre(this.doc) ? null : el;
  }

  private show(el: Element, target: Node, offers: 'original' | 'hide'): void {
    clearTimeout(this.leave);
    const button = this.button ?? this.build();
    // Beside a paragraph in the page's modal dialog: in the dialog, over it (overlay.ts).
    putOverlay(this.host!, el);
    // Named for what the chooser offers: in bilingual mode the original is on the page.
    const bilingual = offers === 'hide';
    button.setAttribute('aria-label', bilingual ? t('hoverLabelBilingual', 'Other translations of this paragraph, or hide this one') : t('hoverLabel', 'Original and other translations of this paragraph'));
    button.title = bilingual ? t('hoverTitleBilingual', 'Other translations, or hide (Alt+click)') : t('hoverTitle', 'Original and other translations (Alt+click)');
    const r = el.getBoundingClientRect();
    const width = viewportSize(this.doc).w;
    button.style.top = `${Math.round(Math.max(2, r.top))}px`;
    // At the end of the first line: left of an Arabic paragraph (its right is where it starts, and
    // the button went over its first word there).
    const end = getComputedStyle(el).direction === 'rtl' ? r.left - 4 - SIZE : r.right + 4;
    button.style.left = `${Math.round(Math.max(2, Math.min(end, width - SIZE - 2)))}px`;
    this.shownFor = el;
    this.target = target;
  }

  private build(): HTMLButtonElement {
    const button = htmlElement(this.doc, 'button');
    button.type = 'button';
    button.textContent = '⇄';
    button.addEventListener('click', () => this.activate());
    this.host = overlayHost(this.doc, HOVER_TAG, CSS, null, button);
    this.button = button;
    return button;
  }
}
