/**
 * The texts our translations wrote into the page, as a Bloom filter: what the page copies of them
 * after they are written (a clone of a translated row, a sticky header cloned from a translated
 * one, a widget that shows a translated option's text in an element of its own) reads as one of
 * them, is in the target's language already, and is left as it is instead of being sent as the
 * page's language: a second translation of Spanish words read as English changes the few that
 * are English words too ("pie", "come"), and costs a call.
 *
 * Keeping the texts themselves for the page's life would hold as much again as its text, against
 * the heap aim (the answers kept for repeats are dropped once the page is translated: leaders.ts);
 * the filter holds 32 bits a text (four hashes: about one text in 5 000 the page writes of its
 * own would be taken for ours), in filters that double as texts come. A text is its words as read
 * (white space as one space, none at the ends), of at least two words: a single word the page adds
 * ("Come", a name) may be a translation of ours and the page's own, in its language, at once.
 */
import { readOwn, type AnswerEl } from './answer';
import { markupAt, type Markup } from './chunk';
import type { Unit } from './units';

/** The first filter's texts; each next one holds twice the one before. */
const FIRST = 256;
/** Hashes a text sets; bits a text (`Uint32Array` words: one a text). */
const HASHES = 4;

/** White space as `\s` reads it. */
const space = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && (c <= 0x200a || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));

/**
 * Two 32-bit hashes (FNV-1a, and the same with another prime) of a text as read: its runs of
 * white space as one space, none at the ends; and whether it has two words. Fed in parts, as an
 * answer's texts are, with nothing built: a unit's text is hashed where it is written.
 */
class Hash {
  a = 0;
  b = 0;
  /** White space seen after a word, not yet hashed (a space, if a word follows). */
  private gap = false;
  private started = false;
  words = 1;

  reset(): this {
    this.a = 0x811c9dc5;
    this.b = 0x9f3779ba;
    this.gap = this.started = false;
    this.words = 1;
    return this;
  }

  text(s: string): this {
    let { a, b } = this;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (space(c)) {
        this.gap = this.started;
        continue;
      }
      if (this.gap) {
        a = Math.imul(a ^ 32, 0x01000193);
        b = Math.imul(b ^ 32, 0x5bd1e995);
        this.words++;
        this.gap = false;
      }
      this.started = true;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.a = a;
    this.b = b;
    return this;
  }

  /** An answer's element's texts, in order (as `textOf` joins them). */
  answer(el: AnswerEl): this {
    for (const k of el.kids) {
      if (typeof k === 'string') this.text(k);
      else this.answer(k);
    }
    return this;
  }
}

export class WrittenTexts {
  private filters: Uint32Array[] = [];
  /** Texts in the last filter. */
  private count = 0;
  private readonly hash = new Hash();
  /** The units found to be copies of ours (`copied`), by their first node. */
  private copies = new WeakSet<Node>();
  /** The parts of units too large for one call (`split`), each to the whole it is part of. */
  private parts = new WeakMap<Unit, Split>();

  /** Notes a text our translation wrote (an answer's element, or a text). */
  add(written: AnswerEl | string): void {
    const h = this.hashOf(written);
    if (h.words < 2) return;
    let last = this.filters.at(-1);
    if (!last || this.count >= last.length) {
      last = new Uint32Array(last ? last.length * 2 : FIRST);
      this.filters.push(last);
      this.count = 0;
    }
    this.count++;
    const { a, b } = this.keys(h);
    const bits = last.length * 32;
    for (let k = 0; k < HASHES; k++) {
      const bit = (a + k * b) % bits;
      last[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  /** Whether a text reads as one our translation wrote (rarely, one it did not: above). */
  has(text: AnswerEl | string): boolean {
    if (this.filters.length === 0) return false;
    const h = this.hashOf(text);
    if (h.words < 2) return false;
    const { a, b } = this.keys(h);
    return this.filters.some((f) => {
      const bits = f.length * 32;
      for (let k = 0; k < HASHES; k++) {
        const bit = (a + k * b) % bits;
        if ((f[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
      }
      return true;
    });
  }

  /**
   * A unit sent in `parts` (fit.ts: a paragraph longer than a call, a long text in pieces): no
   * part's answer is the text a copy of the whole reads, so the whole's is noted once every part
   * is written (`wrote`), its markup read again from the page by `read`, as a copy's is read.
   */
  split(parts: readonly Unit[], read: () => Markup): void {
    const whole: Split = { left: parts.length, read };
    for (const p of parts) this.parts.set(p, whole);
  }

  /** A unit written: the last part of a split one notes the whole's text. */
  wrote(u: Unit): void {
    const whole = this.parts.get(u);
    if (!whole) return;
    this.parts.delete(u);
    if (--whole.left > 0) return;
    const wrapper = readOwn(markupAt(whole.read()))?.get(1);
    if (wrapper) this.add(wrapper);
  }

  private hashOf(text: AnswerEl | string): Hash {
    const h = this.hash.reset();
    return typeof text === 'string' ? h.text(text) : h.answer(text);
  }

  /** The double hashing's two keys: the second odd-mixed and never 0. */
  private keys(h: Hash): { a: number; b: number } {
    return { a: h.a >>> 0, b: (h.b ^ (h.b >>> 15)) >>> 0 || 1 };
  }

  /**
   * Whether a unit's markup `m` reads as a text our translation wrote: a unit the page made of our
   * words (calls.ts `enqueue`), read as the answer's text was, its elements' ids aside.
   */
  inMarkup(m: Markup): boolean {
    if (this.filters.length === 0) return false;
    const wrapper = readOwn(markupAt(m))?.get(1);
    return wrapper !== undefined && this.has(wrapper);
  }

  /**
   * Whether the unit at `at` (its first node; an attribute's element), of markup `m`, is a copy
   * the page made of our words (`inMarkup`), and left as it is (calls.ts `enqueue`). What the
   * page's first walk finds (`walked`) is the page's own, not looked up (no unit of the walk pays
   * for it), but for a copy found so already: one the page put in a part the walk had not reached
   * yet, which the walk meets there later. Until stop 64 the walk sent it.
   */
  copied(m: Markup, at: Node, walked: boolean): boolean {
    if (walked && !this.copies.has(at)) return false;
    if (!this.inMarkup(m)) return false;
    this.copies.add(at);
    return true;
  }

  clear(): void {
    this.filters = [];
    this.count = 0;
    this.copies = new WeakSet();
    this.parts = new WeakMap();
  }
}

/** A unit sent in parts: the parts not written yet, and how to read its markup once they are. */
interface Split {
  left: number;
  read: () => Markup;
}
