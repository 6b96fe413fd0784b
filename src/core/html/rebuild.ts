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
import { BLOCK } from './rules';
import { escapeAttr, escapeText, hasLetters } from './text';

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
  private blocks: boolean | undefined;
  /** The last element written at the fragment's top level, and words the answer left after it. */
  private lastBlock: ElItem | undefined;
  private readonly late = new Map<number, string[]>();
  /** Top-level elements as written: where their output starts and ends; those that got words. */
  private readonly written: { it: ElItem; start: number; end: number }[] = [];
  private readonly worded = new Set<number>();

  constructor(
    private readonly model: Model,
    private readonly reps: Replacement[],
  ) {
    this.state = new Uint8Array(model.items.length + 1);
    this.slots = new Array<number>(model.items.length + 1).fill(-1);
  }

  /**
   * The worded top-level blocks of a blocks-only fragment, when the answer wrote none of its
   * top-level blocks (undefined otherwise): a provider that dropped the markup it was sent.
   */
  lostBlocks(): ElItem[] | undefined {
    if (!this.blocksOnly()) return undefined;
    const tops = this.model.root.children.filter((c): c is ElItem => c.kind === 'el');
    if (tops.some((c) => this.state[c.id] === EMITTED)) return undefined;
    const worded = tops.filter(hasWords);
    return worded.length ? worded : undefined;
  }

  run(tree: readonly OutNode[]): string {
    const { root } = this.model;
    this.ranges(root.open, this.out);
    this.walk(tree, root);
    this.slots[0] = this.out.push('') - 1;
    this.ranges(root.after, this.out);
    this.fill(root);
    this.keepWordless();
    return this.out.join('');
  }

  private walk(nodes: readonly OutNode[], ctx: ElItem): void {
    for (const n of nodes) {
      if (n.t === 'text') {
        // A fragment of blocks only (the page's units) whose answer puts words between the blocks:
        // the provider's markup broke the structure (e.g. a `<p>` of its own closed a unit early).
        // Written there, the words would belong to no unit (a page would lose them): they go to
        // the end of the block written last, the one the stray markup closed.
        if (ctx === this.model.root && this.lastBlock && (/\S/.test(n.v) || this.late.has(this.lastBlock.id)) && this.blocksOnly()) {
          const late = this.late.get(this.lastBlock.id) ?? [];
          this.late.set(this.lastBlock.id, late);
          this.text(n.v, this.lastBlock, late);
          continue;
        }
        this.text(n.v, ctx, this.out);
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
      const start = this.out.length;
      this.ranges(it.open, this.out);
      if (ctx === this.model.root) this.lastBlock = it;
      this.walk(n.kids, it);
      this.slots[it.id] = this.out.push('') - 1;
      if (it.close) this.range(it.close, this.out);
      this.ranges(it.after, this.out);
      if (ctx === this.model.root) this.written.push({ it, start, end: this.out.length });
    }
  }

  /**
   * A top-level block of a blocks-only fragment that had words and got none back (a raw-text
   * element of the answer, e.g. a stray `<style>`, swallowed them, or the markup closed it early)
   * is written as the input had it: untranslated, but its words are not lost.
   */
  private keepWordless(): void {
    if (!this.blocksOnly()) return;
    for (const { it, start, end } of this.written) {
      if (this.worded.has(it.id) || !hasWords(it)) continue;
      const parts: string[] = [];
      this.range(fullRange(it), parts);
      this.out[start] = parts.join('');
      for (let i = start + 1; i < end; i++) this.out[i] = '';
    }
  }

  /** The top-level element `ctx` is in. */
  private topOf(ctx: ElItem): ElItem {
    let it = ctx;
    while (it.parent !== 0) it = this.model.items[it.parent - 1] as ElItem;
    return it;
  }

  /** The input fragment is block elements only (and blank text): a chunk of whole blocks. */
  private blocksOnly(): boolean {
    this.blocks ??= this.model.root.children.every((c) => (c.kind === 'text' ? !/\S/.test(c.value) : c.kind === 'el' && BLOCK.has(c.tag)));
    return this.blocks;
  }

  /** Text equal to one of the parent's input texts is written as the input wrote it (entities and all). */
  private text(v: string, ctx: ElItem, out: string[]): void {
    if (ctx !== this.model.root && hasLetters(v)) this.worded.add(this.topOf(ctx).id);
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
    out.push(src ? this.model.source.slice(src.s, src.e) : escapeText(v));
  }

  /**
   * Input items the answer lost: opaque ones (images, code, comments, kept subtrees) are put back at
   * the end of their nearest written ancestor; lost text elements are not (their text was translated
   * and is in the answer), but what they held that is opaque is.
   */
  private fill(parent: ElItem): void {
    const parts: string[] = [...(this.late.get(parent.id) ?? [])];
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
      if (c.kind === 'el' && c.parent === 0 && this.blocksOnly() && hasWords(c)) {
        // A whole block of the chunk the answer lost (swallowed by a stray raw-text element): as
        // the input had it, untranslated, rather than without its words.
        this.range(fullRange(c), parts);
        continue;
      }
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

/** An element's whole source: start tag to end tag, and the opaque pieces merged after it. */
function fullRange(el: ElItem): Range {
  return { s: el.open[0]!.s, e: (el.after.at(-1) ?? el.close ?? el.open.at(-1)!).e };
}

/** Whether an element holds text with letters (attribute values are translated apart). */
function hasWords(el: ElItem): boolean {
  const stack: Item[] = [...el.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.kind === 'text') {
      if (hasLetters(c.value)) return true;
    } else if (c.kind === 'el') stack.push(...c.children);
  }
  return false;
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
  const first = new Rebuilder(model, reps);
  const out = first.run(tree);
  const lost = first.lostBlocks();
  if (!lost) return out;
  // The answer is the one block's content, its wrapper dropped (a provider that strips or forgets
  // tags): written into it, as an answer that kept it would be. Of several blocks, which words are
  // whose is unknown; as they were, each block's words would show twice, translated at the top
  // (where a page's unit has no place for them) and untranslated in its block.
  if (lost.length === 1 && treeHasLetters(tree)) return new Rebuilder(model, reps).run([{ t: 'el', id: lost[0]!.id, kids: [...tree] }]);
  throw new LostMarkupError(lost.length);
}

/**
 * A blocks-only fragment's answer that wrote none of its blocks: several with words (each block's
 * words can no longer be told apart), or one and an answer without words. Unusable (decisions.md:
 * 502); translate-document.ts sends such a chunk's blocks again one by one.
 */
export class LostMarkupError extends ProviderError {
  constructor(
    readonly blocks: number,
    message = blocks === 1 ? 'answered without the block it was sent, and without words' : `answered without the tags of the ${blocks} blocks it was sent`,
  ) {
    super(502, message);
  }

  /** Still a lost markup once it names its provider: translate-document.ts sends the blocks again. */
  override of(provider: string): LostMarkupError {
    return new LostMarkupError(this.blocks, `${provider}: ${this.message}`);
  }
}

/** Whether an answer has a letter anywhere (without recursion: answers can nest deep). */
function treeHasLetters(tree: readonly OutNode[]): boolean {
  const stack: OutNode[] = [...tree];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.t === 'text') {
      if (hasLetters(n.v)) return true;
    } else for (const k of n.kids) stack.push(k);
  }
  return false;
}

/** One answer per segment, or the provider's answer is unusable. */
export function checkCount(translated: readonly string[], expected: number): void {
  if (translated.length !== expected) {
    throw new ProviderError(502, `provider answered ${translated.length} segments for ${expected}`);
  }
}
