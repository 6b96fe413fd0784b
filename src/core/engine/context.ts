import type { Provider } from '../provider';
import type { Leg } from '../routes/routes';
import type { Glossary } from './glossary';
import type { TrdObj, TrObj } from '../types';

/** What the UI may show beside a result: every segment of it came from the translation memory. */
export interface ResultMeta {
  cached: boolean;
}

/** What a Translate run needs besides the request: the available providers and the caller's hooks. */
export interface RunContext {
  providers: ReadonlyMap<string, Provider>;
  /** A route's legs with each provider's own codes (routes.ts RouteTable `legs`); else the codes asked. */
  legs?(rid: string, src: string, trg: string): Leg[] | undefined;
  /** Aborts every provider request of the call. */
  signal?: AbortSignal;
  onResult?(item: TrObj | TrdObj, meta?: ResultMeta): void;
  /** Hedging: how long a route may run before the next one starts too; undefined: never. */
  hedgeAfterMs?(rid: string): number | undefined;
  /** The user's glossary for the request's pair and domain. */
  glossary?: Glossary;
  /** Its provider requests wait behind every other caller's (provider.ts BatchOptions `background`). */
  background?: boolean;
  /** Resolves if that work is now waited for in the foreground (provider.ts BatchOptions `foreground`). */
  foreground?: Promise<void>;
}
