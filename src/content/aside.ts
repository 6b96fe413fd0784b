/**
 * Written units whose nodes the page removed (a feed's old items, the view an app navigated away
 * from): kept only as long as the page keeps those nodes. A view kept aside and put back later (a
 * tab panel, a cached route) is still translated, and restore still undoes it; a view the page let
 * go is let go by us too, with the answers written into it.
 */

export class Aside<J extends object, R = readonly (string | null)[]> {
  /** Each node of a unit set aside, and the jobs that wrote into it: alive while the node is. */
  private held = new WeakMap<Node, J[]>();
  /** The jobs set aside, in the order they were set aside (their writes' order), for restore; those collected deref to nothing. */
  private refs: WeakRef<J>[] = [];
  private pruneAt = PRUNE_AT;
  /** What each job's nodes read when set aside (follow.ts: `UndoLog.reading` and the unit's shape). */
  private readings = new WeakMap<J, R>();

  /** Whether some unit is set aside. */
  get holding(): boolean {
    return this.refs.length > 0;
  }

  /** Keeps `job` while one of `nodes` lives, with what its nodes read now. */
  add(job: J, nodes: readonly Node[], reading: R): void {
    this.readings.set(job, reading);
    for (const n of nodes) {
      const list = this.held.get(n);
      if (list) list.push(job);
      else this.held.set(n, [job]);
    }
    this.refs.push(new WeakRef(job));
    if (this.refs.length >= this.pruneAt) {
      // The references to jobs collected since (each a small object of its own).
      this.refs = this.refs.filter((r) => r.deref() !== undefined);
      this.pruneAt = Math.max(PRUNE_AT, 2 * this.refs.length);
    }
  }

  /** The jobs still kept that `keep` accepts, each once (one put back and set aside again has two references), in the order they were set aside. */
  jobs(keep: (job: J) => boolean): J[] {
    const out = new Set<J>();
    for (const r of this.refs) {
      const j = r.deref();
      if (j !== undefined && keep(j)) out.add(j);
    }
    return [...out];
  }

  /** What `job`'s nodes read when it was set aside. */
  readingOf(job: J): R | undefined {
    return this.readings.get(job);
  }

  clear(): void {
    this.held = new WeakMap();
    this.readings = new WeakMap();
    this.refs = [];
    this.pruneAt = PRUNE_AT;
  }
}

const PRUNE_AT = 1024;
