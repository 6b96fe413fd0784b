/**
 * The units an element left out of its run holds apart from it (segment.ts `apart`): a select's
 * options and the labels its list shows, an SVG's titles. Each is translated in place (tags.ts
 * `inPlace`).
 */
import { HAS_LETTER } from './attributes';
import { saysNo, SVG_NS } from './tags';
import { wholeUnit, type Unit } from './units';

export function isSvg(el: Element): boolean {
  return el.localName === 'svg' && el.namespaceURI === SVG_NS;
}

/**
 * A select's option texts, and the labels the list shows: an option group's `label`, and an
 * option's `label`, which HTML shows instead of its text (so that text is not sent); those
 * elements' attribute units come from `attrs`.
 */
export function optionUnits(select: Element, hidden: boolean, out: Unit[], attrs: (el: Element) => void): void {
  if (saysNo(select)) return;
  for (const o of select.querySelectorAll('option')) {
    if (o.getAttribute('label')) continue;
    if (HAS_LETTER.test(o.textContent ?? '')) out.push(wholeUnit(o, hidden));
  }
  for (const labelled of select.querySelectorAll('optgroup[label], option[label]')) attrs(labelled);
}

/**
 * An SVG's content is not prose (issue 5: "svg text unless labelled"), but its labels are: its own
 * aria-label (the attribute table) and its `<title>` elements, the tooltip and accessible name of
 * an icon or a chart. Each title is a unit of its own; not in hidden content, as the titles of
 * hidden elements are not (an icon sprite's symbols).
 */
export function svgTitleUnits(svg: Element, hidden: boolean, out: Unit[]): void {
  if (hidden) return;
  for (const t of svg.querySelectorAll('title')) {
    if (t.namespaceURI !== SVG_NS || saysNo(t) || !HAS_LETTER.test(t.textContent ?? '')) continue;
    // Text only: an SVG title has no markup to keep (an element in it would be SVG, not phrasing).
    if (t.childElementCount === 0) out.push(wholeUnit(t, hidden));
  }
}
