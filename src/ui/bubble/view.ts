/**
 * The selection bubble's DOM, built in a closed shadow root. Every string from a provider or the
 * page goes in through textContent, never as HTML. Kept apart from the content script's messaging
 * so it can be tested in happy-dom.
 */
import { formatMs, routeLabel, type RouteResult } from '../shared/alternatives';
import { t } from '../shared/i18n';
import { languages, shownCode } from '../shared/langs';
import { textDirection } from '../../core/intl';
import { BUBBLE_CSS } from './style';
import { htmlElement } from '../shared/html-element';

export interface BubbleHandlers {
  onClose(): void;
  onLanguages(src: string, trg: string): void;
  onOpenPopup(): void;
}

export interface BubbleSnapshot {
  src: string;
  trg: string;
  results: RouteResult[];
  error: string;
  pending: boolean;
}

/** How long a failed route's err stays on screen ("briefly"). */
export const FAILURE_MS = 8000;

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = htmlElement(doc, tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function copyButton(doc: Document, text: () => string): HTMLButtonElement {
  const button = el(doc, 'button', 'copy', t('copy', 'Copy'));
  button.type = 'button';
  button.addEventListener('click', () => {
    void navigator.clipboard.writeText(text()).then(() => (button.textContent = t('copied', 'Copied')), () => undefined);
  });
  return button;
}

export class BubbleView {
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly box: HTMLDivElement;
  private readonly srcSelect: HTMLSelectElement;
  private readonly trgSelect: HTMLSelectElement;
  private readonly list: HTMLDivElement;
  private readonly status: HTMLParagraphElement;
  private state: BubbleSnapshot = { src: '', trg: '', results: [], error: '', pending: false };

  constructor(private readonly doc: Document, private readonly handlers: BubbleHandlers) {
    this.host = htmlElement(doc, 'polyglot-bubble');
    // Closed: page scripts cannot reach in to read the selection's translation or restyle it.
    this.root = this.host.attachShadow({ mode: 'closed' });
    const style = el(doc, 'style');
    style.textContent = BUBBLE_CSS;
    this.box = el(doc, 'div', 'bubble');
    this.box.setAttribute('role', 'dialog');
    this.box.setAttribute('aria-label', t('bubbleLabel', 'Translation'));
    this.box.tabIndex = -1;

    const head = el(doc, 'div', 'head');
    this.srcSelect = this.select(t('from', 'From'));
    this.trgSelect = this.select(t('to', 'To'));
    const swap = this.button('⇄', t('swap', 'Swap languages'), () => this.handlers.onLanguages(this.state.trg, this.state.src));
    const close = this.button('×', t('close', 'Close'), () => this.handlers.onClose());
    head.append(this.srcSelect, swap, this.trgSelect, el(doc, 'span', 'spacer'), close);

    this.list = el(doc, 'div', 'results');
    this.list.setAttribute('aria-live', 'polite');
    this.status = el(doc, 'p', 'status');
    this.status.setAttribute('role', 'status');
    const foot = el(doc, 'div', 'foot');
    foot.append(this.button(t('openInPopup', 'Open in popup'), undefined, () => this.handlers.onOpenPopup()));
    this.box.append(head, this.list, this.status, foot);
    this.root.append(style, this.box);
  }

  private button(text: string, label: string | undefined, onClick: () => void): HTMLButtonElement {
    const b = el(this.doc, 'button', undefined, text);
    b.type = 'button';
    if (label) {
      b.setAttribute('aria-label', label);
      b.title = label;
    }
    b.addEventListener('click', onClick);
    return b;
  }

  private select(label: string): HTMLSelectElement {
    const s = el(this.doc, 'select');
    s.setAttribute('aria-label', label);
    s.addEventListener('change', () => this.handlers.onLanguages(this.srcSelect.value, this.trgSelect.value));
    return s;
  }

  /** Fills the pickers; a code the engine does not list stays visible so the user sees why. */
  setLanguages(src: string, trg: string, lists: { src: string[]; trg: string[] }, locale: string): void {
    this.state.src = src;
    this.state.trg = trg;
    const fill = (select: HTMLSelectElement, codes: string[], value: string, source = false) => {
      const all = codes.includes(value) ? codes : [value, ...codes];
      select.replaceChildren(
        ...languages(all, locale, source).map((l) => {
          const option = el(this.doc, 'option', undefined, `${l.name} (${l.code})`);
          option.value = l.code;
          return option;
        }),
      );
      // A code listed under a fuller one of its language (`zh` as `zh-Hans`) shows as that entry.
      select.value = shownCode(value, all, source);
    };
    fill(this.srcSelect, lists.src, src, true);
    fill(this.trgSelect, lists.trg, trg);
  }

  /** Starts over for a new request. */
  reset(): void {
    this.state.results = [];
    this.state.error = '';
    this.list.replaceChildren();
    this.setPending(true);
  }

  setPending(pending: boolean): void {
    this.state.pending = pending;
    const got = this.state.results.some((r) => r.text !== undefined);
    this.status.textContent = pending ? (got ? t('waiting', 'Waiting for more routes…') : t('translating', 'Translating…')) : '';
  }

  setError(message: string): void {
    this.state.error = message;
    this.list.append(el(this.doc, 'p', 'err', message));
  }

  /** The first success is the main translation; later ones are alternatives under it. */
  addResult(r: RouteResult): void {
    this.state.results.push(r);
    const meta = el(this.doc, 'div', 'meta');
    meta.append(el(this.doc, 'span', 'rid', routeLabel(r.rid)), el(this.doc, 'span', 'ms', formatMs(r.ms)), el(this.doc, 'span', 'spacer'));
    if (r.text === undefined) {
      const fail = el(this.doc, 'div', 'err');
      fail.append(meta, el(this.doc, 'div', undefined, r.err ?? ''));
      this.list.append(fail);
      setTimeout(() => fail.remove(), FAILURE_MS);
    } else {
      const first = !this.state.results.some((x) => x !== r && x.text !== undefined);
      const text = r.text;
      const box = el(this.doc, 'div', first ? 'first' : 'alt');
      const body = el(this.doc, 'div', first ? 'main' : 'alt-text', text);
      body.lang = this.state.trg;
      // Laid out in the target's direction: Arabic right to left, its final period at its left end.
      if (this.state.trg) body.dir = textDirection(this.state.trg);
      meta.append(copyButton(this.doc, () => text));
      box.append(first ? body : meta, first ? meta : body);
      this.list.append(box);
    }
    this.setPending(this.state.pending);
  }

  snapshot(): BubbleSnapshot {
    return structuredClone(this.state);
  }

  focus(): void {
    this.box.focus();
  }

  /** Whether an event's path goes through the bubble (closed roots still show the host). */
  contains(event: Event): boolean {
    return event.composedPath().includes(this.host);
  }
}
