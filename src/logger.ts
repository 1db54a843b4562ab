/**
 * The service's one logger (pino), shared by HTTP, RADIUS and the database pool. Secrets never
 * reach it: request URLs are logged with their parameter values redacted (identifiers, passwords,
 * OAuth codes and SMS codes travel in query strings), headers are not logged, and the few paths
 * where a secret could sit in a logged object are censored.
 */
import type { FastifyBaseLogger } from "fastify";
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream } from "pino";

export interface LoggerOptions {
  level?: string;
  /** Where lines go (default stdout). */
  stream?: DestinationStream;
}

export const REDACTED = "[redacted]";

/**
 * Query parameters whose values are logged as they are: ids, dates and paging, which say what a
 * request was about and are never secret. Every other value is redacted, so a parameter added
 * tomorrow is safe by default.
 */
const LOGGED_PARAMETER = /^(?:[a-z0-9]+_)*ids?$|^(?:from|to)_date$|^agg$|^page$|^per_page$|^res$/;

/** Paths that carry a secret: the signed token of a message's unsubscribe and survey links. */
const SECRET_PATH = /^\/(unsubscribe|survey)\/[^/?]+/;

/** A parameter's name as it reads: decoded when it is encoded (most names are plain), undefined when it cannot be. */
function parameterName(raw: string): string | undefined {
  if (!raw.includes("%") && !raw.includes("+")) return raw;
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return undefined;
  }
}

/**
 * The URL with every query value redacted except LOGGED_PARAMETER ones; the path is kept, but for a
 * message link's token. One pass over the query: this runs for every logged request.
 */
export function redactUrl(raw: string): string {
  const url = raw.startsWith("/unsubscribe/") || raw.startsWith("/survey/") ? raw.replace(SECRET_PATH, `/$1/${REDACTED}`) : raw;
  const q = url.indexOf("?");
  if (q === -1) return url;
  let out = url.slice(0, q + 1);
  for (let at = q + 1; ; ) {
    const end = url.indexOf("&", at);
    const pair = end === -1 ? url.slice(at) : url.slice(at, end);
    const eq = pair.indexOf("=");
    if (eq === -1) out += pair;
    else {
      const name = parameterName(pair.slice(0, eq));
      out += name !== undefined && LOGGED_PARAMETER.test(name) ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
    }
    if (end === -1) return out;
    out += "&";
    at = end + 1;
  }
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
  host?: string;
  socket?: { remotePort?: number };
}

const serializers = {
  req(req: RequestLike) {
    return { method: req.method, url: req.url === undefined ? undefined : redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
  },
  res(reply: { statusCode?: number }) {
    return { statusCode: reply.statusCode };
  },
  err: pino.stdSerializers.err,
};

/** Defence in depth: fields that carry a secret whenever they appear in a logged object. */
const REDACT_PATHS = [
  "req.headers",
  "headers.authorization",
  "headers.identifier",
  "headers.cookie",
  "*.headers.authorization",
  "*.headers.identifier",
  "*.headers.cookie",
  "identifier",
  "password",
  "radius_secret",
  "secret",
  "*.identifier",
  "*.password",
  "*.radius_secret",
  "*.secret",
  "*.body",
  "body",
];

/**
 * Standard output as pino writes it (asynchronously, flushed on exit), for loggers that share it:
 * one stream keeps their lines whole and in order.
 */
export function stdoutDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}

export function createLogger(opts: LoggerOptions = {}): FastifyBaseLogger {
  const options = { level: opts.level ?? "info", serializers, redact: { paths: REDACT_PATHS, censor: REDACTED } };
  return (opts.stream ? pino(options, opts.stream) : pino(options)) as unknown as FastifyBaseLogger;
}

type LogArgs = Parameters<FastifyBaseLogger["info"]>;

/**
 * A request's logger, made the first time something logs through it. Fastify gives every request
 * a child logger bound to its id; making one (its bindings serialised and redacted) cost about
 * 1.5 µs per request, and nearly every request never logs through it: its access line has a logger
 * of its own (app.ts). Lines written through it are those of the child it stands for.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.opts);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: LogArgs): void {
    this.real.fatal(...args);
  }

  error(...args: LogArgs): void {
    this.real.error(...args);
  }

  warn(...args: LogArgs): void {
    this.real.warn(...args);
  }

  info(...args: LogArgs): void {
    this.real.info(...args);
  }

  debug(...args: LogArgs): void {
    this.real.debug(...args);
  }

  trace(...args: LogArgs): void {
    this.real.trace(...args);
  }

  silent(): void {}

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, opts);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first used (RequestLogger). */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}
