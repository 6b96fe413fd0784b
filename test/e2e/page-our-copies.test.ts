/**
 * Words of ours the page copies once they are written (written.ts), in Chromium with the built
 * extension and Apertium pointed at the marker fake (`word` -> `⟦word⟧`, so a text translated twice
 * reads `⟦⟦word⟧⟧`): a table's sticky header its script clones from the translated one when the
 * reader scrolls (as DataTables' FixedHeader does), and a widget that shows the chosen option's
 * text in an element of its own. Both stay as we wrote them, not sent again; a sentence the page
 * adds of its own is translated. And a paragraph too long for one request, sent in parts, that a
 * "read more" panel clones whole: not sent again either.
 */
import { describe, expect, it } from 'vitest';
import { markerTabs } from '../fakes/page-e2e';

const PAGE = `<!doctype html><html lang="en"><head><title>Standings</title></head><body>
<table id="table"><thead><tr id="head"><th>Points per game</th><th>Home team</th></tr></thead>
<tbody>${Array.from({ length: 40 }, (_, i) => `<tr><td>Game number ${i}</td><td>Bulls</td></tr>`).join('')}</tbody></table>
<select id="pick"><option>Eastern conference</option><option>Western conference</option></select>
<span id="chosen"></span><div id="sticky" style="position: fixed; top: 0"></div>
<script>
addEventListener('scroll', () => {
  const sticky = document.getElementById('sticky');
  if (!sticky.firstChild) sticky.append(document.getElementById('head').cloneNode(true));
}, { once: true });
document.getElementById('pick').addEventListener('change', (e) => {
  document.getElementById('chosen').textContent = e.target.selectedOptions[0].text;
});
</script></body></html>`;

const sentences = (n: number, what: string) => Array.from({ length: n }, (_, i) => `The ${what} sentence number ${i} tells the reader about the season.`).join(' ');

const LONG = `<!doctype html><html lang="en"><head><title>Season</title></head><body>
<p id="story">${sentences(14, 'first')} <a href="#more">${sentences(3, 'linked')}</a> ${sentences(14, 'last')}</p>
<p id="log">${sentences(30, 'plain')}</p>
<button id="more">Read more</button><div id="panel"></div>
<script>
document.getElementById('more').addEventListener('click', () => {
  document.getElementById('panel').append(document.getElementById('story').cloneNode(true), document.getElementById('log').cloneNode(true));
});
</script></body></html>`;

describe('words of ours the page copies', () => {
  const { open, send, translate, requests, origin } = markerTabs({ '/standings.html': PAGE, '/season.html': LONG });

  it("a sticky header cloned from the translated one and a chosen option's text a widget shows are not sent again; the page's own new sentence is; restore leaves the page's copies", async () => {
    const { page, tabId } = await open(`${origin()}/standings.html`);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await translate(tabId);
    const text = (id: string) => page.evaluate((i) => document.getElementById(i)!.textContent, id);
    expect(await text('head')).toBe('⟦Points per game⟧⟦Home team⟧');
    const sent = requests();
    // The reader scrolls: the page clones the translated header; picks an option: the widget shows its text.
    await page.mouse.wheel(0, 400);
    await expect.poll(() => text('sticky')).toBe('⟦Points per game⟧⟦Home team⟧');
    await page.selectOption('#pick', { index: 1 });
    await expect.poll(() => text('chosen')).toBe('⟦Western conference⟧');
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<p id="own">Standings updated tonight</p>'));
    await expect.poll(() => text('own')).toBe('⟦Standings updated tonight⟧');
    // One request for the page's sentence, none for the copies; they read as we wrote them.
    expect(requests() - sent).toBe(1);
    expect([await text('sticky'), await text('chosen')]).toEqual(['⟦Points per game⟧⟦Home team⟧', '⟦Western conference⟧']);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect([await text('head'), await text('own'), await text('sticky'), await text('chosen')]).toEqual([
      'Points per gameHome team',
      'Standings updated tonight',
      '⟦Points per game⟧⟦Home team⟧',
      '⟦Western conference⟧',
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a clone of a paragraph too long for one request, sent in parts (cut between its nodes, a text cut at its sentences), is not sent again', async () => {
    const { page, tabId } = await open(`${origin()}/season.html`);
    await translate(tabId);
    const text = (sel: string) => page.evaluate((s) => document.querySelector(s)!.textContent, sel);
    const [story, log] = [await text('#story'), await text('#log')];
    expect(story).toMatch(/^⟦The first sentence number 0 .*⟧$/);
    expect(log).toMatch(/^⟦The plain sentence number 0 .*⟧$/);
    const sent = requests();
    await page.click('#more');
    await expect.poll(() => page.evaluate(() => document.getElementById('panel')!.childElementCount)).toBe(2);
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<p id="own">Season reviewed tonight</p>'));
    await expect.poll(() => text('#own')).toBe('⟦Season reviewed tonight⟧');
    // One request, for the page's own sentence (one no other test sends: the engine keeps answers); the clones read as we wrote the paragraphs.
    expect(requests() - sent).toBe(1);
    expect([await text('#panel > p:nth-child(1)'), await text('#panel > p:nth-child(2)')]).toEqual([story, log]);
    expect(await send({ type: 'page:restore', data: { tabId } })).toMatchObject({ data: { state: 'original' } });
    expect(await text('#story')).toBe(sentences(14, 'first') + ' ' + sentences(3, 'linked') + ' ' + sentences(14, 'last'));
    await page.close();
  });
});
