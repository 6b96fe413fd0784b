/**
 * The in-page progress indicator, in an overlay host (overlay.ts: outside <body>, closed shadow
 * root, styles reset; in the page's dialog the focus is in, or its modal dialog open, while it
 * is: `pageTop`).
 */
import type { PageStatus } from '../shared/messages';
import { t } from '../ui/shared/i18n';
import { ModalWatch, overlayHost, pageTop, putOverlay } from './overlay';
import { htmlElement } from '../ui/shared/html-element';

export const INDICATOR_TAG = 'polyglot-progress';

const CSS =
  ':host{all:initial!important;position:fixed!important;right:12px!important;bottom:12px!important;z-index:2147483647!important}' +
  'div{display:flex;align-items:center;gap:6px;font:12px/1.4 system-ui,sans-serif;color:#fff;background:#333c;padding:4px 8px;border-radius:4px;pointer-events:none}' +
  // Only the button takes the mouse: the rest never covers what the page has under it.
  'button{all:unset;pointer-events:auto;cursor:pointer;font:inherit;color:#fff;border:1px solid #fff8;border-radius:3px;padding:0 6px}' +
  'button:hover{background:#fff3}button:focus-visible{outline:2px solid #8cf;outline-offset:1px}';

export class Indicator {
  private host: HTMLElement | null = null;
  private box: HTMLElement | null = null;
  private label: HTMLElement | null = null;
  private stopButton: HTMLButtonElement | null = null;
  private retryButton: HTMLButtonElement | null = null;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;
  /** The page's dialog it is in, and the watch for the focus leaving it (`place`). */
  private over: Element | null = null;
  private watch: AbortController | null = null;
  /** The page's modal dialogs open, while it is shown (`place`). */
  private modals: ModalWatch | null = null;

  /**
   * `onStop`: the user's click on "Stop" while the page translates (a cancel: what is written
   * stays). `onRetry`: on "Retry", shown once the page is translated or stopped with failures
   * (what failed is sent again, and after a stop what was left).
   */
  constructor(
    private readonly doc: Document = document,
    private readonly onStop?: () => void,
    private readonly onRetry?: () => void,
  ) {}

  /** Whether it is on the page now. */
  shown(): boolean {
    return this.host !== null;
  }

  show(s: PageStatus): void {
    if (s.state === 'original') return this.remove();
    // An error stays long enough to be read (and retried); progress stays until the next report.
    const retry = s.state !== 'translating' && s.errors > 0;
    this.display(indicatorText(s), s.state === 'translating' ? undefined : retry ? RETRY_MS : 2500, s.state === 'translating', retry);
  }

  /** A word about the page that is not progress ("Already in Spanish"), shown a few seconds. */
  say(text: string): void {
    this.display(text, 2500, false);
  }

  /** Shows `text`, removed after `hideMs` (absent: kept), with "Stop" while `stoppable`, "Retry" while `retryable`. */
  private display(text: string, hideMs: number | undefined, stoppable: boolean, retryable = false): void {
    clearTimeout(this.hideTimer);
    if (!this.box || !this.label) {
      this.box = htmlElement(this.doc, 'div');
      this.label = htmlElement(this.doc, 'span');
      this.label.setAttribute('role', 'status');
      this.box.append(this.label);
      this.host = overlayHost(this.doc, INDICATOR_TAG, CSS, null, this.box);
      this.modals = new ModalWatch(this.doc, () => this.place());
    }
    this.place();
    // The percentage moves every few units: an unchanged label is not written (a live region).
    if (this.label.textContent !== text) this.label.textContent = text;
    const { onStop, onRetry } = this;
    this.stopButton = this.keep(this.stopButton, stoppable && onStop
      ? () => this.button(t('indicatorStop', 'Stop'), t('indicatorStopTitle', 'Stop translating this page; what is translated stays'), onStop)
      : null);
    this.retryButton = this.keep(this.retryButton, retryable && onRetry
      ? () => this.button(t('indicatorRetry', 'Retry'), t('indicatorRetryTitle', 'Translate again what failed; what is translated stays'), onRetry)
      : null);
    if (hideMs !== undefined) this.hideTimer = setTimeout(() => this.remove(), hideMs);
  }

  /**
   * Over the page's modal dialog the focus is in, or its script's dialog that holds the focus
   * (overlay.ts `pageTop`): on <html>, it was under the dialog's backdrop and inert, and its Stop
   * and Retry could not be pressed (nor with `focus-trap`, which stops a click outside its dialog).
   * Back on <html> once the focus leaves that dialog (it closes), or the fullscreen view ends.
   * A modal dialog open with the focus left outside it (a script blurred it) holds it too.
   */
  private place(): void {
    const host = this.host;
    if (!host) return;
    const top = pageTop(this.doc, this.modals?.opened);
    putOverlay(host, top);
    if (top === this.over) return;
    this.watch?.abort();
    this.watch = null;
    this.over = top;
    if (!top) return;
    this.watch = new AbortController();
    const again = () => this.place();
    top.addEventListener('focusout', () => setTimeout(again), { signal: this.watch.signal });
    this.doc.addEventListener('fullscreenchange', again, { signal: this.watch.signal });
  }

  /** `button` while `make` is given (made by it at the first), removed once not. */
  private keep(button: HTMLButtonElement | null, make: (() => HTMLButtonElement) | null): HTMLButtonElement | null {
    if (make && !button) {
      const made = make();
      this.box!.append(made);
      return made;
    }
    if (!make && button) {
      button.remove();
      return null;
    }
    return button;
  }

  private button(label: string, title: string, onClick: () => void): HTMLButtonElement {
    const button = htmlElement(this.doc, 'button');
    button.type = 'button';
    button.textContent = label;
    button.title = title;
    // Only the user's own click: a page's script cannot reach into the closed root, nor make a trusted event.
    button.addEventListener('click', (e) => {
      if (e.isTrusted) onClick();
    });
    return button;
  }

  remove(): void {
    clearTimeout(this.hideTimer);
    this.watch?.abort();
    this.watch = this.over = null;
    this.modals?.stop();
    this.modals = null;
    this.host?.remove();
    this.host = this.box = this.label = this.stopButton = this.retryButton = null;
  }
}

/** How long a result with failures stays, with its "Retry". */
const RETRY_MS = 20_000;

/** The longest error shown (the engine's `err`, which can quote a provider at length). */
const ERROR_CHARS = 100;

/**
 * What the indicator says: progress, and once the page is translated or stopped, how many units
 * failed and why (the last error: "400 no route from en to fr", "403 the key was refused").
 */
export function indicatorText(s: PageStatus): string {
  const pct = String(s.total ? Math.floor((100 * s.done) / s.total) : 100);
  const errs = s.errors ? ` · ${t('indicatorFailed', '$1 failed', String(s.errors))}` : '';
  if (s.state === 'translating') return `${t('indicatorTranslating', 'Translating… $1%', pct)}${errs}`;
  // Nothing was written: no text, or all of it marked by the page not to translate (translate="no").
  if (s.state === 'translated' && s.total === 0) return t('indicatorNothing', 'Nothing to translate here');
  const why = s.errors && s.error ? `: ${s.error.length > ERROR_CHARS ? `${s.error.slice(0, ERROR_CHARS - 1)}…` : s.error}` : '';
  return `${s.state === 'cancelled' ? t('indicatorStopped', 'Stopped at $1%', pct) : t('indicatorTranslated', 'Translated')}${errs}${why}`;
}
