/**
 * The provider log (issue 6): which provider received text from which site. Off by default; when
 * on, one entry per Translate from a content script: `{at, site, providers, chars}`, never the
 * text. The newest LOG_CAP entries are kept in storage.local (`log:entries`); the switch is
 * `log:on`. Neither syncs: the log is about this browser's traffic.
 */
import type { Storage } from 'webextension-polyfill';
import type { ApiReply, LooseParams, TrdObj, TrObj } from '../core/types';
import { routeProviders } from '../core/privacy';
import { ext } from '../shared/browser';
import type { LogEntry } from '../shared/messages';
import type { Handler } from './router';

export const LOG_ON_KEY = 'log:on';
export const LOG_ENTRIES_KEY = 'log:entries';
export const LOG_CAP = 1000;

type Area = Pick<Storage.StorageArea, 'get' | 'set'>;

export interface ProviderLog {
  isOn(): Promise<boolean>;
  setOn(on: boolean): Promise<void>;
  /** Appends (when on); resolves once written. */
  add(entry: LogEntry): Promise<void>;
  entries(): Promise<LogEntry[]>;
  clear(): Promise<void>;
}

export function createProviderLog(area: () => Area = () => ext().storage.local, cap = LOG_CAP): ProviderLog {
  let pending: LogEntry[] = [];
  // One read-modify-write at a time; entries that arrive meanwhile go in the next one together,
  // so a page's burst of calls costs a few writes, not one each.
  let writing: Promise<void> = Promise.resolve();
  let scheduled: Promise<void> | undefined;

  const stored = async (): Promise<LogEntry[]> => {
    const value = (await area().get(LOG_ENTRIES_KEY))[LOG_ENTRIES_KEY];
    return Array.isArray(value) ? (value as LogEntry[]) : [];
  };
  const isOn = async () => (await area().get(LOG_ON_KEY))[LOG_ON_KEY] === true;

  return {
    isOn,
    async setOn(on) {
      await area().set({ [LOG_ON_KEY]: on });
    },
    add(entry) {
      pending.push(entry);
      scheduled ??= writing = writing.catch(() => undefined).then(async () => {
        scheduled = undefined;
        const batch = pending;
        pending = [];
        if (!(await isOn())) return;
        const all = [...(await stored()), ...batch];
        await area().set({ [LOG_ENTRIES_KEY]: all.slice(Math.max(0, all.length - cap)) });
      });
      return scheduled;
    },
    async entries() {
      await writing.catch(() => undefined);
      return stored();
    },
    async clear() {
      await writing.catch(() => undefined);
      await area().set({ [LOG_ENTRIES_KEY]: [] });
    },
  };
}

/** Characters (code points) of the texts a call carries. */
export function charsOf(params: LooseParams): number {
  const dat = params['dat'];
  const list = Array.isArray(dat) ? dat : dat === undefined ? [] : [dat];
  return list.reduce<number>((n, d) => n + [...String(d)].length, 0);
}

/** The providers a Translate reply says were asked: every route it lists, failed ones too. */
export function providersOf(reply: ApiReply): string[] {
  const body = reply.body as { dat?: unknown } | unknown[] | null;
  const items = Array.isArray(body) ? body : Array.isArray((body as { dat?: unknown } | null)?.dat) ? (body as { dat: unknown[] }).dat : [];
  const ids = new Set<string>();
  for (const item of items as (TrObj | TrdObj)[]) {
    if (typeof item?.rid === 'string') for (const id of routeProviders(item.rid)) ids.add(id);
  }
  return [...ids].sort();
}

let defaultLog: ProviderLog | undefined;
export const providerLog = (): ProviderLog => (defaultLog ??= createProviderLog());

type LogMessage = 'log:get' | 'log:set' | 'log:clear';

export const LOG_HANDLERS: { [K in LogMessage]: Handler<K> } = {
  'log:get': {
    allow: ['options'],
    async handle(_data, _ctx, deps) {
      const log = deps.log ?? providerLog();
      const [on, entries] = await Promise.all([log.isOn(), log.entries()]);
      return { on, entries };
    },
  },
  'log:set': {
    allow: ['options'],
    async handle(data, _ctx, deps) {
      await (deps.log ?? providerLog()).setOn(data.on === true);
      return { on: data.on === true };
    },
  },
  'log:clear': {
    allow: ['options'],
    async handle(_data, _ctx, deps) {
      await (deps.log ?? providerLog()).clear();
      return { ok: true };
    },
  },
};
