/**
 * Builds the Fastify app: external plugins, then the API and portal routes, then one error handler.
 * The caller owns the database: the app never opens or closes it.
 */
import formbody from "@fastify/formbody";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { Config } from "./config.js";
import type { DB } from "./db/database.js";
import { AppError, httpErrors } from "./errors.js";
import { ErrorResponse } from "./http/api-route.js";
import { CallerResolver } from "./modules/accounts/accounts.service.js";
import { registerApiModules } from "./modules/index.js";
import { sendPortalError, wantsPortalHtml } from "./portal/portal-errors.js";
import { portalPlugin } from "./portal/portal.plugin.js";

declare module "fastify" {
  interface FastifyInstance {
    db: DB;
    config: Readonly<Config>;
    callers: CallerResolver;
  }
}

export interface BuildAppOptions {
  config: Readonly<Config>;
  db: DB;
  logger?: boolean | object;
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

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // Parameters with the same name twice are arrays; the validators report them as wrong types.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.decorate("db", db);
  app.decorate("config", config);
  app.decorate("callers", new CallerResolver(db));

  await app.register(formbody, { bodyLimit: config.bodyLimit });
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
      servers: [{ url: config.publicUrl }],
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.addSchema(ErrorResponse);

  const routesByPath = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = routesByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    routesByPath.set(route.url, set);
  });

  app.get("/healthz", { schema: { hide: true } }, async () => {
    await db.selectFrom("accounts").select("id").limit(1).execute();
    return { status: "success", message: "ok" };
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await registerApiModules(app);

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
    let err = error instanceof AppError ? error : fromFastifyError(error, config.bodyLimit);
    if (!err) {
      request.log.error({ err: error }, "unexpected error");
      err = httpErrors.internal();
    }
    if (wantsPortalHtml(request)) return sendPortalError(reply, err);
    reply.code(err.statusCode).headers(err.headers);
    return renderError(err);
  });

  // Registered after the handlers so that its encapsulated context inherits them.
  await app.register(portalPlugin);

  return app;
}
