/** A small persistent key/value store: storage.local in the extension, a JSON file on the server. */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

/** In-memory store for tests and for the server when no state file is given. */
export function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const data = new Map<string, string>(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  return {
    async get<T>(key: string) {
      const raw = data.get(key);
      return raw === undefined ? undefined : (JSON.parse(raw) as T);
    },
    async set(key, value) {
      data.set(key, JSON.stringify(value));
    },
  };
}
