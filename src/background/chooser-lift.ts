/**
 * A frame's chooser of alternatives shown by its tab's top frame (content/chooser-lift.ts): the
 * background hands the frame's view and alternatives to the top frame, and the reader's choice back
 * to that frame. Nothing is kept here: the top frame names the frame (`frameId`, which it got from
 * `chooser:show`), so a worker stopped while the reader reads still carries the choice.
 *
 * Only a frame inside a page (`sender.frameId` > 0) may hand a view up, and only to its own tab's
 * top frame; only a top frame may send a choice, and only to a frame of its own tab. What the frame
 * sends is checked for shape and cut to size: it is the frame page's text, drawn as text only.
 */
import { ApiError } from '../core/errors';
import { ext } from '../shared/browser';
import { CHOOSER_ACTS, type ChooserMessage, type LiftedAlternative, type LiftedView } from '../shared/messages';
import type { Context, Handler } from './router';

/** The longest key (content/lift.ts makes 32 hex digits), route id and language tag taken. */
const KEY_MAX = 64;
const RID_MAX = 300;
const LANG_MAX = 35;
/** The most of a paragraph's text, or of one of its alternatives, handed on. */
const TEXT_MAX = 50_000;
/** The most alternatives a view holds (the chooser shows the current route's and two more, and the original). */
const ALTS_MAX = 8;

const fail = (type: string, what: string): never => {
  throw new ApiError(400, `${type}: ${what}`);
};

function key(type: string, value: unknown): string {
  return typeof value === 'string' && value !== '' && value.length <= KEY_MAX ? value : fail(type, `key must be a string of 1 to ${KEY_MAX} characters`);
}

const text = (value: unknown): value is string => typeof value === 'string';
const lang = (value: unknown): value is string => typeof value === 'string' && value.length <= LANG_MAX;

function alternative(type: string, value: unknown): LiftedAlternative {
  const a = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof a['rid'] !== 'string' || a['rid'] === '' || a['rid'].length > RID_MAX) return fail(type, `an alternative's rid must be a string of 1 to ${RID_MAX} characters`);
  if (text(a['err'])) return { rid: a['rid'], err: a['err'].slice(0, TEXT_MAX), current: false };
  if (!text(a['text'])) return fail(type, 'an alternative has a text or an err');
  return { rid: a['rid'], text: a['text'].slice(0, TEXT_MAX), current: a['current'] === true };
}

function view(value: unknown): LiftedView {
  const type = 'chooser:lift';
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const o = v['original'] as Record<string, unknown> | null | undefined;
  if (o !== null && (typeof o !== 'object' || !text(o['text']) || !lang(o['lang']))) fail(type, `view.original is null or {text, lang (at most ${LANG_MAX} characters), shown}`);
  const copy = v['copy'];
  if (copy !== null && copy !== 'shown' && copy !== 'hidden') fail(type, "view.copy is null, 'shown' or 'hidden'");
  if (!lang(v['trg'])) fail(type, `view.trg must be a language tag of at most ${LANG_MAX} characters`);
  const alts = v['alts'];
  if (!Array.isArray(alts) || alts.length > ALTS_MAX) fail(type, `view.alts must be a list of at most ${ALTS_MAX} alternatives`);
  return {
    original: o ? { text: (o['text'] as string).slice(0, TEXT_MAX), lang: o['lang'] as string, shown: o['shown'] === true } : null,
    copy: copy as LiftedView['copy'],
    trg: v['trg'] as string,
    alts: (alts as unknown[]).map((a) => alternative(type, a)),
  };
}

/** The sender's tab, and its frame: a frame inside the page (`inside`), or the top frame. */
function place(type: string, ctx: Context, inside: boolean): { tabId: number; frameId: number } {
  const tabId = ctx.sender.tab?.id;
  const frameId = ctx.sender.frameId;
  if (tabId === undefined || typeof frameId !== 'number' || (frameId !== 0) !== inside) {
    fail(type, inside ? "only a frame inside a page hands its chooser to the top frame" : "only a tab's top frame sends what the reader chose");
  }
  return { tabId: tabId!, frameId: frameId! };
}

const sendTo = (tabId: number, frameId: number, message: ChooserMessage): Promise<unknown> => ext().tabs.sendMessage(tabId, message, { frameId }).catch(() => undefined);

type ChooserType = 'chooser:lift' | 'chooser:alt' | 'chooser:act';

export const CHOOSER_HANDLERS: { [K in ChooserType]: Handler<K> } = {
  'chooser:lift': {
    allow: ['content'],
    async handle(data, ctx) {
      const { tabId, frameId } = place('chooser:lift', ctx, true);
      const message: ChooserMessage = { type: 'chooser:show', data: { key: key('chooser:lift', data.key), frameId, view: view(data.view) } };
      const reply = await sendTo(tabId, 0, message);
      return { shown: (reply as { shown?: unknown } | undefined)?.shown === true };
    },
  },
  'chooser:alt': {
    allow: ['content'],
    async handle(data, ctx) {
      const { tabId } = place('chooser:alt', ctx, true);
      const k = key('chooser:alt', data.key);
      const message: ChooserMessage = data.done === true
        ? { type: 'chooser:alt', data: { key: k, done: true } }
        : { type: 'chooser:alt', data: { key: k, alt: alternative('chooser:alt', data.alt) } };
      await sendTo(tabId, 0, message);
      return { ok: true };
    },
  },
  'chooser:act': {
    allow: ['content'],
    async handle(data, ctx) {
      const { tabId } = place('chooser:act', ctx, false);
      const k = key('chooser:act', data.key);
      if (typeof data.frameId !== 'number' || !Number.isInteger(data.frameId) || data.frameId <= 0) fail('chooser:act', 'frameId must be the frame of the chooser (an integer above 0)');
      if (!CHOOSER_ACTS.includes(data.act)) fail('chooser:act', `act must be one of ${CHOOSER_ACTS.join(', ')}`);
      const needsRid = data.act === 'pick' || data.act === 'prefer';
      if (needsRid && (typeof data.rid !== 'string' || data.rid === '' || data.rid.length > RID_MAX)) fail('chooser:act', `${data.act} needs the route's rid (1 to ${RID_MAX} characters)`);
      const message: ChooserMessage = { type: 'chooser:do', data: { key: k, act: data.act, ...(needsRid ? { rid: data.rid } : {}) } };
      const reply = await sendTo(tabId, data.frameId, message);
      return { ok: (reply as { ok?: unknown } | undefined)?.ok === true };
    },
  },
};
