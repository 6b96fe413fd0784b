/**
 * Hostile input, property-based: random and adversarial query strings (bytes, broken
 * percent-encoding, invalid UTF-8, lone surrogates, repeated and huge parameters, numbers at the
 * edges, every method and body type) through `service.http` in-process and through the real
 * node:http server on loopback (raw bytes on a socket). Never a crash, never a 5xx except the
 * interface's 408/503, every reply a JSON object with `err` when it is not 200, never the key
 * echoed, and the server still answers afterwards. `SOAK=1` runs 100k cases (npm run soak).
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiReply } from '../../../src/core/types';
import { createHttpServer } from '../../../src/server/http';
import { fakeProvider } from '../../fakes/fake-provider';
import { harness, KEY } from '../service/harness';

const SOAK = process.env.SOAK === '1';
const RUNS = SOAK ? 100_000 : 3000;
const SOCKET_RUNS = SOAK ? 20_000 : 300;
/**
 * The same cases every run (the soak draws new ones): the check that every kind of refusal occurs
 * is about the generator, and a random draw of 3000 missed 413 twice in about 15 runs (once in
 * CI); this seed makes it 4 times.
 */
const SEED = SOAK ? {} : { seed: Number(process.env.FUZZ_SEED ?? 20261125) };

const a = fakeProvider({ id: 'a.ts' });
const b = fakeProvider({ id: 'b.ts', languages: { pairs: [{ src: 'en', trg: 'es' }, { src: 'es', trg: 'fr' }] } });
const { service } = harness([a.module, b.module], { keys: [{ name: 'tester', key: KEY }, { name: 'small', key: 'small-key-0002', quota: 10 }] });

/** Statuses the interface (and decisions.md/docs/interface.md) can answer. */
const ALLOWED = new Set([200, 400, 403, 404, 405, 408, 413, 415, 503]);

const NAMES = ['auth', 'src', 'trg', 'dat', 'min', 'max', 'timeout', 'dom', 'rid', 'frm', 'app', 'mode', 'q', 'source', 'target', 'langpair', 'uid', 'key', 'format'];
const EDGE_NUMBERS = ['0', '1', '-1', '2', '120', '121', '1e3', '1.0', '01', '+1', ' 1', '0x10', 'NaN', 'Infinity', '-0', '2147483648', '9007199254740993', '1'.repeat(400), '١', ''];
const CODES = ['en', 'es', 'fr', 'EN', 'eng', 'iw', 'zh-hans', 'en_GB', 'en-u-ca-x', 'und', 'x', 'e'.repeat(300), '../', 'en|es', '|es'];
const ROUTES = ['a.ts', 'b.ts', 'a.ts,en,b.ts', 'b.ts,es,a.ts', 'x.ts', 'a.ts,,b.ts', ','];
const ENUMS = ['general', 'tech', 'html', 'text', 'g1', 'g2', 'HTML', 'xx', 'my_app-1', 'a b', 'ü'];

const pct = (bytes: Uint8Array) => [...bytes].map((x) => `%${x.toString(16).padStart(2, '0').toUpperCase()}`).join('');
/** A query value: plain text, percent-encoded random bytes, broken escapes, edge numbers, codes. */
const value = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS, ...CODES, ...ROUTES, ...ENUMS, KEY),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.uint8Array({ maxLength: 24 }).map(pct),
  fc.constantFrom('%', '%Z', '%E2%82', '%ED%A0%80', '%C0%AF', '%FF%FE', '%00', '+', '%2B', '&', '=', '==', '%25%32%35', '%F4%90%80%80'),
  fc.tuple(fc.constantFrom('a', 'Hello world. ', '<b>x</b>', '\u{1F600}'), fc.integer({ min: 1, max: 1200 })).map(([s, n]) => encodeURIComponent(s.repeat(n))),
);
const name = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(encodeURIComponent) });
const pair = fc.tuple(name, fc.option(value, { nil: undefined })).map(([n, v]) => (v === undefined ? n : `${n}=${v}`));
/** Mostly well-formed queries with a valid key (to reach deep), sometimes raw byte soup. */
const lang = fc.constantFrom('en', 'es', 'fr', 'de', 'EN', 'en-GB', 'pt');
/** Nearly valid Translate calls, so the property also reaches the engine and the providers. */
const nearlyValid = fc
  .tuple(lang, lang, fc.array(value, { minLength: 1, maxLength: 4 }), fc.array(pair, { maxLength: 4 }))
  .map(([s, t, dats, extra]) => [`auth=${KEY}`, `src=${s}`, `trg=${t}`, ...dats.map((d) => `dat=${d}`), ...extra].join('&'));
const query = fc.oneof(
  { weight: 4, arbitrary: nearlyValid },
  { weight: 6, arbitrary: fc.tuple(fc.boolean(), fc.array(pair, { maxLength: 14 })).map(([auth, ps]) => [...(auth ? [`auth=${KEY}`] : []), ...ps].join('&')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((u) => String.fromCharCode(...u)) },
);
const fn = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('Translate', 'GetLanguages', 'GetRoutes', 'GetProviders') }, { weight: 1, arbitrary: fc.constantFrom('translate', 'Translate/', '', '..', 'GetLanguages%00', '__proto__', 'constructor') });
const method = fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD');
const body = fc.option(
  fc.tuple(fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=latin1', 'application/json', 'text/plain', ''), query),
  { nil: undefined },
);

function checkReply(r: ApiReply): void {
  if (!ALLOWED.has(r.status)) throw new Error(`status ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  const json = JSON.stringify(r.body);
  if (json.includes(KEY)) throw new Error(`the key is echoed: ${json.slice(0, 300)}`);
  if (r.status !== 200) {
    const err = (r.body as { err?: unknown } | null)?.err;
    if (typeof err !== 'string' || err === '') throw new Error(`status ${r.status} without err: ${json.slice(0, 300)}`);
  }
}

describe('hostile parameters through service.http (in-process)', () => {
  it(`${RUNS} random and adversarial requests: no crash, only the interface's statuses`, async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(method, fn, query, body, async (m, f, q, bd) => {
        const r = await service.http({
          method: m,
          path: `/api/${f}`,
          query: q,
          ...(bd ? { contentType: bd[0], body: new TextEncoder().encode(bd[1]) } : {}),
        });
        checkReply(r);
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
      }),
      { numRuns: RUNS, ...SEED },
    );
    if (process.env.FUZZ_STATS) console.log(Object.fromEntries(seen));
    // The generator reaches past parsing: successes and each kind of refusal all occur.
    for (const status of [200, 400, 403, 404, 405, 413]) expect(seen.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  }, 600_000);

  it('huge and repeated parameters are refused with 4xx, not a crash', async () => {
    const huge = 'a'.repeat(1_000_000);
    const cases = [
      `auth=${KEY}&src=en&trg=es&dat=${huge}`,
      `auth=${KEY}&src=en&trg=es&${'dat=x&'.repeat(50_000)}`,
      `auth=${KEY}&src=en&trg=es&dat=x&min=1&min=1`,
      `auth=${KEY}&src=${huge}&trg=es&dat=x`,
      `auth=${huge}&src=en&trg=es&dat=x`,
      `auth=${KEY}&${'%'.repeat(100_000)}`,
      `auth=${KEY}&src=en&trg=es&dat=${'%F0%9F%98%80'.repeat(1001)}`,
      `auth=small-key-0002&src=en&trg=es&dat=${'a'.repeat(11)}`,
    ];
    for (const q of cases) {
      const r = await service.http({ method: 'GET', path: '/api/Translate', query: q });
      checkReply(r);
      expect(r.status, q.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    // A repeated rid counts once (decisions.md), however often it is repeated.
    const rids = await service.http({ method: 'GET', path: '/api/Translate', query: `auth=${KEY}&src=en&trg=es&dat=x&${'rid=a.ts&'.repeat(20_000)}` });
    expect(rids.status).toBe(200);
  });
});

describe('hostile bytes through the real server on loopback', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createHttpServer(service, { log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

  /** Sends raw bytes, returns the status line's code (0: the server closed without answering). */
  const raw = (bytes: Buffer): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const sock = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      sock.on('data', (c: Buffer) => chunks.push(c));
      sock.on('error', () => resolve({ status: 0, text: '' }));
      sock.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
        resolve({ status: m ? Number(m[1]) : 0, text });
      });
      sock.setTimeout(10_000, () => (sock.destroy(), reject(new Error('no answer in 10 s'))));
      sock.end(bytes);
    });

  const request = (m: string, path: string, q: string, bd?: [string, string]): Buffer => {
    const head = `${m} ${path}${q ? `?${q}` : ''} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
    if (!bd) return Buffer.from(`${head}\r\n`, 'latin1');
    const payload = Buffer.from(bd[1], 'latin1');
    return Buffer.concat([Buffer.from(`${head}Content-Type: ${bd[0]}\r\nContent-Length: ${payload.length}\r\n\r\n`, 'latin1'), payload]);
  };

  it(`${SOCKET_RUNS} raw requests: never a 5xx except 503/408, and the server keeps answering`, async () => {
    await fc.assert(
      fc.asyncProperty(method, fn, query, body, async (m, f, q, bd) => {
        const { status, text } = await raw(request(m, `/api/${f}`, q, bd));
        // 0: Node's parser dropped a request line it cannot read (a bare CR/LF/space in the query).
        if (status >= 500 && status !== 503 && status !== 408) throw new Error(`status ${status}: ${text.slice(0, 300)}`);
        if (text.includes(KEY)) throw new Error('the key is echoed');
      }),
      { numRuns: SOCKET_RUNS, ...SEED },
    );
    const ok = await fetch(`http://127.0.0.1:${port}/api/Translate?auth=${KEY}&src=en&trg=es&dat=Hello`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ dat: [{ rid: 'a.ts', text: ['HELLO'] }] });
  }, 600_000);

  it('an oversized body, a lying Content-Length and a 100 kB request line do not hurt it', async () => {
    const big = Buffer.concat([Buffer.from(`POST /api/Translate?auth=${KEY} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000000\r\n\r\n`), Buffer.alloc(2_000_000, 'a')]);
    expect((await raw(big)).status).toBe(413);
    const lying = Buffer.from(`POST /api/Translate?auth=${KEY} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 50\r\n\r\nsrc=en`);
    const sock = connect(port, '127.0.0.1');
    sock.write(lying);
    await new Promise((r) => setTimeout(r, 100));
    sock.destroy();
    const line = await raw(Buffer.from(`GET /api/Translate?dat=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    expect([0, 413, 414, 431, 400]).toContain(line.status);
    const ok = await fetch(`http://127.0.0.1:${port}/api/GetProviders?auth=${KEY}`);
    expect(ok.status).toBe(200);
  });
});
