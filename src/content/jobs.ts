/** The page translator's dependencies, and the job that carries one unit through a call. */
import type { ApiReply, TrdObj, TrObj } from '../core/types';
import type { ApiParams, PageStatus } from '../shared/messages';
import type { AnswerEl } from './answer';
import type { Call, Markup } from './chunk';
import type { Idle } from './discover';
import type { Ranked } from './prioritize';
import type { Unit } from './segment';
import type { Frame } from './observe';
import type { Pacer } from './pace';
import type { UndoLog } from './undo';
import type { Copy, Measure } from './bilingual';
import type { ShadowOf, ShadowReader } from './shadow';
import type { SizeWatch } from './late-roots';
import type { Clock } from './lively';

export type TranslateFn = (
  params: ApiParams,
  onItem: (item: TrObj | TrdObj) => void,
  /**
   * `background`: a call holding nothing in or near the viewport waits behind every other caller's
   * at the provider; `foreground` resolves if the reader then jumps to what it holds.
   */
  options: { signal?: AbortSignal; background?: boolean; foreground?: Promise<void> },
) => Promise<ApiReply>;

export interface PageDeps {
  translate: TranslateFn;
  /**
   * The alternatives' calls (default: `translate`): apart from the page's, which a Stop ends in
   * the worker without an answer (background/translate-port.ts `stopPageCalls`).
   */
  ask?: TranslateFn;
  doc?: Document;
  frame?: Frame;
  /** When answers are written (default: at the next frame near the viewport, paced elsewhere). */
  pacer?: Pacer;
  onStatus?: (status: PageStatus) => void;
  /** Rank by the viewport (false in tests without layout). */
  viewport?: boolean;
  display?: (el: Element) => string;
  /** Whether blocks' text flows from one into the next, as a split text's lines do (default: layout, which happy-dom lacks). */
  flows?: (lines: readonly Element[]) => boolean;
  ignore?: (el: Element) => boolean;
  /**
   * An element's shadow root, open or closed (default: what the browser lets a content script
   * read); with `lookInto` (shadow.ts `ShadowReader`), closed roots on hosts with children too.
   */
  shadow?: ShadowOf | ShadowReader;
  /** Whether a custom element waits for its definition (default: upgrades.ts, by `:defined`, which happy-dom lacks). */
  awaitsDefinition?: (el: Element) => boolean;
  /** Sizes watched for shadow roots attached later (default: ResizeObserver, which happy-dom lacks). */
  sizes?: SizeWatch;
  /** An image's box, for what a bilingual copy shows again (default: layout, which happy-dom lacks). */
  measure?: Measure;
  /**
   * Runs the translator's code on a sample of its own (rehearse.ts), in a task after the page's
   * first call left, so that its answer's write finds that code compiled.
   */
  rehearse?: () => void;
  /** Calls in flight at once. */
  maxInFlight?: number;
  limit?: number;
  /**
   * The most nodes a removal's walk visits before the sweep, when the page is idle, finds the units
   * that went (default 2 000, ~1 ms; tests: 0, every removal swept).
   */
  walkRemoved?: number;
  /** Where the rest of the page is segmented after the first screen (default: idle slices). */
  idle?: Idle;
  /** Where what is in view is segmented when no frame does it (default: a task of its own, soon; discover.ts). */
  urgent?: Idle;
  /** Which blocks the first pass segments (default: those meeting the viewport, when `viewport`). */
  near?: (el: Element) => boolean;
  /** GetRoutes for a pair (alternatives in place); absent: no alternatives. */
  routes?: (src: string, trg: string) => Promise<string[]>;
  /** Time and timers for the places the page keeps changing (lively.ts; tests). */
  clock?: Clock;
  /** The viewport's height for ranking (tests). */
  viewportHeight?: () => number;
}

/**
 * `waiting`: a unit whose text another job (its leader, leaders.ts) translates; `aside`: written, its
 * nodes since removed by the page (follow.ts `leave`).
 */
export type JobState = 'queued' | 'sent' | 'waiting' | 'done' | 'error' | 'retired' | 'aside';

export interface Job extends Ranked {
  unit: Unit;
  req: number;
  state: JobState;
  /** Markup size, so calls go out full while the page is still being segmented. */
  size: number;
  /** The unit serialized when queued; dropped once packed into a call. */
  markup: Markup | null;
  log: UndoLog | null;
  /** The route that translated it. */
  rid?: string;
  /** Bilingual mode: the copy the unit lives in, shown after the original once written. */
  copy?: Copy;
  /** Bilingual mode: the original unit (ownership, viewport rank). */
  origin?: Unit;
  /** Jobs of the same attribute value elsewhere on the page, written with this one's answer. */
  followers: Job[] | null;
}

export type Pending =
  | { kind: 'item'; req: number; epoch: number; call: Call<Job>; item: TrdObj }
  | { kind: 'end'; req: number; epoch: number; call: Call<Job>; error?: string; lost?: boolean }
  /** A unit whose plain text was answered already (leaders.ts `answerOf`), written from that answer. */
  | { kind: 'copy'; epoch: number; job: Job; answer: AnswerEl; rid: string | undefined };

