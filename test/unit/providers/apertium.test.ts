import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Provider } from '../../../src/core/provider';
import apertiumDefault, { apertium, createApertium, cutHtml, HTML_PART } from '../../../src/providers/apertium';
import { startFakeApy, type FakeApy } from '../../fakes/fake-apy';
import { expectAbortIs408, fakeForFile, HTML, never, rejection, TEXT } from './harness';

const EN_ES = { src: 'en', trg: 'es' };

const apy = await fakeForFile(startFakeApy());
afterEach(() => vi.unstubAllGlobals());

const make = (url = apy.url, now?: () => number): Provider => createApertium({ url }, { fetch: globalThis.fetch }, now ? { now } : {});
const translates = () => apy.requests.filter((r) => r.path === '/translate');

/** An adapter whose APy (en->es) answers each `q` from `answers`, as the real one did. */
function answering(answers: Record<string, string>): Provider {
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const body = String(url).endsWith('/listPairs')
      ? { responseData: [{ sourceLanguage: 'eng', targetLanguage: 'spa' }] }
      : { responseData: { translatedText: answers[new URLSearchParams(String(init?.body)).get('q') ?? ''] }, responseStatus: 200 };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return createApertium({ url: 'http://127.0.0.1:9' }, { fetch });
}

describe('apertium.ts module', () => {
  it('describes itself as the registry and settings expect', () => {
    expect(apertiumDefault).toBe(apertium);
    expect(apertium).toMatchObject({ id: 'apertium.ts', name: 'Apertium', needsKey: false, enabledByDefault: true, defaultUrl: 'http://127.0.0.1:2737' });
    const p = make();
    expect(p).toMatchObject({ id: 'apertium.ts', name: 'Apertium', html: true, limits: { chars: 4000, segments: 1 } });
  });

  it('uses only the injected fetch', async () => {
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', () => Promise.reject(new Error('global fetch used')));
    const calls: string[] = [];
    const p = createApertium({ url: apy.url }, { fetch: (input, init) => (calls.push(String(input)), realFetch(input, init)) });
    expect(await p.translateBatch(['hi'], EN_ES, TEXT, never())).toEqual(['HI']);
    expect(calls).toEqual([`${apy.url}/listPairs`, `${apy.url}/translate`]);
  });
});

describe('languages', () => {
  it('maps APy codes and variants to canonical BCP 47 pairs', async () => {
    const { pairs } = (await make().languages()) as { pairs: { src: string; trg: string }[] };
    expect(pairs).toEqual(expect.arrayContaining([
      { src: 'en', trg: 'es' }, { src: 'es', trg: 'en' }, { src: 'es', trg: 'pt' }, { src: 'es', trg: 'pt-BR' },
      { src: 'en', trg: 'ca-valencia' }, { src: 'fr', trg: 'es' },
    ]));
    expect(pairs).toHaveLength(10);
  });

  it('skips codes that are not languages and sends back the APy code of a variant', async () => {
    const odd = await startFakeApy(['eng-mul', 'x_bad!-spa', 'spa-por_BR', 'srp_Latn-eng', 'hbs-eng']);
    try {
      const p = make(odd.url);
      const { pairs } = (await p.languages()) as { pairs: { src: string; trg: string }[] };
      expect(pairs).toEqual([{ src: 'es', trg: 'pt-BR' }, { src: 'sr-Latn', trg: 'en' }]);
      await p.translateBatch(['a'], { src: 'es', trg: 'pt-BR' }, TEXT, never());
      await p.translateBatch(['b'], { src: 'sr-Latn', trg: 'en' }, TEXT, never());
      // srp_Latn and hbs both canonicalize to sr-Latn: the plain code wins.
      expect(odd.requests.filter((r) => r.path === '/translate').map((r) => r.args.langpair)).toEqual([['spa|por_BR'], ['hbs|eng']]);
    } finally {
      await odd.close();
    }
  });

  it('caches the pair list for 10 minutes, but not a failure', async () => {
    let t = 0;
    const p = make(apy.url, () => t);
    apy.rule({ path: '/listPairs', fault: { type: 'status', status: 500 }, times: 1 });
    expect((await rejection(p.languages())).code).toBe(502);
    await p.languages();
    t = 9 * 60_000;
    await p.languages();
    await p.translateBatch(['x'], EN_ES, TEXT, never());
    expect(apy.requests.filter((r) => r.path === '/listPairs')).toHaveLength(2);
    t = 10 * 60_000 + 1;
    await p.languages();
    expect(apy.requests.filter((r) => r.path === '/listPairs')).toHaveLength(3);
  });
});

describe('translateBatch', () => {
  it('posts one form-encoded text per request, without unknown-word marks', async () => {
    const text = 'a+b & c=d xyzzy? ñandú 😀';
    expect(await make().translateBatch([text], EN_ES, TEXT, never())).toEqual(['A+B & C=D XYZZY? ÑANDÚ 😀']);
    const [req] = translates();
    expect(req).toMatchObject({ method: 'POST', contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/) });
    expect(req?.args).toEqual({ langpair: ['eng|spa'], q: [text], format: ['txt'], markUnknown: ['no'] });
  });

  it("removes Apertium's # and @ marks, keeping the hashtags and handles of the text sent", async () => {
    // What APy answered (markUnknown=no); `##` after two legs of a chain.
    const answers: Record<string, string> = {
      'XULRunner is a software platform': 'XULRunner Es una #programa de software',
      'OS X operating systems': 'OS #X sistemas operativos',
      'Follow #MeToo and @nasa (C# or me@x.com)': 'Sigue #MeToo y @nasa (C# o me@x.com)',
      '<p i=1>The <b i=2>representatives</b> [&#xA0;Time</p>': '<p i=1>Les <b i=2>##représentants</b> @officiels &#39; [&#xA0;#Plazo</p>',
      // Through text markers (an answer whose HTML misread its tags, engine/leg.ts).
      '[1]Reality[/1]': '[1]@Realidad[/1]',
      // A numeral or an acronym whose form was not made keeps the capitals it was sent with; a
      // word sent in small letters does not (only its mark goes).
      'Sesiona IV Pleno del G7 y de la radio': 'Sesiona #Iv Plenary of the #g7 and of the #Radio',
    };
    const p = answering(answers);
    expect(await p.translateBatch([...Object.keys(answers).slice(0, 3), '[1]Reality[/1]', 'Sesiona IV Pleno del G7 y de la radio'], EN_ES, TEXT, never())).toEqual([
      'XULRunner Es una programa de software',
      'OS X sistemas operativos',
      'Sigue #MeToo y @nasa (C# o me@x.com)',
      '[1]Realidad[/1]',
      'Sesiona IV Plenary of the G7 and of the Radio',
    ]);
    expect(await p.translateBatch(['<p id="1">The <b id="2">representatives</b> [&#xA0;Time</p>'], EN_ES, HTML, never())).toEqual([
      '<p id="1">Les <b id="2">représentants</b> officiels &#39; [&#xA0;Plazo</p>',
    ]);
  });

  it('sends html as format=html and keeps the tags', async () => {
    expect(await make().translateBatch(['<p>Hi <b>you</b></p>'], EN_ES, HTML, never())).toEqual(['<p>HI <b>YOU</b></p>']);
    expect(translates()[0]?.args.format).toEqual(['html']);
  });

  it('sends placeholder ids short, so a page call of 1000 characters stays one request, and gives them back', async () => {
    // A page call fills 1000 characters with the content script's `i=N`; the engine writes `id="N"`.
    const sentence = 'The <a i=2>house</a> is <b i=3>small</b>. ';
    const call = `<p i=1>${sentence.repeat(Math.floor((1000 - 11) / sentence.length))}</p>`;
    expect(call.length).toBeGreaterThan(1000 - sentence.length);
    const html = call.replace(/ i=(\d+)/g, ' id="$1"');
    expect(html.length).toBeGreaterThan(HTML_PART);
    const upper = (h: string) => h.replace(/>([^<]*)</g, (_, t: string) => `>${t.toUpperCase()}<`);
    expect(await make().translateBatch([html], EN_ES, HTML, never())).toEqual([upper(html)]);
    expect(translates().map((r) => r.args.q![0])).toEqual([call]);
  });

  it('counts characters as APy does, in code points: 1000 of them with letters beyond the BMP (𝐁𝐀𝐂𝐊) go in one request', async () => {
    const sentence = 'The <a i=2>𝐁𝐀𝐂𝐊</a> is <b i=3>small</b>. ';
    const call = `<p i=1>${sentence.repeat(Math.floor((1000 - 11) / [...sentence].length))}</p>`;
    expect([...call].length).toBeLessThanOrEqual(HTML_PART);
    expect(call.length).toBeGreaterThan(HTML_PART);
    const html = call.replace(/ i=(\d+)/g, ' id="$1"');
    expect(await make().translateBatch([html], EN_ES, HTML, never())).toEqual([html.replace(/>([^<]*)</g, (_, t: string) => `>${t.toUpperCase()}<`)]);
    expect(translates().map((r) => r.args.q![0])).toEqual([call]);
  });

  it('sends an HTML text still over 1000 characters in parts, at once, each cut outside the tags', async () => {
    const sentence = (i: number) => `The <a id="${i}">house</a> number ${i} is <span id="${i + 100}">small</span>. `;
    const html = `<p id="0">${Array.from({ length: 50 }, (_, i) => sentence(i + 1)).join('')}</p>`;
    const short = html.replace(/ id="(\d+)"/g, ' i=$1');
    expect(short.length).toBeGreaterThan(2 * HTML_PART);
    const own = await startFakeApy();
    own.rule({ fault: { type: 'delay', ms: 50 } });
    try {
      expect(await make(own.url).translateBatch([html], EN_ES, HTML, never())).toEqual([html.replace(/>([^<]*)</g, (_, t: string) => `>${t.toUpperCase()}<`)]);
      const sent = own.requests.filter((r) => r.path === '/translate').map((r) => r.args.q![0]!);
      expect(sent.length).toBe(4);
      expect(sent.join('')).toBe(short);
      for (const q of sent) {
        expect(q.length).toBeLessThanOrEqual(HTML_PART);
        // Each part ends after a sentence's full stop and space, so each starts a sentence.
        expect(q).toMatch(/\. $|<\/p>$/);
      }
      expect(own.maxConcurrent).toBe(4);
    } finally {
      await own.close();
    }
  });

  it("leaves a text's own short-id tags alone, and any tag the answer changed as it came", async () => {
    const answers: Record<string, string> = {
      '<b i=1>Hi</b> <span id="2">you</span>': '<b i=1>Hola</b> <span id="2">tú</span>',
      '<p i=1>The <span i=44>dog</span></p>': '<p i=1>El <span Allez=44>perro</span></p>',
    };
    const p = answering(answers);
    expect(await p.translateBatch(['<b i=1>Hi</b> <span id="2">you</span>', '<p id="1">The <span id="44">dog</span></p>'], EN_ES, HTML, never())).toEqual([
      '<b i=1>Hola</b> <span id="2">tú</span>',
      '<p id="1">El <span Allez=44>perro</span></p>',
    ]);
  });

  it('sends a text over 1000 characters whole', async () => {
    const text = 'The house is small. '.repeat(80);
    expect((await make().translateBatch([text], EN_ES, TEXT, never()))[0]).toBe(text.toUpperCase());
    expect(translates().map((r) => r.args.q![0])).toEqual([text]);
  });

  it('translates a batch with at most 4 requests at once and returns results in order', async () => {
    const own = await startFakeApy();
    try {
      const segments = ['s0', 's1', 's2', 's3', 's4', 's5', 's6'];
      // Earlier segments answer later, so completion order is the reverse of input order.
      segments.forEach((s, i) => own.rule({ match: (q) => q === s, fault: { type: 'delay', ms: 20 * (segments.length - i) } }));
      expect(await make(own.url).translateBatch(segments, EN_ES, TEXT, never())).toEqual(segments.map((s) => s.toUpperCase()));
      expect(own.requests.filter((r) => r.path === '/translate')).toHaveLength(7);
      expect(own.maxConcurrent).toBe(4);
    } finally {
      await own.close();
    }
  });

  it('accepts 4000 characters and refuses 4001 without a request', async () => {
    const p = make();
    const ok = '😀'.repeat(4000); // 8000 UTF-16 units, 4000 characters
    expect((await p.translateBatch([ok], EN_ES, TEXT, never()))[0]).toHaveLength(8000);
    const e = await rejection(p.translateBatch(['short', 'x'.repeat(4001)], EN_ES, TEXT, never()));
    expect(e.code).toBe(400);
    expect(translates()).toHaveLength(1);
  });

  it('refuses a pair APy does not list without sending it', async () => {
    const e = await rejection(make().translateBatch(['x'], { src: 'en', trg: 'pt' }, TEXT, never()));
    expect(e.code).toBe(400);
    expect(translates()).toHaveLength(0);
  });

  it('works with a trailing slash in the url', async () => {
    expect(await make(`${apy.url}/`).translateBatch(['ok'], EN_ES, TEXT, never())).toEqual(['OK']);
  });
});

describe('errors by meaning', () => {
  const cases: [string, Parameters<FakeApy['rule']>[0]['fault'], number, RegExp][] = [
    ['APy 400 with explanation', { type: 'explain', status: 400, explanation: 'That pair is not installed' }, 400, /^That pair is not installed$/],
    ['5xx', { type: 'status', status: 500 }, 502, /500/],
    ['APy 503 (stuck pipeline)', { type: 'explain', status: 503, explanation: 'internal error' }, 502, /internal error/],
    ['malformed JSON', { type: 'malformed' }, 502, /not JSON/],
    ['no translatedText', { type: 'no-text' }, 502, /translatedText/],
    ['connection reset', { type: 'reset' }, 503, /unreachable/],
  ];
  it.each(cases)('%s', async (_name, fault, code, message) => {
    const p = make();
    await p.languages();
    apy.rule({ fault });
    const e = await rejection(p.translateBatch(['secret words'], EN_ES, TEXT, never()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('secret');
  });

  it('an unreachable server is 503', async () => {
    const closed = await startFakeApy();
    const url = closed.url;
    await closed.close();
    expect((await rejection(make(url).languages())).code).toBe(503);
  });

  it('abort cancels the HTTP request and is 408', async () => {
    const p = make();
    await p.languages();
    await expectAbortIs408(apy, (signal) => p.translateBatch(['wait'], EN_ES, TEXT, signal), translates);
  });

  it('one failing segment fails the batch with its own error and cancels the others', async () => {
    const p = make();
    await p.languages();
    const abortedBefore = apy.aborted;
    apy.rule({ match: (q) => q === 'bad', fault: { type: 'explain', status: 400, explanation: 'bad input' } });
    apy.rule({ match: (q) => q !== 'bad', fault: { type: 'hang' } });
    const e = await rejection(p.translateBatch(['a', 'b', 'bad', 'c', 'd'], EN_ES, TEXT, never()));
    expect(e).toMatchObject({ code: 400, message: 'bad input' });
    const others = () => translates().filter((r) => r.args.q?.[0] !== 'bad');
    await vi.waitFor(() => expect(apy.aborted - abortedBefore).toBe(others().length));
    // The failure stops the queue: the fifth segment is never sent.
    expect(translates().map((r) => r.args.q?.[0])).not.toContain('d');
  });
});

describe('cutHtml', () => {
  // Tokens with what may not be cut: a tag, a comment, a character reference, a surrogate pair.
  const whole = fc.oneof(
    fc.integer({ min: 1, max: 999 }).map((i) => `<span id="${i}">`),
    fc.constantFrom('</span>', '</a>', '<br id="7">', '<x-keep id="3">', '</x-keep>', '<!-- a > b -->', '<a title="x > y" id="2">'),
    fc.constantFrom('&amp;', '&#160;', '&lt;', '😀', '𝄞'),
  );
  const words = fc.oneof(
    fc.stringMatching(/^[a-z]{1,12}$/),
    fc.constantFrom(' ', '. ', '! ', '.) ', '\n', ', ', '。'),
    fc.stringMatching(/^[a-z]{200,400}$/),
  );
  const doc = fc.array(fc.oneof(whole, words, words), { maxLength: 400 }).map((tokens) => {
    const inside: [number, number][] = [];
    let at = 0;
    for (const t of tokens) {
      if (t.length > 1 && /^[<&]|^[\ud800-\udbff]/.test(t)) inside.push([at, at + t.length]);
      at += t.length;
    }
    return { html: tokens.join(''), inside };
  });

  it('cuts into parts of at most the limit, never inside a tag, comment, reference or character', () => {
    fc.assert(
      fc.property(doc, fc.integer({ min: 40, max: 1000 }), ({ html, inside }, max) => {
        const parts = cutHtml(html, max);
        expect(parts.join('')).toBe(html);
        let at = 0;
        for (const [k, part] of parts.entries()) {
          if (html) expect(part.length).toBeGreaterThan(0);
          // Only a tag longer than the limit makes a longer part, and then it is that tag alone.
          if (part.length > max) expect(part).toMatch(/^<[^]*>$/);
          at += part.length;
          if (k < parts.length - 1) for (const [s, e] of inside) expect(at <= s || at >= e).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('cuts after a sentence in the second half, else at the last space or tag, else in a word', () => {
    expect(cutHtml('Aaaa bbbb. Cccc dd eeee', 20)).toEqual(['Aaaa bbbb. ', 'Cccc dd eeee']);
    expect(cutHtml('Aa. Bbbbbbbb cc ddd eeee', 20)).toEqual(['Aa. Bbbbbbbb cc ddd ', 'eeee']);
    expect(cutHtml('aaaaaaaaaaaaaaa<b id="1">cc</b>', 20)).toEqual(['aaaaaaaaaaaaaaa', '<b id="1">cc</b>']);
    expect(cutHtml('a'.repeat(25), 10)).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)]);
    expect(cutHtml('aaaaaaaa&amp;bb', 10)).toEqual(['aaaaaaaa', '&amp;bb']);
    expect(cutHtml('a'.repeat(9) + '😀b', 10)).toEqual(['a'.repeat(9), '😀b']);
    expect(cutHtml('short', 10)).toEqual(['short']);
  });
});
