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
  /**
   * Whether the page shows the value without the reader doing anything: a field's hint, a
   * button's words, an image's words where it shows none, a select's labels. A tooltip and what a
   * screen reader says are not: in view, they wait for the texts there (prioritize.ts).
   */
  shown: boolean;
}

export const ATTRIBUTE_TABLE: readonly AttributeRule[] = [
  { name: 'title', on: '[title]', shown: false },
  { name: 'alt', on: 'img[alt], area[alt], input[type="image" i][alt]', shown: true },
  { name: 'placeholder', on: 'input[placeholder], textarea[placeholder]', shown: true },
  { name: 'aria-label', on: '[aria-label]', shown: false },
  // What assistive technology reads besides the name (WAI-ARIA 1.2/1.3 string properties): a
  // description, a custom role's name ("slide"), an empty field's hint, a slider's value in words
  // ("3 of 10 stars"). Not the braille ones (aria-braillelabel, aria-brailleroledescription): an
  // author's abbreviation for a braille display is not translated into one.
  { name: 'aria-description', on: '[aria-description]', shown: false },
  { name: 'aria-roledescription', on: '[aria-roledescription]', shown: false },
  { name: 'aria-placeholder', on: '[aria-placeholder]', shown: false },
  { name: 'aria-valuetext', on: '[aria-valuetext]', shown: false },
  // A header cell's short form, which screen readers say before each cell of its column.
  { name: 'abbr', on: 'th[abbr]', shown: false },
  { name: 'value', on: 'input[type="button" i][value], input[type="submit" i][value], input[type="reset" i][value]', shown: true },
  // What a select's list shows for a group, and for an option instead of its text (apart.ts `optionUnits`).
  { name: 'label', on: 'optgroup[label], option[label]', shown: true },
  // The document-level rows: read once per page, not per element.
  { name: 'content', on: 'meta[name="description" i][content], meta[property="og:description" i][content]', shown: false },
];

/** Every attribute name of the table, for the MutationObserver's attributeFilter. */
export const ATTRIBUTE_NAMES: readonly string[] = [...new Set(ATTRIBUTE_TABLE.map((r) => r.name))];

/** Attributes no element shows (`shown`): a unit of one, in view, goes after the texts there. */
export const UNSHOWN_ATTRIBUTES: ReadonlySet<string> = new Set(ATTRIBUTE_NAMES.filter((name) => ATTRIBUTE_TABLE.every((r) => r.name !== name || !r.shown)));

/** One for the content script: each regexp object gets its own compiled code (~10 kB for this class). */
export const HAS_LETTER = /\p{L}/u;

/** The table's rows by attribute name, and each name's place in the table (the order values are given in). */
const RULES = new Map<string, { at: number; on: string }>();
for (const [at, rule] of ATTRIBUTE_TABLE.entries()) {
  const known = RULES.get(rule.name);
  RULES.set(rule.name, known ? { at: known.at, on: `${known.on}, ${rule.on}` } : { at, on: rule.on });
}

/**
 * The table's attributes of `el` that hold prose (not a URL or a query string: text.ts
 * `isProseValue`), as [name, value], in the table's order. From one read of the element's
 * attribute names (as tags.ts `inspect`): most elements carry two or three attributes, and the
 * table has a dozen rows.
 */
export function translatableAttributes(el: Element): [string, string][] {
  if (!el.hasAttributes()) return [];
  let out: [string, string][] | null = null;
  let sorted = true;
  let last = -1;
  for (const name of el.getAttributeNames()) {
    const rule = RULES.get(name);
    if (!rule) continue;
    const value = el.getAttribute(name)!;
    if (!isProseValue(value) || !el.matches(rule.on)) continue;
    (out ??= []).push([name, value]);
    if (rule.at < last) sorted = false;
    last = rule.at;
  }
  if (!out) return [];
  if (!sorted) out.sort((a, b) => RULES.get(a[0])!.at - RULES.get(b[0])!.at);
  return out;
}
