/** What every login POST does first: read the form, check the signed state, count the attempt. */
import type { FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import type { LoginMethod } from "../modules/campaigns/campaign-payload.js";
import type { LoginRateLimiter } from "./login-rate-limit.js";
import { portalErrors } from "./portal-errors.js";
import { type LoginContext, loadLoginContext } from "./portal-login.service.js";
import type { PortalSigner } from "./portal-signer.js";
import { type PageState, SESSION_COOKIE, openPageState } from "./portal-state.js";

export interface PortalDeps {
  db: DB;
  config: Readonly<Config>;
  signer: PortalSigner;
  limiter: LoginRateLimiter;
}

export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  return b && typeof b === "object" && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

export function userAgentOf(request: FastifyRequest): string {
  const ua = request.headers["user-agent"];
  return typeof ua === "string" ? ua : "";
}

/** The verified page state of a request, counted against the client's login rate limit. */
export function verifiedState(request: FastifyRequest, deps: PortalDeps, token: unknown): PageState {
  const state = openPageState(deps.signer, token, request.cookies[SESSION_COOKIE]);
  // Forged or foreign tokens count too, keyed by address alone, so guessing costs attempts.
  const wait = deps.limiter.take(request.ip, state?.mac ?? "");
  if (wait > 0) throw portalErrors.rateLimited(wait);
  if (!state) throw portalErrors.sessionExpired();
  return state;
}

/** State check, rate limit, and the location and campaign behind them, for a login by `method`. */
export async function beginLogin(request: FastifyRequest, deps: PortalDeps, method: LoginMethod): Promise<LoginContext> {
  const state = verifiedState(request, deps, bodyOf(request).state);
  return loadLoginContext(deps.db, deps.config, state, method);
}
