import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../src/core/settings/types';
import { validateSettings } from '../../../src/core/settings/validate';
import type { MessageType, RequestOf, ResponseOf } from '../../../src/shared/messages';
import { redactSecrets } from '../../../src/shared/secrets';
import { exportSettings, importSettings } from '../../../src/ui/options/transfer';

/** The worker's answers to settings:get / settings:set, over an in-memory document. */
function fakeWorker(initial: Settings) {
  let current = initial;
  const send = async <K extends MessageType>(type: K, data: RequestOf<K>): Promise<ResponseOf<K>> => {
    if (type === 'settings:get') {
      const { withSecrets } = data as RequestOf<'settings:get'>;
      return (withSecrets ? structuredClone(current) : redactSecrets(current)) as ResponseOf<K>;
    }
    try {
      current = validateSettings((data as RequestOf<'settings:set'>).settings);
      return { status: 200, body: current } as ResponseOf<K>;
    } catch (e) {
      return { status: 400, body: { err: (e as Error).message } } as ResponseOf<K>;
    }
  };
  return { send: send as never, current: () => current };
}

const SETTINGS = validateSettings({
  providers: { 'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' }, 'deepl.ts': { key: 'deepl-secret' } },
  keys: [{ name: 'app', key: 'k-secret-123' }],
  custom: { kept: true },
});

describe('options export/import', () => {
  it('exports without keys unless asked, as pretty JSON', async () => {
    const worker = fakeWorker(SETTINGS);
    const without = await exportSettings(false, worker.send);
    expect(without).not.toContain('secret');
    expect(JSON.parse(without)).toEqual(redactSecrets(SETTINGS));
    expect(JSON.parse(await exportSettings(true, worker.send))).toEqual(SETTINGS);
  });

  it('round-trips an export without keys, keeping the current keys and unknown fields', async () => {
    const worker = fakeWorker(SETTINGS);
    const text = await exportSettings(false, worker.send);
    expect(await importSettings(text, worker.send)).toEqual({ ok: true, restored: 2 });
    expect(worker.current()).toEqual(SETTINGS);
  });

  it('refuses a malformed document with the message naming the field, and non-JSON text', async () => {
    const worker = fakeWorker(SETTINGS);
    expect(await importSettings('{"interlinguas": ["en", 5]}', worker.send)).toEqual({
      ok: false,
      message: expect.stringContaining('settings.interlinguas[1]'),
    });
    expect(await importSettings('{nope', worker.send)).toEqual({ ok: false, message: expect.stringMatching(/^settings: not a JSON document/) });
    expect(worker.current()).toEqual(SETTINGS);
  });
});
