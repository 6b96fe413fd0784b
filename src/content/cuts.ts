/**
 * Our words the page cuts to fit: a line clamped with an ellipsis (Clamp.js and its kin shorten the
 * value of the line's last Text node, at load, on resize, or whenever they see its nodes change).
 * What the page shows there is still our translation, only shorter: the unit stays translated and
 * nothing is sent (the cut would go out as the page's own words, and a clamp that watches its
 * nodes would cut each answer again for as long as the tab is open), and restore puts the
 * original back whole, not our cut words.
 */

/** Whether `now` is `whole` cut short, with an ellipsis (`…` or `...`) after what is kept. */
export function cutOf(whole: string, now: string): boolean {
  const mark = now.endsWith('…') ? 1 : now.endsWith('...') ? 3 : 0;
  if (mark === 0) return false;
  const kept = now.slice(0, now.length - mark).trimEnd();
  return kept.length < whole.trimEnd().length && whole.startsWith(kept);
}

export class Cuts {
  /** Each cut text's whole value, as we wrote it (made at the first cut: most pages cut nothing). */
  private wholes: WeakMap<Text, string> | null = null;

  /**
   * Whether the page's change of `t` from `was` (ours: what we wrote, or a cut of it seen before) to
   * its value now keeps our words: a cut of them, or of the whole we wrote once it cut before (a
   * wider window: a clamp that kept the whole shows more of it), or the whole itself.
   */
  fits(t: Text, was: string): boolean {
    const now = t.data;
    if (now === was) return true;
    let whole = this.wholes?.get(t);
    if (whole === undefined || (was !== whole && !cutOf(whole, was))) whole = was;
    if (now !== whole && !cutOf(whole, now)) return false;
    (this.wholes ??= new WeakMap()).set(t, whole);
    return true;
  }

  clear(): void {
    this.wholes = null;
  }
}
