import { describe, expect, it } from 'vitest';
import { fakeProvider } from '../../fakes/fake-provider';
import { body, harness, KEY } from './harness';

const langs = { src: ['en', 'es', 'fr'], trg: ['en', 'es', 'fr'] };

describe('compatibility modes', () => {
  const a = fakeProvider({ id: 'a.ts', languages: langs });
  const { service } = harness([a.module]);
  const call = (params: Record<string, string | string[]>) => service.call('Translate', params);

  it('g2: translations in order, key in key or auth', async () => {
    const r = await call({ mode: 'g2', key: KEY, source: 'en', target: 'es', q: ['one', 'two'] });
    expect(r).toEqual({ status: 200, body: { data: { translations: [{ translatedText: 'ONE' }, { translatedText: 'TWO' }] } } });
    expect((await call({ mode: 'g2', auth: KEY, source: 'en', target: 'es', q: 'x' })).status).toBe(200);
  });

  it('g2: detects the source when it is absent and says which', async () => {
    const r = await call({ mode: 'g2', key: KEY, target: 'en', q: 'El perro come la comida en la cocina todos los días' });
    expect(body<{ data: { translations: { detectedSourceLanguage?: string }[] } }>(r).data.translations[0]!.detectedSourceLanguage).toBe('es');
  });

  it('g2: errors carry err and error {code, message} with the status', async () => {
    const r = await call({ mode: 'g2', key: 'nope-nope-1', source: 'en', target: 'es', q: 'x' });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ err: expect.any(String), error: { code: 403, message: expect.any(String) } });
  });

  it('g1: one q gives a responseData object, several an array', async () => {
    const one = await call({ mode: 'g1', uid: KEY, langpair: 'en|es', q: 'hello' });
    expect(one).toEqual({ status: 200, body: { responseData: { translatedText: 'HELLO' }, responseDetails: null, responseStatus: 200 } });
    const two = await call({ mode: 'g1', uid: KEY, langpair: 'en-GB|es', q: ['a', 'b'] });
    expect(body<{ responseData: unknown }>(two).responseData).toEqual([{ translatedText: 'A' }, { translatedText: 'B' }]);
  });

  it('g1: errors carry the status in the body too', async () => {
    const r = await call({ mode: 'g1', uid: KEY, langpair: 'en|xx', q: 'x' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ responseData: null, responseStatus: 400, err: expect.any(String) });
  });
});
