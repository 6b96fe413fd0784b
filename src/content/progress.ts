/**
 * Progress to the indicator and the badge (`PageDeps.onStatus`): a change of state at once, counts
 * at most once per frame (they were told after every answer, packing and mutation batch: ~35 ms of
 * the page's main thread on readability-wikipedia, indicator writes included), and the same status
 * never twice in a row.
 */
import type { PageState, PageStatus } from '../shared/messages';
import type { Frame } from './observe';

export class Progress {
  /** The state last told, and whether counts wait for the next frame. */
  private told: PageState | null = null;
  private waiting = false;
  private last = '';

  constructor(
    private readonly status: () => PageStatus,
    private readonly state: () => PageState,
    private readonly frame: Frame,
    private readonly onStatus: ((status: PageStatus) => void) | undefined,
  ) {}

  /** `now`: the caller is in a frame already (a write): the counts go with it. */
  report(now = false): void {
    const onStatus = this.onStatus;
    if (!onStatus) return;
    const tell = () => {
      const status = this.status();
      const key = JSON.stringify(status);
      if (key === this.last) return;
      this.last = key;
      onStatus(status);
    };
    const state = this.state();
    if (state !== this.told || now) {
      this.told = state;
      tell();
      return;
    }
    if (this.waiting) return;
    this.waiting = true;
    this.frame(() => {
      this.waiting = false;
      tell();
    });
  }
}
