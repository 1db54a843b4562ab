/**
 * The operator console at /console: a single page (console-ui/, bundled by esbuild at install) that
 * works through the management API with a signed-in session instead of an identifier, plus the few
 * routes only the console has: sign-in and sign-out, who is signed in, the overview's series, the
 * owner's identifier rotation, the campaign preview (console-preview.routes.ts) and a location's
 * RADIUS attributes (location-radius.routes.ts). Authorisation is the API's own on every call
 * (src/http/api-route.ts resolves the session cookie to the same Caller an identifier gives); the page
 * hiding a button is never what stops a read-only user.
 */
import { cookieOf } from "../http/cookies.js";
import { loopbackWarning, radiusPublicHost } from "../gateways/device-config.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { AppError } from "../errors.js";
import type { SessionCaller } from "../http/api-route.js";
import { inScope } from "../http/caller.js";
import { crossSiteRefusal, sameToken } from "../http/csrf.js";
import { type MinuteLimit, clientAddressKey, minuteLimit } from "../http/rate-limit.js";
import { isCalendarDate } from "../http/validation.js";
import { canonicalMac } from "../mac-address.js";
import { secretBoxKey } from "../db/secret-box.js";
import { rotateOwnerIdentifier, verifyOwnerPassword } from "../modules/accounts/accounts.service.js";
import { recordAudit } from "../modules/audit/audit.service.js";
import { mailbox } from "../modules/accounts/mailbox.js";
import { ClosedDaysCache } from "../modules/analytics/closed-days-cache.js";
import { OVERVIEW_MAX_DAYS, overview } from "../modules/analytics/overview.service.js";
import { CONTROLLER_TYPES } from "../modules/controllers/controllers.schemas.js";
import { DEVICE_MODELS } from "../modules/devices/device-models.js";
import {
  type ConsoleUser,
  SESSION_MAX_MS,
  checkCredentials,
  endSession,
  sessionUser,
  startSession,
} from "../modules/console/console.service.js";
import { daysBetween } from "../modules/guests/local-day.js";
import { WEBHOOK_EVENTS } from "../modules/webhooks/webhook-events.js";
import { type ConsoleAssets, loadConsoleAssets } from "./console-assets.js";
import { KnownDevices } from "./known-devices.js";
import { previewRoutes } from "./console-preview.routes.js";
import { locationRadiusRoutes } from "./location-radius.routes.js";

export const SESSION_COOKIE = "gw_console";
/**
 * Sign-in attempts per minute, per client address, and per e-mail from browsers where that e-mail
 * has not signed in before (known-devices.ts).
 */
export const SIGN_IN_PER_MINUTE = 10;
/** Guests per page of the console's guest list. */
const GUEST_PAGE = 50;
const WRONG = "The e-mail address or password is wrong.";

/** The API's hook: the caller of a console session cookie, if any. */
export function consoleSessionCaller(deps: AppDeps): (request: FastifyRequest) => Promise<SessionCaller | undefined> {
  return async (request) => {
    const token = cookieOf(request, SESSION_COOKIE);
    if (!token) return undefined;
    const user = await sessionUser(deps, token);
    return user ? { caller: user.caller, csrfToken: user.csrfToken } : undefined;
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

function unauthorised(): AppError {
  return new AppError(401, { session: ["Sign in to the console first."] });
}

export interface ConsolePluginOptions {
  deps: AppDeps;
  /** Forget the API's cached identifiers of an owner after a rotation. */
  forgetOwner(accountId: number): void;
}

export async function consolePlugin(app: FastifyInstance, opts: ConsolePluginOptions): Promise<void> {
  const { deps } = opts;
  const { config } = app;
  const assets: ConsoleAssets = await loadConsoleAssets();
  const cache = new ClosedDaysCache();
  const byAddress: MinuteLimit = minuteLimit(app, "console-sign-in-ip", SIGN_IN_PER_MINUTE);
  const byAccount: MinuteLimit = minuteLimit(app, "console-sign-in-account", SIGN_IN_PER_MINUTE);

  const userOf = async (request: FastifyRequest): Promise<ConsoleUser | undefined> => {
    const token = cookieOf(request, SESSION_COOKIE);
    return token ? sessionUser(deps, token) : undefined;
  };
  const requireUser = async (request: FastifyRequest, write: boolean): Promise<ConsoleUser> => {
    const user = await userOf(request);
    if (!user) throw unauthorised();
    if (write) {
      const token = request.headers["x-csrf-token"] ?? (request.body as Record<string, unknown> | undefined)?.csrf_token;
      if (!sameToken(token, user.csrfToken)) throw new AppError(403, { session: ["The console session's CSRF token is missing or wrong. Reload the page."] });
    }
    return user;
  };
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

  app.post<{ Body: { email?: unknown; password?: unknown } }>("/console/api/sign-in", { schema: { hide: true } }, async (request, reply) => {
    // Login CSRF: a page elsewhere must not sign this browser in to an account of its choosing.
    const crossSite = crossSiteRefusal(request, config.publicUrl);
    if (crossSite) {
      request.log.info({ event: "console.sign-in.cross-site", reason: crossSite }, "console sign-in from another site refused");
      throw new AppError(403, { origin: ["Sign in from the console's own page: requests from other sites are refused."] });
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const email = typeof body.email === "string" ? body.email : "";
    const password = typeof body.password === "string" ? body.password : "";
    const failures: Record<string, string[]> = {};
    if (email.trim() === "" || email.length > 254) failures.email = ["Enter the e-mail address you sign in with."];
    if (password === "" || password.length > 1024) failures.password = ["Enter your password."];
    if (Object.keys(failures).length > 0) throw new AppError(400, failures);
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

  app.post("/console/api/sign-out", { schema: { hide: true } }, async (request, reply) => {
    const user = await requireUser(request, true);
    await endSession(deps, user.sessionId);
    reply.header("set-cookie", sessionCookie("", secureRequest(request, config.publicUrl), 0));
    return { status: "success" };
  });

  app.get("/console/api/me", { schema: { hide: true } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const user = await userOf(request);
    if (!user) throw unauthorised();
    return {
      status: "success",
      user: publicUser(user),
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
    };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>("/console/api/overview", { schema: { hide: true } }, async (request) => {
    const user = await requireUser(request, false);
    const q = request.query;
    const from = q.from_date ?? "";
    const to = q.to_date ?? "";
    const failures: Record<string, string[]> = {};
    if (!isCalendarDate(from)) failures.from_date = ["The from_date must be a date (YYYY-MM-DD)."];
    if (!isCalendarDate(to)) failures.to_date = ["The to_date must be a date (YYYY-MM-DD)."];
    else if (isCalendarDate(from) && to < from) failures.to_date = ["The to_date must be on or after from_date."];
    else if (isCalendarDate(from) && daysBetween(from, to).length > OVERVIEW_MAX_DAYS) {
      failures.to_date = [`The range may cover at most ${OVERVIEW_MAX_DAYS} days.`];
    }
    const all = (await deps.repos.locations.listLive(deps.db, user.caller.accountId)).filter((l) => inScope(user.caller, l.id));
    let chosen = all;
    if (q.location_id !== undefined && q.location_id !== "" && q.location_id !== "0") {
      chosen = all.filter((l) => String(l.id) === q.location_id);
      if (chosen.length === 0) failures.location_id = ["The selected location_id is invalid."];
    }
    if (Object.keys(failures).length > 0) throw new AppError(400, failures);
    const data = await overview(deps, cache, chosen, from, to);
    return { status: "success", data };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>("/console/api/guests", { schema: { hide: true } }, async (request) => {
    const user = await requireUser(request, false);
    const text = (request.query.q ?? "").trim().slice(0, 100);
    const before = request.query.before_id;
    const beforeId = before !== undefined && /^\d{1,10}$/.test(before) ? Number(before) : null;
    const mac = /^[0-9a-fA-F]{2}([:-]?[0-9a-fA-F]{2}){5}$/.test(text) ? canonicalMac(text) : null;
    const rows = await deps.repos.guests.search(deps.db, user.caller.accountId, { text, mac, beforeId, limit: GUEST_PAGE + 1 });
    // A scoped sub-user sees the guests of its locations only (a page may then be shorter).
    const scope = user.caller.locationScope;
    const seen = scope === null ? null : await deps.repos.guests.seenAt(deps.db, rows.slice(0, GUEST_PAGE).map((g) => g.id), scope);
    const page = rows.slice(0, GUEST_PAGE).filter((g) => seen === null || seen.has(g.id));
    const macs = await deps.repos.guests.macsOf(deps.db, user.caller.accountId, page.map((g) => g.id));
    return {
      status: "success",
      data: page.map((g) => ({ ...g, macs: macs.filter((m) => m.guest_id === g.id).map((m) => m.client_mac) })),
      next_before_id: rows.length > GUEST_PAGE ? rows[GUEST_PAGE - 1].id : null,
    };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>("/console/api/guest", { schema: { hide: true } }, async (request) => {
    const user = await requireUser(request, false);
    const id = Number(request.query.id);
    const [guest] = Number.isSafeInteger(id) && id > 0 ? await deps.repos.guests.findOwned(deps.db, user.caller.accountId, [id]) : [];
    const scope = user.caller.locationScope;
    if (guest && scope !== null && !(await deps.repos.guests.seenAt(deps.db, [guest.id], scope)).has(guest.id)) {
      throw new AppError(404, { id: ["The selected guest is invalid."] });
    }
    if (!guest) throw new AppError(404, { id: ["The selected guest is invalid."] });
    const [macs, logins] = await Promise.all([
      deps.repos.guests.macsOf(deps.db, user.caller.accountId, [guest.id]),
      deps.repos.guests.loginHistory(deps.db, guest.id, 100),
    ]);
    return { status: "success", data: { guest, macs, logins } };
  });

  app.post("/console/api/rotate-identifier", { schema: { hide: true } }, async (request) => {
    const user = await requireUser(request, true);
    if (user.role !== "owner") throw new AppError(403, { identifier: ["Only the account's owner can rotate its identifier."] });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const password = typeof body.password === "string" ? body.password : "";
    if (password === "") throw new AppError(400, { password: ["Enter your password."] });
    await limited(request, user.email);
    if (!(await verifyOwnerPassword(deps, user.email, password))) throw new AppError(400, { password: ["The password is wrong."] });
    const identifier = await rotateOwnerIdentifier(deps, user.caller.accountId);
    await recordAudit(deps, { accountId: user.caller.accountId, actorType: "owner", subUserId: null, via: "console", action: "rotate-identifier", objects: {}, fields: {}, address: request.ip });
    opts.forgetOwner(user.caller.accountId);
    request.log.info({ event: "console.identifier.rotated", account: user.caller.accountId }, "owner identifier rotated");
    return { status: "success", identifier };
  });

  previewRoutes(app, deps, requireUser);
  locationRadiusRoutes(app, deps, requireUser);
}

function publicUser(user: ConsoleUser) {
  return {
    email: user.email,
    role: user.role,
    readonly: user.caller.readonly,
    account_id: user.caller.accountId,
    csrf_token: user.csrfToken,
  };
}
