/**
 * A tab's page translation counted over all its frames. Every frame of a tab translates its own
 * document (an embedded article, a comments widget), but only the top frame answers the popup and
 * shows the indicator: a frame whose parts failed left the tab's badge at ✓ and the popup with no
 * "Retry". So each frame reports its progress too (`page:progress`), and the tab's badge and the
 * status the popup reads (`page:status`) are the top frame's with its frames' units added.
 *
 * Kept in the worker's memory: a worker stopped while a page translates forgets its frames until
 * each reports again (at its next change; every frame reports its end). A tab's frames are forgotten
 * when its top frame shows the original (a restore; a new page, which reports only if translated)
 * and when its top starts a translation afresh (nothing done yet: a navigation to a page translated
 * in turn, or another target), so the frames of a page that is gone are never counted. A frame
 * whose first report comes before its top's start loses it, and is counted again from its next one.
 */
import type { PageStatus } from '../shared/messages';

type Counts = Pick<PageStatus, 'state' | 'done' | 'total' | 'errors' | 'error'>;

export class FrameProgress {
  /** By tab: its top frame's last report. */
  private readonly tops = new Map<number, PageStatus>();
  /** By tab, by frame id: each frame's last report, while it is not the original. */
  private readonly frames = new Map<number, Map<number, Counts>>();

  /** The tab's top frame reported `status`. */
  top(tabId: number, status: PageStatus): void {
    // A start afresh is the top's move into translating with nothing done (a resume has done some).
    const started = status.state === 'translating' && status.done === 0 && this.tops.get(tabId)?.state !== 'translating';
    if (started || status.state === 'original') this.frames.delete(tabId);
    if (status.state === 'original') this.tops.delete(tabId);
    else this.tops.set(tabId, status);
  }

  /** A frame (not the top) of the tab reported `status`. */
  frame(tabId: number, frameId: number, status: Counts): void {
    let frames = this.frames.get(tabId);
    if (status.state === 'original') {
      frames?.delete(frameId);
      return;
    }
    if (!frames) this.frames.set(tabId, (frames = new Map()));
    const { state, done, total, errors, error } = status;
    frames.set(frameId, { state, done, total, errors, ...(error ? { error } : {}) });
  }

  /** Frames are asked to go on (`page:retry`): those with failures are counted again from their next report. */
  retrying(tabId: number): void {
    const frames = this.frames.get(tabId);
    if (frames) for (const [id, f] of frames) if (f.errors > 0) frames.delete(id);
  }

  /** The tab's status as its top's last report says, with its frames' (undefined: no report from the top since the worker started). */
  last(tabId: number): PageStatus | undefined {
    const top = this.tops.get(tabId);
    return top && this.of(tabId, top);
  }

  /**
   * `top` (what the tab's top frame says) with the units of the tab's frames added: their parts,
   * done and failed; translating while one of them is. A page shown as it is has no frames counted.
   */
  of(tabId: number, top: PageStatus): PageStatus {
    const frames = this.frames.get(tabId);
    if (top.state === 'original' || !frames?.size) return top;
    let { state, done, total, errors, error } = top;
    for (const f of frames.values()) {
      done += f.done;
      total += f.total;
      errors += f.errors;
      error ??= f.error;
      if (f.state === 'translating' && state === 'translated') state = 'translating';
    }
    return { ...top, state, done, total, errors, ...(error ? { error } : {}) };
  }
}
