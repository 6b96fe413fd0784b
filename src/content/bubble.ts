/**
 * "Translate selection" in the page: the background asks (context menu or shortcut), this frame
 * reads its selection (also inside inputs and textareas), and a bubble next to it shows the first
 * translation and then each further route's alternative as translateStream delivers them.
 */
import { callApi as callApiDefault, send as sendDefault, translateStream as streamDefault } from '../shared/api';
import { ext } from '../shared/browser';
import { readLanguage, type Reading } from '../shared/detect';
import { isSelectionMessage } from '../shared/messages';
import type { LanguageLists, TrObj } from '../core/types';
import { languageOf, listedCode } from '../core/lang';
import { resultOf } from '../ui/shared/alternatives';
import { BUBBLE_KEY, load, save, type BubblePrefs } from '../ui/shared/store';
import { BubbleView, type BubbleSnapshot } from '../ui/bubble/view';
import { BUBBLE_WIDTH } from '../ui/bubble/style';
import { LiftRelay, newKey, postClose, postUp } from './lift';
import { holdsBox, onEscape, placeBox, putOverlay, viewportSize } from './overlay';

export interface Selected {
  text: string;
  /** Viewport rectangle to place the bubble under. */
  rect: { left: number; bottom: number; top: number };
  /** The nearest `lang` around the selection, if any. */
  lang: string;
  /** Where the selection is (the field, or what holds the range): the bubble goes over the dialog it is in. */
  node?: Node;
  /** Whether it is a text field's (content/lift.ts: never shown outside its frame). */
  field?: boolean;
}

/** Routes asked for at once: the first answer shows at once, two more as alternatives. */
const ALTERNATIVES = 3;

/** The least height the bubble's box needs (its pickers and a translation or two): in a frame with less room, the top frame shows it. */
const ROOM = 180;

/**
 * Whether a frame of `doc`'s viewport holds the bubble beside `rect` at its full width, with
 * `ROOM` under or over it: else, if it is a frame, the top frame shows it (content/lift.ts).
 */
export function holdsBubble(doc: Document, rect: Selected['rect']): boolean {
  return holdsBox(doc, rect, ROOM, BUBBLE_WIDTH);
}

/** The frame's selection: a text field's selected range, else the document selection. */
export function readSelection(doc: Document = document): Selected | undefined {
  const active = doc.activeElement;
  const langOf = (node: Node | null) => (node instanceof Element ? node : node?.parentElement)?.closest('[lang]')?.getAttribute('lang') ?? '';
  if (active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && /^(text|search|url|email|)$/.test(active.type))) {
    const text = active.value.slice(active.selectionStart ?? 0, active.selectionEnd ?? 0).trim();
    if (text) return { text, rect: active.getBoundingClientRect(), lang: langOf(active), node: active, field: true };
  }
  const selection = doc.getSelection();
  const text = selection?.toString().trim() ?? '';
  if (!selection || !text || selection.rangeCount === 0) return undefined;
  const range = selection.getRangeAt(0);
  return { text, rect: range.getBoundingClientRect(), lang: langOf(range.commonAncestorContainer), node: range.commonAncestorContainer };
}

export interface BubbleDeps {
  callApi: typeof callApiDefault;
  send: typeof sendDefault;
  translateStream: typeof streamDefault;
  /** The browser detector's reading of a text, and whether it calls it reliable. */
  detect: (text: string) => Promise<Reading | undefined>;
  uiLanguage: () => string;
}

const defaults = (): BubbleDeps => ({
  callApi: callApiDefault,
  send: sendDefault,
  translateStream: streamDefault,
  detect: (text) => readLanguage(text),
  uiLanguage: () => ext().i18n.getUILanguage(),
});

export class SelectionBubble {
  private view: BubbleView | undefined;
  private controller: AbortController | undefined;
  private text = '';
  /** Whether the bubble is over a modal dialog of the page (overlay.ts `putOverlay`). */
  private raised = false;
  private lists: LanguageLists | undefined;
  private readonly teardown = new AbortController();
  /** Passes its frames' places on; in the top frame, keeps them (content/lift.ts). */
  private readonly relay: LiftRelay | undefined;
  /** In the top frame: the key of the frame's selection the bubble shows. */
  private lifted: string | undefined;
  /** In a frame: the key of this frame's selection the top frame shows. */
  private liftedHere: string | undefined;
  /** What had the focus when the bubble opened (`close`). */
  private returnTo: HTMLElement | null = null;

  constructor(private readonly deps: BubbleDeps = defaults(), private readonly doc: Document = document) {
    const signal = this.teardown.signal;
    // Capture phase: the page cannot swallow Esc or the outside click before we see it.
    onEscape(this.doc, (e) => {
      this.dropLifted();
      if (!this.view) return;
      e.stopPropagation();
      // The bubble alone: not also the page's dialog it is over.
      if (this.raised) e.preventDefault();
      this.close();
    }, signal);
    this.doc.addEventListener('pointerdown', (e) => {
      this.dropLifted();
      if (this.view && !this.view.contains(e)) this.close(false);
    }, { capture: true, signal });
    const win = this.doc.defaultView;
    // Every frame passes its frames' places on; the top closes the bubble of a frame's selection
    // when the user clicks or presses Esc in that frame (which its document does not see).
    if (win) {
      this.relay = LiftRelay.of(win);
      this.relay.onClose((key) => key === this.lifted && this.close(false), signal);
    }
  }

  /** In a frame whose selection the top frame shows: a click or Esc here closes that bubble. */
  private dropLifted(): void {
    const win = this.doc.defaultView;
    if (this.liftedHere && win) postClose(win, this.liftedHere);
    this.liftedHere = undefined;
  }

  /** Shows the bubble for this frame's selection, or for `fallback` text (context menu's selectionText). */
  async show(fallback?: string): Promise<boolean> {
    const read = readSelection(this.doc);
    const selected = read ?? (fallback ? { text: fallback, rect: { left: 16, top: 16, bottom: 16 }, lang: '' } : undefined);
    if (!selected) return false;
    if (read && !read.field && (await this.liftUp(read))) return true;
    return this.open(selected);
  }

  /**
   * A frame too small for the bubble beside its selection (holdsBubble) asks the top frame to show
   * it there (content/lift.ts): the place through the frames, the text through the background.
   * Not a text field's selection: what is typed in a form's frame is not shown to the page around it.
   */
  private async liftUp(selected: Selected): Promise<boolean> {
    const win = this.doc.defaultView;
    if (!win || win.parent === win || holdsBubble(this.doc, selected.rect)) return false;
    const key = newKey();
    postUp(win, key, selected.rect);
    const lang = selected.lang || this.doc.documentElement.lang;
    const shown = await this.deps.send('selection:lift', { key, text: selected.text, lang }).then((r) => r.shown, () => false);
    if (!shown) return false;
    this.close();
    this.liftedHere = key;
    return true;
  }

  /** In the top frame: shows a frame's selection (`selection:lift`) where its frames said it is; false if they did not. */
  async showLifted(key: string, text: string, lang: string): Promise<boolean> {
    const at = await this.relay?.take(key);
    if (!at) return false;
    void this.open({ text, rect: at.rect, lang, node: at.frame }, key);
    return true;
  }

  /** Shows the bubble for `selected` (of a frame's selection under `lifted`) and translates it. */
  private async open(selected: Selected, lifted?: string): Promise<boolean> {
    this.close();
    this.lifted = lifted;
    this.text = selected.text;
    const view = new BubbleView(this.doc, {
      onClose: () => this.close(),
      onLanguages: (src, trg) => {
        void save(BUBBLE_KEY, { trg } satisfies BubblePrefs);
        void this.translate(src, trg);
      },
      onOpenPopup: () => void this.deps.send('selection:open-popup', { text: this.text, src: this.snapshot()?.src ?? '', trg: this.snapshot()?.trg ?? '' }).catch(() => undefined),
    });
    this.view = view;
    // In the page (it scrolls with the selection), where all of it is in view: over the selection,
    // growing upward, where there is no room under it.
    const win = this.doc.defaultView;
    const { w, h } = viewportSize(this.doc);
    const at = placeBox(selected.rect, w, h, BUBBLE_WIDTH);
    const style = view.host.style;
    style.left = `${at.left + (win?.scrollX ?? 0)}px`;
    style.top = `${(at.top ?? h - at.bottom!) + (win?.scrollY ?? 0)}px`;
    if (at.top === undefined) style.transform = 'translateY(-100%)';
    style.setProperty('--room', `${at.maxHeight}px`);
    // In the page's modal dialog the selection is in: over it, and usable (overlay.ts).
    this.raised = putOverlay(view.host, selected.node ?? null);
    const active = this.doc.activeElement;
    this.returnTo = active instanceof HTMLElement && active !== this.doc.body ? active : null;
    view.focus();
    // What the selection reads as, where the detector is sure of it, comes before the `lang`
    // around it (a French quote on an English page); a short or unsure reading never does.
    const [read, prefs, lists] = await Promise.all([this.deps.detect(selected.text), load<BubblePrefs>(BUBBLE_KEY, {}), this.languageLists()]);
    // As the engine lists it (core/lang.ts `listedCode`): a Chinese text read as `zh` is Google's
    // `zh-Hans`, a browser in `zh-TW` wants `zh-Hant` (before: `zh`, which Google does not list).
    const src = languageOf((read?.sure ? read.language : '') || selected.lang || this.doc.documentElement.lang || read?.language || 'en') ?? 'en';
    const trg = prefs.trg ?? languageOf(this.deps.uiLanguage()) ?? 'en';
    await this.translate((lists && listedCode(src, lists.src, true)) ?? src, (lists && listedCode(trg, lists.trg)) ?? trg);
    return true;
  }

  /** The engine's language lists, asked once a page (the pickers' choices, and the codes a text's language is sent as). */
  private async languageLists(): Promise<LanguageLists | undefined> {
    if (!this.lists) {
      const reply = await this.deps.callApi('GetLanguages').catch(() => undefined);
      if (reply?.status === 200) this.lists = reply.body as LanguageLists;
    }
    return this.lists;
  }

  private async translate(src: string, trg: string): Promise<void> {
    const view = this.view;
    if (!view) return;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    await this.languageLists();
    view.setLanguages(src, trg, this.lists ?? { src: [src], trg: [trg] }, this.deps.uiLanguage());
    view.reset();
    const start = performance.now();
    const seen = new Set<string>();
    const add = (item: TrObj) => {
      if (controller.signal.aborted || seen.has(item.rid)) return;
      seen.add(item.rid);
      view.addResult(resultOf(item, performance.now() - start));
    };
    try {
      const reply = await this.deps.translateStream(
        { src, trg, dat: [this.text], min: ALTERNATIVES, max: ALTERNATIVES },
        (item) => add(item as TrObj),
        { signal: controller.signal },
      );
      const body = reply.body as { err?: string; dat?: unknown };
      if (reply.status !== 200 && seen.size === 0) view.setError(body.err ?? `error ${reply.status}`);
    } catch (e) {
      if (!controller.signal.aborted) view.setError(e instanceof Error ? e.message : String(e));
    } finally {
      if (this.controller === controller) view.setPending(false);
    }
  }

  /**
   * Closes the bubble. Where the focus is in it (Esc, its close button), it goes back to where it
   * was when the bubble opened: the text field whose words were translated (its selection kept),
   * the frame whose selection the top frame showed. A click elsewhere (`refocus` false) puts it
   * where it clicks. Before, it was left on the page's body.
   */
  close(refocus = true): void {
    const view = this.view;
    const back = this.returnTo;
    const focused = !!view && refocus && hasFocus(view.host);
    this.returnTo = null;
    this.lifted = undefined;
    this.controller?.abort();
    this.controller = undefined;
    view?.host.remove();
    this.view = undefined;
    if (focused && back?.isConnected) back.focus({ preventScroll: true });
  }

  /** What the bubble shows (tests read it: the shadow root is closed). */
  snapshot(): BubbleSnapshot | undefined {
    return this.view?.snapshot();
  }

  destroy(): void {
    this.close();
    this.teardown.abort();
  }
}

/** Whether the focus is in `host`'s shadow root (`:focus-within` crosses into it; the document's `activeElement` is the host, or a page's component around it). */
function hasFocus(host: Element): boolean {
  try {
    return host.matches(':focus-within');
  } catch {
    return host.ownerDocument.activeElement === host;
  }
}

/** Listens for the background's `selection:show`; every frame gets it, the one with a selection acts. */
export function installSelectionBubble(bubble = new SelectionBubble()): SelectionBubble {
  const runtime = ext().runtime;
  runtime.onMessage.addListener(((message: unknown, sender: { id?: string; tab?: unknown }, sendResponse: (r: unknown) => void) => {
    // Only the background may ask: never a tab or another extension.
    if (sender.id !== runtime.id || sender.tab !== undefined || !isSelectionMessage(message)) return undefined;
    const { lift, text, targeted } = message.data;
    if (lift && text !== undefined) {
      if (window.parent !== window) return undefined;
      void bubble.showLifted(lift.key, text, lift.lang).catch(() => false).then((shown) => sendResponse({ shown }));
      return true;
    }
    void bubble.show(targeted ? text : undefined);
    return undefined;
  }) as Parameters<typeof runtime.onMessage.addListener>[0]);
  return bubble;
}
