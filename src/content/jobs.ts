/** The page translator's dependencies, and the job that carries one unit through a call. */
import type { ApiReply, TrdObj, TrObj } from '../core/types';
import type { ApiParams, PageStatus } from '../shared/messages';
import type { Call } from './chunk';
import type { Idle } from './discover';
import type { Ranked } from './prioritize';
import type { Unit } from './segment';
import type { UndoLog } from './undo';

export type TranslateFn = (
  params: ApiParams,
  onItem: (item: TrObj | TrdObj) => void,
  options: { signal?: AbortSignal },
) => Promise<ApiReply>;

export interface PageDeps {
  translate: TranslateFn;
  doc?: Document;
  frame?: (cb: () => void) => void;
  onStatus?: (status: PageStatus) => void;
  /** Rank by the viewport (false in tests without layout). */
  viewport?: boolean;
  display?: (el: Element) => string;
  ignore?: (el: Element) => boolean;
  /** Calls in flight at once. */
  maxInFlight?: number;
  limit?: number;
  /** Where the rest of the page is segmented after the first screen (default: idle slices). */
  idle?: Idle;
  /** Which blocks the first pass segments (default: those meeting the viewport, when `viewport`). */
  near?: (el: Element) => boolean;
}

export type JobState = 'queued' | 'sent' | 'done' | 'error' | 'retired';

export interface Job extends Ranked {
  unit: Unit;
  req: number;
  state: JobState;
  /** Markup size, so calls go out full while the page is still being segmented. */
  size: number;
  log: UndoLog | null;
}

export type Pending =
  | { kind: 'item'; req: number; epoch: number; call: Call<Job>; item: TrdObj }
  | { kind: 'end'; req: number; epoch: number; call: Call<Job>; error?: string };

