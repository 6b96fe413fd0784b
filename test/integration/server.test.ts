/**
 * `npm run serve` as a user runs it (a child process), answering real HTTP requests with the real
 * Apertium APy behind it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrdObj, TrObj } from '../../src/core/types';
import { startFakeApy } from '../fakes/fake-apy';
import { spawnServer } from '../support/server-process';

const APY = process.env.APY_URL ?? 'http://127.0.0.1:2737';
const KEY = 'test-key-123';

interface Running {
  child: ChildProcess;
  base: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the server and resolves at its ready line; rejects with its stderr if it exits first. */
function serve(args: string[]): Promise<Running> {
  const child = spawnServer(args);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m?.[1]) resolve({ child, base: m[1], stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`server exited ${code} before ready: ${err}`)));
  });
}

/** Runs the server expecting it to refuse to start: its exit code and stderr. */
async function refuses(args: string[]): Promise<{ code: number | null; stderr: string }> {
  try {
    const r = await serve(args);
    r.child.kill('SIGKILL');
    throw new Error('server started');
  } catch (e) {
    const m = /^server exited (\S+) before ready: ([\s\S]*)$/.exec((e as Error).message);
    if (!m) throw e;
    return { code: m[1] === 'null' ? null : Number(m[1]), stderr: m[2] ?? '' };
  }
}

const settingsDoc = (keys: unknown[]) => ({
  providers: { 'apertium.ts': { enabled: true, url: APY } },
  ranking: ['apertium.ts'],
  interlinguas: ['en', 'es'],
  keys,
  limits: { textSize: 1000 },
});

const api = async (base: string, fn: string, params: Record<string, string | string[]>, init?: RequestInit) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) q.append(k, x);
  const res = await fetch(`${base}/api/${fn}?${q}`, init);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as unknown };
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'serve-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('server with real APy', () => {
  let server: Running;
  beforeAll(async () => {
    const config = join(dir, 'main.json');
    await writeFile(config, JSON.stringify(settingsDoc([{ name: 'test', key: KEY }])));
    server = await serve(['--config', config, '--port', '0']);
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toBe(`listening on ${server.base}\n`);
  });

  it('printed exactly one line when ready', () => {
    expect(server.stdout()).toBe(`listening on ${server.base}\n`);
  });

  it('GetProviders lists apertium.ts', async () => {
    const r = await api(server.base, 'GetProviders', { auth: KEY });
    expect(r).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { 'apertium.ts': 'Apertium' } });
  });

  it("GetLanguages lists APy's languages in canonical codes", async () => {
    const r = await api(server.base, 'GetLanguages', { auth: KEY });
    expect(r.status).toBe(200);
    const { src, trg } = r.body as { src: string[]; trg: string[] };
    expect(src).toEqual(expect.arrayContaining(['en', 'es', 'pt', 'ca']));
    expect(trg).toEqual(expect.arrayContaining(['en', 'es', 'pt', 'ca']));
    expect(src).not.toContain('eng');
  });

  it('GetRoutes: direct en->es, chained en->pt through es', async () => {
    expect((await api(server.base, 'GetRoutes', { auth: KEY, src: 'en', trg: 'es' })).body).toEqual(['apertium.ts']);
    const pt = await api(server.base, 'GetRoutes', { auth: KEY, src: 'en', trg: 'pt' });
    expect(pt.body).toContain('apertium.ts,es,apertium.ts');
  });

  it('Translate en->es gives real Spanish, one text per dat, in order', async () => {
    const r = await api(server.base, 'Translate', { auth: KEY, src: 'en', trg: 'es', dat: ['Hello world', 'Good morning', 'Thank you very much'] });
    expect(r.status).toBe(200);
    const [tr] = (r.body as { dat: TrObj[] }).dat;
    expect(tr?.rid).toBe('apertium.ts');
    expect(tr?.text).toHaveLength(3);
    expect(tr?.text?.[0]).toMatch(/Hola/);
    expect(tr?.text?.[1]).toMatch(/Buenos días/);
    expect(tr?.text?.[2]).toMatch(/gracias/);
    expect(tr?.text?.join(' ')).not.toContain('*');
  });

  it("Apertium's generation marks are not shown; a hashtag and a handle of the text are kept, a numeral its capitals", async () => {
    // APy marks a form its generator could not make with `#` ("Es una #programa de software"),
    // markUnknown=no or not.
    const dat = ['XULRunner is a software platform', 'Available for the Windows, GNU/Linux and OS X operating systems', 'Follow #MeToo and @nasa today'];
    const r = await api(server.base, 'Translate', { auth: KEY, src: 'en', trg: 'es', dat });
    expect(r.status).toBe(200);
    const [platform, os, tags] = (r.body as { dat: TrObj[] }).dat[0]?.text ?? [];
    expect(platform).toMatch(/ programa de software/);
    expect(os).toMatch(/OS X /);
    expect(`${platform} ${os}`).not.toMatch(/[#@]/);
    expect(tags).toMatch(/#MeToo .*@nasa/);
    // A Roman numeral whose form was not made ("#Iv Plenary") keeps the capitals it was sent with.
    const es = await api(server.base, 'Translate', { auth: KEY, src: 'es', trg: 'en', dat: 'Sesiona IV Pleno del Comité Central del Partido' });
    expect((es.body as { dat: TrObj[] }).dat[0]?.text?.[0]).toMatch(/ IV Plenary of the Central Committee/);
  });

  it('Translate en->pt through the es interlingua', async () => {
    const r = await api(server.base, 'Translate', { auth: KEY, src: 'en', trg: 'pt', dat: 'Hello world' });
    expect(r.status).toBe(200);
    const [tr] = (r.body as { dat: TrObj[] }).dat;
    expect(tr).toMatchObject({ rid: 'apertium.ts,es,apertium.ts' });
    expect(tr?.text?.[0]).toMatch(/Olá/);
  });

  it('frm=html keeps the tags', async () => {
    const r = await api(server.base, 'Translate', { auth: KEY, src: 'en', trg: 'es', frm: 'html', dat: '<p>Hello <b>world</b></p>' });
    expect(r.status).toBe(200);
    const chunks = r.body as TrdObj[];
    const doc = chunks.map((c) => c.dat).join('');
    expect(doc.startsWith('<p>')).toBe(true);
    expect(doc).toContain('<b>');
    expect(doc).toMatch(/Hola/);
    expect(chunks.every((c) => c.err === undefined)).toBe(true);
  });

  it('a missing or unknown key is 403', async () => {
    const none = await api(server.base, 'GetLanguages', {});
    expect(none.status).toBe(403);
    expect(typeof (none.body as { err: unknown }).err).toBe('string');
    const wrong = await api(server.base, 'Translate', { auth: 'wrong-key-000', src: 'en', trg: 'es', dat: 'Hello' });
    expect(wrong.status).toBe(403);
    expect(JSON.stringify(wrong.body)).not.toContain('wrong-key-000');
  });

  it('GET and POST with a form body give the same answer', async () => {
    const params = { auth: KEY, src: 'en', trg: 'es', dat: ['Hello world', 'a + b & c'] };
    const get = await api(server.base, 'Translate', params);
    const form = new URLSearchParams([['auth', KEY], ['src', 'en'], ['trg', 'es'], ['dat', 'Hello world'], ['dat', 'a + b & c']]);
    const res = await fetch(`${server.base}/api/Translate`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(get.body);
    expect(get.status).toBe(200);
  });

  it('answers 404 JSON outside /api/', async () => {
    const res = await fetch(`${server.base}/index.html`);
    expect(res.status).toBe(404);
    expect(typeof ((await res.json()) as { err: unknown }).err).toBe('string');
  });
});

describe('server process', () => {
  it('refuses a bad config with exit 2 and names the field', async () => {
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ ...settingsDoc([]), interlinguas: 'en' }));
    const r = await refuses(['--config', config, '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/interlinguas/);
  });

  it('refuses a corrupt state file with exit 2 and leaves it alone', async () => {
    const config = join(dir, 'corrupt.json');
    await writeFile(config, JSON.stringify(settingsDoc([])));
    await writeFile(`${config}.state.json`, '{"usage": ');
    const r = await refuses(['--config', config, '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/corrupt/);
    expect(await readFile(`${config}.state.json`, 'utf8')).toBe('{"usage": ');
  });

  it('keeps counted usage across SIGTERM and restart', async () => {
    const config = join(dir, 'quota.json');
    // "Hello world" is 11 characters: one fits in the quota, a second does not.
    await writeFile(config, JSON.stringify(settingsDoc([{ name: 'small', key: 'quota-key-1', quota: 15 }])));
    const ask = (base: string) => api(base, 'Translate', { auth: 'quota-key-1', src: 'en', trg: 'es', dat: 'Hello world' });

    const first = await serve(['--config', config, '--port', '0']);
    expect((await ask(first.base)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await serve(['--config', config, '--port', '0']);
    try {
      const r = await ask(second.base);
      expect(r.status).toBe(403);
      expect((r.body as { err: string }).err).toMatch(/small/);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }

    // Control: with a fresh state file the same request is allowed, so the 403 came from the state.
    const fresh = await serve(['--config', config, '--port', '0', '--state', join(dir, 'fresh.state.json')]);
    try {
      expect((await ask(fresh.base)).status).toBe(200);
    } finally {
      fresh.child.kill('SIGTERM');
      await fresh.exited;
    }
  });

  it('on SIGTERM finishes the request in flight, then stops accepting and exits 0', async () => {
    const apy = await startFakeApy();
    try {
      apy.rule({ fault: { type: 'delay', ms: 700 } });
      const config = join(dir, 'drain.json');
      await writeFile(config, JSON.stringify({ ...settingsDoc([{ name: 'test', key: KEY }]), providers: { 'apertium.ts': { enabled: true, url: apy.url } } }));
      const running = await serve(['--config', config, '--port', '0']);
      const pending = api(running.base, 'Translate', { auth: KEY, src: 'en', trg: 'es', dat: 'slow text' });
      await vi.waitFor(() => expect(apy.requests.some((r) => r.path === '/translate')).toBe(true), { timeout: 15_000, interval: 20 });
      running.child.kill('SIGTERM');
      const r = await pending;
      expect(r.status).toBe(200);
      expect((r.body as { dat: TrObj[] }).dat[0]?.text).toEqual(['SLOW TEXT']);
      expect(await running.exited).toBe(0);
      await expect(fetch(`${running.base}/api/GetProviders?auth=${KEY}`)).rejects.toThrow();
    } finally {
      await apy.close();
    }
  });
});
