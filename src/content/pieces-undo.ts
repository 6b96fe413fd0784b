/**
 * A long text's pieces in the undo logs (undo.ts `UndoLog.piece`): what the text read before each
 * piece's write, kept as the pieces then, and undone so; `undoing` writes such a text once when
 * many of its pieces are undone together (restore).
 */
import { piecesShown, type PieceGroup } from './units';

/**
 * What a long text read before one of its pieces' writes (`UndoLog.piece`): the pieces written
 * then (`outs`), not the text. A log of each piece holding the whole text as it was made a text
 * node's undo hold its text once per piece: a script's log of 690 000 characters in one node, in
 * 770 pieces, held ~1 GB in the renderer while translated (its text's size squared). `was`: the
 * text itself, where it was not what our pieces made (its original, before the first piece's
 * write; what the page wrote there since).
 */
export interface PiecesThen {
  group: PieceGroup;
  outs: readonly (string | undefined)[];
  /** The piece the write was of. */
  index: number;
  was?: string;
}

/** A text's value kept for restore: a string, or the pieces it was made of. */
export const valueOf = (v: string | PiecesThen): string => (typeof v === 'string' ? v : (v.was ?? piecesShown(v.group, v.outs)));

/** The long texts whose pieces' undos are written at the end of the `undoing` under way (null: none). */
let deferred: Set<PieceGroup> | null = null;

/**
 * Runs `fn`, which undoes many writes (restore: every unit's, newest first), writing each long
 * text its pieces' undos changed once, at its end, as the last of them left it. Undone one by
 * one, each of a long text's 770 pieces wrote its 690 000 characters as they were before it
 * (~5.5 ms each in Chromium, whatever the means: 4.3 s).
 */
export function undoing<T>(fn: () => T): T {
  if (deferred) return fn();
  const groups = (deferred = new Set());
  try {
    return fn();
  } finally {
    deferred = null;
    for (const g of groups) {
      const s = piecesShown(g);
      if (g.text.data !== s) g.text.data = s;
      g.shown = g.text.data;
    }
  }
}

/** Undoes one piece's write into its long text (`PiecesThen`): the group's pieces are `v`'s again, and so is the text. */
export function unwritePiece(v: PiecesThen): void {
  const g = v.group;
  v.outs.forEach((o, j) => (g.outs[j] = o));
  if (v.was === undefined && deferred) {
    deferred.add(g);
    return;
  }
  deferred?.delete(g);
  const was = valueOf(v);
  if (g.text.data !== was) g.text.data = was;
  g.shown = v.was === undefined ? g.text.data : undefined;
}
