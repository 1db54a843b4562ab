/**
 * The operator console at /console: a single page (console-ui/, bundled by esbuild at install) that
 * works through the management API with a signed-in session instead of an identifier, plus the few
 * routes only the console has: sign-in and sign-out, who is signed in, the overview's series
 * (console-overview.routes.ts), guest search and profiles (console-guests.routes.ts), the owner's
 * identifier rotation, the campaign preview (console-preview.routes.ts) and a location's RADIUS
 * attributes (location-radius.routes.ts). Those routes are declared through the API's own
 * pipeline (src/http/api-route.ts: schema, references, access levels, the one CSRF check), which
 * resolves the session cookie to the same Caller an identifier gives; sign-in, which has no caller
 * yet, validates with the same schemas. The page hiding a button is never what stops a read-only user.
 */
import type { Static } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { secretBoxKey } from "../db/secret-box.js";
import { AppError } from "../errors.js";
import { loopbackWarning, radiusPublicHost } from "../gateways/device-config.js";
import { type ApiRouter, type SessionCaller, ok } from "../http/api-route.js";
import { cookieOf } from "../http/cookies.js";
import { crossSiteRefusal } from "../http/csrf.js";
import { type MinuteLimit, clientAddressKey, minuteLimit } from "../http/rate-limit.js";
import { Failures, compileParams } from "../http/validation.js";
import { rotateOwnerIdentifier, verifyOwnerPassword } from "../modules/accounts/accounts.service.js";
import { mailbox } from "../modules/accounts/mailbox.js";
import { SESSION_MAX_MS, checkCredentials, endSession, sessionUser, startSession } from "../modules/console/console.service.js";
import { CONTROLLER_TYPES } from "../modules/controllers/controllers.schemas.js";
import { DEVICE_MODELS } from "../modules/devices/device-models.js";
import { WEBHOOK_EVENTS } from "../modules/webhooks/webhook-events.js";
import { type ConsoleAssets, loadConsoleAssets } from "./console-assets.js";
import { guestRoutes } from "./console-guests.routes.js";
import { overviewRoutes } from "./console-overview.routes.js";
import { previewRoutes } from "./console-preview.routes.js";
import * as S from "./console.schemas.js";
import { KnownDevices } from "./known-devices.js";
import { locationRadiusRoutes } from "./location-radius.routes.js";

export const SESSION_COOKIE = "gw_console";
/**
 * Sign-in attempts per minute, per client address, and per e-mail from browsers where that e-mail
 * has not signed in before (known-devices.ts).
 */
export const SIGN_IN_PER_MINUTE = 10;
const WRONG = "The e-mail address or password is wrong.";

/** The API's hook: the caller of a console session cookie, if any. */
export function consoleSessionCaller(deps: AppDeps): (request: FastifyRequest) => Promise<SessionCaller | undefined> {
  return async (request) => {
    const token = cookieOf(request, SESSION_COOKIE);
    if (!token) return undefined;
    const user = await sessionUser(deps, token);
    return user ? { caller: user.caller, csrfToken: user.csrfToken, sessionId: user.sessionId, email: user.email } : undefined;
  };
}

/**
 * Whether the browser reached us over HTTPS: directly, through a trusted proxy (TRUST_PROXY), or at
 * the https PUBLIC_URL's host (a proxy in front that is not listed as trusted). The cookie is then
 * Secure; a console opened over plain http (a first start on a laptop) still signs in.
 */
function secureRequest(request: FastifyRequest, publicUrl: string): boolean {
  if (request.protocol === "https") return true;
  try {
    const u = new URL(publicUrl);
    return u.protocol === "https:" && u.host === request.host;
  } catch {
    return false;
  }
}

function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

function consoleHeaders(reply: FastifyReply): void {
  reply.headers({
    "content-security-policy": CONSOLE_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
  });
}

export interface ConsolePluginOptions {
  deps: AppDeps;
  /** The API's router: the console's own routes are declared through it (same pipeline, same CSRF check). */
  api: ApiRouter<AppDeps>;
}

export async function consolePlugin(app: FastifyInstance, opts: ConsolePluginOptions): Promise<void> {
  const { deps, api } = opts;
  const { config } = app;
  const assets: ConsoleAssets = await loadConsoleAssets();
  const byAddress: MinuteLimit = minuteLimit(app, "console-sign-in-ip", SIGN_IN_PER_MINUTE);
  const byAccount: MinuteLimit = minuteLimit(app, "console-sign-in-account", SIGN_IN_PER_MINUTE);

  // The key that signs known browsers: the service's secret box key (SECRET_BOX_KEY, or the one kept in the database).
  let devices: Promise<KnownDevices> | undefined;
  const knownDevices = (): Promise<KnownDevices> => {
    devices ??= secretBoxKey(deps.db, config.secretBoxKey).then(
      (key) => new KnownDevices(key),
      (err) => {
        devices = undefined;
        throw err;
      },
    );
    return devices;
  };
  /**
   * Counts an attempt per address always, and per e-mail unless this browser signed in with that
   * e-mail before: someone guessing an owner's password from many addresses slows the guessing
   * down, never the owner at their own browser.
   */
  const limited = async (request: FastifyRequest, email: string) => {
    const known = (await knownDevices()).knows(request, mailbox(email));
    const wait = (await byAddress(request, clientAddressKey(request.ip))) ?? (known ? undefined : await byAccount(request, mailbox(email)));
    if (wait !== undefined) {
      throw new AppError(429, { email: [`Too many sign-in attempts. Try again in ${wait} seconds.`] }, { "retry-after": String(wait) });
    }
  };

  app.get("/", { schema: { hide: true } }, async (_request, reply) => reply.redirect("/console", 302));

  const shell = async (_request: FastifyRequest, reply: FastifyReply) => {
    consoleHeaders(reply);
    reply.type("text/html; charset=utf-8");
    return assets.shell;
  };
  app.get("/console", { schema: { hide: true } }, shell);
  app.get("/console/*", { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split("?")[0];
    if (path.startsWith("/console/api/")) throw new AppError(404, { request: [`No route ${request.method} ${path}.`] });
    return shell(request, reply);
  });

  app.get<{ Params: { name: string } }>("/console/assets/:name", { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.files.get(request.params.name);
    if (!asset) throw new AppError(404, { request: ["No such console file."] });
    reply.headers({
      "content-type": asset.type,
      "x-content-type-options": "nosniff",
      "cache-control": "public, max-age=31536000, immutable",
    });
    if (asset.gzip && /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) {
      reply.header("content-encoding", "gzip").header("vary", "accept-encoding");
      return asset.gzip;
    }
    return asset.body;
  });

  const signInParams = compileParams(S.SignInParams);
  app.post("/console/api/sign-in", { schema: { hide: true } }, async (request, reply): Promise<Static<typeof S.SignInResponse>> => {
    // Login CSRF: a page elsewhere must not sign this browser in to an account of its choosing.
    const crossSite = crossSiteRefusal(request, config.publicUrl);
    if (crossSite) {
      request.log.info({ event: "console.sign-in.cross-site", reason: crossSite }, "console sign-in from another site refused");
      throw new AppError(403, { origin: ["Sign in from the console's own page: requests from other sites are refused."] });
    }
    // The API's own validation (schema, sentences); the one console call without a caller, so not an API route.
    const failures = new Failures();
    const { values } = signInParams((request.body ?? {}) as Record<string, unknown>, failures);
    if (failures.any) throw failures.toError();
    const { email, password } = values as Static<typeof S.SignInParams>;
    await limited(request, email);
    const who = await checkCredentials(deps, email, password);
    if (!who) {
      request.log.info({ event: "console.sign-in.failed" }, "console sign-in refused");
      throw new AppError(401, { email: [WRONG] });
    }
    const { token } = await startSession(deps, who);
    const secure = secureRequest(request, config.publicUrl);
    reply.header("set-cookie", [
      sessionCookie(token, secure, Math.floor(SESSION_MAX_MS / 1000)),
      (await knownDevices()).cookieAfterSignIn(request, mailbox(email), secure),
    ]);
    reply.header("cache-control", "no-store");
    const user = await sessionUser(deps, token);
    return { status: "success", user: publicUser(user!) };
  });

  const tags = ["Console"];
  api.route({
    method: "POST",
    url: "/console/api/sign-out",
    via: "console",
    summary: "End the console session",
    tags,
    // Read: a read-only sub-user signs out too; a POST all the same, so the CSRF token is asked.
    access: "read",
    params: S.NoParams,
    response: S.SignOutResponse,
    handler: async ({ ctx, request, reply, session }) => {
      await endSession(ctx, session!.sessionId);
      reply.header("set-cookie", sessionCookie("", secureRequest(request, config.publicUrl), 0));
      return ok({});
    },
  });

  api.route({
    method: "GET",
    url: "/console/api/me",
    via: "console",
    summary: "Who is signed in, and what the service is configured with",
    tags,
    access: "read",
    params: S.NoParams,
    response: S.MeResponse,
    handler: async ({ session }) =>
      ok({
        user: publicUser(session!),
        settings: {
          public_url: config.publicUrl,
          // Said on every page while PUBLIC_URL is one no gateway can reach ("" when it is fine).
          public_url_warning: loopbackWarning(config.publicUrl) ?? "",
          radius: { host: radiusPublicHost(config.publicUrl, config.radiusPublicHost), auth_port: config.radius.authPort, acct_port: config.radius.acctPort },
          radsec: { enabled: config.radsec.enabled, port: config.radsec.port },
          // The gateway family of each model, for the device page's setup steps.
          model_families: Object.fromEntries(DEVICE_MODELS.map((m) => [m.id, m.family])),
          providers: {
            facebook: config.oauth.facebook !== undefined,
            twitter: config.oauth.twitter !== undefined,
            instagram: config.oauth.instagram !== undefined,
            linkedin: config.oauth.linkedin !== undefined,
            sms: config.twilio !== undefined,
          },
          // What the controller and webhook pages offer: the API's own lists, so a new type shows without a console change.
          controller_types: [...CONTROLLER_TYPES],
          webhook_events: [...WEBHOOK_EVENTS],
          mail: config.mail !== undefined,
        },
      }),
  });

  overviewRoutes(api);
  guestRoutes(api);

  api.route({
    method: "POST",
    url: "/console/api/rotate-identifier",
    via: "console",
    summary: "A new identifier for the account's owner (the password asked again); the old one stops at once",
    tags,
    access: "parent",
    params: S.RotateIdentifierParams,
    unaudited: ["password"],
    // Password hashing is slow: no transaction held meanwhile.
    transaction: false,
    response: S.RotateIdentifierResponse,
    handler: async ({ ctx, caller, request, session }, p) => {
      await limited(request, session!.email);
      if (!(await verifyOwnerPassword(ctx, session!.email, p.password))) throw new AppError(400, { password: ["The password is wrong."] });
      const identifier = await rotateOwnerIdentifier(ctx, caller.accountId);
      api.forgetOwner(caller.accountId);
      request.log.info({ event: "console.identifier.rotated", account: caller.accountId }, "owner identifier rotated");
      return ok({ identifier });
    },
  });

  previewRoutes(api, config);
  locationRadiusRoutes(api, config);
}

function publicUser(user: SessionCaller): Static<typeof S.ConsoleUser> {
  return {
    email: user.email,
    role: user.caller.subUserId === null ? "owner" : "sub-user",
    readonly: user.caller.readonly,
    account_id: user.caller.accountId,
    csrf_token: user.csrfToken,
  };
}
