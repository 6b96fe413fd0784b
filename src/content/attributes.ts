/**
 * Translatable attributes: one declarative table (issue 5). Each row says which elements carry prose
 * in which attribute; segment.ts reads nothing else. Values are sent as text units and written back
 * with setAttribute, the original kept for restore.
 */
import { isProseValue } from '../core/html/text';

export interface AttributeRule {
  /** Attribute whose value is prose. */
  name: string;
  /** Elements that carry it (a selector tested with `matches`). */
  on: string;
}

export const ATTRIBUTE_TABLE: readonly AttributeRule[] = [
  { name: 'title', on: '[title]' },
  { name: 'alt', on: 'img[alt], area[alt], input[type="image" i][alt]' },
  { name: 'placeholder', on: 'input[placeholder], textarea[placeholder]' },
  { name: 'aria-label', on: '[aria-label]' },
  { name: 'value', on: 'input[type="button" i][value], input[type="submit" i][value], input[type="reset" i][value]' },
  // What a select's list shows for a group, and for an option instead of its text (apart.ts `optionUnits`).
  { name: 'label', on: 'optgroup[label], option[label]' },
  // The document-level rows: read once per page, not per element.
  { name: 'content', on: 'meta[name="description" i][content], meta[property="og:description" i][content]' },
];

/** Every attribute name of the table, for the MutationObserver's attributeFilter. */
export const ATTRIBUTE_NAMES: readonly string[] = [...new Set(ATTRIBUTE_TABLE.map((r) => r.name))];

/** One for the content script: each regexp object gets its own compiled code (~10 kB for this class). */
export const HAS_LETTER = /\p{L}/u;

/** The table's attributes of `el` that hold prose (not a URL or a query string: text.ts `isProseValue`), as [name, value]. */
export function translatableAttributes(el: Element): [string, string][] {
  if (!el.hasAttributes()) return [];
  const out: [string, string][] = [];
  for (const rule of ATTRIBUTE_TABLE) {
    const value = el.getAttribute(rule.name);
    if (value === null || !isProseValue(value)) continue;
    if (el.matches(rule.on)) out.push([rule.name, value]);
  }
  return out;
}
