/**
 * One way to declare a management API route: its parameter schema (validation, types, OpenAPI),
 * its response schema, the access it needs, and a thin handler that calls a service.
 */
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import { AppError, ErrorBag, httpErrors } from "../errors.js";
import type { Caller } from "../modules/accounts/accounts.service.js";
import { compileParams } from "./validation.js";

/** read: any valid identifier; write: not a read-only sub-user; parent: the account's own identifier. */
export type Access = "read" | "write" | "parent";

export interface ApiContext {
  db: DB;
  config: Readonly<Config>;
  caller: Caller;
  request: FastifyRequest;
}

export interface ApiRouteDef<S extends TObject, R extends TSchema> {
  method: "GET" | "POST" | ("GET" | "POST")[];
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  params: S;
  response: R;
  /** Add every rule failure to the bag; call bag.throwIfAny() before writing anything. */
  handler: (ctx: ApiContext, params: Static<S>, bag: ErrorBag) => Promise<Static<R>>;
}

export const ErrorResponse = Type.Object(
  {
    status: Type.Literal("error"),
    message: Type.Record(Type.String(), Type.Array(Type.String())),
  },
  { $id: "ErrorResponse", description: "Every failure: each failing parameter with its sentences." },
);

/** The identifier from the query, the body, the `identifier` header, or `Authorization: Bearer`. */
export function identifierOf(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const b = req.body as Record<string, unknown> | undefined;
  const fromBody = b && typeof b === "object" ? b.identifier : undefined;
  if (typeof fromBody === "string" && fromBody !== "") return fromBody;
  if (q && typeof q.identifier === "string" && q.identifier !== "") return q.identifier;
  const h = req.headers.identifier;
  if (typeof h === "string" && h !== "") return h;
  const auth = req.headers.authorization;
  if (typeof auth === "string") {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  return undefined;
}

/** Query and body merged (body wins). A body that is not an object is a 400. */
function mergedParams(req: FastifyRequest): Record<string, unknown> {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const body = req.body;
  if (body === undefined || body === null || body === "") return { ...query };
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new AppError(400, { body: ["The request body must be a JSON object or a form."] });
  }
  return { ...query, ...(body as Record<string, unknown>) };
}

class FixedWindowLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly perMinute: number) {}

  /** Seconds to wait, or 0 when the call may go ahead. */
  take(key: string, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w || now - w.start >= 60_000) {
      if (this.windows.size > 100_000) this.windows.clear();
      this.windows.set(key, { start: now, count: 1 });
      return 0;
    }
    w.count += 1;
    return w.count > this.perMinute ? Math.ceil((w.start + 60_000 - now) / 1000) : 0;
  }
}

export function registerApiRoute<S extends TObject, R extends TSchema>(app: FastifyInstance, def: ApiRouteDef<S, R>): void {
  const parse = compileParams(def.params);
  const methods = Array.isArray(def.method) ? def.method : [def.method];
  const limiter = app.config.apiRateLimitPerMinute > 0 ? new FixedWindowLimiter(app.config.apiRateLimitPerMinute) : null;
  const response = { 200: def.response, 400: Type.Ref("ErrorResponse") };
  const docs: Record<string, unknown> = { summary: def.summary, description: def.description, tags: def.tags, response };
  if (methods.includes("GET")) docs.querystring = def.params;
  if (methods.includes("POST")) {
    docs.body = def.params;
    docs.consumes = ["application/x-www-form-urlencoded", "application/json"];
  }
  app.route({
    method: methods,
    url: def.url,
    schema: docs,
    // Parameters are validated by the handler wrapper on the merged query+body, so that every
    // failure of a call is reported together in the API's own sentences.
    validatorCompiler: () => (value: unknown) => ({ value }),
    handler: async (request) => {
      const identifier = identifierOf(request);
      const caller = await app.callers.resolve(identifier);
      if (limiter) {
        const wait = limiter.take(String(caller.subUserId ?? `a${caller.accountId}`));
        if (wait > 0) throw httpErrors.rateLimited(wait);
      }
      if (def.access !== "read" && caller.readonly) throw httpErrors.identifierReadOnly();
      if (def.access === "parent" && caller.subUserId !== null) throw httpErrors.parentOnly();
      const bag = new ErrorBag();
      const params = parse(mergedParams(request), bag);
      const result = await def.handler({ db: app.db, config: app.config, caller, request }, params, bag);
      bag.throwIfAny();
      return result;
    },
  });
}

/** A success body: `status: "success"` and the given keys. */
export function ok<T extends object>(body: T): { status: "success" } & T {
  return { status: "success", ...body };
}
