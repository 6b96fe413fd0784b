/**
 * Checks of the interface's parameters (interface.md 4.1, 4.3, 5; decisions.md "Parameters" and
 * "Limits"). Every failure is an ApiError whose message says what was wrong; values of the key
 * parameters (`auth`, `key`, `uid`) never appear in one.
 */
import { ApiError } from '../errors';
import { DOMAINS, FORMATS } from '../types';
import type { Domain, Format, Params, TranslateRequest } from '../types';
import { compatMode } from './compat';
import { checkTextSize, languagePair, languageParam, quote, repeated, required, single } from './params';

const MAX_TIMEOUT = 120;
const APP = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An integer parameter written as plain decimal digits: "2.5", "1e2", "", "-1", " 3" and "0x10"
 * are refused although Number() would take some of them.
 */
function integerParam(params: Params, name: string, fallback: number, min: number, max: number): number {
  const raw = single(params, name);
  if (raw === undefined) return fallback;
  const value = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    throw new ApiError(400, `parameter "${name}" must be ${range}, got ${quote(raw)}`);
  }
  return value;
}

function enumParam<T extends string>(params: Params, name: string, allowed: readonly T[], fallback: T): T {
  const raw = single(params, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ApiError(400, `parameter "${name}" must be one of ${allowed.join(', ')}, got ${quote(raw)}`);
  }
  return raw as T;
}

/** src and trg of GetRoutes (interface.md 4.3). */
export function validatePairParams(params: Params): { src: string; trg: string } {
  const src = languageParam(required(params, 'src'), 'src');
  const trg = languageParam(required(params, 'trg'), 'trg');
  languagePair(src, trg, { src: 'src', trg: 'trg' });
  return { src, trg };
}

/**
 * A Translate request with defaults applied (interface.md 4.1). With frm=html, min and max are
 * checked as sent (a client asking min=3&max=2 made a mistake worth reporting) and then forced to
 * 1, and the dat values become one document joined with single spaces; the size limit counts the
 * values as sent, without the joining spaces.
 */
export function validateTranslate(params: Params, textSize: number): TranslateRequest {
  const { src, trg } = validatePairParams(params);
  const dat = repeated(params, 'dat');
  if (dat.length === 0) throw new ApiError(400, 'missing parameter "dat": nothing to translate');
  let min = integerParam(params, 'min', 1, 1, Number.MAX_SAFE_INTEGER);
  let max = integerParam(params, 'max', 1, 1, Number.MAX_SAFE_INTEGER);
  if (min > max) throw new ApiError(400, `parameter "min" (${min}) is larger than "max" (${max})`);
  const timeout = integerParam(params, 'timeout', 20, 1, MAX_TIMEOUT);
  const dom: Domain = enumParam(params, 'dom', DOMAINS, 'general');
  const frm: Format = enumParam(params, 'frm', FORMATS, 'text');
  const app = single(params, 'app');
  if (app !== undefined && !APP.test(app)) {
    throw new ApiError(400, `parameter "app" must be 1 to 64 English letters, digits, "_" or "-", got ${quote(app)}`);
  }
  const rid = [...new Set(repeated(params, 'rid'))];
  checkTextSize(dat, textSize);
  if (frm === 'html') {
    min = 1;
    max = 1;
  }
  const request: TranslateRequest = {
    src,
    trg,
    dat: frm === 'html' ? [dat.join(' ')] : [...dat],
    min,
    max,
    timeout,
    dom,
    rid,
    frm,
  };
  if (app !== undefined) request.app = app;
  return request;
}

/**
 * The authorization key of a request (interface.md section 5), undefined when none was sent (the
 * caller answers 403). Translate in a compatibility mode also takes the mode's own key parameter:
 * `uid` for g1, `key` for g2 (decisions.md); sent together with a different `auth`, the request is
 * ambiguous and refused.
 */
export function authParam(params: Params, fn: string): string | undefined {
  const auth = single(params, 'auth');
  const mode = fn === 'Translate' ? compatMode(params) : undefined;
  if (mode === undefined) return auth;
  const name = mode === 'g1' ? 'uid' : 'key';
  const other = single(params, name);
  if (other !== undefined && auth !== undefined && other !== auth) {
    throw new ApiError(400, `parameters "${name}" and "auth" carry different keys: send the key once`);
  }
  return other ?? auth;
}
