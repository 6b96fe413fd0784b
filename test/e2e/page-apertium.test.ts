/** One page translated by the real Apertium APy (English -> Spanish), in place, then restored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../fakes/page-server';
import { evaluateInContentScript, launchExtension, type ExtensionBrowser } from './browser';

const ARTICLE = `<!doctype html><html lang="en"><head><title>The garden</title><style>.card{display:flex;gap:1em}</style></head><body>
<div class="card"><a href="/video">Video Gallery</a><span>Watch behind-the-scenes videos and more</span></div>
<div class="live"><a href="/live">Live Events</a><span>Tune in to events and statements as they happen</span></div>
<nav><button>Sections</button> <button>Home</button> <button>Search</button></nav>
<h6><span><a href="/africa">Africa</a></span><span class="pipe">|</span>United States to Lift Sudan Sanctions</h6>
<article lang="en"><h1>The garden</h1>
<p id="a">The black cat sleeps on the table. My brother has a red house near the river.</p>
<p id="b">We want to <a href="/more" class="more">read the book</a> in the <b>library</b> today.</p>
<ul><li>The dog eats bread.</li><li>The children play in the park.</li></ul>
<h2 id="part">II. The house</h2><ol class="options"><li><b>a. <a href="/mail">Send us an email</a></b></li><li>b) the red house</li></ol></article>
<ol class="references"><li id="cite_note-1"><span class="mw-cite-backlink">^ <a href="#r1"><sup><i><b>a</b></i></sup></a> <a href="#r2"><sup><i><b>b</b></i></sup></a></span> <span class="reference-text">The black cat sleeps on the table.</span></li></ol></body></html>`;

describe('page translation with real Apertium', () => {
  let browser: ExtensionBrowser;
  let server: PageServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchExtension(), startPageServer()]);
    server.set('/garden.html', ARTICLE);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close()]);
  });

  it('shows real Spanish in place, links and classes kept, and restores exactly', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/garden.html`);
    const result = await evaluateInContentScript<{ a: string; b: string; li: string; link: string; title: string; buttons: string[]; kicker: string; card: string; live: string; status: unknown; langs: string[]; ref: string; labels: string[]; same: boolean }>(
      page,
      browser.id,
      `(async () => {
        const P = polyglot.page;
        const before = document.body.innerHTML;
        const link = document.querySelector('a.more');
        await polyglot.handle({ type: 'page:translate', data: { trg: 'es' } });
        while (P.status().state === 'translating') await new Promise((r) => setTimeout(r, 20));
        const out = {
          a: document.getElementById('a').textContent,
          b: document.getElementById('b').innerHTML,
          li: document.querySelector('li').textContent,
          link: document.querySelector('a.more') === link ? document.querySelector('a.more').getAttribute('href') : 'replaced',
          title: document.title,
          buttons: [...document.querySelectorAll('nav button')].map((b) => b.textContent),
          kicker: document.querySelector('h6').innerHTML,
          card: document.querySelector('.card a').textContent,
          live: document.querySelector('.live a').textContent,
          status: P.status(),
          langs: [document.documentElement.lang, document.querySelector('article').lang],
          ref: document.getElementById('cite_note-1').textContent,
          labels: [document.getElementById('part'), ...document.querySelectorAll('.options li')].map((e) => e.textContent),
        };
        P.restore();
        return { ...out, same: document.body.innerHTML === before };
      })()`,
    );
    console.log(JSON.stringify(result, null, 1));
    expect(result.status).toMatchObject({ state: 'translated', src: 'en', trg: 'es', errors: 0 });
    expect(result.a).toMatch(/gato/i);
    expect(result.a).toMatch(/mesa/i);
    expect(result.b).toMatch(/<a href="\/more" class="more">[^<]*libro[^<]*<\/a>/);
    expect(result.li).toMatch(/perro/i);
    expect(result.title).toMatch(/jard/i);
    expect(result.link).toBe('/more');
    // Each button says its own label: sent as one run, Apertium gave "Búsqueda", "de", "Casa de las secciones".
    expect(result.buttons).toEqual(['Secciones', 'Casa', 'Búsqueda']);
    // The section link keeps its own word: sent as one, Apertium put "Estados Unidos" in it.
    expect(result.kicker).toMatch(/^<span><a href="\/africa">África<\/a><\/span><span class="pipe">\|<\/span>Estados Unidos/);
    // A flex item is a unit of its own: sent with its neighbour, the link read "Reloj de" ("Watch").
    expect(result.card).toBe('Galería de vídeo');
    // Phrases glued with no space between elements (no stylesheet here): sent as one, "Tonada de" ("Tune in").
    expect(result.live).toBe('Casos vivos');
    // The article said English again inside the page: it says Spanish now, as <html> does.
    expect(result.langs).toEqual(['es', 'es']);
    // A reference's backlinks are letters alone, kept: sent, Apertium made the "a" "Un".
    expect(result.ref).toMatch(/^\^ a b .*gato/i);
    // A list item's label is not sent: sent, Apertium made "II." "Ii." and "a." "Un.".
    expect(result.labels).toEqual(['II. La casa', 'a. Nos envío un email', 'b) La casa roja']);
    expect(result.same).toBe(true);
    await page.close();
  });
});
