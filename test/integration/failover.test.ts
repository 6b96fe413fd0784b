/**
 * One provider down must not cost the caller the route that works: the server in-process, the real
 * APy behind apertium.ts, and a second provider whose service is a closed port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderModule } from '../../src/core/provider';
import { createService } from '../../src/core/service';
import type { Settings } from '../../src/core/settings/types';
import { memoryStore } from '../../src/core/storage';
import type { TrObj } from '../../src/core/types';
import { createApertium } from '../../src/providers/apertium';
import { PROVIDERS } from '../../src/providers/index';
import { createHttpServer } from '../../src/server/http';

const APY = process.env.APY_URL ?? 'http://127.0.0.1:2737';
const KEY = 'test-key-123';

/** Lists en->es like APy, but its translations go to `url` (a closed port): every request fails. */
const dead: ProviderModule = {
  id: 'dead.ts',
  name: 'Dead',
  needsKey: false,
  enabledByDefault: false,
  create: (settings, env) => ({
    ...createApertium(settings, env),
    id: 'dead.ts',
    name: 'Dead',
    languages: async () => ({ pairs: [{ src: 'en', trg: 'es' }] }),
  }),
};

async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

let server: Server;
let base: string;
beforeAll(async () => {
  const settings: Settings = {
    providers: { 'apertium.ts': { enabled: true, url: APY }, 'dead.ts': { enabled: true, url: await closedPort() } },
    ranking: ['dead.ts', 'apertium.ts'],
    interlinguas: ['en'],
    keys: [{ name: 'test', key: KEY }],
    limits: { textSize: 1000 },
  };
  const service = createService({ settings: async () => settings, providers: [...PROVIDERS, dead], store: memoryStore(), fetch: globalThis.fetch });
  server = createHttpServer(service);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('a failing route', () => {
  it('is listed first by the ranking', async () => {
    const res = await fetch(`${base}/api/GetRoutes?auth=${KEY}&src=en&trg=es`);
    expect(await res.json()).toEqual(['dead.ts', 'apertium.ts']);
  });

  it('reports its error beside the route that works (min=1, max=2)', async () => {
    const res = await fetch(`${base}/api/Translate?auth=${KEY}&src=en&trg=es&min=1&max=2&dat=Hello+world`);
    expect(res.status).toBe(200);
    const { dat } = (await res.json()) as { dat: TrObj[] };
    expect(dat.map((t) => t.rid)).toEqual(['dead.ts', 'apertium.ts']);
    expect(dat[0]).toMatchObject({ err: expect.stringMatching(/^503 /), length: 0 });
    expect(dat[0]?.text).toBeUndefined();
    expect(dat[1]?.text?.[0]).toMatch(/Hola/);
    expect(dat[1]?.err).toBeUndefined();
  });

  it('is replaced by the next route when only one alternative is asked for', async () => {
    const res = await fetch(`${base}/api/Translate?auth=${KEY}&src=en&trg=es&dat=Hello+world`);
    expect(res.status).toBe(200);
    const { dat } = (await res.json()) as { dat: TrObj[] };
    const ok = dat.find((t) => t.text);
    expect(ok).toMatchObject({ rid: 'apertium.ts' });
    expect(ok?.text?.[0]).toMatch(/Hola/);
  });
});
