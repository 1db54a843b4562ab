/** What every login POST does first: read the form, check the signed state, count the attempt. */
import { cookieOf } from "../http/cookies.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { LoginMethod } from "../modules/campaigns/campaign-payload.js";
import type { PortalDeps } from "./portal-deps.js";
import { portalErrors } from "./portal-errors.js";
import { type LoginContext, loadLoginContext } from "./portal-login.service.js";
import { type PageState, SESSION_COOKIE, openPageState } from "./portal-state.js";
import type { PagePayload } from "./page-payload.js";
import { inCaptiveAssistant, pageLanguage } from "./portal-language.js";
import type { PageView } from "./portal-render.js";

export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  return b && typeof b === "object" && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

export function userAgentOf(request: FastifyRequest): string {
  const ua = request.headers["user-agent"];
  return typeof ua === "string" ? ua : "";
}

/** The verified page state of a request, counted first against its address's login rate limit. */
export async function verifiedState(request: FastifyRequest, deps: PortalDeps, token: unknown): Promise<PageState> {
  // Counted before the state is even opened: forged and foreign tokens cost attempts too.
  await deps.limits.loginAttempt(request);
  const state = openPageState(deps.signer, token, cookieOf(request, SESSION_COOKIE));
  if (!state) throw portalErrors.sessionExpired();
  return state;
}

/** How the pages answering a login form are shown: in the language of the page the form was on, no switcher. */
export function postView(request: FastifyRequest, ctx: { state: PageState; payload: PagePayload }): PageView {
  return {
    lang: pageLanguage(request, ctx.state.lang ?? bodyOf(request).lang, ctx.payload.default_language),
    query: null,
    inAssistant: inCaptiveAssistant(userAgentOf(request)),
    locationId: ctx.state.loc,
  };
}

/** State check, rate limit, and the location and campaign behind them, for a login by `method`. */
export async function beginLogin(request: FastifyRequest, deps: PortalDeps, method: LoginMethod): Promise<LoginContext> {
  const state = await verifiedState(request, deps, bodyOf(request).state);
  return loadLoginContext(deps.ctx, deps.config, state, method);
}

/**
 * Runs one login attempt and counts it by method: success when it hands the guest off, invalid
 * when it answers 400 (the form or the code refused: the guest tries again), refused when it fails
 * (expired page, limit, method off, provider or database fault).
 */
export async function countLogin<T>(
  deps: PortalDeps,
  method: LoginMethod,
  reply: FastifyReply,
  /** `invalid` marks an answer that is not a 400 as one (the guest cancelled at the provider). */
  attempt: (invalid: () => void) => Promise<T>,
): Promise<T> {
  let marked = false;
  try {
    const out = await attempt(() => {
      marked = true;
    });
    // A page answered with a 5xx (the login form again after a controller failed) was refused.
    const result = reply.statusCode >= 500 ? "refused" : marked || reply.statusCode === 400 ? "invalid" : "success";
    deps.metrics.portalLogin(method, result);
    return out;
  } catch (err) {
    deps.metrics.portalLogin(method, "refused");
    throw err;
  }
}
