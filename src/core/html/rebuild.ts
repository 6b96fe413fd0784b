/**
 * Rebuilds a fragment from a translator's answer, read as a tree of text and id-carrying nodes.
 * Only the input's own source is ever written as markup: an answer node whose id names an unused
 * input element of the same parent is written with that element's original tags; everything else
 * a translator sends is reduced to escaped text. Each element thus stays among its input siblings
 * (in any order), where the parser accepted it, so the result parses to no element, attribute or
 * URL the input lacked.
 */
import { ProviderError } from '../errors';
import type { ElItem, Item, Model, Range } from './model';
import { escapeAttr, escapeText } from './text';

/** An answer, read: text, or an element naming an input item by id (null: none or unreadable). */
export type OutNode = { t: 'text'; v: string } | { t: 'el'; id: number | null; kids: OutNode[] };

interface Replacement {
  s: number;
  e: number;
  text: string;
}

const EMITTED = 1;
const APPENDED = 2;

class Rebuilder {
  private readonly out: string[] = [];
  private readonly state: Uint8Array;
  private readonly slots: number[];
  private readonly texts = new Map<ElItem, Map<string, Range[]>>();

  constructor(
    private readonly model: Model,
    private readonly reps: Replacement[],
  ) {
    this.state = new Uint8Array(model.items.length + 1);
    this.slots = new Array<number>(model.items.length + 1).fill(-1);
  }

  run(tree: readonly OutNode[]): string {
    const { root } = this.model;
    this.ranges(root.open, this.out);
    this.walk(tree, root);
    this.slots[0] = this.out.push('') - 1;
    this.ranges(root.after, this.out);
    this.fill(root);
    return this.out.join('');
  }

  private walk(nodes: readonly OutNode[], ctx: ElItem): void {
    for (const n of nodes) {
      if (n.t === 'text') {
        this.text(n.v, ctx);
        continue;
      }
      const it = n.id === null ? undefined : this.model.items[n.id - 1];
      // Unknown, repeated or invented elements lose their tags and keep their text. So do input
      // elements moved out of their input parent: the parser may not accept them elsewhere (an
      // <li> ends a <p>, whose end tag, left stray, would then make a new <p>).
      if (!it || this.state[it.id] || it.parent !== ctx.id) {
        this.walk(n.kids, ctx);
        continue;
      }
      this.state[it.id] = EMITTED;
      if (it.kind === 'keep') {
        this.ranges(it.src, this.out);
        this.walk(n.kids, ctx);
        continue;
      }
      this.ranges(it.open, this.out);
      this.walk(n.kids, it);
      this.slots[it.id] = this.out.push('') - 1;
      if (it.close) this.range(it.close, this.out);
      this.ranges(it.after, this.out);
    }
  }

  /** Text equal to one of the parent's input texts is written as the input wrote it (entities and all). */
  private text(v: string, ctx: ElItem): void {
    let byValue = this.texts.get(ctx);
    if (!byValue) {
      byValue = new Map();
      for (const c of ctx.children) {
        if (c.kind !== 'text') continue;
        const list = byValue.get(c.value);
        if (list) list.push(c.src);
        else byValue.set(c.value, [c.src]);
      }
      this.texts.set(ctx, byValue);
    }
    const src = byValue.get(v)?.shift();
    this.out.push(src ? this.model.source.slice(src.s, src.e) : escapeText(v));
  }

  /**
   * Input items the answer lost: opaque ones (images, code, comments, kept subtrees) are put back at
   * the end of their nearest written ancestor; lost text elements are not (their text was translated
   * and is in the answer), but what they held that is opaque is.
   */
  private fill(parent: ElItem): void {
    const parts: string[] = [];
    this.missing(parent.children, parts);
    const slot = this.slots[parent.id];
    if (parts.length && slot !== undefined && slot >= 0) this.out[slot] = parts.join('');
  }

  private missing(children: readonly Item[], parts: string[]): void {
    for (const c of children) {
      if (c.kind === 'text') continue;
      if (this.state[c.id] === EMITTED) {
        if (c.kind === 'el') this.fill(c);
        continue;
      }
      this.state[c.id] = APPENDED;
      if (c.kind === 'keep') {
        this.ranges(c.src, parts);
      } else {
        this.missing(c.children, parts);
        this.ranges(c.after, parts);
      }
    }
  }

  private ranges(rs: readonly Range[], out: string[]): void {
    for (const r of rs) this.range(r, out);
  }

  private range(r: Range, out: string[]): void {
    writeRange(this.model.source, this.reps, r, out);
  }
}

/** A slice of the input, with translated attribute values written into it. */
function writeRange(source: string, reps: readonly Replacement[], r: Range, out: string[]): void {
  let pos = r.s;
  for (let i = firstAtOrAfter(reps, r.s); i < reps.length; i++) {
    const rep = reps[i]!;
    if (rep.e > r.e) break;
    out.push(source.slice(pos, rep.s), rep.text);
    pos = rep.e;
  }
  out.push(source.slice(pos, r.e));
}

function firstAtOrAfter(reps: readonly Replacement[], s: number): number {
  let lo = 0;
  let hi = reps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reps[mid]!.s < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The fragment rebuilt from the answer tree (null: no markup was sent) and translated attribute values. */
export function rebuild(model: Model, tree: readonly OutNode[] | null, attrValues: readonly string[]): string {
  const reps: Replacement[] = [];
  model.attrs.forEach((a, i) => {
    const v = attrValues[i];
    if (v === undefined || v === a.value) return;
    const name = model.source.slice(a.at.s, a.at.s + a.name.length);
    reps.push({ s: a.at.s, e: a.at.e, text: `${name}="${escapeAttr(v)}"` });
  });
  if (!tree) {
    const out: string[] = [];
    writeRange(model.source, reps, { s: 0, e: model.source.length }, out);
    return out.join('');
  }
  return new Rebuilder(model, reps).run(tree);
}

/** One answer per segment, or the provider's answer is unusable. */
export function checkCount(translated: readonly string[], expected: number): void {
  if (translated.length !== expected) {
    throw new ProviderError(502, `provider answered ${translated.length} segments for ${expected}`);
  }
}
