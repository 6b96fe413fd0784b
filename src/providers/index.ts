/**
 * The provider registry: every module in this folder, registered under its file name as id.
 * test/unit/providers/registry.test.ts fails when a file is missing here or from README's table.
 */
import type { ProviderModule } from '../core/provider';
import apertium from './apertium';

export const PROVIDERS: readonly ProviderModule[] = [apertium];

export function providerModule(id: string): ProviderModule | undefined {
  return PROVIDERS.find((p) => p.id === id);
}
