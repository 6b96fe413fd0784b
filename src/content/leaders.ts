/**
 * Texts translated once for the page.
 * - Attribute values, as they are queued: the job queued or in flight for a value leads it, and the
 *   same value elsewhere (a link's title on every link to that article) follows it instead of being
 *   sent again (aows-nba: ~5 000 prose titles, ~1 100 distinct values).
 * - Any unit, as calls are packed (a team's name in a table's every row, a date, a link's words, a
 *   title reading as a link's text, and "To <a>Boston Celtics</a>" with its link): one whose
 *   markup (ids aside) a call in flight, or the call being packed, already carries follows that
 *   job, and is written from its answer into its own nodes. Packing goes by priority, so a unit
 *   never waits behind one further from the viewport.
 * - The same, once such a unit's call is answered: packing finds its answer (`answerOf`) and the
 *   unit is written from it, not sent. Kept while the page is being translated, dropped once it
 *   is (what the page adds later is sent: the heap a translated page keeps is what the memory aim
 *   counts).
 */
import type { AnswerEl } from './answer';
import type { Markup } from './chunk';
import type { Job } from './jobs';
import type { Unit } from './units';

/** The answers kept at most, and the longest markup kept (what a page repeats is names, dates, labels). */
const MAX_ANSWERED = 5000;
const MAX_ANSWERED_LENGTH = 200;

/**
 * A unit's markup as sent, without its ids (its text alone where it has no element): units that
 * read the same take the same answer, each written into its own nodes (the answer's ids name
 * elements by their place in the markup, which is the same). Not a piece of a long text: each
 * piece's write rewrites the whole text, so a text repeating its sentences (a hostile page's 1M
 * characters) had hundreds written in one frame (a 5.8 s freeze).
 */
function shapeOf(unit: Unit, m: Markup): string | undefined {
  if (unit.kind === 'piece') return undefined;
  if (m.pieces.length === 2) return m.pieces[1];
  // With elements, only as short as the texts a page repeats (a cell, a caption, a link and its
  // words): a key is made for each unit packed, and a paragraph with links is seldom twice.
  return m.size <= MAX_ANSWERED_LENGTH ? m.pieces.slice(1).join('\u0001') : undefined;
}

/** A unit's answer (its wrapper's `i` says how its elements are numbered), and the route that gave it. */
export interface Answered {
  answer: AnswerEl;
  rid: string | undefined;
}

export class Leaders {
  private readonly byValue = new Map<string, Job>();
  /** Markup (`shapeOf`) of the jobs in flight, and the other way round (to let go at their end). */
  private readonly sentText = new Map<string, Job>();
  private readonly textOf = new Map<Job, string>();
  /** Markup of the call being packed. */
  private readonly packing = new Map<string, Job>();
  /** Markup answered, while the page is being translated. */
  private readonly answered = new Map<string, Answered>();

  /** `job` leads its value (an attribute unit's) as it is queued. */
  queued(job: Job): void {
    if (job.unit.kind === 'attr') this.byValue.set(job.unit.value, job);
  }

  /** The job queued or sent for `u`'s value, if any: `u` follows it rather than being sent again. */
  of(u: Unit): Job | undefined {
    const leader = u.kind === 'attr' ? this.byValue.get(u.value) : undefined;
    return leader && (leader.state === 'queued' || leader.state === 'sent') ? leader : undefined;
  }

  /** `job`'s markup without its ids (`shapeOf`), read once as a call is packed and given to the three below. */
  keyOf(job: Job): string | undefined {
    return job.markup ? shapeOf(job.unit, job.markup) : undefined;
  }

  /**
   * As a call is packed: `job` (its markup `text`, `keyOf`) follows the job with that markup in
   * this call (`'call'`) or in one in flight (`'flight'`), rather than going in the call;
   * undefined if there is none.
   */
  followAtPacking(job: Job, text: string | undefined): 'call' | 'flight' | undefined {
    if (text === undefined) return undefined;
    const here = this.packing.get(text);
    const sent = this.sentText.get(text);
    const leader = here ?? (sent?.state === 'sent' ? sent : undefined);
    if (!leader) return undefined;
    this.follow(leader, job);
    return here ? 'call' : 'flight';
  }

  /** The answer a unit whose markup reads `text` (`keyOf`) had already, if any: it is written from it rather than sent. */
  answerOf(text: string | undefined): Answered | undefined {
    return text === undefined || this.answered.size === 0 ? undefined : this.answered.get(text);
  }

  /** `job` is answered: a unit packed later with its markup is written from the answer. */
  answer(job: Job, answer: AnswerEl, rid: string | undefined): void {
    const text = this.textOf.get(job);
    if (text !== undefined && text.length <= MAX_ANSWERED_LENGTH && this.answered.size < MAX_ANSWERED) this.answered.set(text, { answer, rid });
  }

  /** The page is translated: the answers kept for its repeats go. */
  forgetAnswers(): void {
    this.answered.clear();
  }

  /** `job` (its markup `text`, `keyOf`) went in the call being packed: a unit packed later with that markup follows it. */
  packed(job: Job, text: string | undefined): void {
    if (text !== undefined) this.packing.set(text, job);
  }

  /** The call packed is sent: its units lead their markup while it is in flight. */
  callSent(): void {
    for (const [text, job] of this.packing) {
      this.sentText.set(text, job);
      this.textOf.set(job, text);
    }
    this.packing.clear();
  }

  /** `follower` waits for `leader`'s answer, and is written or failed with it. */
  follow(leader: Job, follower: Job): void {
    follower.state = 'waiting';
    (leader.followers ??= []).push(follower);
    // A title leading its value's others, packed after a text that reads the same: they all follow.
    if (follower.followers) {
      leader.followers.push(...follower.followers);
      follower.followers = null;
    }
    // It leads its value no more (values found later are packed, and follow as this one did).
    if (follower.unit.kind === 'attr' && this.byValue.get(follower.unit.value) === follower) this.byValue.delete(follower.unit.value);
  }

  /** `job` is settled (written, failed, retired): its followers went with it; it leads no more. */
  settled(job: Job): void {
    if (job.unit.kind === 'attr' && this.byValue.get(job.unit.value) === job) this.byValue.delete(job.unit.value);
    const text = this.textOf.get(job);
    if (text !== undefined) {
      this.textOf.delete(job);
      if (this.sentText.get(text) === job) this.sentText.delete(text);
    }
    job.followers = null;
  }

  clear(): void {
    this.answered.clear();
    this.byValue.clear();
    this.sentText.clear();
    this.textOf.clear();
    this.packing.clear();
  }
}

/** The job, and the jobs still waiting for its answer (attribute values that follow it). */
export function withFollowers(job: Job): Job[] {
  return job.followers ? [job, ...job.followers.filter((f) => f.state === 'waiting')] : [job];
}
