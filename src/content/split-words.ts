/**
 * Words a script split into an element per letter for an animation (Splitting.js, SplitType,
 * GSAP's SplitText, Lettering.js): found here, sent whole by chunk.ts (`serializeWord`, Entry
 * `letters`), written back a character a letter with the script's copies of them (`writeLetters`,
 * for merge.ts, and for left-out.ts where a provider leaves the word out).
 */
import type { UndoLog } from './undo';
import { HAS_LETTER } from './attributes';

/** One character, with the marks that go on it (`é` written as e and its accent): what a script puts in an element of its own. */
const ONE_CHARACTER = /^\S\p{M}*$/u;

/** `n` where it is an element holding one character alone (`<span class="char">W</span>`), not a link nor what is not sent. */
function letterOf(n: Node | null, opaque: (el: Element) => boolean): Element | null {
  if (n === null || n.nodeType !== 1) return null;
  const t = n.firstChild;
  if (t === null || t !== n.lastChild || t.nodeType !== 3) return null;
  const d = (t as Text).data;
  if (d.length > 4 || !ONE_CHARACTER.test(d)) return null;
  const el = n as Element;
  return el.localName === 'a' || opaque(el) ? null : el;
}


/** A class's number at the end (Lettering.js's `char1`, `char2`…). */
const NUMBERED = /\d+(?=\s|$)/g;

/** Whether two letters are of one tag and class, a number at a class's end aside (Lettering.js numbers each letter's). */
function sameKind(a: Element, b: Element): boolean {
  if (a.localName !== b.localName) return false;
  const x = a.className;
  const y = b.className;
  return x === y || (typeof x === 'string' && typeof y === 'string' && x.replace(NUMBERED, '') === y.replace(NUMBERED, ''));
}

/**
 * The word a script split into an element per character, for an animation (Splitting.js,
 * SplitType, GSAP's SplitText: `<span class="char">W</span><span class="char">e</span>…`), from
 * `first` to no further than `last`: two or more such elements side by side, nothing between
 * them, of one tag and class (but for a number at its end: Lettering.js's `char1`, `char2`), a
 * letter among them. Null where `first` starts none. Sent as one
 * tag, the word whole (`serializeWord`): sent letter by letter, a translator read each letter as a
 * word (Apertium: "beUnutiful" for "beautiful", the `a` an article), or the word untranslated.
 * A drop cap glued to its word (`<span>T</span>he`) is one such element alone: not a split word.
 */
export function splitWord(first: Element, last: Node | null, opaque: (el: Element) => boolean): Element[] | null {
  // Most elements of a sentence have a text after them: that alone is read of them.
  const next = first === last ? null : first.nextSibling;
  if (next === null || next.nodeType !== 1 || !letterOf(first, opaque)) return null;
  const second = letterOf(next, opaque);
  if (!second || !sameKind(first, second)) return null;
  const word = [first, second];
  for (let el: Element | null = second; el !== last; ) {
    el = letterOf(el.nextSibling, opaque);
    if (!el || !sameKind(first, el)) break;
    word.push(el);
  }
  return word.some((el) => HAS_LETTER.test(el.firstChild!.nodeValue!)) ? word : null;
}

/** Characters as a reader sees them (a letter and its accents one), for a split word's letters. */
let graphemes: Intl.Segmenter | undefined;

/**
 * A split word's translation written into its letters, a character each in order, the last
 * taking what is left, the letters left over emptied: the script's animation still moves one
 * element per character. A space goes as a no-break space: one alone in an inline block shows
 * nothing. What the script wrote of the text in attributes says the translation too (`mirror`):
 * Splitting.js's `data-char` on each letter and `data-word` on the word's element, which its own
 * style draws again over the letter (`content: attr(data-char)`, for hover and glitch effects).
 */
export function writeLetters(letters: readonly Element[], text: string, log: UndoLog): void {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const chars: string[] = [];
  const word = text.trim();
  for (const g of graphemes.segment(word)) chars.push(/^\s+$/.test(g.segment) ? '\u00a0' : g.segment);
  const parent = letters[0]!.parentElement;
  // The word's own element (Splitting.js's `<span class="word">`): it holds these letters alone.
  if (parent?.childNodes.length === letters.length && parent.hasAttributes()) mirror(parent, parent.textContent!, word, log);
  const last = letters.length - 1;
  letters.forEach((el, i) => {
    const t = el.firstChild;
    if (t?.nodeType !== 3 || t !== el.lastChild) return;
    const s = i < last ? (chars[i] ?? '') : chars.slice(i).join('');
    mirror(el, (t as Text).data, s, log);
    log.write(t as Text, s);
  });
}

/** The `data-*` attributes of `el` that repeat its text `was` (a script's copy of it, for a style's `attr()`) say `now`, in `log`. */
function mirror(el: Element, was: string, now: string, log: UndoLog): void {
  if (was === now || !el.hasAttributes()) return;
  for (const a of [...el.attributes]) if (a.value === was && a.name.startsWith('data-')) log.attr(el, a.name, now);
}
