/**
 * The reconnect of a returning guest (returning-guest.ts): `POST /portal/login/returning`
 * records the login as the guest the device cookie names and hands off to the gateway like any
 * login; `POST /portal/login/returning/forget` drops the cookie and shows the usual login page (a
 * shared or handed-on device).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GuestRow } from "../modules/guests/guests.repository.js";
import { findCampaign } from "../modules/campaigns/campaigns.service.js";
import { findLiveLocation } from "../modules/locations/locations.service.js";
import { clearDeviceCookie } from "./device-cookie.js";
import { pagePayload } from "./page-payload.js";
import type { PortalDeps } from "./portal-deps.js";
import { portalErrors } from "./portal-errors.js";
import { type LoginContext, completeLogin } from "./portal-login.service.js";
import { renderLogin, sendHandoff } from "./portal-render.js";
import { bodyOf, postView, userAgentOf, verifiedState } from "./portal-request.js";
import { cookieGuest, rememberDevice } from "./returning-guest.js";

async function returningContext(request: FastifyRequest, deps: PortalDeps): Promise<LoginContext> {
  const state = await verifiedState(request, deps, bodyOf(request).state);
  if (state.loc === null) throw portalErrors.notOnWifi();
  const [location, campaign] = await Promise.all([findLiveLocation(deps.ctx, state.loc), findCampaign(deps.ctx, state.cmp)]);
  if (!location || !campaign) throw portalErrors.pageNotFound();
  return { state, location, campaign, payload: pagePayload(campaign, location.name) };
}

/** Records the login as the returning guest and hands them to the gateway, as any login does. */
export async function reconnect(request: FastifyRequest, reply: FastifyReply, deps: PortalDeps, ctx: LoginContext, guest: GuestRow): Promise<FastifyReply | string> {
  const handoff = await completeLogin(deps.ctx, deps.config, ctx, {
    method: "clickthrough",
    identity: "",
    profile: {},
    userAgent: userAgentOf(request),
    clientIp: request.ip,
    language: postView(request, ctx).lang,
    as: { loginType: guest.social_network, identity: guest.network_user_id },
    onGuest: rememberDevice(reply, deps, ctx.location),
  });
  return sendHandoff(reply, deps, ctx.payload, handoff, postView(request, ctx));
}

export function returningRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.post("/portal/login/returning", { schema: { hide: true } }, async (request, reply) => {
    const ctx = await returningContext(request, deps);
    const guest = await cookieGuest(request, deps, ctx.location);
    // The cookie expired or was removed since the page: the page again, with the usual login.
    if (!guest) throw portalErrors.sessionExpired();
    return reconnect(request, reply, deps, ctx, guest);
  });

  app.post("/portal/login/returning/forget", { schema: { hide: true } }, async (request, reply) => {
    const ctx = await returningContext(request, deps);
    clearDeviceCookie(reply, ctx.location.id);
    return renderLogin(reply, deps, ctx.payload, String(bodyOf(request).state), ctx.state.gw, postView(request, ctx));
  });
}
