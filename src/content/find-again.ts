/**
 * Units found again where the page changed or added content while translated (follow.ts), or
 * where a place it kept changing is due (lively.ts): around each root, a run the change joined
 * undone first and found whole; queued once each.
 */
import type { Job } from './jobs';
import { PageRemovals } from './removals';
import type { Unit } from './segment';
import { runRoots } from './units';

export abstract class PageFinds extends PageRemovals {
  /** The page changed what is in `el`, an element a unit keeps as it is (follow.ts: a part kept live is not still). */
  protected keptChanged(_el: Element): void {}

  /** Units for what the page changed or added: around each root, and the attributes named. */
  protected findAgain(roots: Iterable<Node>, changedAttrs: readonly [Element, string][]): Unit[] {
    const seg = this.segmenter!;
    const observer = this.observer!;
    const fresh: Unit[] = [];
    for (const [el, name] of changedAttrs) {
      if (!el.isConnected) continue;
      for (const u of seg.attributes(el)) if (u.kind === 'attr' && u.name === name && !this.owners.taken(u)) fresh.push(u);
    }
    // Nodes of runs found already: a run is looked for once, from whichever of its nodes comes first.
    const covered = new Set<Node>();
    // The roots, and the nodes of jobs undone below that reach past the run found again.
    const queue = [...roots];
    for (let i = 0; i < queue.length; i++) {
      const root = queue[i]!;
      if (!root.isConnected || covered.has(root) || this.owners.holder(root)) continue;
      // In a part of its sentence kept as the page writes it (ownership.ts `livePart`): the page's
      // own; only what says yes in there is a unit, of its own. Before, it joined the run around
      // it, which was undone and sent again at each of its changes.
      const part = this.owners.livePart(root);
      if (part) {
        this.keptChanged(part);
        for (const u of seg.around(root)) if (within(u, part) && !this.owners.taken(u, true)) fresh.push(u);
        continue;
      }
      const around: Node[] = [];
      let units = seg.around(root, [], around);
      // A node added beside a translated run joins it, as does a link that lost the block it held,
      // or a long text that became short: the translations of what the run holds (at any depth:
      // units cut out of its links, pieces of its texts) go, and the whole run is translated again
      // (found here, not only from the record's siblings, which a batch may not name). A node in
      // no unit of its run (a separator now cutting it in parts) takes the whole run with it.
      const joined = new Set<Job>();
      const run = units.find((u) => u.kind === 'range' && u.nodes.some((n) => n === root || n.contains(root)));
      for (const n of run?.kind === 'range' ? run.nodes : around) this.owners.within(n, joined);
      if (joined.size) {
        observer.whilePaused(() => joined.forEach((j) => this.retire(j)));
        for (const j of joined) rootsOf(j, queue);
        units = seg.around(root);
      }
      // A run found again that holds both written parts and nodes no unit covers (content the page
      // added while it was out of the page, beside a long text written in pieces): its parts go, and
      // the whole run is translated again, as for a change seen in the page.
      const parts = new Set<Job>();
      let found = units.filter((u) => {
        if (!this.owners.taken(u, true)) return true;
        if (u.kind === 'range' && !this.owners.covers(u)) for (const n of u.nodes) this.owners.within(n, parts);
        return false;
      });
      if (parts.size) {
        observer.whilePaused(() => parts.forEach((j) => this.retire(j)));
        for (const j of parts) rootsOf(j, queue);
        found = seg.around(root).filter((u) => !this.owners.taken(u, true));
      }
      for (const u of found) {
        fresh.push(u);
        if (u.kind === 'range') for (const n of u.nodes) covered.add(n);
      }
    }
    return fresh;
  }

  /** Queues units found again, each once. */
  protected queueFound(fresh: readonly Unit[]): void {
    const seen = new Set<Node>();
    const seenAttrs = new Map<Element, string[]>();
    for (const u of fresh) {
      // The same run, or the same attribute, found from two of its nodes: one job (two would each
      // keep an original, and restore would put back the older).
      if (u.kind === 'attr') {
        let names = seenAttrs.get(u.el);
        if (!names) seenAttrs.set(u.el, (names = []));
        else if (names.includes(u.name)) continue;
        names.push(u.name);
      } else {
        const key = u.kind === 'range' ? u.nodes[0]! : u.group.text;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      this.enqueue(u);
    }
  }
}

/**
 * The nodes of `job`'s unit, to be found again: undone with a run, it may reach past that run (a
 * part whose last node a block the page put in now cuts off: found by the dynamic property test,
 * seed 139001, where that node was left in the page's language).
 */
function rootsOf(job: Job, into: Node[]): void {
  const u = job.origin ?? job.unit;
  if (u.kind !== 'range') return;
  const nodes = new Set<Node>();
  runRoots(u, nodes);
  into.push(...nodes);
}

/** Whether unit `u` is inside `el`. */
function within(u: Unit, el: Element): boolean {
  return el.contains(u.kind === 'attr' ? u.el : u.kind === 'piece' ? u.group.text : u.nodes[0]!);
}
