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

const NONE: readonly Text[] = [];

/** Whether `now` is `whole` cut short, with an ellipsis (`…` or `...`) after what is kept. */
export function cutOf(whole: string, now: string): boolean {
  const mark = now.endsWith('…') ? 1 : now.endsWith('...') ? 3 : 0;
  if (mark === 0) return false;
  const kept = now.slice(0, now.length - mark).trimEnd();
  return kept.length < whole.trimEnd().length && whole.startsWith(kept);
}

export class OurWords {
  /** Each reshaped text's whole value, as we wrote it (made at the first reshape: most pages make none). */
  private wholes: WeakMap<Text, string> | null = null;
  /** Whether the page split one of our texts: only then are the nodes it adds and removes read for parts of ours. */
  split = false;

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
      this.split = true;
    }
    (this.wholes ??= new WeakMap()).set(t, whole);
    return pieces;
  }

  clear(): void {
    this.wholes = null;
    this.split = false;
  }
}

/**
 * Whether `now` is `whole`'s words laid out by a script: break hints put in (soft hyphens,
 * zero-width spaces and joiners, as a hyphenation script puts into long words) or spaces evened
 * out. Not where `whole` has no words: a page that empties the spaces our write left there empties
 * its own text (found by the dynamic property test, seed 84521).
 */
function laidOut(whole: string, now: string): boolean {
  const words = bare(whole);
  return words !== '' && bare(now) === words;
}

function bare(s: string): string {
  return s.replace(/[\u00AD\u200B\u2060]/g, '').replace(/\s+/g, ' ').trim();
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
