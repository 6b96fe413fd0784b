/** The bench's figures of page translation (bench/page.ts), and the clock that counts DOM time. */

/**
 * What DOM time goes to: finding units and serializing them (`segment`), packing them into calls
 * (`pack`), reading answers and writing them (`write`), the page's own changes (`follow`).
 */
export type Phase = 'segment' | 'pack' | 'write' | 'follow';

/** The bench's figures of one translation started at `startedAt`, none taken yet. */
export function runMetrics(startedAt: number) {
  return {
    startedAt,
    domMs: 0,
    phaseMs: { segment: 0, pack: 0, write: 0, follow: 0 } as Record<Phase, number>,
    sendMs: 0,
    firstSendMs: -1,
    firstAnswerMs: -1,
    segmentedMs: -1,
    firstWriteMs: -1,
  };
}

/** Counts slices of DOM work into `metrics.domMs` and `metrics.phaseMs`. */
export class DomClock {
  /** Nesting depth of `time`: only the outermost adds to `domMs`. */
  private depth = 0;
  /** Time of the running slice's nested slices (and sends), not its phase's. */
  private nestedMs = 0;

  constructor(private readonly metrics: ReturnType<typeof runMetrics>) {}

  /** Runs `fn`, its time counted in `domMs` once however deeply nested, and in its phase's. */
  time<T>(phase: Phase, fn: () => T): T {
    const outer = this.nestedMs;
    this.nestedMs = 0;
    this.depth++;
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      const dt = performance.now() - t0;
      this.metrics.phaseMs[phase] += dt - this.nestedMs;
      this.nestedMs = outer + dt;
      if (--this.depth === 0) {
        this.metrics.domMs += dt;
        this.nestedMs = 0;
      }
    }
  }

  /** `ms` of handing a call to the messaging layer: not DOM work (the bench shows it apart, `sendMs`). */
  exclude(ms: number): void {
    this.metrics.sendMs += ms;
    this.metrics.domMs -= ms;
    if (this.depth > 0) this.nestedMs += ms;
  }
}
