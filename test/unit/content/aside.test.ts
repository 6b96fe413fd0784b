/**
 * Written units set aside when the page removed their nodes (content/aside.ts): kept exactly as long
 * as any of their nodes is, listed in the order they were set aside, once each.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Aside } from '../../../src/content/aside';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Collects twice, a task apart: a WeakRef made or read in a task keeps its target to that task's end. */
const collect = async () => {
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }
};

interface J {
  name: string;
}
const node = () => ({}) as Node;

describe('Aside', () => {
  it('keeps a job while any of its nodes lives, lets it go with the last one', async () => {
    const aside = new Aside<J>();
    let a: Node | null = node();
    let b: Node | null = node();
    let c: Node | null = node();
    aside.add({ name: 'two nodes' }, [a, b], ['x']);
    aside.add({ name: 'one node' }, [c], ['y']);
    await collect();
    expect(aside.jobs(() => true).map((j) => j.name)).toEqual(['two nodes', 'one node']);
    a = null;
    c = null;
    await collect();
    expect(aside.jobs(() => true).map((j) => j.name)).toEqual(['two nodes']);
    b = null;
    await collect();
    expect(aside.jobs(() => true)).toEqual([]);
    expect([a, b, c]).toEqual([null, null, null]);
  });

  it('lists a job set aside twice once, in the order first set aside, with what it read', () => {
    const aside = new Aside<J>();
    const n = node();
    const first = { name: 'first' };
    const second = { name: 'second' };
    aside.add(first, [n], ['read one']);
    aside.add(second, [n], []);
    aside.add(first, [n], ['read again']);
    expect(aside.jobs(() => true)).toEqual([first, second]);
    expect(aside.jobs((j) => j !== first)).toEqual([second]);
    expect(aside.readingOf(first)).toEqual(['read again']);
    aside.clear();
    expect(aside.holding).toBe(false);
    expect(aside.jobs(() => true)).toEqual([]);
    expect(aside.readingOf(first)).toBeUndefined();
  });
});
