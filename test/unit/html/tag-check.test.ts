/**
 * tag-check.ts on answers Apertium APy really gave (logged between the extension and APy while
 * the pairs' pipelines started under a page's load, English to French through Spanish).
 */
import { describe, expect, it } from 'vitest';
import { misreadsTags } from '../../../src/core/html/tag-check';

describe('misreadsTags', () => {
  it('finds a placeholder whose tag name or attribute name came back translated as a word', () => {
    expect(misreadsTags('<p id="33"><a id="34">Help</a></p>', '<p id="33"><Un id="34">Ayuda</a></p>')).toBe(true);
    expect(misreadsTags('<p id="34"><span id="35">More</span>\n  <a id="36"></a>\n</p>', '<p id="34"><Giró id="35">Más</span>\n  <a id="36"></a>\n</p>')).toBe(true);
    expect(misreadsTags('<a id="42"><span id="43"></span> <span id="44">Mozilla Reps</span></a>', '<a id="42"><span id="43"></span> <span Allez="44">Mozilla Reps</span></a>')).toBe(true);
    expect(misreadsTags('<p id="1"><b id="2">x</b></p>', '<p id="1"><b ID="2">x</b><i id="2">y</i></p>')).toBe(true);
    expect(misreadsTags('<p id="22"><span id="23">Type</span></p>', '<p id="22"><de Tipo id="23">Tipo</span></p>')).toBe(true);
    // Apertium's own analysis tag leaking (`<prn\>`) names no placeholder: the rebuild drops it.
    expect(misreadsTags('<p id="1">Il</p>', '<p id="1">Él<prn\\></p>')).toBe(false);
  });

  it('accepts what translators do with tags: move, drop, repeat, add, requote, change case', () => {
    const sent = '<p id="1">Read <a id="2">the <b id="3">whole</b> story</a> today<br id="4"></p>';
    expect(misreadsTags(sent, '<p id="1">Lee <a id="2">toda la <b id="3">historia</b></a> hoy<br id="4"></p>')).toBe(false);
    expect(misreadsTags(sent, '<p id="1"><b id="3">Toda</b> la historia <a id="2">hoy</a></p>')).toBe(false);
    expect(misreadsTags(sent, "<P ID='1'>Lee <a id=2>la</a> <a id=\"2\">historia</a><br id=\"4\"/></P>")).toBe(false);
    expect(misreadsTags(sent, 'Lee la historia hoy')).toBe(false);
    // Markup of its own (hostile or not) is the rebuild's to drop, not a misreading.
    expect(misreadsTags(sent, '<p id="1"><b>Lee</b> la historia<img src=x onerror=alert(1)><b id="999">x</b> <a id="2" href="javascript:x">y</a></p>')).toBe(false);
    expect(misreadsTags(sent, `<p id="1">x<svg><circle r=1></circle></svg><a i=3 href="javascript:x">y</a><img src onerror='window.__pwned=1'><p i=2 onclick='x'></p></p>`)).toBe(false);
    // Text that reads like a tag is escaped by the provider: no tag.
    expect(misreadsTags('<p id="1">a &lt;b&gt; c</p>', '<p id="1">un &lt;b&gt; c</p>')).toBe(false);
  });
});
