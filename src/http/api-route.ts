/**
 * One way to declare a management API route, and the pipeline every call goes through:
 *
 *   caller (identifier, access) -> schema -> references -> checks -> handler
 *
 * The schema (TypeBox) validates the merged query and body, types the handler and writes the
 * OpenAPI entry. References (refs.ts) turn the ids a call names into the caller's records. Checks
 * are the route's rules across parameters or against the database (a date range, a unique e-mail).
 * Every failing parameter of all three steps is reported at once; the handler runs only when there
 * is none, with typed values and the records. A writing route runs references, checks and handler
 * in one transaction, references locking their rows: what was checked still holds when it acts.
 */
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { type DB, changeGeneration } from "../db/database.js";
import { retryingTransaction } from "../db/transaction.js";
import { DomainError, type DomainErrorCode } from "../domain-errors.js";
import { AppError, httpErrors } from "../errors.js";
import { sameToken } from "./csrf.js";
import { domainErrorParam } from "./api-errors.js";
import { type Caller, type CallerLookup, CallerResolver, identifierOf } from "./caller.js";
import { apiRateLimit } from "./rate-limit.js";
import { type RefMap, type Resolved, resolveRefs } from "./refs.js";
import { Failures, type ParsedParams, compileParams, dateRangeProblem } from "./validation.js";

/**
 * read: any valid identifier; write: not a read-only sub-user; parent: the account's own identifier;
 * manage-sub-users: like parent, with the sub-user management sentence.
 */
export type Access = "read" | "write" | "parent" | "manage-sub-users";

/** What a handler and the checks get besides the parameters. */
export interface ApiCall<D> {
  /** The app's dependencies; `ctx.db` is the route's transaction when it writes. */
  ctx: D;
  caller: Caller;
  config: Readonly<Config>;
  request: FastifyRequest;
  /** For a handler that answers other than JSON (a CSV stream): its headers. */
  reply: FastifyReply;
  /** The console session the call came with (cookie), or undefined for an identifier. */
  session: SessionCaller | undefined;
}

export interface CheckArgs<D, P, RV> extends ApiCall<D> {
  /** The parameters that passed the schema; the others are absent. */
  p: Partial<P>;
  /** The references that resolved; the others are absent. */
  refs: Partial<RV>;
  fail(param: string, sentence: string): void;
  /** Whether the call gave the parameter at all, valid or not. */
  given(param: string): boolean;
}

/** A rule of the route: it reports through `fail`, and may throw a DomainError of the service it asks. */
export type Check<D, P, RV> = (args: CheckArgs<D, P, RV>) => void | Promise<void>;

export interface ApiRouteDef<D, S extends TObject, R extends RefMap<D>, Out extends TSchema> {
  method: "GET" | "POST" | ("GET" | "POST")[];
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  params: S;
  refs?: R;
  checks?: Check<D, Static<S>, Resolved<Static<S>, R>>[];
  /** The parameter a service's domain error concerns, when not the one api-errors.ts names. */
  errorParams?: Partial<Record<DomainErrorCode, (p: Static<S>) => string>>;
  /** The largest request body in bytes, when this route takes more than BODY_LIMIT (a larger BODY_LIMIT wins). */
  bodyLimit?: number;
  /** Writing routes run in one transaction (default); false when the handler must not hold one (slow hashing). */
  transaction?: boolean;
  response: Out;
  /** Media types of the answer when not JSON (documentation only; the handler sets the header). */
  produces?: string[];
  /**
   * console: a route of the console's own (/console/api/...), authenticated by the console session
   * cookie only (401 without one), left out of the API's reference.
   */
  via?: "console";
  /** Parameters that confirm a write rather than say what it changes (a password asked again): not audited. */
  unaudited?: string[];
  handler: (call: ApiCall<D>, p: Static<S>, refs: Resolved<Static<S>, R>) => Promise<Static<Out> | SerializedJson<Static<Out>>>;
}

/**
 * An answer already serialised, for hot reads that keep the JSON of their rows (get-location): sent
 * as it is, with the JSON content type. The text (or its UTF-8 bytes, kept for answers given again)
 * must be what the response schema would produce.
 */
export class SerializedJson<T> {
  declare readonly shape?: T;
  constructor(readonly text: string | Buffer) {}
}

export interface ApiRouter<D> {
  route<S extends TObject, R extends RefMap<D>, Out extends TSchema>(def: ApiRouteDef<D, S, R, Out>): void;
  /** Forgets the cached identifiers of an account's owner (after a rotation): the old one stops at once here. */
  forgetOwner(accountId: number): void;
}

export const ErrorResponse = Type.Object(
  {
    status: Type.Literal("error"),
    message: Type.Record(Type.String(), Type.Array(Type.String())),
  },
  { $id: "ErrorResponse", description: "Every failure: each failing parameter with its sentences." },
);

declare module "fastify" {
  interface FastifyRequest {
    /** The API caller, set by the API routes before anything else of the call is read. */
    caller: Caller | null;
    /** The console session behind the caller, when the call came with its cookie. */
    consoleSession: SessionCaller | null;
  }
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

function checkAccess(access: Access, caller: Caller): void {
  if (access !== "read" && caller.readonly) throw httpErrors.identifierReadOnly();
  if (access === "parent" && caller.subUserId !== null) throw httpErrors.parentOnly();
  if (access === "manage-sub-users" && caller.subUserId !== null) throw httpErrors.subUserManagement();
}

/** A caller signed in by a cookie (the console): who, the session, and the CSRF token its writes must carry. */
export interface SessionCaller {
  caller: Caller;
  csrfToken: string;
  /** The session's id, to end it. */
  sessionId: string;
  /** The e-mail address the owner or sub-user signed in with. */
  email: string;
}

export interface ApiRouterOptions<D> {
  deps: D;
  config: Readonly<Config>;
  /** How an identifier becomes a caller (the accounts module's look-up). */
  lookupCaller: CallerLookup;
  /**
   * The caller of a request that names no identifier but carries a console session cookie, or
   * undefined. Such a call that writes, or is not a GET, must send the session's CSRF token in the
   * `x-csrf-token` header (or, from a form the console posts, the `csrf_token` field).
   */
  sessionCaller?: (request: FastifyRequest) => Promise<SessionCaller | undefined>;
  /**
   * Records a write that succeeded (the audit log), in the route's transaction when it has one, so
   * a write and its entry commit together.
   */
  audit?: (ctx: D, write: RouteWrite) => Promise<void>;
}

/** A write through the API that succeeded, as the audit log hears of it. */
export interface RouteWrite {
  caller: Caller;
  /** console: the call came with a console session cookie. */
  via: "api" | "console";
  /** The route's name: the last segment of its path (create-or-update-location). */
  action: string;
  /** The records named by the call's ids and the ids its answer gave (a created record's), by parameter. */
  objects: Record<string, number[]>;
  /** The parameters given (the audit log leaves secrets out). */
  fields: Record<string, unknown>;
  address: string;
}

/** Ids in a write's answer: keys ending in _id with an integer value (location_id of a new location). */
function answeredIds(out: unknown): Record<string, number[]> {
  const ids: Record<string, number[]> = {};
  if (out && typeof out === "object" && !(out instanceof SerializedJson)) {
    for (const [key, value] of Object.entries(out)) if (key.endsWith("_id") && Number.isInteger(value)) ids[key] = [value as number];
  }
  return ids;
}

/** The CSRF token does not match the session's (cookie-authenticated calls only). */
function csrfRefused(): AppError {
  return new AppError(403, { identifier: ["The console session's CSRF token is missing or wrong. Reload the page."] });
}

/** A console route called without a (live) session. */
function signInFirst(): AppError {
  return new AppError(401, { session: ["Sign in to the console first."] });
}

/** The CSRF token a cookie-authenticated call sent: the header, or the field of a form the console posts (its preview). */
function csrfTokenOf(request: FastifyRequest): unknown {
  const header = request.headers["x-csrf-token"];
  if (header !== undefined) return header;
  const body = request.body;
  return body && typeof body === "object" ? (body as Record<string, unknown>).csrf_token : undefined;
}

/**
 * The API of one app: its caller cache and rate limit (both this app's own), and `route` to declare
 * routes. Call before the routes are registered.
 */
export async function createApiRouter<D extends { db: DB }>(app: FastifyInstance, opts: ApiRouterOptions<D>): Promise<ApiRouter<D>> {
  const { deps, config } = opts;
  // Identifiers and sub-users are catalogue rows: a revoked identifier, a disabled sub-user or a new
  // scope empties the cache at the next call, on every instance.
  const callers = new CallerResolver(opts.lookupCaller, { generation: () => changeGeneration(deps.db, true) });
  const limit = apiRateLimit(app, config.apiRateLimitPerMinute, callers);
  app.decorateRequest("caller", null);
  app.decorateRequest("consoleSession", null);

  function route<S extends TObject, R extends RefMap<D>, Out extends TSchema>(def: ApiRouteDef<D, S, R, Out>): void {
    const parse = compileParams(def.params);
    const methods = Array.isArray(def.method) ? def.method : [def.method];
    const writes = def.access !== "read";
    const docs: Record<string, unknown> = {
      ...(def.via === "console" ? { hide: true } : {}),
      summary: def.summary,
      description: def.description,
      tags: def.tags,
      response: { 200: def.response, 400: Type.Ref("ErrorResponse") },
    };
    if (def.produces) docs.produces = def.produces;
    if (methods.includes("GET")) docs.querystring = def.params;
    if (methods.includes("POST")) {
      docs.body = def.params;
      docs.consumes = ["application/x-www-form-urlencoded", "application/json"];
    }

    /** Who calls, and whether it may: the one CSRF check of every cookie-authenticated call, the console's own routes' included. */
    const authorize = async (request: FastifyRequest): Promise<void> => {
      const identifier = def.via === "console" ? undefined : identifierOf(request);
      const session = identifier === undefined && opts.sessionCaller ? await opts.sessionCaller(request) : undefined;
      if (def.via === "console" && !session) throw signInFirst();
      if (session && (writes || request.method !== "GET") && !sameToken(csrfTokenOf(request), session.csrfToken)) throw csrfRefused();
      request.consoleSession = session ?? null;
      const caller = session ? session.caller : await callers.resolve(identifier);
      if (limit) await limit.afterLookup(request, caller);
      checkAccess(def.access, caller);
      request.caller = caller;
    };

    const declared = Object.keys(def.refs ?? {});
    const ordered = Object.entries(def.refs ?? {}).sort(([, a], [, b]) => a.rank - b.rank);
    const checks = def.checks ?? [];

    const runChecks = async (call: ApiCall<D>, p: Partial<Static<S>>, refs: Record<string, unknown>, given: readonly string[], failures: Failures) => {
      const args: CheckArgs<D, Static<S>, Resolved<Static<S>, R>> = {
        ...call,
        p,
        refs: refs as Partial<Resolved<Static<S>, R>>,
        fail: (param, sentence) => failures.add(param, sentence),
        given: (param) => given.includes(param),
      };
      for (const check of checks) {
        try {
          await check(args);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          const { param, sentence } = domainErrorParam(err, def.errorParams?.[err.code]?.(p as Static<S>));
          failures.add(param, sentence);
        }
      }
    };

    /** References, checks and handler, after the schema; in the route's transaction when it writes. */
    const run = async (
      call: ApiCall<D>,
      parsed: ParsedParams<S>,
      failures: Failures,
      locking: boolean,
    ): Promise<Static<Out> | SerializedJson<Static<Out>>> => {
      const { values, given } = parsed;
      const params = values as Record<string, unknown>;
      const refs = ordered.length > 0 ? await resolveRefs(ordered, declared, call, params, given, locking, failures) : {};
      if (checks.length > 0) await runChecks(call, values, refs, given, failures);
      if (failures.any) throw failures.toError();
      try {
        const out = await def.handler(call, params as Static<S>, refs as Resolved<Static<S>, R>);
        if (writes && opts.audit) {
          const objects = answeredIds(out);
          for (const [param, ref] of ordered) {
            const found = refs[param];
            if (found === undefined || found === null) continue;
            objects[param] = (Array.isArray(found) ? found : [found]).map((row) => ref.idOf(row));
          }
          const fields = Object.fromEntries(given.filter((name) => !def.unaudited?.includes(name)).map((name) => [name, params[name]]));
          await opts.audit(call.ctx, {
            caller: call.caller,
            via: call.session ? "console" : "api",
            // The route's last path segment: create-or-update-location, rotate-identifier.
            action: def.url.slice(def.url.lastIndexOf("/") + 1),
            objects,
            fields,
            address: call.request.ip,
          });
        }
        return out;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const { param, sentence } = domainErrorParam(err, def.errorParams?.[err.code]?.(params as Static<S>));
        throw new AppError(400, { [param]: [sentence] });
      }
    };

    app.route({
      method: methods,
      url: def.url,
      schema: docs,
      ...(def.bodyLimit ? { bodyLimit: Math.max(def.bodyLimit, config.bodyLimit) } : {}),
      // Parameters are validated by `run` on the merged query+body, so that every failure of a
      // call is reported together in the API's own sentences.
      validatorCompiler: () => (value: unknown) => ({ value }),
      // After the body is parsed (the identifier may be in it), before the caller is looked up.
      ...(limit ? { preValidation: (request: FastifyRequest) => limit.beforeLookup(request) } : {}),
      handler: async (request, reply) => {
        // The caller first, before anything of the call is read: in the handler rather than a
        // preHandler hook of its own, which cost every call a pass of Fastify's hook runner.
        await authorize(request);
        const failures = new Failures();
        const parsed = parse(mergedParams(request), failures);
        // A write needs its transaction only when it will act on what it checks: nothing failed the
        // schema, and it names records or has checks (a create of a new location has neither).
        const atomic =
          writes &&
          def.transaction !== false &&
          !failures.any &&
          (checks.length > 0 || ordered.some(([param]) => (parsed.values as Record<string, unknown>)[param] !== undefined));
        const caller = request.caller!;
        const session = request.consoleSession ?? undefined;
        const out = atomic
          ? await retryingTransaction(deps.db, (trx) => run({ ctx: { ...deps, db: trx }, caller, config, request, reply, session }, parsed, new Failures(), true))
          : await run({ ctx: deps, caller, config, request, reply, session }, parsed, failures, false);
        if (!(out instanceof SerializedJson)) return out;
        reply.type("application/json; charset=utf-8");
        return out.text;
      },
    });
  }

  return { route, forgetOwner: (accountId) => callers.forgetOwner(accountId) };
}

/** A success body: `status: "success"` and the given keys. */
export function ok<T extends object>(body: T): { status: "success" } & T {
  return { status: "success", ...body };
}

/** The check of a from_date/to_date pair: to_date on or after from_date, and at most `maxDays` after it. */
export function dateRangeCheck<D, P extends { from_date: string; to_date: string }, RV>(maxDays: number): Check<D, P, RV> {
  return ({ p, fail }) => {
    if (p.from_date === undefined || p.to_date === undefined) return;
    const problem = dateRangeProblem(p.from_date, p.to_date, maxDays);
    if (problem) fail("to_date", problem);
  };
}
