/**
 * The call queue's order against a model: whatever mix of units found, dropped, taken a few at a
 * time and re-ranked by scrolling, each call gets the best-ranked waiting units in document order,
 * every unit once (prioritize.ts keeps its buckets as arrays with entries left behind by moves); a
 * value the page does not show, in view, ranks as near.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Prioritizer, type Bucket } from '../../src/content/prioritize';
import type { Unit } from '../../src/content/segment';

type Job = { unit: Unit; seq: number };
const unshown = (j: Job) => j.unit.kind === 'attr' && (j.unit.name === 'title' || j.unit.name === 'aria-label');
type Op =
  | { op: 'add'; bucket: Bucket; hidden: boolean; name: string }
  | { op: 'delete'; pick: number }
  | { op: 'take'; count: number }
  | { op: 'scroll'; pick: number; bucket: Bucket }
  | { op: 'ready' };

const TOP: Record<Bucket, number> = { 0: 100, 1: 1000, 2: 5000 };
const bucket = fc.constantFrom<Bucket>(0, 1, 2);
const op: fc.Arbitrary<Op> = fc.oneof(
  // A value the page shows (a field's hint, a button's words) or one it does not (a tooltip, what a screen reader says).
  { arbitrary: fc.record({ op: fc.constant('add' as const), bucket, hidden: fc.boolean(), name: fc.constantFrom('placeholder', 'value', 'title', 'aria-label') }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('take' as const), count: fc.integer({ min: 1, max: 6 }) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('scroll' as const), pick: fc.nat(), bucket }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('ready' as const) }), weight: 1 },
);

let queues: Prioritizer<Job>[] = [];
afterEach(() => {
  for (const q of queues) q.clear();
  queues = [];
});

describe('Prioritizer against a model', () => {
  it('serves the viewport, then near, then far (every fourth call far first, but not while what a scroll brought into view waits), in document order, each unit once', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), fc.boolean(), (ops, far) => {
        const q = new Prioritizer<Job>({ viewportHeight: () => 800, far });
        queues.push(q);
        // The model: each waiting job's bucket, and where its element is on screen now.
        const waiting = new Map<Job, Bucket>();
        const screen = new Map<Job, Bucket>();
        let rerank = false;
        let calls = 0;
        let seq = 0;
        let scrolled = false;
        // Where the model ranks a job on screen at `b`: a tooltip or an ARIA value in view goes with what is near.
        const rankAt = (j: Job, b: Bucket): Bucket => (b === 0 && unshown(j) ? 1 : b);
        const reRank = () => {
          if (!rerank) return;
          rerank = false;
          scrolled = true;
          for (const j of waiting.keys()) if (!j.unit.hidden) waiting.set(j, rankAt(j, screen.get(j)!));
        };
        for (const o of ops) {
          const live = [...waiting.keys()];
          if (o.op === 'add') {
            const el = document.createElement('p');
            const job: Job = { unit: { kind: 'attr', el, name: o.name, value: 'x', hidden: o.hidden }, seq: seq++ };
            screen.set(job, o.bucket);
            el.getBoundingClientRect = () => {
              const top = TOP[screen.get(job)!];
              return { top, bottom: top + 20, left: 0, right: 100, width: 100, height: 20, x: 0, y: top, toJSON: () => ({}) };
            };
            q.add(job);
            waiting.set(job, o.hidden ? 2 : rankAt(job, o.bucket));
          } else if (o.op === 'delete' && live.length) {
            const job = live[o.pick % live.length]!;
            q.delete(job);
            waiting.delete(job);
          } else if (o.op === 'scroll' && live.length) {
            screen.set(live[o.pick % live.length]!, o.bucket);
            dispatchEvent(new Event('scroll'));
            rerank = true;
          } else if (o.op === 'ready') {
            reRank();
            const near = [...waiting.values()].filter((b) => b < 2).length;
            expect(q.ready).toBe(far ? waiting.size : near);
          } else if (o.op === 'take') {
            reRank();
            // Until what a scroll ranked into view has gone, no far turn.
            if (scrolled && ![...waiting.values()].includes(0)) scrolled = false;
            const order: Bucket[] = !far ? [0, 1] : !scrolled && ++calls % 4 === 0 ? [2, 1, 0] : [0, 1, 2];
            const want: number[] = [];
            for (const b of order) {
              for (const j of [...waiting].filter(([, x]) => x === b).map(([j]) => j).sort((x, y) => x.seq - y.seq)) {
                if (want.length < o.count) want.push(j.seq);
              }
            }
            let n = 0;
            const got = q.take(() => n++ < o.count).map((j) => j.seq);
            expect(got).toEqual(want);
            for (const j of [...waiting.keys()]) if (want.includes(j.seq)) waiting.delete(j);
          }
          expect(q.size).toBe(waiting.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
