/**
 * A text file in the browser's viewer (tags.ts `plainTextPre`) holds all its text in one Text node
 * (a book: a megabyte). Translated in pieces of that one node, each write rewrote all of it, and
 * each write's undo log kept all of it as it was before: a 210 000-character file took the tab's
 * renderer from 160 to 564 MB, and a book would have taken gigabytes; and each frame laid the
 * whole text out anew from new strings. So for the translation its text is cut into one Text node
 * per paragraph (fit.ts `paragraphEnds`, the same paragraphs it is sent by), and joined again at
 * restore, so the file is as it was, node for node.
 */
import { paragraphEnds } from './fit';
import { plainTextPre } from './tags';

export class TextFile {
  private constructor(
    /** Each of the file's Text nodes, and those cut off its end, in order. */
    private readonly cuts: readonly (readonly [Text, readonly Text[]])[],
  ) {}

  /** The document's text file cut into its paragraphs; null for any other document. */
  static cut(doc: Document): TextFile | null {
    const pre = plainTextPre(doc);
    if (!pre) return null;
    const cuts: [Text, Text[]][] = [];
    for (const n of [...pre.childNodes]) {
      if (n.nodeType !== 3) continue;
      const t = n as Text;
      const ends = paragraphEnds(t.data);
      const made: Text[] = [];
      // From the last: each cut leaves `t` its start (pushed from the end, then put in order: a
      // book's 5 000 cuts, each put first, moved the list 12 million times).
      for (let i = ends.length - 1; i >= 0; i--) made.push(t.splitText(ends[i]!));
      cuts.push([t, made.reverse()]);
    }
    return new TextFile(cuts);
  }

  /** Each Text node of the file holds its whole text again (what restore gave its paragraphs), and the nodes cut off go. */
  join(): void {
    for (const [t, made] of this.cuts) {
      if (made.length === 0) continue;
      t.data += made.map((m) => m.data).join('');
      for (const m of made) m.remove();
    }
  }
}
