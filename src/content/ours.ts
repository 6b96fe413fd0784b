/**
 * Our words the page reshapes without changing them, so that what it shows there is still our
 * translation:
 * - cut to fit: a line clamped with an ellipsis (Clamp.js and its kin shorten the value of the
 *   line's last Text node, at load, on resize, or whenever they see its nodes change), and shown
 *   again, more of it or whole;
 * - split and wrapped: a highlighter (mark.js, an extension marking search terms, an annotator, a
 *   linkifier) splits our text (`splitText`) and wraps a part in an element of its own;
 * - laid out: a hyphenation script puts soft hyphens into long words, a script evens out spaces.
 * The unit stays translated and nothing is sent (our words would go out as the page's, and a clamp
 * that watches its line would cut each answer again for as long as the tab is open). Restore puts
 * the original back whole: into our text, the parts split off it emptied (the page's elements
 * around them stay, empty), not our words left among the page's.
 */

import { readAs } from '../core/html/text';
import type { UndoLog } from './undo';
import type { Unit } from './units';

const NONE: readonly Text[] = [];

/** Whether `now` is `whole` cut short, with an ellipsis (`…` or `...`) after what is kept. */
export function cutOf(whole: string, now: string): boolean {
  const mark = now.endsWith('…') ? 1 : now.endsWith('...') ? 3 : 0;
  if (mark === 0) return false;
  const kept = now.slice(0, now.length - mark).trimEnd();
  return kept.length < whole.trimEnd().length && whole.startsWith(kept);
}

/** A job, as far as its write goes. */
interface Written {
  log: UndoLog | null;
}

export class OurWords<J extends Written> {
  /** Each reshaped text's whole value, as we wrote it (made at the first reshape: most pages make none). */
  private wholes: WeakMap<Text, string> | null = null;
  /**
   * The texts the page split off ours, each with the job whose words it holds (made at the first
   * split): not the job's own nodes (the unit, found again once retired, takes them in), but its
   * log empties them at restore, and what the page does to them is that job's change.
   */
  private pieces: WeakMap<Node, J> | null = null;

  /** Whether the page split one of our texts: only then are the nodes it adds and removes read for parts of ours. */
  get split(): boolean {
    return this.pieces !== null;
  }

  /**
   * The page changed our text `t` from `was` (what we wrote, or a reshape of it seen before) to its
   * value now. Still our words: the texts it split off (none where it cut or laid them out, or
   * showed more of the whole, or all of it), read after `t` in `root` (the unit's parent; null:
   * not looked for) among the texts it made in this batch (`made`). Not ours: null.
   */
  judge(t: Text, was: string, root: Node | null, made: (n: Text) => boolean): readonly Text[] | null {
    const now = t.data;
    if (now === was) return NONE;
    let whole = this.wholes?.get(t);
    if (whole === undefined || !partOf(whole, was)) whole = was;
    let pieces: readonly Text[] | null = NONE;
    if (now !== whole && !cutOf(whole, now) && !laidOut(whole, now)) {
      pieces = root && now.length < was.length && was.startsWith(now) ? splitOff(t, was.slice(now.length), root, made) : null;
      if (!pieces) return null;
    }
    (this.wholes ??= new WeakMap()).set(t, whole);
    return pieces;
  }

  /** `pieces`, split off a text of `job`'s (`judge`), hold its words: its log empties them at restore. */
  ownPieces(job: J, pieces: readonly Text[]): void {
    for (const p of pieces) {
      job.log!.splitOff(p);
      (this.pieces ??= new WeakMap()).set(p, job);
    }
  }

  /** The job whose words `n` holds where it is split off one of its texts, while its log has it. */
  pieceOf(n: Node): J | undefined {
    const j = this.pieces?.get(n);
    return j?.log?.original(n as Text) === '' ? j : undefined;
  }

  /**
   * Whether a childList record only moves words split off ours about (a highlighter's mark put
   * around them, or taken away): each node it adds holds a text, and each it adds or removes holds
   * no words but those, or whole texts of ours still in the page (`moved`: rangy's class applier
   * splits the texts a highlight starts and ends in, and puts its marks around the parts and around
   * the whole texts between). A text the page made in this batch (`made`) and took out again in it
   * is none of the page's: mark.js splits the part off, copies its words into a new mark
   * (`textContent`) and puts the mark in the part's place.
   */
  movesPieces(r: MutationRecord, made: (n: Text) => boolean, moved: (n: Text) => boolean): boolean {
    if (r.addedNodes.length + r.removedNodes.length === 0) return false;
    const passing = (n: Node) => n.nodeType === 3 && !n.isConnected && made(n as Text);
    for (const n of r.addedNodes) if (!passing(n) && !this.holdsPieces(n, true, moved)) return false;
    for (const n of r.removedNodes) if (!passing(n) && !this.holdsPieces(n, false, moved)) return false;
    return true;
  }

  /** Whether each text with words in `n` is split off ours, or is one of ours `moved`; `some`: and there is a text. */
  private holdsPieces(n: Node, some: boolean, moved: (n: Text) => boolean): boolean {
    let found = false;
    const stack: Node[] = [n];
    for (let x = stack.pop(); x; x = stack.pop()) {
      if (x.nodeType === 1) {
        for (let c = x.firstChild; c; c = c.nextSibling) stack.push(c);
        continue;
      }
      if (x.nodeType !== 3) return false;
      found = true;
      // An empty text: split off at an end.
      if ((x as Text).data && !this.pieceOf(x) && !moved(x as Text)) return false;
    }
    return found || !some;
  }

  clear(): void {
    this.wholes = null;
    this.pieces = null;
  }
}

/**
 * Where the texts the page split off our text `t` are looked for (`OurWords.judge`): after it in
 * its unit's parent; for a long text sent in pieces, in its parent once every piece is `written`
 * (each piece's write writes the whole text again); null: not looked for.
 */
export function splitRoot(t: Text, unit: Unit, written: boolean): Node | null {
  return unit.kind === 'range' ? unit.parent : unit.kind === 'piece' && written ? t.parentNode : null;
}

/** The texts in what the page added in `records` (still there or not): what a split makes. */
export function madeTexts(records: readonly MutationRecord[]): Set<Node> {
  const out = new Set<Node>();
  for (const r of records) {
    for (const n of r.addedNodes) {
      const stack: Node[] = [n];
      for (let x = stack.pop(); x; x = stack.pop()) {
        if (x.nodeType === 3) out.add(x);
        for (let c = x.firstChild; c; c = c.nextSibling) stack.push(c);
      }
    }
  }
  return out;
}

/**
 * Whether `now` is `whole`'s words laid out by a script: break hints put in (soft hyphens,
 * zero-width spaces and joiners, as a hyphenation script puts into long words) or spaces evened
 * out. Not where `whole` has no words: a page that empties the spaces our write left there empties
 * its own text (found by the dynamic property test, seed 84521).
 */
function laidOut(whole: string, now: string): boolean {
  const words = spaced(whole);
  return words !== '' && spaced(now) === words;
}

/** The text with break hints out (soft hyphens, zero-width spaces and joiners) and its spacing evened. */
export function spaced(s: string): string {
  return readAs(s.replace(/[\u00AD\u200B\u2060]/g, ''));
}

/** Whether `was` shows part of `whole`: all of it, a cut of it, or its start (the rest split off). */
function partOf(whole: string, was: string): boolean {
  return whole.startsWith(was) || cutOf(whole, was);
}

/**
 * The texts right after `t` in `root` that hold `rest`, in order: texts the page made just now
 * (`made`: a split makes its parts), passing over the empty ones and any with words of the page's
 * own (a badge it put beside a mark); null where they do not hold it, or a text that was there
 * before comes first.
 */
function splitOff(t: Text, rest: string, root: Node, made: (n: Text) => boolean): Text[] | null {
  if (!root.contains(t)) return null;
  const walk = t.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  walk.currentNode = t;
  const out: Text[] = [];
  for (let n = walk.nextNode() as Text | null; n && rest; n = walk.nextNode() as Text | null) {
    if (!n.data) continue;
    if (!made(n)) return null;
    if (!rest.startsWith(n.data)) continue;
    out.push(n);
    rest = rest.slice(n.data.length);
  }
  return rest ? null : out;
}
