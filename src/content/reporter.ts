/**
 * A frame's page-translation progress, told to the background (`page:progress`: the tab's badge, and
 * the popup's status, count every frame's units) and, in the top frame, shown by the in-page
 * indicator with the units of its frames the background tells it (`page:frames`).
 */
import { startsAfresh, withFrames, type FrameCounts, type PageState, type PageStatus } from '../shared/messages';

export interface ReporterDeps {
  /** Whether this is the tab's top frame (the one with the indicator). */
  top: boolean;
  /** Sends a report to the background. */
  send: (status: PageStatus) => void;
  /** The page's status now (what a report sent later carries). */
  status: () => PageStatus;
  /** The top frame's indicator, shown the tab's status. */
  show: (tab: PageStatus) => void;
  /** Whether the indicator is on the page now. */
  shown: () => boolean;
}

export class Reporter {
  /** How often a report goes at most: the top frame's 4 times a second (the badge's percentage), a frame's once a second. */
  private readonly every: number;
  private lastSent = 0;
  private lastState: PageState | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether this frame has told the background anything (a frame that never had a unit tells nothing). */
  private reported = false;
  /** The top frame's: its frames' units, as the background last told them. */
  private frames: FrameCounts | undefined;
  /** The state of the last status reported. */
  private lastReported: PageState | undefined;
  /**
   * The top frame's: whether its indicator follows every report, from a translation asked (a start,
   * a resume, a retry) until it is done or stopped; and the failures it last showed.
   */
  private asking = false;
  private failuresShown = 0;

  constructor(private readonly deps: ReporterDeps) {
    this.every = deps.top ? 250 : 1000;
  }

  /**
   * The page's status changed: on every change of state it is sent at once, else at most once per
   * `every`, the latest. A frame that finds nothing to translate (most ads and empty embeds) says
   * nothing: a page with a dozen frames sent a dozen reports at the trigger, and its top frame as
   * many sums of them, while its first paragraph was on its way.
   */
  report(status: PageStatus): void {
    const { top } = this.deps;
    if (top) {
      // The background forgets the frames' counts by the same rule (frame-progress.ts).
      const afresh = startsAfresh(this.lastReported, status);
      if (status.state === 'original' || afresh) this.frames = undefined;
      if (afresh) this.asking = true;
      const tab = withFrames(status, this.frames);
      // Once the page is translated, what it changes and adds is translated in turn without the
      // indicator coming back (a chat's every message, a clock's every wait); a new failure brings
      // it back, with its Retry, and one still on the page goes on showing how it goes.
      if (this.asking || status.state === 'original' || this.deps.shown() || tab.errors > this.failuresShown) {
        this.deps.show(tab);
        this.failuresShown = tab.errors;
      }
      if (tab.state !== 'translating') this.asking = false;
    }
    this.lastReported = status.state;
    if (!top && !this.reported && (status.state === 'original' || (status.total === 0 && status.errors === 0))) return;
    this.reported = true;
    const changed = status.state !== this.lastState;
    this.lastState = status.state;
    if (changed) return this.sendNow();
    // One on its way sends the status as it is then.
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.sendNow(), Math.max(0, this.every - (Date.now() - this.lastSent)));
  }

  /** The user asked the page to go on (a resume, a retry): the indicator follows it until it is done. */
  asked(): void {
    this.asking = true;
  }

  /**
   * The top frame's: the background told it its frames' units. The indicator shows them while it is
   * on the page (a frame's first report comes within its result's 2.5 s), and shows again once it
   * has gone for a frame's new failure (with its Retry), or a frame still translating what the user
   * asked; a frame done without one, or translating what its page changed, does not bring it back.
   */
  frameCounts(counts: FrameCounts): void {
    if (!this.deps.top) return;
    const failedBefore = this.frames?.errors ?? 0;
    this.frames = counts;
    const tab = withFrames(this.deps.status(), counts);
    const news = (counts.translating && this.asking) || counts.errors > failedBefore;
    if (tab.state !== 'original' && (this.deps.shown() || news)) this.deps.show(tab);
  }

  private sendNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastSent = Date.now();
    this.deps.send(this.deps.status());
  }
}
