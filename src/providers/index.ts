/**
 * The provider registry: every module in this folder, registered under its file name as id.
 * test/unit/providers/registry.test.ts fails when a file is missing here or from README's table.
 */
import type { ProviderModule } from '../core/provider';
import apertium from './apertium';
import chrome from './chrome';
import deepl from './deepl';
import gcloud from './gcloud';
import google from './google';
import libre from './libre';
import llm from './llm';
import lingva from './lingva';
import microsoft from './microsoft';
import mymemory from './mymemory';
import remote from './remote';
import yandex from './yandex';

export const PROVIDERS: readonly ProviderModule[] = [
  apertium,
  google,
  chrome,
  deepl,
  gcloud,
  microsoft,
  yandex,
  libre,
  lingva,
  mymemory,
  llm,
  remote,
];

export function providerModule(id: string): ProviderModule | undefined {
  return PROVIDERS.find((p) => p.id === id);
}
