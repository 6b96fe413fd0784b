/**
 * The in-page progress indicator, in an overlay host (overlay.ts: outside <body>, closed shadow
 * root, styles reset).
 */
import type { PageStatus } from '../shared/messages';
import { overlayHost } from './overlay';

export const INDICATOR_TAG = 'polyglot-progress';

const CSS =
  ':host{all:initial!important;position:fixed!important;right:12px!important;bottom:12px!important;z-index:2147483647!important}' +
  'div{font:12px/1.4 system-ui,sans-serif;color:#fff;background:#333c;padding:4px 8px;border-radius:4px;pointer-events:none}';

export class Indicator {
  private host: HTMLElement | null = null;
  private label: HTMLElement | null = null;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly doc: Document = document) {}

  isHost(el: Element): boolean {
    return el === this.host;
  }

  show(s: PageStatus): void {
    clearTimeout(this.hideTimer);
    if (s.state === 'original') return this.remove();
    if (!this.host) {
      this.label = this.doc.createElement('div');
      this.label.setAttribute('role', 'status');
      this.host = overlayHost(this.doc, INDICATOR_TAG, CSS, this.label);
    }
    const pct = s.total ? Math.floor((100 * s.done) / s.total) : 100;
    const errs = s.errors ? ` · ${s.errors} failed` : '';
    const text = s.state === 'translating' ? `Translating… ${pct}%${errs}` : s.state === 'cancelled' ? `Stopped at ${pct}%${errs}` : `Translated${errs}`;
    // The percentage moves every few units: an unchanged label is not written (a live region).
    if (this.label!.textContent !== text) this.label!.textContent = text;
    if (s.state !== 'translating') this.hideTimer = setTimeout(() => this.remove(), 2500);
  }

  remove(): void {
    clearTimeout(this.hideTimer);
    this.host?.remove();
    this.host = this.label = null;
  }
}
