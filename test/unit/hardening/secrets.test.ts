/**
 * API keys go only to their own provider's host. Six keyed providers, each at its own local fake
 * with its own key, run through the engine (language lists, text and document Translates on each
 * route, faults that make them fail); every request leaving the engine is intercepted: a key may
 * appear (URL, headers, body) only in requests to its own fake, and appears in no reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderModule } from '../../../src/core/provider';
import { createService } from '../../../src/core/service';
import { memoryStore } from '../../../src/core/storage';
import type { TrObj } from '../../../src/core/types';
import deepl from '../../../src/providers/deepl';
import gcloud from '../../../src/providers/gcloud';
import llm from '../../../src/providers/llm';
import microsoft from '../../../src/providers/microsoft';
import remote from '../../../src/providers/remote';
import yandex from '../../../src/providers/yandex';
import { startFakeDeepl } from '../../fakes/fake-deepl';
import { GCLOUD_KEY, startFakeGcloud } from '../../fakes/fake-gcloud';
import { startFakeLlm } from '../../fakes/fake-llm';
import { startFakeMicrosoft } from '../../fakes/fake-microsoft';
import { ENGINE_KEY, startEngine } from '../../fakes/fake-remote';
import { startFakeYandex } from '../../fakes/fake-yandex';
import { KEY, settingsFor } from '../service/harness';

interface Keyed {
  module: ProviderModule;
  key: string;
  url: string;
  extra?: Record<string, unknown>;
  close(): Promise<void>;
}

const seen: { url: string; text: string }[] = [];
const recording: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const body = typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : '';
  seen.push({ url, text: `${url}\n${[...headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${body}` });
  return fetch(input, init);
};

const keyed: Keyed[] = [];
beforeAll(async () => {
  const d = await startFakeDeepl('deepl-secret-AAAA:fx');
  keyed.push({ module: deepl, key: 'deepl-secret-AAAA:fx', url: d.url, close: () => d.close() });
  const g = await startFakeGcloud();
  keyed.push({ module: gcloud, key: GCLOUD_KEY, url: g.url, close: () => g.close() });
  const m = await startFakeMicrosoft({ key: 'ms-secret-BBBB' });
  keyed.push({ module: microsoft, key: 'ms-secret-BBBB', url: m.url, close: () => m.close() });
  const y = await startFakeYandex('AQVN-yandex-secret-CCCC');
  keyed.push({ module: yandex, key: 'AQVN-yandex-secret-CCCC', url: y.url, close: () => y.close() });
  const l = await startFakeLlm({ key: 'sk-llm-secret-DDDD' });
  keyed.push({ module: llm, key: 'sk-llm-secret-DDDD', url: l.url, extra: { model: 'gpt-4o-mini' }, close: () => l.close() });
  // A real engine behind remote.ts (its fake provider knows en and de).
  const r = await startEngine();
  keyed.push({ module: remote, key: ENGINE_KEY, url: r.url, close: () => r.close() });
});
afterAll(() => Promise.all(keyed.map((k) => k.close())));

describe('API keys reach only their own provider', () => {
  it('every key went to its own fake and nowhere else, and no reply shows one', async () => {
    const modules = keyed.map((k) => k.module);
    const settings = settingsFor(modules, { interlinguas: ['en'] });
    for (const k of keyed) settings.providers[k.module.id] = { enabled: true, url: k.url, key: k.key, ...k.extra };
    const service = createService({ settings: async () => settings, providers: modules, store: memoryStore(), fetch: recording });
    const replies: unknown[] = [];
    const langs = await service.call('GetLanguages', { auth: KEY });
    expect(langs.status).toBe(200);
    replies.push(langs.body);
    const routes = (await service.call('GetRoutes', { auth: KEY, src: 'en', trg: 'de' })).body as string[];
    for (const k of keyed) expect(routes).toContain(k.module.id);
    // Every route (direct and chained), several alternatives at once, text and document.
    const text = await service.call('Translate', { auth: KEY, src: 'en', trg: 'de', dat: ['Hello world', 'Good morning'], min: routes.length, max: routes.length });
    replies.push(text.body);
    const ok = ((text.body as { dat: TrObj[] }).dat ?? []).filter((t) => t.text).map((t) => t.rid);
    for (const k of keyed) expect(ok, JSON.stringify(text.body)).toContain(k.module.id);
    for (const k of keyed) {
      const doc = await service.call('Translate', { auth: KEY, src: 'en', trg: 'de', dat: ['<p>Hello <b>world</b></p>'], frm: 'html', rid: [k.module.id] });
      expect(doc.status).toBe(200);
      replies.push(doc.body);
    }
    // A language the fakes refuse makes every provider fail (their error bodies come back too).
    const bad = await service.call('Translate', { auth: KEY, src: 'de', trg: 'en', dat: ['x'.repeat(10)], min: routes.length, max: routes.length });
    replies.push(bad.body);

    for (const k of keyed) {
      const own = new URL(k.url).origin;
      const carrying = seen.filter((s) => s.text.includes(k.key));
      expect(carrying.length, `${k.module.id} never sent its key`).toBeGreaterThan(0);
      const elsewhere = carrying.filter((s) => new URL(s.url).origin !== own).map((s) => s.url);
      expect(elsewhere, `${k.module.id}'s key went elsewhere`).toEqual([]);
      for (const r of replies) expect(JSON.stringify(r)).not.toContain(k.key);
    }
  }, 30_000);
});
