/**
 * When the scheduler runs: soon (after the current tick, so texts submitted together are seen
 * together; many requests for it make one run) or at a time (the earliest asked for wins).
 */
export class Wake {
  private queued = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly run: () => void,
    private readonly now: () => number,
    /** Called after each run that `soon` asked for (the end of a tick). */
    private readonly afterTick: () => void = () => {},
  ) {}

  soon(): void {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.run();
      this.afterTick();
    });
  }

  at(time: number): void {
    if (this.timer !== undefined && this.timerAt <= time) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = time;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.run();
    }, Math.max(0, time - this.now()));
  }
}
