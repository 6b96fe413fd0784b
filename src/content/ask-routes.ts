/**
 * The other routes asked for a unit's translation (choices.ts): frm=html answers with one route
 * only (interface.md 4.1 fixes min=max=1 for documents), so one streamed call per route (per call
 * of a long text's pieces) is how they arrive one by one. The pair's route list, asked once.
 */
import type { TrdObj } from '../core/types';
import type { TranslateFn } from './jobs';

/** Alternatives shown: the current route's and at most this many in all. */
export const MAX_ALTERNATIVES = 3;

export type Alternative =
  | { rid: string; text: string; current: boolean; err?: undefined }
  | { rid: string; err: string; current: false };

/** A unit's calls, and what to do with each route's answers (`askRoutes`). */
export interface RouteAsk {
  markups: string[];
  /** The route the page shows, and whether the page shows the original instead. */
  current: string;
  plain: boolean;
  read: (dats: string[]) => string | null;
  onAlternative: (a: Alternative) => void;
  signal: AbortSignal;
}

/**
 * Asks the pair's `routes` for the calls `markups` (one, or a long text's pieces in several),
 * streamed (frm=html answers with one route only: interface.md 4.1), passing each route to
 * `onAlternative` once all its calls settle: the routes not shown, or, with the original shown
 * (`plain`), every route, the one that translated it first (the translation memory has its
 * answer). `read`: what a route's answers read, or null where they lost a unit. The answers
 * read, by route.
 */
export function askRoutes(translate: TranslateFn, src: string, trg: string, routes: Promise<string[]>, a: RouteAsk) {
  const { markups, current, plain, read, onAlternative, signal } = a;
  const answers = new Map<string, string[]>();
  /** One call's answer from `rid`, or what went wrong. */
  const call = async (rid: string, markup: string): Promise<{ dat: string } | { err: string }> => {
    const items: TrdObj[] = [];
    const params = { src, trg, frm: 'html', dat: [markup], rid: [rid] };
    const reply = await translate(params, (item) => void ('cnt' in item && items.push(item)), { signal });
    items.sort((a, b) => a.cnt - b.cnt);
    const bad = items.find((i) => i.err || i.rid !== rid);
    // The engine fails over to the next route: an answer from another rid is not this route's.
    if (reply.status !== 200 || items.length === 0 || bad) return { err: bad?.err ?? (bad ? `${rid} did not translate it` : `${reply.status} no translation`) };
    return { dat: items.map((i) => i.dat).join('') };
  };
  const ask = async (rid: string): Promise<Alternative> => {
    const got = await Promise.all(markups.map((m) => call(rid, m)));
    const dats: string[] = [];
    for (const g of got) {
      if ('err' in g) return { rid, err: g.err, current: false };
      dats.push(g.dat);
    }
    const text = read(dats);
    if (text === null) return { rid, err: 'the answer lost the paragraph', current: false };
    answers.set(rid, dats);
    return { rid, text, current: false };
  };
  const toAsk = (list: string[]) => {
    const others = list.filter((r) => r !== current);
    if (!plain) return others.slice(0, MAX_ALTERNATIVES - 1);
    return (list.includes(current) ? [current, ...others] : others).slice(0, MAX_ALTERNATIVES);
  };
  const done = routes
    .then(toAsk)
    .then((others) =>
      Promise.all(
        others.map((rid) =>
          ask(rid).then(
            (alt) => !signal.aborted && onAlternative(alt),
            (e: unknown) => !signal.aborted && onAlternative({ rid, err: e instanceof Error ? e.message : String(e), current: false }),
          ),
        ),
      ),
    )
    .then(() => undefined, () => undefined);
  return { done, answers };
}

/**
 * The pair's routes (GetRoutes), asked once per translation (`key`) for the hover button and
 * every chooser; a failed answer is asked again next time.
 */
export class RouteList {
  private held: { key: string; list: Promise<string[]> } | null = null;

  get(key: string, ask: () => Promise<string[]>): Promise<string[]> {
    if (this.held?.key === key) return this.held.list;
    const list: Promise<string[]> = ask().catch(() => {
      if (this.held?.list === list) this.held = null;
      return [];
    });
    this.held = { key, list };
    return list;
  }
}
