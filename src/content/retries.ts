/**
 * What a page asked again as it is sends again (page.ts `resume`): the jobs that failed, and after a
 * stop those it left queued or in flight; and how often a unit whose call was lost with the worker
 * is sent again by itself before it counts as failed.
 */
import type { Job } from './jobs';

/**
 * Times a unit is sent again after its call was lost with the worker (`PortClosedError`: Chromium
 * stopped or restarted it while the call ran), before it counts as failed. Calls lost count toward
 * calls.ts `STOP_AFTER_FAILED_CALLS` too, so a worker that dies on every call stops the page.
 */
export const LOST_CALL_TRIES = 2;

export class Retries {
  private failedJobs: Job[] = [];
  private unsent: Job[] = [];
  /** Jobs sent again after their call was lost, and how many times. */
  private readonly lost = new WeakMap<Job, number>();

  failed(job: Job): void {
    this.failedJobs.push(job);
  }

  /** The jobs that failed, to send again. */
  failures(): readonly Job[] {
    return this.failedJobs;
  }

  /** A stop left these queued or in flight (a follower rides with its leader). */
  stopped(jobs: Job[]): void {
    this.unsent = jobs;
  }

  /** Whether a unit of a call lost with the worker is sent again (counted), or has had its tries. */
  afterLoss(job: Job): boolean {
    const tries = this.lost.get(job) ?? 0;
    if (tries >= LOST_CALL_TRIES) return false;
    this.lost.set(job, tries + 1);
    return true;
  }

  /**
   * The jobs to send again, each once, and the lists emptied. Filtered by state: a job the page
   * changed since is retired, not retried.
   */
  take(): Job[] {
    const jobs = [...new Set([...this.failedJobs, ...this.unsent])].filter(again);
    this.clear();
    return jobs;
  }

  /** Lets go of the jobs that can no longer be sent again (retired: the page changed or removed them). */
  prune(): void {
    this.failedJobs = this.failedJobs.filter(again);
    this.unsent = this.unsent.filter(again);
  }

  clear(): void {
    this.failedJobs = [];
    this.unsent = [];
  }
}

/** Whether a job can be sent again: it failed, or a stop left it queued or in flight. */
const again = (j: Job) => j.state === 'error' || j.state === 'queued' || j.state === 'sent';
