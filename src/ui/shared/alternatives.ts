/**
 * The compare view's model: route results as they arrive over the translate port, merged when
 * different routes produced the same text, failures kept apart with their err.
 */
import type { TrObj } from '../../core/types';

export interface RouteResult {
  rid: string;
  /** Milliseconds from the request to this route's result, as the UI saw it. */
  ms: number;
  text?: string;
  err?: string;
  /** Answered by the translation memory, not by the provider just now. */
  cached?: boolean;
}

export interface Alternative {
  text: string;
  routes: { rid: string; ms: number; cached?: boolean }[];
}

/** One tr_obj as the UI shows it: its texts joined, or its err. */
export function resultOf(item: TrObj, ms: number, cached = false): RouteResult {
  if (item.err !== undefined || item.text === undefined) return { rid: item.rid, ms, err: item.err ?? 'no text' };
  return { rid: item.rid, ms, text: item.text.join('\n'), ...(cached ? { cached } : {}) };
}

/** Successful results grouped by identical text, in the order the first of each arrived. */
export function groupAlternatives(results: readonly RouteResult[]): Alternative[] {
  const groups: Alternative[] = [];
  for (const r of results) {
    if (r.text === undefined) continue;
    const same = groups.find((g) => g.text === r.text);
    const route = { rid: r.rid, ms: r.ms, ...(r.cached ? { cached: true } : {}) };
    if (same) same.routes.push(route);
    else groups.push({ text: r.text, routes: [route] });
  }
  return groups;
}

export function failures(results: readonly RouteResult[]): RouteResult[] {
  return results.filter((r) => r.err !== undefined);
}

/** `google.ts,en,deepl.ts` reads better as `google → en → deepl`. */
export function routeLabel(rid: string): string {
  return rid
    .split(',')
    .map((part) => part.replace(/\.ts$/, ''))
    .join(' → ');
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
