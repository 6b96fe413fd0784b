/**
 * The user's route order per language pair: remembered in storage.local under `ui:routes`
 * (not the settings document: it is a per-pair UI preference, and the settings document is the
 * engine's, validated and exported), and sent to Translate as `rid`.
 */

export interface RoutePref {
  /** Routes in the user's order; routes not listed follow in GetRoutes order. */
  order: string[];
  /** Routes the user switched off: left out of rid. */
  off: string[];
}

export interface RouteRow {
  rid: string;
  on: boolean;
}

export const ROUTES_KEY = 'ui:routes';

export function pairKey(src: string, trg: string): string {
  return `${src}>${trg}`;
}

/** GetRoutes' list in the user's order, with the switch of each. */
export function applyPref(routes: readonly string[], pref: RoutePref | undefined): RouteRow[] {
  const known = (pref?.order ?? []).filter((rid) => routes.includes(rid));
  const rest = routes.filter((rid) => !known.includes(rid));
  const off = new Set(pref?.off ?? []);
  return [...known, ...rest].map((rid) => ({ rid, on: !off.has(rid) }));
}

export function prefOf(rows: readonly RouteRow[]): RoutePref {
  return { order: rows.map((r) => r.rid), off: rows.filter((r) => !r.on).map((r) => r.rid) };
}

/** The rid values to send: the switched-on routes in the user's order. */
export function ridOf(rows: readonly RouteRow[]): string[] {
  return rows.filter((r) => r.on).map((r) => r.rid);
}

/** A copy with the item at `from` moved to `to` (both clamped); used by drag and by the buttons. */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  if (from < 0 || from >= copy.length) return copy;
  const target = Math.max(0, Math.min(copy.length - 1, to));
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(target, 0, item);
  return copy;
}

/** Recent pairs, newest first, without repeats, at most `limit`. */
export function pushRecent(recent: readonly [string, string][], pair: [string, string], limit = 5): [string, string][] {
  const rest = recent.filter(([s, t]) => s !== pair[0] || t !== pair[1]);
  return [pair, ...rest].slice(0, limit);
}
