/**
 * The chooser of alternatives in place: Alt+click on a translated paragraph, or the keyboard
 * shortcut (Alt+Shift+A) at the focus or caret inside one, shows what the paragraph read before it
 * was translated (replace mode: in bilingual mode it is on the page, and a button hides the
 * translation under it instead) and lists the translation of each route as it arrives; focus goes
 * to it and comes back where it was when it closes. Like the indicator, a host outside <body> with
 * a closed shadow root and its styles reset; provider text is only ever set as text (`textContent`),
 * labelled with its route. A frame too small for it has the top frame show it (chooser-lift.ts).
 */
import type { Alternative, Choice } from './choices';
import type { ChooserAct, LiftedView } from '../shared/messages';
import { languageName, textDirection } from '../core/intl';
import { routeLabel } from '../ui/shared/alternatives';
import { t, uiLanguage } from '../ui/shared/i18n';
import { CHOOSER_ROOM, liftedChoice, type LiftChannel } from './chooser-lift';
import { newKey } from './lift';
import { holdsBox, onEscape, overlayHost, placeBox, viewportSize, within } from './overlay';
import { deepActive, eventTarget, inBody } from './shadow';
import { htmlElement } from '../ui/shared/html-element';

export const CHOOSER_TAG = 'polyglot-alternatives';

const CSS =
  ':host{all:initial!important}' +
  '.box{position:fixed;z-index:2147483647;overflow:auto;box-sizing:border-box;zoom:var(--polyglot-zoom,1);' +
  'font:13px/1.4 system-ui,sans-serif;color:#202124;background:#fff;border:1px solid #999;border-radius:6px;padding:6px 8px;box-shadow:0 2px 10px #0004}' +
  '.alt{border-top:1px solid #ddd;padding:4px 0}.alt:first-of-type{border-top:0}' +
  '.hide{border-top:1px solid #ddd;padding-top:2px}' +
  '.rid{font-size:11px;color:#555}.text{margin:2px 0;white-space:pre-wrap}.err{color:#b3261e}' +
  'button{font:inherit;font-size:12px;margin:2px 4px 0 0;cursor:pointer}' +
  '@media (prefers-color-scheme:dark){.box{color:#e8eaed;background:#202124;border-color:#666}.rid{color:#aaa}.err{color:#f2b8b5}}';

export interface ChooserActions {
  /** The unit's alternatives, each reported as it settles; null: nothing translated there. */
  choiceAt(node: Node, onAlternative: (a: Alternative) => void): Choice | null;
  preferRoute(rid: string): void;
  /** The page's translation: its target is the alternatives' language. */
  status(): { trg?: string };
}

export class Chooser {
  private host: HTMLElement | null = null;
  private list: HTMLElement | null = null;
  private choice: Choice | null = null;
  private stop: AbortController | null = null;
  /** Where the focus was when the chooser opened: it goes back there. */
  private returnTo: HTMLElement | null = null;
  /** Focus went to an alternative's button already. */
  private focused = false;
  /** Where the alternatives go as they come: held, the box's list, or the top frame. */
  private sink: ((alt: Alternative) => void) | null = null;
  /** Each open and close: an alternative of a choice since closed goes nowhere. */
  private epoch = 0;
  /** The alternatives' language. */
  private trg = '';
  /** In a frame whose chooser the top frame shows: its key. */
  private liftedHere: string | null = null;
  /** In the top frame, showing a frame's chooser: its key, and what ends its `done`. */
  private lifted: string | null = null;
  private liftDone: (() => void) | null = null;

  /** `lift`: how a frame's chooser too large for it reaches the top frame (chooser-lift.ts); none in tests of one document. */
  constructor(
    private readonly page: ChooserActions,
    private readonly doc: Document = document,
    private readonly lift: LiftChannel | null = null,
  ) {
    // A click or Esc in the frame whose chooser the top frame shows closes it.
    lift?.onClose((key) => key === this.lifted && this.close());
  }

  isHost(el: Element): boolean {
    return el === this.host;
  }

  /** Alt+click on a translated unit opens the chooser (listens until `signal` aborts). */
  listen(signal: AbortSignal): void {
    this.doc.addEventListener(
      'click',
      (e) => {
        if (!e.altKey || e.button !== 0) return;
        const target = eventTarget(e);
        if (!(target instanceof Node) || this.host?.contains(target)) return;
        if (this.open(textAt(this.doc, e, target) ?? target)) {
          // Alt+click on a link would download it.
          e.preventDefault();
          e.stopPropagation();
        }
      },
      { capture: true, signal },
    );
  }

  /**
   * Opens the chooser at the keyboard's place: the focused element (a link in a paragraph), else the
   * caret or the selection's end. False when nothing translated is there.
   */
  openAtCursor(): boolean {
    const doc = this.doc;
    const active = deepActive(doc);
    const sel = doc.getSelection();
    const at = active && active !== doc.body && active !== doc.documentElement && !this.isHost(active) ? active : sel?.focusNode;
    return !!at && inBody(doc, at) && this.open(at);
  }

  /** Opens the chooser for the unit at `node`; false when nothing translated is there. */
  open(node: Node): boolean {
    this.close();
    const epoch = this.epoch;
    const active = deepActive(this.doc);
    // The alternative shown comes at once, from `choiceAt`: held until the box (or the top frame) takes it.
    const held: Alternative[] = [];
    this.sink = (alt) => held.push(alt);
    const choice = this.page.choiceAt(node, (alt) => epoch === this.epoch && this.sink?.(alt));
    if (!choice) {
      this.close();
      return false;
    }
    this.choice = choice;
    this.returnTo = active instanceof HTMLElement && active !== this.doc.body ? active : null;
    const trg = this.page.status().trg ?? '';
    const win = this.doc.defaultView;
    const rect = choice.el.getBoundingClientRect();
    if (this.lift && win && win.parent !== win && !holdsBox(this.doc, rect, CHOOSER_ROOM)) void this.liftUp(this.lift, choice, held, rect, trg, epoch);
    else this.show(choice, held, rect, trg);
    return true;
  }

  /**
   * In a frame too small for the chooser beside the paragraph: the top frame shows it
   * (chooser-lift.ts), and the alternatives go there as they come; a click or Esc here closes it.
   * Shown here after all if the top frame does not.
   */
  private async liftUp(lift: LiftChannel, choice: Choice, held: Alternative[], rect: DOMRect, trg: string, epoch: number): Promise<void> {
    const key = newKey();
    const sent = held.length;
    const shown = await lift.up(key, rect, { original: choice.original, copy: choice.copy, trg, alts: held.slice() });
    if (epoch !== this.epoch) {
      if (shown) lift.closeUp(key);
      return;
    }
    if (!shown) {
      this.show(choice, held, choice.el.getBoundingClientRect(), trg);
      return;
    }
    this.liftedHere = key;
    for (const alt of held.slice(sent)) lift.alt(key, alt);
    this.sink = (alt) => lift.alt(key, alt);
    void choice.done.then(() => epoch === this.epoch && lift.alt(key, 'done'));
    this.stop = new AbortController();
    onEscape(this.doc, () => this.close(), this.stop.signal);
    this.doc.addEventListener('pointerdown', () => this.close(), { capture: true, signal: this.stop.signal });
  }

  /** In the top frame: shows the chooser of a frame's paragraph (`chooser:show`) where the frames said it is; false if they did not. */
  async openLifted(key: string, frameId: number, view: LiftedView): Promise<boolean> {
    const lift = this.lift;
    const at = await lift?.take(key);
    if (!lift || !at) return false;
    this.close();
    const active = deepActive(this.doc);
    const choice = liftedChoice(lift, key, frameId, view, at.frame, (done) => (this.liftDone = done));
    this.choice = choice;
    this.lifted = key;
    this.returnTo = active instanceof HTMLElement && active !== this.doc.body ? active : null;
    this.show(choice, view.alts, at.rect, view.trg);
    return true;
  }

  /** In the top frame: an alternative, or the end, of the frame's chooser it shows. */
  liftedAlt(key: string, alt: Alternative | undefined, done: boolean): void {
    if (key !== this.lifted) return;
    if (alt) this.sink?.(alt);
    if (done) this.liftDone?.();
  }

  /** In a frame whose chooser the top frame shows: the reader's choice there, written here; false if it is not this chooser's or was not written. */
  act(key: string, act: ChooserAct, rid: string | undefined): boolean {
    const choice = this.choice;
    if (key !== this.liftedHere || !choice) return false;
    // The top frame closes its own.
    this.liftedHere = null;
    const ok = act === 'original' ? choice.pickOriginal() : act === 'hide' ? choice.hide() : act === 'close' || (!!rid && choice.pick(rid));
    if (act === 'prefer' && rid) this.page.preferRoute(rid);
    this.close();
    return ok;
  }

  /** The box for `choice` beside `rect` (near its element), with the alternatives `held` so far; those to come go to it. */
  private show(choice: Choice, held: readonly Alternative[], rect: { top: number; bottom: number; left: number }, trg: string): void {
    this.trg = trg;
    const box = this.box(choice.el);
    if (choice.original) this.showOriginal(choice.original);
    if (choice.copy) this.showCopyState(choice.copy);
    for (const alt of held) this.add(alt);
    this.sink = (alt) => this.add(alt);
    this.stop = new AbortController();
    const signal = this.stop.signal;
    const { w, h } = viewportSize(this.doc);
    const at = placeBox(rect, w, h);
    if (at.top !== undefined) box.style.top = `${at.top}px`;
    if (at.bottom !== undefined) box.style.bottom = `${at.bottom}px`;
    box.style.left = `${at.left}px`;
    box.style.maxHeight = `${at.maxHeight}px`;
    box.style.maxWidth = `${at.maxWidth}px`;
    // Esc closes the chooser alone, not also the page's dialog it is over; nor the page's own
    // dialog, whose script reads it where the focus is (Bootstrap's) or on the document (Radix's,
    // in its capture phase: ours is on the window, before it).
    const raised = this.host?.hasAttribute('popover') === true;
    onEscape(
      this.doc,
      (e) => {
        e.stopPropagation();
        if (raised) e.preventDefault();
        this.close();
      },
      signal,
    );
    // A press outside it (overlay.ts `within`).
    this.doc.addEventListener('pointerdown', (e) => !within(e, this.host) && this.close(), { capture: true, signal });
    choice.done.then(() => {
      if (this.choice !== choice) return;
      this.status('');
      // No other route to use: the original's button or the one that hides the translation, for the keyboard.
      this.focusFirst('button', this.list?.parentElement);
    });
  }

  close(): void {
    this.epoch++;
    this.choice?.close();
    this.choice = null;
    this.sink = null;
    this.liftDone = null;
    this.lifted = null;
    if (this.liftedHere) this.lift?.closeUp(this.liftedHere);
    this.liftedHere = null;
    this.stop?.abort();
    this.stop = null;
    const hadFocus = this.host !== null && this.doc.activeElement === this.host;
    this.host?.remove();
    this.host = this.list = null;
    this.focused = false;
    // Back where the keyboard was, unless the user has moved on (a click elsewhere).
    const back = this.returnTo;
    this.returnTo = null;
    if (back?.isConnected && (hadFocus || this.doc.activeElement === this.doc.body)) back.focus({ preventScroll: true });
  }

  /** The chooser's box, its host put where the user sees it beside `near` (overlay.ts `putOverlay`). */
  private box(near: Node): HTMLElement {
    const box = htmlElement(this.doc, 'div');
    box.className = 'box';
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', t('chooserLabel', 'Translations of this paragraph'));
    this.list = htmlElement(this.doc, 'div');
    const status = htmlElement(this.doc, 'div');
    status.className = 'rid status';
    status.setAttribute('role', 'status');
    status.textContent = t('chooserAsking', 'Asking the other routes…');
    box.append(this.list, status);
    this.host = overlayHost(this.doc, CHOOSER_TAG, CSS, near, box);
    return box;
  }

  private status(text: string): void {
    const s = this.list?.parentElement?.querySelector('.status');
    if (s) s.textContent = text;
  }

  /**
   * The paragraph as it was, before the alternatives (in its language, for fonts and screen
   * readers), with a button that shows it on the page instead of its translation; "(shown)" once
   * it is.
   */
  private showOriginal(original: NonNullable<Choice['original']>): void {
    const list = this.list;
    if (!list) return;
    const name = original.lang ? t('chooserOriginalIn', 'Original ($1)', languageName(original.lang, uiLanguage())) : t('chooserOriginal', 'Original');
    const item = this.originalItem(original.shown ? t('chooserOriginalShown', '$1 (shown)', name) : name);
    const text = htmlElement(this.doc, 'div');
    text.className = 'text';
    if (original.lang) text.lang = original.lang;
    text.dir = 'auto';
    text.textContent = original.text;
    item.append(text);
    if (!original.shown) {
      item.append(
        this.button(t('chooserUseOriginal', 'Show the original'), () => {
          if (this.choice?.pickOriginal()) this.close();
        }),
      );
    }
    list.prepend(item);
  }

  /**
   * Bilingual mode: a button under the routes that takes this paragraph's translation off the page
   * (the original stays, alone); once it is off, a line above the routes that says so (each route's
   * "Use this" puts it back).
   */
  private showCopyState(state: 'shown' | 'hidden'): void {
    const list = this.list;
    if (!list) return;
    if (state === 'hidden') {
      list.prepend(this.originalItem(t('chooserCopyHidden', 'Translation hidden')));
      return;
    }
    const item = htmlElement(this.doc, 'div');
    item.className = 'hide';
    item.append(
      this.button(t('chooserHideCopy', 'Hide this translation'), () => {
        if (this.choice?.hide()) this.close();
      }),
    );
    list.parentElement?.append(item);
  }

  /** The entry above the routes for what the page shows of the original, labelled `label`. */
  private originalItem(label: string): HTMLElement {
    const item = htmlElement(this.doc, 'div');
    item.className = 'alt original';
    const rid = htmlElement(this.doc, 'div');
    rid.className = 'rid';
    rid.textContent = label;
    item.append(rid);
    return item;
  }

  private add(alt: Alternative): void {
    const list = this.list;
    if (!list) return;
    const item = htmlElement(this.doc, 'div');
    item.className = 'alt';
    item.dataset['rid'] = alt.rid;
    const rid = htmlElement(this.doc, 'div');
    rid.className = 'rid';
    // Named as the popup and the selection bubble name it (`apertium → ca → apertium`).
    const name = routeLabel(alt.rid);
    rid.textContent = alt.current ? t('chooserShown', '$1 (shown)', name) : name;
    rid.title = alt.rid;
    const text = htmlElement(this.doc, 'div');
    text.className = alt.err === undefined ? 'text' : 'text err';
    text.textContent = alt.err === undefined ? alt.text : alt.err;
    // In the target's language and direction, as on the page: an Arabic alternative laid out left
    // to right had its final period at its right end.
    const trg = alt.err === undefined ? this.trg : undefined;
    if (trg) {
      text.lang = trg;
      text.dir = textDirection(trg);
    }
    item.append(rid, text);
    if (alt.err === undefined && !alt.current) {
      const use = this.button(t('chooserUse', 'Use this'), () => {
        if (this.choice?.pick(alt.rid)) this.close();
      });
      const page = this.button(t('chooserUseForPage', 'Use this route for the page'), () => {
        const choice = this.choice;
        if (choice?.prefer) choice.prefer(alt.rid);
        else {
          choice?.pick(alt.rid);
          this.page.preferRoute(alt.rid);
        }
        this.close();
      });
      item.append(use, page);
    }
    // The route shown goes first, also when it comes last (a long paragraph's pieces on their way).
    // Focus to the first alternative that can be used, when it arrives (the current route and a
    // failed one have no buttons); not to the original's: the chooser is opened for another translation.
    list.insertBefore(item, alt.current ? list.querySelector('.alt:not(.original)') : null);
    this.focusFirst('.alt:not(.original) button');
  }

  private focusFirst(selector: string, within: Element | null | undefined = this.list): void {
    if (this.focused) return;
    const use = within?.querySelector<HTMLButtonElement>(selector) ?? null;
    use?.focus();
    this.focused = use !== null;
  }

  private button(label: string, onClick: () => void): HTMLButtonElement {
    const b = htmlElement(this.doc, 'button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', onClick);
    return b;
  }
}

/**
 * The text under the pointer, where it is inside `target`: of the units an element holds (a
 * text file's paragraphs, all in its one `<pre>`; the runs of a block between its blocks), the one
 * clicked. Null where the browser says none.
 */
function textAt(doc: Document, e: MouseEvent, target: Node): Text | null {
  const d = doc as Document & { caretPositionFromPoint?(x: number, y: number): { offsetNode: Node } | null };
  const node = d.caretPositionFromPoint ? d.caretPositionFromPoint(e.clientX, e.clientY)?.offsetNode : doc.caretRangeFromPoint?.(e.clientX, e.clientY)?.startContainer;
  return node?.nodeType === 3 && target.contains(node) ? (node as Text) : null;
}
