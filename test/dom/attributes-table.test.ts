/** The attribute table (attributes.ts): which values of an element are prose to translate, and in which order. */
import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_NAMES, translatableAttributes } from '../../src/content/attributes';

function el(html: string): Element {
  const box = document.createElement('div');
  box.innerHTML = html;
  return box.querySelector('[data-t]') ?? box.firstElementChild!;
}

describe('translatableAttributes', () => {
  it("gives the values in the table's order, whatever the order the page wrote them in", () => {
    const a = el('<div data-t aria-valuetext="Three stars" aria-label="Rating" title="Your rating" aria-description="Out of five">x</div>');
    expect(translatableAttributes(a)).toEqual([
      ['title', 'Your rating'],
      ['aria-label', 'Rating'],
      ['aria-description', 'Out of five'],
      ['aria-valuetext', 'Three stars'],
    ]);
  });

  it('takes a row only on the elements it names, and only prose', () => {
    const table = el('<table><tr><th data-t abbr="Pop." title="https://example.com/pop">Population</th></tr></table>');
    expect(translatableAttributes(table)).toEqual([['abbr', 'Pop.']]);
    expect(translatableAttributes(el('<table><tr><td data-t abbr="Pop.">1</td></tr></table>'))).toEqual([]);
    expect(translatableAttributes(el('<input type="text" value="Typed by the user" placeholder="Your name">'))).toEqual([['placeholder', 'Your name']]);
    expect(translatableAttributes(el('<input type="submit" value="Send it">'))).toEqual([['value', 'Send it']]);
    expect(translatableAttributes(el('<div aria-braillelabel="shs" aria-valuetext="50%">x</div>'))).toEqual([]);
    expect(translatableAttributes(el('<select><optgroup data-t label="Fruit"></optgroup></select>'))).toEqual([['label', 'Fruit']]);
    expect(translatableAttributes(el('<p>no attributes</p>'))).toEqual([]);
  });

  it('names every attribute it reads for the page observer', () => {
    for (const name of ['title', 'alt', 'placeholder', 'aria-label', 'aria-description', 'aria-roledescription', 'aria-placeholder', 'aria-valuetext', 'abbr', 'value', 'label', 'content']) {
      expect(ATTRIBUTE_NAMES).toContain(name);
    }
  });
});
