/**
 * Usage per key and per app (decisions.md "Authentication"): requests and translated characters,
 * kept in a KeyValueStore. Writes are coalesced: at most one per `writeDelayMs`, and `flush()`
 * writes at once (server shutdown), so a crash loses at most that interval.
 */
import type { KeyValueStore } from '../storage';

export interface Counter {
  requests: number;
  chars: number;
}

export interface UsageData {
  keys: Record<string, Counter>;
  apps: Record<string, Counter>;
}

const STORE_KEY = 'usage';

function isCounterMap(v: unknown): v is Record<string, Counter> {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.values(v).every((c: unknown) => {
      const o = c as Partial<Counter> | null;
      return typeof o === 'object' && o !== null && Number.isFinite(o.requests) && Number.isFinite(o.chars);
    })
  );
}

export class Usage {
  private data: UsageData | undefined;
  private loading: Promise<UsageData> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: KeyValueStore,
    private readonly writeDelayMs = 250,
  ) {}

  /** Loads the counters once; a stored value of the wrong shape is an error, never a silent reset. */
  load(): Promise<UsageData> {
    if (this.data) return Promise.resolve(this.data);
    this.loading ??= this.store.get<unknown>(STORE_KEY).then((raw) => {
      if (raw === undefined) return (this.data = { keys: {}, apps: {} });
      const d = raw as Partial<UsageData>;
      if (!isCounterMap(d.keys) || !isCounterMap(d.apps)) throw new Error('stored usage counters are corrupt');
      return (this.data = { keys: d.keys, apps: d.apps });
    });
    return this.loading;
  }

  async get(keyName: string): Promise<Counter> {
    const d = await this.load();
    return d.keys[keyName] ?? { requests: 0, chars: 0 };
  }

  async snapshot(): Promise<UsageData> {
    return structuredClone(await this.load());
  }

  async add(keyName: string, app: string | undefined, chars: number): Promise<void> {
    const d = await this.load();
    const bump = (m: Record<string, Counter>, k: string) => {
      const c = (m[k] ??= { requests: 0, chars: 0 });
      c.requests += 1;
      c.chars += chars;
    };
    bump(d.keys, keyName);
    if (app) bump(d.apps, app);
    this.timer ??= setTimeout(() => void this.flush(), this.writeDelayMs);
  }

  /** Writes the counters now (writes are serialized so an older one never lands last). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const data = this.data;
    if (!data) return this.writing;
    this.writing = this.writing.catch(() => undefined).then(() => this.store.set(STORE_KEY, data));
    return this.writing;
  }
}
