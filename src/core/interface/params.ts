/**
 * Query and form parameters (interface.md section 1: "All data sent and received is UTF-8 encoded").
 * Percent-decoding works on bytes and the bytes are then decoded strictly, so a request whose
 * escapes spell invalid UTF-8 is refused (decisions.md "Parameters": 400) instead of being
 * silently repaired with U+FFFD, as URLSearchParams would.
 */
import { ApiError } from '../errors';
import { canonicalLanguage } from '../lang';
import type { LooseParams, Params } from '../types';

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const SPACE = 0x20;

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** An empty parameter map without a prototype, so names like `__proto__` are plain keys. */
export function emptyParams(): Params {
  return Object.create(null) as Params;
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** `+` is a space and `%XX` a byte; undefined for a malformed escape. */
function percentDecode(bytes: Uint8Array): Uint8Array | undefined {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === PLUS) {
      out[n++] = SPACE;
    } else if (byte === PERCENT) {
      const high = hexValue(bytes[i + 1]);
      const low = hexValue(bytes[i + 2]);
      if (high < 0 || low < 0) return undefined;
      out[n++] = high * 16 + low;
      i += 2;
    } else {
      out[n++] = byte;
    }
  }
  return out.subarray(0, n);
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A parameter name fit for an error message, whatever bytes it was made of. */
function nameForMessage(raw: Uint8Array): string {
  return quote(lenient.decode(percentDecode(raw) ?? raw));
}

function decodeComponent(raw: Uint8Array, nameBytes: Uint8Array, what: 'name' | 'value'): string {
  const bytes = percentDecode(raw);
  const where = what === 'name' ? 'a parameter name' : `parameter ${nameForMessage(nameBytes)}`;
  if (bytes === undefined) {
    throw new ApiError(400, `malformed percent escape in ${where}: "%" must be followed by two hex digits`);
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    throw new ApiError(400, `invalid UTF-8 in ${where}: percent-escapes and raw bytes must spell UTF-8`);
  }
  return text;
}

/** A string holding a lone surrogate has no UTF-8 form. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Parses an application/x-www-form-urlencoded query string (without `?`) or request body. Values of
 * a repeated name accumulate in order; empty pieces (`a=1&&b=2`) are skipped; `name` alone has the
 * value ''. Throws ApiError 400 on a malformed escape or invalid UTF-8.
 */
export function parseQuery(raw: string | Uint8Array): Params {
  if (typeof raw === 'string' && LONE_SURROGATE.test(raw)) {
    throw new ApiError(400, 'invalid UTF-8 in the query: it holds a lone surrogate');
  }
  const bytes = typeof raw === 'string' ? encoder.encode(raw) : raw;
  const params = emptyParams();
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(AMPERSAND, start);
    if (end < 0) end = bytes.length;
    const piece = bytes.subarray(start, end);
    start = end + 1;
    if (piece.length === 0) continue;
    const eq = piece.indexOf(EQUALS);
    const rawName = eq < 0 ? piece : piece.subarray(0, eq);
    const rawValue = eq < 0 ? new Uint8Array(0) : piece.subarray(eq + 1);
    const name = decodeComponent(rawName, rawName, 'name');
    const value = decodeComponent(rawValue, rawName, 'value');
    (params[name] ??= []).push(value);
  }
  return params;
}

/**
 * Parameters as message passing carries them (a string, a number or an array of them per name) in
 * the form parseQuery gives. Undefined values and empty arrays are dropped, as an absent parameter.
 * The values come from other extension contexts, so their types are checked, not trusted.
 */
export function normalizeParams(p: Params | LooseParams): Params {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    throw new ApiError(400, 'parameters must be an object mapping names to values');
  }
  const params = emptyParams();
  for (const [name, value] of Object.entries(p) as [string, unknown][]) {
    if (value === undefined) continue;
    const values: unknown[] = Array.isArray(value) ? value : [value];
    const strings = values.map((v) => {
      if (typeof v === 'number' && Number.isFinite(v)) return String(v);
      if (typeof v !== 'string') {
        throw new ApiError(400, `parameter "${name}" must be a string, a number or an array of them`);
      }
      if (LONE_SURROGATE.test(v)) throw new ApiError(400, `invalid UTF-8 in parameter "${name}": it holds a lone surrogate`);
      return v;
    });
    if (strings.length > 0) params[name] = strings;
  }
  return params;
}

/** The one value of a non-repeatable parameter; 400 when it is repeated (decisions.md "Parameters"). */
export function single(params: Params, name: string): string | undefined {
  if (!Object.hasOwn(params, name)) return undefined;
  const values = params[name];
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw new ApiError(400, `parameter "${name}" given more than once`);
  return values[0];
}

/** Query and POST body parameters together, the body's after the query's (decisions.md). */
export function mergeParams(query: Params, body: Params): Params {
  const params = emptyParams();
  for (const source of [query, body]) {
    for (const [name, values] of Object.entries(source)) params[name] = [...(params[name] ?? []), ...values];
  }
  return params;
}

/** Every value of a repeatable parameter, in order; [] when absent. */
export function repeated(params: Params, name: string): string[] {
  return Object.hasOwn(params, name) ? (params[name] ?? []) : [];
}

/** A client value inside an error message: quoted, and cut so a huge value cannot bloat the reply. */
export function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
}

export function required(params: Params, name: string): string {
  const value = single(params, name);
  if (value === undefined) throw new ApiError(400, `missing parameter "${name}"`);
  return value;
}

/** A language parameter in canonical form; `name` is the parameter's name for the message. */
export function languageParam(value: string, name: string): string {
  const code = canonicalLanguage(value);
  if (code === undefined) throw new ApiError(400, `parameter "${name}": ${quote(value)} is not a language code`);
  return code;
}

/** The source and target of a request; the same language twice is 400 (decisions.md). */
export function languagePair(src: string | undefined, trg: string, names: { src: string; trg: string }): void {
  if (src !== undefined && src === trg) {
    throw new ApiError(400, `parameters "${names.src}" and "${names.trg}" are the same language (${quote(src)})`);
  }
}

/** Unicode code points, the unit of the text-size limit (decisions.md "Limits"). */
import { codePoints } from '../html/text';
export { codePoints };

/** 413 when the texts together exceed the limit; called after every 400 check. */
export function checkTextSize(texts: readonly string[], textSize: number): void {
  const size = texts.reduce((sum, t) => sum + codePoints(t), 0);
  if (size > textSize) {
    throw new ApiError(413, `text too long: ${size} characters sent, the limit is ${textSize}`);
  }
}
