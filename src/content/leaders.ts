/**
 * Attribute values translated once for the page: the job queued or in flight for a value leads it,
 * and the same value elsewhere (a link's title on every link to that article) follows it instead
 * of being sent again (aows-nba: ~5 000 prose titles, ~1 100 distinct values).
 */
import type { Job } from './jobs';
import type { Unit } from './units';

export class Leaders {
  private readonly byValue = new Map<string, Job>();

  /** `job` leads its value (an attribute unit's) as it is queued. */
  queued(job: Job): void {
    if (job.unit.kind === 'attr') this.byValue.set(job.unit.value, job);
  }

  /** The job queued or sent for `u`'s value, if any: `u` follows it rather than being sent again. */
  of(u: Unit): Job | undefined {
    const leader = u.kind === 'attr' ? this.byValue.get(u.value) : undefined;
    return leader && (leader.state === 'queued' || leader.state === 'sent') ? leader : undefined;
  }

  /** `follower` waits for `leader`'s answer, and is written or failed with it. */
  follow(leader: Job, follower: Job): void {
    follower.state = 'waiting';
    (leader.followers ??= []).push(follower);
  }

  /** `job` is settled (written, failed, retired): its followers went with it; it leads no more. */
  settled(job: Job): void {
    if (job.unit.kind === 'attr' && this.byValue.get(job.unit.value) === job) this.byValue.delete(job.unit.value);
    job.followers = null;
  }

  clear(): void {
    this.byValue.clear();
  }
}

/** The job, and the jobs still waiting for its answer (attribute values that follow it). */
export function withFollowers(job: Job): Job[] {
  return job.followers ? [job, ...job.followers.filter((f) => f.state === 'waiting')] : [job];
}
