/**
 * Compatibility modes of Translate (interface.md 4.5, decisions.md "Compatibility modes"): clients
 * of two earlier third-party interfaces keep their parameter names and reply shapes. Limits, keys
 * and error statuses are those of Translate.
 */
import { ApiError } from '../errors';
import type { ApiReply, Format, Params } from '../types';
import { checkTextSize, languagePair, languageParam, quote, repeated, required, single } from './params';

export type CompatMode = 'g1' | 'g2';

/** A compat-mode request in Translate's terms; `src` undefined asks for auto-detection. */
export interface CompatRequest {
  src?: string;
  trg: string;
  /** One element per `q`, in order. */
  dat: string[];
  /** g2 `format=html`: each q is an HTML fragment of its own (they are not joined). */
  frm: Format;
}

/** The mode a Translate call asks for; 400 for another value or a repeated `mode`. */
export function compatMode(params: Params): CompatMode | undefined {
  const mode = single(params, 'mode');
  if (mode === undefined || mode === 'g1' || mode === 'g2') return mode;
  throw new ApiError(400, `parameter "mode" must be g1 or g2, got ${quote(mode)}`);
}

function texts(params: Params): string[] {
  const q = repeated(params, 'q');
  if (q.length === 0) throw new ApiError(400, 'missing parameter "q": nothing to translate');
  return [...q];
}

function parseG2(params: Params): CompatRequest {
  const trg = languageParam(required(params, 'target'), 'target');
  const source = single(params, 'source');
  // The earlier interface's clients send an empty source to ask for detection, as well as none.
  const src = source === undefined || source === '' ? undefined : languageParam(source, 'source');
  languagePair(src, trg, { src: 'source', trg: 'target' });
  const dat = texts(params);
  const format = single(params, 'format') ?? 'text';
  if (format !== 'text' && format !== 'html') {
    throw new ApiError(400, `parameter "format" must be one of text, html, got ${quote(format)}`);
  }
  return src === undefined ? { trg, dat, frm: format } : { src, trg, dat, frm: format };
}

function parseG1(params: Params): CompatRequest {
  const langpair = required(params, 'langpair');
  const parts = langpair.split('|');
  if (parts.length !== 2 || parts[1] === undefined || parts[0] === undefined) {
    throw new ApiError(400, `parameter "langpair" must be "<src>|<trg>" (src may be empty), got ${quote(langpair)}`);
  }
  // "autodetect" is how that interface's own clients spell an empty source.
  const [rawSrc, rawTrg] = parts;
  const detect = rawSrc === '' || rawSrc.toLowerCase() === 'autodetect';
  const src = detect ? undefined : languageParam(rawSrc, 'langpair');
  const trg = languageParam(rawTrg, 'langpair');
  languagePair(src, trg, { src: 'langpair', trg: 'langpair' });
  const dat = texts(params);
  return src === undefined ? { trg, dat, frm: 'text' } : { src, trg, dat, frm: 'text' };
}

/** The request of a compat-mode Translate; 400s first, then 413 over all `q` together. */
export function parseCompat(mode: CompatMode, params: Params, textSize: number): CompatRequest {
  const request = mode === 'g2' ? parseG2(params) : parseG1(params);
  checkTextSize(request.dat, textSize);
  return request;
}

/**
 * A successful reply in the mode's shape, one translation per `q` in order. `detected` is the
 * auto-detected source; g2 reports it only then (pass it only when `source` was absent).
 */
export function compatReply(mode: CompatMode, translations: string[], detected?: string): ApiReply {
  if (mode === 'g2') {
    const items = translations.map((translatedText) =>
      detected === undefined ? { translatedText } : { translatedText, detectedSourceLanguage: detected },
    );
    return { status: 200, body: { data: { translations: items } } };
  }
  const items = translations.map((translatedText) => ({ translatedText }));
  const responseData = items.length === 1 ? items[0] : items;
  return { status: 200, body: { responseData, responseDetails: null, responseStatus: 200 } };
}

/** A whole-request failure in the mode's shape; `err` is kept so every error body has it. */
export function compatError(mode: CompatMode, status: number, err: string): ApiReply {
  if (mode === 'g2') return { status, body: { err, error: { code: status, message: err } } };
  return { status, body: { err, responseData: null, responseDetails: err, responseStatus: status } };
}
