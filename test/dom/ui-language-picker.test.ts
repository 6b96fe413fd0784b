/**
 * The language picker in happy-dom, as the popup and the options page use it: a search that
 * narrows to one language picks it, also when it was typed before the languages came.
 */
import { h, render } from 'preact';
import { useState } from 'preact/hooks';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguagePicker } from '../../src/ui/shared/LanguagePicker';

afterEach(() => {
  render(null, document.body);
  document.body.innerHTML = '';
});

/** The popup's way: the value is the host's state, set by onChange; `show` renders with `codes`. */
function picker() {
  let value = 'auto';
  function Host({ codes }: { codes: string[] }) {
    const [v, setV] = useState('auto');
    value = v;
    return h(LanguagePicker, { id: 'src', label: 'From', codes, value: v, locale: 'en', first: { code: 'auto', name: 'Detect language' }, onChange: setV });
  }
  const show = (codes: string[]) => act(() => render(h(Host, { codes }), document.body));
  const type = (text: string) =>
    act(() => {
      const input = document.querySelector<HTMLInputElement>('#src-search')!;
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  const selected = () => document.querySelector<HTMLSelectElement>('#src-select')!.value;
  return { show, type, selected, value: () => value };
}

describe('language picker', () => {
  it('picks the one language a search narrows to, by name or by code', () => {
    const p = picker();
    p.show(['ca', 'en', 'es']);
    p.type('english');
    expect(p.value()).toBe('en');
    expect(p.selected()).toBe('en');
    p.type('ca');
    expect(p.value()).toBe('ca');
  });

  it('keeps the value while a search matches several languages, listed by name', () => {
    const p = picker();
    p.show(['ca', 'en', 'es', 'et']);
    p.type('e');
    expect(p.value()).toBe('auto');
    expect([...document.querySelectorAll('#src-select option')].map((o) => o.getAttribute('value'))).toEqual(['auto', 'en', 'et', 'es']);
  });

  it('picks what was typed before the languages came, once they come', () => {
    const p = picker();
    p.show([]);
    p.type('english');
    expect(p.value()).toBe('auto');
    p.show(['ca', 'en', 'es']);
    expect(p.value()).toBe('en');
    expect(p.selected()).toBe('en');
  });

  it('lists Chinese once where the providers name it zh and zh-Hans, and shows a stored zh as that entry', () => {
    let value = 'zh';
    const show = () =>
      act(() => render(h(LanguagePicker, { id: 'trg', label: 'To', codes: ['en', 'zh', 'zh-Hans', 'zh-Hant'], value, locale: 'en', onChange: (v: string) => (value = v) }), document.body));
    show();
    const select = document.querySelector<HTMLSelectElement>('#trg-select')!;
    expect([...select.options].map((o) => o.textContent)).toEqual(['English (en)', 'Simplified Chinese (zh-Hans)', 'Traditional Chinese (zh-Hant)']);
    expect(select.value).toBe('zh-Hans');
  });
});
