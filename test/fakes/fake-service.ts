/**
 * The HTTP plumbing the provider fakes share. `serve`: a server on 127.0.0.1 (random port) that
 * hands over each request once its whole body has arrived. `startFakeServer`: on top of it, every
 * request recorded as the fake chooses, answers the client gave up on counted, and rules that make
 * the fake fail on chosen requests, `times` times or always. `answerFault`: the faults the fakes
 * have in common, answered alike. `startFakeService`: the smallest fake, a function from request to
 * answer (the Google-family fakes build on it).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Closes kept-alive connections too: a hanging fault would otherwise hold `close` forever. */
export const shut = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

export interface Served {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export type Handler = (raw: IncomingMessage, res: ServerResponse, body: Buffer, url: URL) => void;

export async function serve(handle: Handler): Promise<Served> {
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => handle(raw, res, Buffer.concat(chunks), new URL(raw.url ?? '/', 'http://127.0.0.1')));
  });
  return { url: await listen(server), close: () => shut(server) };
}

/** The body parsed as JSON; undefined when empty or not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return body.length ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

export interface Rule<F> {
  fault: F;
  /** Applies this many times, then is dropped; default: always. */
  times?: number;
}

export interface FakeServer<Req, R> {
  url: string;
  requests: Req[];
  /** Requests whose client went away before the answer was complete. */
  readonly aborted: number;
  /** Highest number of requests open at once, among those the fake counts (none: 0). */
  readonly maxConcurrent: number;
  rule(rule: R): void;
  clearRules(): void;
  close(): Promise<void>;
}

export interface Exchange<Req, R extends Rule<unknown>> {
  req: Req;
  raw: IncomingMessage;
  res: ServerResponse;
  /** The fault of the first rule that `applies` to this request, spending one of its times. */
  take(applies: (rule: R) => boolean): R['fault'] | undefined;
  /** Counts this request in `maxConcurrent` until its response closes. */
  concurrent(): void;
}

export interface FakeServerSpec<Req, R extends Rule<unknown>> {
  /** What `requests` keeps of a request. */
  record(raw: IncomingMessage, body: Buffer, url: URL): Req;
  respond(exchange: Exchange<Req, R>): void;
  /** The requests `aborted` counts; default: all. */
  counts?(req: Req): boolean;
}

export async function startFakeServer<Req, R extends Rule<unknown>>(spec: FakeServerSpec<Req, R>): Promise<FakeServer<Req, R>> {
  const requests: Req[] = [];
  let rules: R[] = [];
  let aborted = 0;
  let open = 0;
  let maxConcurrent = 0;

  const take = (applies: (rule: R) => boolean): R['fault'] | undefined => {
    const rule = rules.find(applies);
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) rules = rules.filter((r) => r !== rule);
    return rule.fault;
  };

  const served = await serve((raw, res, body, url) => {
    const req = spec.record(raw, body, url);
    requests.push(req);
    if (spec.counts?.(req) ?? true) {
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
    }
    const concurrent = () => {
      maxConcurrent = Math.max(maxConcurrent, ++open);
      res.on('close', () => open--);
    };
    spec.respond({ req, raw, res, take, concurrent });
  });
  return {
    url: served.url,
    requests,
    get aborted() {
      return aborted;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    rule: (rule) => void rules.push({ ...rule }),
    clearRules: () => void (rules = []),
    close: served.close,
  };
}

export type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

/** Sends a string as it is and anything else as JSON, as `contentType` unless `headers` name another. */
export const jsonSender = (contentType: string): Send => (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': contentType, ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** The faults most fakes know, answered alike by `answerFault`. */
export type CommonFault =
  /** Any status with a body (default: the fake's `statusBody`) and headers. */
  | { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** 200 with a truncated JSON document (the fake's `malformed`). */
  | { type: 'malformed' }
  /** Never answers (until the client goes away). */
  | { type: 'hang' }
  /** Answers normally after `ms`. */
  | { type: 'delay'; ms: number }
  /** Destroys the connection without an answer. */
  | { type: 'reset' };

const COMMON: ReadonlySet<string> = new Set<CommonFault['type']>(['status', 'malformed', 'hang', 'delay', 'reset']);
const isCommon = (fault: { type: string }): fault is CommonFault => COMMON.has(fault.type);

/** The faults of the fakes that answer a list of translations. */
export type CountFault =
  | Exclude<CommonFault, { type: 'delay' }>
  /** 200 with one translation fewer than texts sent. */
  | { type: 'count' };

/** A rule for requests to `path` (where it names none: the fake's translate path). */
export interface PathRule<F> extends Rule<F> {
  path?: string;
}

export interface FaultStyle {
  send: Send;
  /** The truncated body of a `malformed` fault, in the service's shape. */
  malformed: string;
  /** The body of a `status` fault that names none; default: empty. */
  statusBody?: unknown;
}

/**
 * Answers a common fault; any other fault (the fake's own), or none, goes to `answer`. A delayed
 * answer is `answer(undefined)`.
 */
export function answerFault<F extends { type: string }>(
  { raw, res }: { raw: IncomingMessage; res: ServerResponse },
  fault: F | undefined,
  style: FaultStyle,
  answer: (own: Exclude<F, CommonFault> | undefined) => void,
): void {
  if (!fault || !isCommon(fault)) return answer(fault as Exclude<F, CommonFault> | undefined);
  const common: CommonFault = fault;
  switch (common.type) {
    case 'status': return style.send(res, common.status, common.body ?? style.statusBody ?? '', common.headers);
    case 'malformed': return style.send(res, 200, style.malformed);
    case 'hang': return undefined;
    case 'delay': {
      const timer = setTimeout(() => answer(undefined), common.ms);
      res.on('close', () => clearTimeout(timer));
      return undefined;
    }
    case 'reset': return void raw.socket.destroy();
  }
}

/**
 * The `respond` of a fake whose rules pick requests by path (`defaultPath` where a rule names
 * none): common faults are answered alike, and `answer` gets the rest with the fake's own fault.
 */
export function faultsByPath<Req extends { path: string }, R extends PathRule<{ type: string }>>(
  defaultPath: string,
  style: FaultStyle,
  answer: (req: Req, res: ServerResponse, own: Exclude<R['fault'], CommonFault> | undefined) => void,
): (exchange: Exchange<Req, R>) => void {
  return (ex) => answerFault(ex, ex.take((r) => (r.path ?? defaultPath) === ex.req.path), style, (own) => answer(ex.req, ex.res, own));
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as a form when it is one (empty otherwise). */
  form: URLSearchParams;
}

export interface FakeAnswer {
  status: number;
  /** A string is sent as it is (HTML pages, broken JSON); anything else as JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

export type Fault =
  | ({ type: 'answer' } & FakeAnswer)
  | { type: 'malformed' }
  /** Never answers (until the client goes away). */
  | { type: 'hang' }
  /** Destroys the connection without an answer. */
  | { type: 'reset' };

export interface FakeRule extends Rule<Fault> {
  path?: string;
  match?: (req: FakeRequest) => boolean;
}

export type FakeService = FakeServer<FakeRequest, FakeRule>;

const sendHtml = jsonSender('text/html; charset=UTF-8');
const sendJson = jsonSender('application/json; charset=UTF-8');
/** A string is HTML unless the answer says otherwise (Google's error pages are). */
const sendAnswer = (res: ServerResponse, a: FakeAnswer) => (typeof a.body === 'string' ? sendHtml : sendJson)(res, a.status, a.body, a.headers);
const FAULTS: FaultStyle = { send: jsonSender('application/json'), malformed: '[[["oops"' };

export function startFakeService(handle: (req: FakeRequest) => FakeAnswer): Promise<FakeService> {
  return startFakeServer<FakeRequest, FakeRule>({
    record: (raw, body, url) => {
      const text = body.toString('utf8');
      const isForm = raw.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
      return { method: raw.method ?? '', path: url.pathname, query: url.searchParams, headers: raw.headers, body: text, form: new URLSearchParams(isForm ? text : '') };
    },
    respond: (ex) => {
      const { req } = ex;
      const fault = ex.take((r) => (r.path === undefined || r.path === req.path) && (!r.match || r.match(req)));
      answerFault(ex, fault, FAULTS, (own) => sendAnswer(ex.res, own ?? handle(req)));
    },
  });
}
