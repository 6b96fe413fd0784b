/**
 * Who is calling (decisions.md "Authentication"): a user-issued key from the settings, or the
 * extension itself through its built-in key. Messages name the key, never its value.
 */
import { ApiError } from './errors';
import type { ApiKeySettings, Settings } from './settings/types';
import type { Usage } from './usage/usage';

/** Usage of the extension's own pages and scripts is counted under this name. */
export const BUILTIN_KEY = 'extension';

export interface Caller {
  /** The key's name, under which usage is counted. */
  name: string;
  /** Characters left before the key is exhausted; Infinity without a quota. */
  remaining: number;
}

function allowedFor(key: ApiKeySettings, origin: string | undefined, app: string | undefined): boolean {
  if (!key.allowed || key.allowed.length === 0) return true;
  return key.allowed.some((a) => a === origin || a === app);
}

export async function authenticate(
  settings: Settings,
  usage: Usage,
  auth: string | undefined,
  caller: { trusted?: boolean; origin?: string; app?: string },
): Promise<Caller> {
  if (auth === undefined || auth === '') {
    if (caller.trusted) return { name: BUILTIN_KEY, remaining: Infinity };
    throw new ApiError(403, 'missing authorization key: send it in the auth parameter');
  }
  const key = settings.keys.find((k) => k.key === auth);
  if (!key) throw new ApiError(403, 'unknown authorization key');
  if (key.revoked) throw new ApiError(403, `authorization key "${key.name}" is revoked`);
  if (!allowedFor(key, caller.origin, caller.app)) {
    throw new ApiError(403, `authorization key "${key.name}" is not allowed for ${caller.origin ?? caller.app ?? 'this caller'}`);
  }
  if (key.quota === undefined) return { name: key.name, remaining: Infinity };
  const used = (await usage.get(key.name)).chars;
  if (used >= key.quota) {
    throw new ApiError(403, `authorization key "${key.name}" is exhausted: ${used} of its ${key.quota} characters used`);
  }
  return { name: key.name, remaining: key.quota - used };
}
