/**
 * Builds the Fastify app: external plugins, then the API and portal routes, then one error handler.
 * The caller owns the database: the app never opens or closes it.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import formbody from "@fastify/formbody";
import swagger from "@fastify/swagger";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, LogController } from "fastify";
import { type AppDeps, createAppDeps } from "./app-deps.js";
import type { Config } from "./config.js";
import type { DB } from "./db/database.js";
import { isDatabaseUnavailable } from "./db/database-errors.js";
import { AppError, httpErrors } from "./errors.js";
import { consolePlugin, consoleSessionCaller } from "./console/console.plugin.js";
import { REDACTED, createLogger, requestLoggerFactory } from "./logger.js";
import { ErrorResponse, createApiRouter } from "./http/api-route.js";
import { registerDocsPage } from "./http/docs-page.js";
import { registerMetricsRoute } from "./http/metrics-route.js";
import { registerRateLimits } from "./http/rate-limit.js";
import { findCaller } from "./modules/accounts/accounts.service.js";
import { recordAudit } from "./modules/audit/audit.service.js";
import { registerApiModules } from "./modules/index.js";
import { sendPortalError, wantsPortalHtml } from "./portal/portal-errors.js";
import { portalPlugin } from "./portal/portal.plugin.js";

declare module "fastify" {
  interface FastifyInstance {
    db: DB;
    config: Readonly<Config>;
    /** This app's repositories and the like (src/app-deps.ts). */
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  config: Readonly<Config>;
  db: DB;
  /** Made for this app when not given; startService passes the one it shares with RADIUS. */
  deps?: AppDeps;
  /** The service's logger (see logger.ts); false for none; default: one at the configured level. */
  logger?: FastifyBaseLogger | false;
}

/** The database is stopped, unreachable, silent or busy: try again shortly (the same words for every cause). */
function databaseUnavailable(): AppError {
  return new AppError(503, { server: ["The service is temporarily unavailable. Try again shortly."] }, { "retry-after": "5" });
}

function renderError(err: AppError) {
  return { status: "error" as const, message: err.messages };
}

/** Fastify's own client errors (parsing, size, media type) in the API's error shape. */
function fromFastifyError(err: FastifyError, bodyLimit: number): AppError | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError(400, { body: ["The request body is not valid JSON."] });
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError(413, { body: [`The request body may not be larger than ${bodyLimit} bytes.`] });
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new AppError(400, {
        body: ["The content type is not supported. Send application/x-www-form-urlencoded or application/json."],
      });
    default:
      if (err instanceof SyntaxError || (err as { type?: string }).type === "entity.parse.failed") {
        return new AppError(400, { body: ["The request body could not be parsed."] });
      }
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return new AppError(400, { request: ["The request could not be understood."] });
      }
      return undefined;
  }
}

/**
 * Requests that Node's HTTP parser refuses before Fastify sees them (headers or URL too large:
 * 431; a request that never finished arriving: 408; anything unparsable: 400), answered in the
 * API's error shape. The parser's error carries the raw request bytes (identifiers, cookies):
 * only its code is logged.
 */
function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, sentence] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "The request headers or URL are too large."]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request took too long to arrive."]
        : [400, "The request could not be understood."];
  this.log.debug({ code: err.code, status }, "client error before routing");
  const body = JSON.stringify({ status: "error", message: { request: [sentence] } });
  // A HEAD answer has headers only (RFC 9110 9.3.2): Content-Length still says what a GET would get.
  const head = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? "" : body}`,
    );
  } else {
    socket.destroy();
  }
}

const eagerSerializers = SerializerSelector();

/**
 * Fastify's response serializers (fast-json-stringify, the same options), each compiled on its
 * first use rather than when the app is ready: compiling those of every route took a good part of
 * the service's start, and a restart should be back quickly. The API's tests use every one of them.
 */
function lazySerializers(...factoryArgs: Parameters<typeof eagerSerializers>) {
  const compile = eagerSerializers(...factoryArgs);
  return (route: Parameters<typeof compile>[0]) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= compile(route) as (data: unknown) => string;
      return serialize(data);
    };
  };
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  const logger = opts.logger ?? createLogger({ level: config.logLevel });
  const app = Fastify({
    ...(logger === false ? { logger: false } : { loggerInstance: logger, childLoggerFactory: requestLoggerFactory }),
    bodyLimit: config.bodyLimit,
    clientErrorHandler,
    // Fastify's own pair of lines per request ("incoming request", "request completed") is one line
    // here (below), or none with LOG_REQUESTS=false: the pair cost a login page view nearly as much as the page.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    // Parameters with the same name twice are arrays; the validators report them as wrong types.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  });
  const deps = opts.deps ?? createAppDeps(db);
  app.decorate("db", db);
  app.decorate("config", config);
  app.decorate("deps", deps);

  // Every answer counted by its route's pattern (never the raw URL: ids and query strings would
  // make a series per guest); a sync hook, a child bound per label set: cheap per request. And,
  // unless LOG_REQUESTS=false, logged in one line holding only what the serializers make of the
  // request and reply (method, URL with its values redacted, addresses; the status) and the time
  // in ms: none of the paths the logger's redaction looks for, so the line skips that pass, which
  // cost more than the rest of the line.
  const { metrics } = deps;
  const accessLog = config.logRequests ? app.log.child({}, { redact: { paths: [], censor: REDACTED } }) : undefined;
  app.addHook("onResponse", (request, reply, done) => {
    const ms = reply.elapsedTime;
    metrics.http(request.method, request.routeOptions.url ?? "(unmatched)", reply.statusCode, ms / 1000);
    accessLog?.info({ reqId: request.id, req: request, res: reply, responseTime: ms }, "request completed");
    done();
  });

  // JSON answers (the API's, the console's, errors, /healthz) carry accounts' and guests' data, or
  // say whether a secret was right: no cache may keep them. A route that sets its own Cache-Control
  // (a file, a public asset) keeps it.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (!reply.hasHeader("cache-control") && String(reply.getHeader("content-type") ?? "").startsWith("application/json")) reply.header("cache-control", "no-store");
    done(null, payload);
  });

  await app.register(formbody, { bodyLimit: config.bodyLimit });
  const limits = await registerRateLimits(app, { db, redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, redisTimeoutMs: config.redisTimeoutMs });
  if (config.redisUrl) metrics.watchRedis(() => limits.redis()?.status === "ok");
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Guest WiFi Management API",
        version: "1.0.0",
        description:
          "Management API of the self-hosted guest WiFi platform. Every call takes `identifier` (query, body, " +
          "`identifier` header or `Authorization: Bearer`). Successful calls answer 200 with `status: success`; " +
          "failures answer 400 with `status: error` and `message` naming each failing parameter.",
      },
      // Relative: "Try it out" in /docs calls the host the page was opened on, whatever PUBLIC_URL says.
      servers: [{ url: "/" }],
    },
  });
  app.addSchema(ErrorResponse);

  const routesByPath = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = routesByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    routesByPath.set(route.url, set);
  });

  // Ready means the database answers; otherwise 503, which load balancers take as "not ready".
  // A degraded Redis is 200 with `degraded`: every instance shares it, so taking this one out of
  // rotation would help nothing, and the limits go on in memory (docs/operations.md).
  app.get("/healthz", { schema: { hide: true } }, async (request, reply) => {
    try {
      await db.selectFrom("accounts").select("id").limit(1).execute();
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message, code: (error as { code?: string }).code } }, "health check: database not ready");
      reply.code(503).header("retry-after", "5");
      return { status: "error", message: { database: ["The database is not ready."] } };
    }
    const redis = limits.redis();
    if (redis?.status === "degraded") {
      return {
        status: "success",
        message: "degraded",
        checks: { database: "ok", redis: "degraded" },
        degraded: { redis: [`Redis does not answer (${redis.reason}); rate limits count in this instance's memory.`] },
      };
    }
    return { status: "success", message: "ok", checks: { database: "ok", ...(redis ? { redis: "ok" } : {}) } };
  });
  registerMetricsRoute(app, metrics, config.metricsToken);
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  registerDocsPage(app);

  const api = await createApiRouter(app, {
    deps,
    config,
    lookupCaller: (identifier) => findCaller(deps, identifier),
    sessionCaller: consoleSessionCaller(deps),
    audit: (ctx, w) =>
      recordAudit(ctx, {
        accountId: w.caller.accountId,
        actorType: w.caller.subUserId === null ? "owner" : "sub-user",
        subUserId: w.caller.subUserId,
        via: w.via,
        action: w.action,
        objects: w.objects,
        fields: w.fields,
        address: w.address,
      }),
  });
  registerApiModules(api);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0].replace(/\/+$/, "") || "/";
    const allowed = routesByPath.get(path);
    const err = allowed
      ? httpErrors.methodNotAllowed(request.method, [...allowed].filter((m) => m !== "HEAD"))
      : httpErrors.notFound(request.method, request.url);
    if (wantsPortalHtml(request)) return sendPortalError(reply, err);
    reply.code(err.statusCode).headers(err.headers);
    return renderError(err);
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    let err = error instanceof AppError ? error : fromFastifyError(error, request.routeOptions.bodyLimit ?? config.bodyLimit);
    if (!err && isDatabaseUnavailable(error)) {
      request.log.warn({ err: { message: error.message, code: error.code } }, "database unavailable; answered 503");
      err = databaseUnavailable();
    }
    if (!err) {
      request.log.error({ err: error }, "unexpected error");
      err = httpErrors.internal();
    }
    if (wantsPortalHtml(request)) return sendPortalError(reply, err);
    reply.code(err.statusCode).headers(err.headers);
    return renderError(err);
  });

  // Registered after the handlers so that their encapsulated contexts inherit them.
  await app.register(portalPlugin, { ctx: deps, metrics });
  await app.register(consolePlugin, { deps, api });

  return app;
}
