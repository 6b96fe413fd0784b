/**
 * Document format (decisions.md "Document format (frm=html)"): what of a fragment goes to a provider
 * in HTML mode, and how its answer is turned back into the fragment. Answers are untrusted: they
 * are parsed, and only the input's own tags and attributes can come out (see rebuild.ts).
 */
import { parseFragment } from 'parse5';
import { buildModel } from './model';
import type { AttrSlot, Item } from './model';
import { checkCount, rebuild } from './rebuild';
import type { OutNode } from './rebuild';
import { MAX_DEPTH, isElement } from './rules';
import type { ChildNode, Element, Text } from './rules';
import { readSimple } from './simple';
import { escapeSegment } from './text';

export { protectText } from './protect-text';

export interface Protected {
  /**
   * Segments to send to a provider: the fragment's markup reduced to placeholder tags (only when it
   * has text to translate), then one segment per translatable attribute value. [] when nothing is
   * translatable.
   */
  segments: string[];
  /** Number of characters of translatable text (code points), for the `length` field. */
  chars: number;
  /** Rebuilds the fragment from the provider's answers (same count and order as segments). */
  restore(translated: readonly string[]): string;
}

/** Elements of an answer whose content is not text to keep (and that no input placeholder uses). */
const DROP = new Set([
  'script', 'style', 'template', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext',
]);

/** For providers with an HTML mode: `<a href="/x" class="k">Hi <b>you</b></a>` is sent as `<a id="1">Hi <b id="2">you</b></a>`. */
export function protect(fragment: string): Protected {
  const model = buildModel(fragment);
  const segments: string[] = [];
  if (model.hasText) {
    const out: string[] = [];
    serialize(model.root.children, out);
    segments.push(out.join(''));
  }
  // Escaped: the provider reads every segment of the request as HTML.
  for (const a of model.attrs) segments.push(escapeSegment(a.value));
  return {
    segments,
    chars: model.chars,
    restore(translated) {
      checkCount(translated, segments.length);
      if (segments.length === 0) return fragment;
      const tree = model.hasText ? readHtml(translated[0]!) : null;
      const values = translated.slice(model.hasText ? 1 : 0).map((v, i) => textOf(v, model.attrs[i]!));
      return rebuild(model, tree, values);
    },
  };
}

function serialize(items: readonly Item[], out: string[]): void {
  for (const it of items) {
    if (it.kind === 'text') out.push(escapeSegment(it.value));
    else if (it.kind === 'keep') out.push(it.void ? `<${it.tag} id="${it.id}">` : `<${it.tag} id="${it.id}"></${it.tag}>`);
    else {
      out.push(`<${it.tag} id="${it.id}">`);
      serialize(it.children, out);
      out.push(`</${it.tag}>`);
    }
  }
}

/** An answer as the browser would parse it, reduced to text and ids. */
function readHtml(markup: string): OutNode[] {
  return convert(readSimple(markup) ?? parseFragment(markup).childNodes);
}

function convert(nodes: readonly ChildNode[], depth = 0): OutNode[] {
  const out: OutNode[] = [];
  for (const n of nodes) {
    if (n.nodeName === '#text') out.push({ t: 'text', v: (n as Text).value });
    else if (!isElement(n) || DROP.has(n.tagName)) continue;
    else if (depth < MAX_DEPTH) out.push({ t: 'el', id: idOf(n), kids: convert(n.childNodes, depth + 1) });
    else out.push({ t: 'text', v: deepText(n) });
  }
  return out;
}

/** Text of a subtree, without recursion (answers can nest as deep as they like). */
function deepText(el: Element): string {
  const parts: string[] = [];
  const stack: ChildNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeName === '#text') parts.push((n as Text).value);
    else if (isElement(n) && !DROP.has(n.tagName)) for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return parts.join('');
}

function idOf(el: Element): number | null {
  const raw = el.attrs.find((a) => a.name === 'id')?.value;
  const m = raw === undefined ? null : /^\s*(\d{1,9})\s*$/.exec(raw);
  return m ? Number(m[1]) : null;
}

/** An attribute answer as plain text: markup a provider added is dropped, entities decoded. */
function textOf(answer: string, slot: AttrSlot): string {
  let text = answer;
  if (/[<&]/.test(answer)) {
    const parts: string[] = [];
    collectText(readHtml(answer), parts);
    text = parts.join('');
  }
  return slot.value === slot.value.trim() ? text.trim() : text;
}

function collectText(nodes: readonly OutNode[], out: string[]): void {
  for (const n of nodes) {
    if (n.t === 'text') out.push(n.v);
    else collectText(n.kids, out);
  }
}
