/**
 * What the provider adapter tests share: the usual batch options, a fake server's life over one
 * test file, the ProviderError a call rejects with, the abort check every HTTP adapter passes
 * alike, and a service with one provider alone.
 */
import { afterAll, afterEach, expect, vi } from 'vitest';
import { ProviderError } from '../../../src/core/errors';
import type { BatchOptions, ProviderModule, ProviderSettings } from '../../../src/core/provider';
import { createService } from '../../../src/core/service';
import { memoryStore } from '../../../src/core/storage';
import type { LooseParams } from '../../../src/core/types';
import { settingsFor } from '../service/harness';

export const TEXT: BatchOptions = { format: 'text', domain: 'general' };
export const HTML: BatchOptions = { format: 'html', domain: 'general' };
export const never = () => new AbortController().signal;

/** The ProviderError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

interface Fake {
  requests: unknown[];
  clearRules(): void;
  close(): Promise<void>;
}

/** The fake `started` serves the whole file: after each test its rules and requests are forgotten. */
export function fakeForFile<F extends Fake>(started: Promise<F>): Promise<F> {
  afterAll(async () => (await started).close());
  afterEach(async () => {
    const fake = await started;
    fake.clearRules();
    fake.requests.length = 0;
  });
  return started;
}

interface Hangs {
  rule(rule: { fault: { type: 'hang' } }): void;
  readonly aborted: number;
}

/**
 * The fake hangs; once the request `send` makes has `arrived` (the one request sent so far),
 * aborting it rejects with 408 and the server sees its client go away.
 */
export async function expectAbortIs408(fake: Hangs, send: (signal: AbortSignal) => Promise<unknown>, arrived: () => unknown[]): Promise<void> {
  fake.rule({ fault: { type: 'hang' } });
  const ac = new AbortController();
  const pending = send(ac.signal);
  await vi.waitFor(() => expect(arrived()).toHaveLength(1));
  const before = fake.aborted;
  ac.abort();
  expect((await rejection(pending)).code).toBe(408);
  await vi.waitFor(() => expect(fake.aborted).toBe(before + 1));
}

/** A trusted caller of a service with `module` alone, set to `conf` (none: left at its defaults), no interlinguas. */
export function serviceWith(module: ProviderModule, conf?: ProviderSettings) {
  const settings = settingsFor([module], { providers: conf ? { [module.id]: conf } : {}, interlinguas: [] });
  const service = createService({ settings: async () => settings, providers: [module], store: memoryStore(), fetch: globalThis.fetch });
  return (fn: string, params: LooseParams) => service.call(fn, params, { trusted: true });
}
