/**
 * Document format for providers without an HTML mode: tags become bracketed numbers, which machine
 * translation keeps as it keeps citation marks. `<p>Hi <b>you</b><br></p>` is sent as
 * `[1]Hi [2]you[/2][3][/1]`; a number names one input element, `[/n]` closes it. Text that looks
 * like a marker is escaped by doubling its bracket (`[[12]`).
 */
import { buildModel } from './model';
import type { Item, Model } from './model';
import { checkCount, rebuild } from './rebuild';
import type { OutNode } from './rebuild';
import type { Protected } from './protect';
import { MAX_DEPTH } from './rules';

/**
 * `[[` is always a literal `[`; `[n]`, `[/n]` are markers, spaces tolerated inside (translators write
 * `[ 1 ]`). A literal `[` is doubled where what follows could read as a marker or as `[[`.
 */
const TOKEN = /\[\[|\[\s*(\/?)\s*(\d{1,9})\s*\]/g;
const AMBIGUOUS = /\[(?=$|\[|\s*\/?\s*\d{1,9}\s*\])/g;

export function protectText(fragment: string): Protected {
  const model = buildModel(fragment);
  const segments: string[] = [];
  if (model.hasText) {
    const out: string[] = [];
    serialize(model.root.children, out);
    segments.push(out.join(''));
  }
  for (const a of model.attrs) segments.push(a.value);
  return {
    segments,
    chars: model.chars,
    restore(translated) {
      checkCount(translated, segments.length);
      if (segments.length === 0) return fragment;
      const tree = model.hasText ? readMarkers(translated[0]!, model) : null;
      const values = translated.slice(model.hasText ? 1 : 0).map((v, i) => {
        const original = model.attrs[i]!.value;
        return original === original.trim() ? v.trim() : v;
      });
      return rebuild(model, tree, values);
    },
  };
}

function serialize(items: readonly Item[], out: string[]): void {
  for (const it of items) {
    if (it.kind === 'text') out.push(it.value.replace(AMBIGUOUS, '[['));
    else if (it.kind === 'keep') out.push(`[${it.id}]`);
    else {
      out.push(`[${it.id}]`);
      serialize(it.children, out);
      out.push(`[/${it.id}]`);
    }
  }
}

/** Markers to a tree: an element opens at `[n]` and ends at its `[/n]` or with its parent. */
function readMarkers(text: string, model: Model): OutNode[] {
  const root: OutNode[] = [];
  const stack: { id: number; kids: OutNode[] }[] = [{ id: 0, kids: root }];
  let pos = 0;
  const push = (v: string): void => {
    if (!v) return;
    const kids = stack[stack.length - 1]!.kids;
    const last = kids[kids.length - 1];
    // One text node per run of text, as an HTML parser makes: rebuild matches whole input texts.
    if (last?.t === 'text') last.v += v;
    else kids.push({ t: 'text', v });
  };
  for (const m of text.matchAll(TOKEN)) {
    push(text.slice(pos, m.index));
    pos = m.index + m[0].length;
    if (m[0] === '[[') {
      push('[');
      continue;
    }
    const id = Number(m[2]);
    const item = model.items[id - 1];
    if (!item) continue;
    if (m[1]) {
      const at = stack.findLastIndex((f) => f.id === id);
      if (at > 0) stack.length = at;
      continue;
    }
    const node: OutNode = { t: 'el', id, kids: [] };
    stack[stack.length - 1]!.kids.push(node);
    if (item.kind === 'el' && stack.length < MAX_DEPTH) stack.push({ id, kids: node.kids });
  }
  push(text.slice(pos));
  return root;
}
