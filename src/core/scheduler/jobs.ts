/**
 * The bookkeeping of coalescing: a Job is one distinct text of one (pair, domain, format) group,
 * shared by every caller that asked for it while it was queued or in flight; a Call is one
 * translateBatch of a caller, answered when all its jobs are.
 */
import type { ProviderError } from '../errors';
import type { BatchOptions, Pair } from '../provider';

export interface Job {
  seq: number;
  /** When it was first queued: a partial request waits at most `windowMs` after its oldest job. */
  at: number;
  text: string;
  chars: number;
  solo: boolean;
  /** Transient failures (502, 503, timeout) and 429s this job has been through. */
  attempts: number;
  group: Group;
  /** Queued in the tick of an isolated call: sent at once, without waiting for the window. */
  eager: boolean;
  /** Callers still waiting (aborted callers are removed; callers failed by another job stay). */
  waiters: Set<Call>;
  inFlight: boolean;
  /** Only callers that said `background` wait for it: queued after every other job. */
  background: boolean;
}

export interface Group {
  key: string;
  pair: Pair;
  options: BatchOptions;
  queue: Job[];
  /** Queued or in-flight jobs by text: identical texts are sent once. */
  byText: Map<string, Job>;
  /** Set by an isolated call until the scheduler's next run: jobs queued meanwhile are eager. */
  eager: boolean;
}

export class Call {
  done = false;
  /** Rejected because one of its texts failed: its other texts go on, for the engine's retry. */
  failed = false;
  private readonly slots: (Job | string)[];
  private readonly results = new Map<Job, string>();

  constructor(
    slots: (Job | string)[],
    private readonly resolve: (out: string[]) => void,
    private readonly reject: (e: ProviderError) => void,
  ) {
    this.slots = slots;
  }

  get jobs(): Job[] {
    return this.slots.filter((s): s is Job => typeof s !== 'string');
  }

  answered(job: Job, text: string): void {
    this.results.set(job, text);
    this.check();
  }

  /** Resolves once every text is answered (at once when all came from the recent results). */
  check(): void {
    if (this.done) return;
    if (this.slots.every((s) => typeof s === 'string' || this.results.has(s))) {
      this.done = true;
      this.resolve(this.slots.map((s) => (typeof s === 'string' ? s : this.results.get(s)!)));
    }
  }

  fail(e: ProviderError, aborted = false): void {
    if (this.done) return;
    this.done = true;
    this.failed = !aborted;
    this.reject(e);
  }
}

/** Queues `job` after the group's other foreground jobs and before its background ones. */
export function enqueue(group: Group, job: Job): void {
  const q = group.queue;
  if (job.background || q.length === 0 || !q[q.length - 1]!.background) q.push(job);
  else q.splice(q.findIndex((j) => j.background), 0, job);
}

/** Foreground first, then by age: a queue's order (`enqueue`). */
export const queueOrder = (a: Job, b: Job): number => Number(a.background) - Number(b.background) || a.seq - b.seq;

export const groupKey = (pair: Pair, options: BatchOptions): string =>
  `${pair.src}\u0001${pair.trg}\u0001${options.domain}\u0001${options.format}`;

/**
 * Answers of calls that failed: the engine retries such a call text by text at once, and the texts
 * that were translated (or refused alone, 400) are answered from here instead of sent again.
 */
export class Recent {
  private readonly map = new Map<string, { text: string | ProviderError; at: number }>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly cap = 2000,
  ) {}

  get(key: string, now: number): string | ProviderError | undefined {
    const hit = this.map.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.text;
    if (hit) this.map.delete(key);
    return undefined;
  }

  set(key: string, text: string | ProviderError, now: number): void {
    this.map.delete(key);
    this.map.set(key, { text, at: now });
    if (this.map.size > this.cap) this.map.delete(this.map.keys().next().value!);
  }
}
