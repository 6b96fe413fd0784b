/**
 * One unit's answer written into the page (merge.ts does the id-tag-and-merge), with what a form
 * and an RTL target need on top; everything goes into the unit's undo log.
 */
import type { AnswerEl } from './answer';
import type { Entry } from './chunk';
import { mergeAttr, mergePiece, mergeRange, UndoLog } from './merge';
import type { Unit } from './segment';
import { inPlace } from './tags';

const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ckb', 'dv', 'ug', 'syr']);

export function writeAnswer(u: Unit, answer: AnswerEl, id: number, entries: readonly Entry[], trg: string): UndoLog {
  const log = new UndoLog();
  if (u.kind === 'attr') mergeAttr(u, answer, log);
  else if (u.kind === 'piece') mergePiece(u, answer, log);
  else {
    const parent = u.parent;
    if (parent instanceof Element && parent.tagName === 'OPTION' && !parent.hasAttribute('value')) {
      // An option without a value submits its text: keep submitting the original.
      log.attr(parent, 'value', (parent as HTMLOptionElement).value);
    }
    mergeRange(u, answer, id, entries, log);
    if (u.whole && RTL.has(trg.split('-')[0]!) && parent instanceof Element && !inPlace(parent)) {
      log.attr(parent, 'dir', 'rtl');
    }
  }
  return log.seal();
}
