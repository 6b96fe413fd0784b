/** The worker's provider fetch refuses origins without their optional host permission (host-access.ts). */
import { describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../src/core/errors';
import { guardFetch, originPattern } from '../../../src/background/host-access';

describe('originPattern', () => {
  it('needs no grant for loopback, one per host otherwise', () => {
    expect(originPattern('http://127.0.0.1:2737/translate')).toBeNull();
    expect(originPattern('http://localhost:5000')).toBeNull();
    expect(originPattern('http://[::1]:5000/')).toBeNull();
    expect(originPattern('https://api.deepl.com/v2/translate')).toBe('https://api.deepl.com/*');
    expect(originPattern('http://libre.example:8080/x')).toBe('http://libre.example/*');
    expect(originPattern('ftp://x.example/')).toBeNull();
    expect(originPattern('not a url')).toBeNull();
  });
});

describe('guardFetch', () => {
  const ok = () => vi.fn(async () => new Response('{}'));

  it('passes loopback requests without asking', async () => {
    const inner = ok();
    const contains = vi.fn(async () => false);
    await guardFetch(inner, () => ({ contains }))('http://127.0.0.1:2737/listPairs');
    expect(inner).toHaveBeenCalledOnce();
    expect(contains).not.toHaveBeenCalled();
  });

  it('refuses an origin without permission before any network, with a 403 that says what to do', async () => {
    const inner = ok();
    const contains = vi.fn(async () => false);
    const err = await guardFetch(inner, () => ({ contains }))('https://api.deepl.com/v2/translate', { method: 'POST' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe(403);
    expect((err as ProviderError).message).toBe('permission to reach https://api.deepl.com not granted: enable the provider in the options');
    expect(contains).toHaveBeenCalledWith({ origins: ['https://api.deepl.com/*'] });
    expect(inner).not.toHaveBeenCalled();
  });

  it('fetches once the permission is granted; refuses when the API is missing', async () => {
    const inner = ok();
    await guardFetch(inner, () => ({ contains: async () => true }))(new URL('https://translation.googleapis.com/language/translate/v2'));
    expect(inner).toHaveBeenCalledOnce();
    await expect(guardFetch(inner, () => undefined)('https://x.example/')).rejects.toMatchObject({ code: 403 });
    expect(inner).toHaveBeenCalledOnce();
  });
});
