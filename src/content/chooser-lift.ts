/**
 * The chooser of a paragraph's alternatives in a frame too small for it (an embedded post, a
 * widget's strip) is shown by the top frame, beside the paragraph as the screen shows it: in the
 * frame it was cut by the frame's box and scrolled inside a few pixels of room. As for the
 * selection bubble (lift.ts), the place goes up through the frames' window messages, with a random
 * key and nothing else; the paragraph's text and its alternatives go through the background only
 * (`chooser:lift`, `chooser:alt`), to the tab's top frame, and the reader's choice comes back the
 * same way (`chooser:act`) to the frame, which writes it into its own page.
 */
import type { send as sendDefault } from '../shared/api';
import { ext } from '../shared/browser';
import { isChooserMessage, type ChooserAct, type LiftedAlternative, type LiftedView } from '../shared/messages';
import type { Alternative, Choice } from './choices';
import { LiftRelay, postClose, postUp, type Lifted, type Rect } from './lift';

/** The least height the chooser needs beside its paragraph (the original and a translation or two): in a frame with less room, the top frame shows it. */
export const CHOOSER_ROOM = 180;

/** How a frame's chooser and the top frame's reach each other. */
export interface LiftChannel {
  /** In a frame: asks the top frame to show `view` where `rect` is on the screen; false if it does not. */
  up(key: string, rect: Rect, view: LiftedView): Promise<boolean>;
  /** In that frame: a route's alternative as it arrives, or the end. */
  alt(key: string, alt: Alternative | 'done'): void;
  /** In that frame: the reader clicked or pressed Esc here, or the chooser closed here: the top frame's closes. */
  closeUp(key: string): void;
  /** In the top frame: where the frames say the paragraph of `key` is (once). */
  take(key: string): Promise<Lifted | undefined>;
  /** In the top frame: the reader's choice, to the frame. */
  act(key: string, frameId: number, act: ChooserAct, rid?: string): void;
  /** In the top frame: `listener` gets the key of a frame's click or Esc, until `signal` aborts. */
  onClose(listener: (key: string) => void, signal?: AbortSignal): void;
}

/** The channel of `win`'s frame: its window relay (lift.ts) and the background. */
export function liftChannel(win: Window, send: typeof sendDefault): LiftChannel {
  const relay = LiftRelay.of(win);
  // One after the other, each once the background handed the one before to the top frame: the end
  // never overtakes an alternative.
  let alts: Promise<unknown> = Promise.resolve();
  return {
    async up(key, rect, view) {
      postUp(win, key, rect);
      return send('chooser:lift', { key, view }).then((r) => r.shown, () => false);
    },
    alt(key, alt) {
      alts = alts.then(() => send('chooser:alt', alt === 'done' ? { key, done: true } : { key, alt: alt as LiftedAlternative })).catch(() => undefined);
    },
    closeUp: (key) => postClose(win, key),
    take: (key) => relay.take(key),
    act(key, frameId, act, rid) {
      void send('chooser:act', { key, frameId, act, ...(rid === undefined ? {} : { rid }) }).catch(() => undefined);
    },
    onClose: (listener, signal) => relay.onClose(listener, signal),
  };
}

/** What the content script's chooser does with the background's `chooser:*` messages. */
export interface LiftedChooser {
  /** Top frame: shows a frame's chooser; false if the frames did not say where. */
  openLifted(key: string, frameId: number, view: LiftedView): Promise<boolean>;
  /** Top frame: an alternative or the end of the frame's chooser it shows. */
  liftedAlt(key: string, alt: LiftedAlternative | undefined, done: boolean): void;
  /** The frame: the reader's choice in the top frame; false if it is not this frame's or could not be written. */
  act(key: string, act: ChooserAct, rid: string | undefined): boolean;
}

/** Listens for the background's `chooser:show`, `chooser:alt` (top frame) and `chooser:do` (the frame). */
export function installChooserLift(chooser: LiftedChooser, top = window.parent === window): void {
  const runtime = ext().runtime;
  runtime.onMessage.addListener(((message: unknown, sender: { id?: string; tab?: unknown }, sendResponse: (r: unknown) => void) => {
    // Only the background may ask: never a tab or another extension.
    if (sender.id !== runtime.id || sender.tab !== undefined || !isChooserMessage(message)) return undefined;
    if (message.type === 'chooser:do') {
      if (top) return undefined;
      sendResponse({ ok: chooser.act(message.data.key, message.data.act, message.data.rid) });
      return undefined;
    }
    if (!top) return undefined;
    if (message.type === 'chooser:alt') {
      chooser.liftedAlt(message.data.key, message.data.alt, message.data.done === true);
      return undefined;
    }
    void chooser.openLifted(message.data.key, message.data.frameId, message.data.view).catch(() => false).then((shown) => sendResponse({ shown }));
    return true;
  }) as Parameters<typeof runtime.onMessage.addListener>[0]);
}

/**
 * In the top frame: the choice of a frame's paragraph, whose picks go to that frame. `onDone` gets
 * what ends its `done` (the frame's `chooser:alt` with `done`). Once the reader chose, the frame
 * closes its side itself: no `close` is sent that could overtake the choice.
 */
export function liftedChoice(lift: LiftChannel, key: string, frameId: number, view: LiftedView, el: Element, onDone: (done: () => void) => void): Choice {
  let chosen = false;
  const act = (what: ChooserAct, rid?: string) => {
    chosen = true;
    lift.act(key, frameId, what, rid);
    return true;
  };
  return {
    el,
    original: view.original,
    copy: view.copy,
    done: new Promise<void>(onDone),
    pick: (rid) => act('pick', rid),
    pickOriginal: () => act('original'),
    hide: () => act('hide'),
    prefer: (rid) => void act('prefer', rid),
    close: () => void (chosen || lift.act(key, frameId, 'close')),
  };
}
