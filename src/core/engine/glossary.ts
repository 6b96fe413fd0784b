/**
 * The user's glossary (decisions.md: dom selects "the user's glossary for that domain"; it applies
 * to every provider). Each source term found in the text is replaced, before any provider sees
 * it, by its target term inside a `translate="no"` span: the document machinery keeps such an
 * element verbatim and never sends it, so the target term comes back exactly, whatever the route;
 * the span is removed afterwards. Text-format input with a term goes through the same machinery
 * as a one-chunk document.
 */
import { parseFragment, type DefaultTreeAdapterTypes as P } from 'parse5';
import { escapeText } from '../html/text';
import { MAX_DEPTH, skipOf, type ChildNode } from '../html/rules';
import type { GlossarySettings } from '../settings/types';
import type { Domain } from '../types';

/** The opening of a glossary span; nothing else in a document carries this attribute. */
const OPEN = '<span translate="no" data-pg-term="">';
const CLOSE = '</span>';

export interface Glossary {
  /** The text as an HTML fragment with its terms replaced, or undefined when no term occurs. */
  markText(text: string): string | undefined;
  /** The same inside an HTML fragment's translatable text; the fragment itself when no term occurs. */
  markHtml(fragment: string): string;
  /** Removes the spans again, leaving the target terms. */
  unmark(html: string): string;
}

/** Scripts written without spaces between words: no space is put back around a term there. */
const NO_SPACES = new Set(['ja', 'zh', 'th', 'lo', 'km', 'my', 'bo']);
const WORD = /[\p{L}\p{N}]/u;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The glossary for a request: entries of its pair in its domain and in `general`. */
export function compileGlossary(entries: readonly GlossarySettings[] | undefined, src: string, trg: string, dom: Domain): Glossary | undefined {
  const terms = new Map<string, string>();
  for (const g of entries ?? []) {
    if (g.src !== src || g.trg !== trg) continue;
    if ((g.domain ?? 'general') !== 'general' && g.domain !== dom) continue;
    for (const [from, to] of Object.entries(g.terms)) if (from.trim() && !terms.has(from.toLowerCase())) terms.set(from.toLowerCase(), to);
  }
  if (terms.size === 0) return undefined;
  // Longest first, so "supreme court" wins over "court"; whole words only.
  const alternatives = [...terms.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const target = (found: string): string => {
    const to = terms.get(found.toLowerCase()) ?? found;
    const capital = found[0] !== undefined && found[0] !== found[0].toLowerCase() && to[0] !== undefined;
    return capital ? to[0]!.toUpperCase() + to.slice(1) : to;
  };
  const mark = (escaped: string) => escaped.replace(pattern, (found) => `${OPEN}${escapeText(target(found))}${CLOSE}`);

  return {
    markText(text) {
      pattern.lastIndex = 0;
      if (!pattern.test(text)) return undefined;
      return mark(escapeText(text));
    },
    markHtml(fragment) {
      const ranges: [number, number][] = [];
      collectTextRanges(parseFragment(fragment, { sourceCodeLocationInfo: true }).childNodes, ranges, 0);
      if (ranges.length === 0) return fragment;
      let out = '';
      let at = 0;
      for (const [s, e] of ranges) {
        out += fragment.slice(at, s) + mark(fragment.slice(s, e));
        at = e;
      }
      return out + fragment.slice(at);
    },
    unmark(html) {
      if (!html.includes(OPEN)) return html;
      // The term replaced a whole word; some engines (Apertium in HTML mode) drop the space next
      // to an element they cannot see into, gluing the term to its neighbour: put it back.
      const spaced = !NO_SPACES.has(trg.split('-')[0]!);
      return html.replace(/<span translate="no" data-pg-term="">([^<]*)<\/span>/g, (whole, term: string, at: number) => {
        if (!spaced) return term;
        const before = WORD.test(html[at - 1] ?? '') ? ' ' : '';
        const after = WORD.test(html[at + whole.length] ?? '') ? ' ' : '';
        return before + term + after;
      });
    },
  };
}

/** Source ranges of the text nodes a translator would see (not inside kept or skipped elements). */
function collectTextRanges(nodes: readonly ChildNode[], out: [number, number][], depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const n of nodes) {
    if (n.nodeName === '#text') {
      const loc = (n as P.TextNode).sourceCodeLocation;
      if (loc) out.push([loc.startOffset, loc.endOffset]);
    } else if ('tagName' in n) {
      const el = n as P.Element;
      if (skipOf(el) === null) collectTextRanges(el.childNodes, out, depth + 1);
    }
  }
}

/** The text content of an HTML fragment (entities decoded, tags dropped). */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  const walk = (nodes: readonly ChildNode[]) => {
    for (const n of nodes) {
      if (n.nodeName === '#text') parts.push((n as P.TextNode).value);
      else if ('childNodes' in n) walk((n as P.Element).childNodes);
    }
  };
  walk(parseFragment(html).childNodes);
  return parts.join('');
}
