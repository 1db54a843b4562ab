/**
 * The login pages: `/portal/l/<portal_slug>` (a location's url, as get-location reports it) and
 * `/portal/c/<campaign_filename>`, each opened by a gateway with its own query parameters.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type GatewayArrival, parseGateway } from "../gateways/gateway.js";
import { handoffOf } from "../gateways/registry.js";
import { type OpenNdsScope, resolveOpenNdsArrival } from "./opennds/opennds.service.js";
import { portalErrors } from "./portal-errors.js";
import { parseUnifi } from "../gateways/unifi/unifi.js";
import { type PageContext, resolveAccessPointPage, resolveCampaignPage, resolveLocationPage } from "./portal-page.service.js";
import { type PageView, renderConnected, renderLogin, renderWelcomeBack } from "./portal-render.js";
import { inCaptiveAssistant, pageLanguage, queryWithoutLang, splitLangParam } from "./portal-language.js";
import { userAgentOf } from "./portal-request.js";
import { cookieGuest } from "./returning-guest.js";
import type { PortalDeps } from "./portal-deps.js";
import { ensureSession, openPageState, sealPageState } from "./portal-state.js";
import { reconnect } from "./portal-returning.routes.js";
import { PORTAL_CAMPAIGN_PREFIX, PORTAL_LOCATION_PREFIX, UNIFI_GUEST_PREFIX } from "../portal-urls.js";

const NOTICES: Record<string, string> = {
  failed: "notice.failed",
  logoff: "notice.logoff",
};

async function arrivalOf(request: FastifyRequest, deps: PortalDeps, scope: OpenNdsScope): Promise<GatewayArrival | null> {
  // The gateway's parameters, as the gateway sent them: without the language switcher's `lang`.
  const query = queryWithoutLang((request.query ?? {}) as Record<string, unknown>);
  const { url } = splitLangParam(request.url);
  // openNDS's levels 2 and 3 can only be read with a router's key, found through the page's location.
  if (query.fas !== undefined) return resolveOpenNdsArrival(deps.ctx, scope, query, false);
  const parsed = parseGateway({
    query,
    rawUrls: [`${deps.config.publicUrl}${url}`, `${request.protocol}://${request.host}${url}`],
    coovaUamSecret: deps.config.coovaUamSecret,
  });
  if (parsed.kind === "refused") {
    request.log.info({ reason: parsed.reason }, "portal: gateway parameters refused");
    throw portalErrors.gatewayRefused();
  }
  return parsed.kind === "arrival" ? parsed.arrival : null;
}

/** The page's language (switcher, browser, campaign), the query its switcher repeats, and whether it is in a captive network assistant. */
function pageView(request: FastifyRequest, ctx: PageContext): PageView {
  const split = splitLangParam(request.url);
  return {
    lang: pageLanguage(request, split.lang, ctx.payload.default_language),
    query: split.query,
    inAssistant: inCaptiveAssistant(userAgentOf(request)),
    locationId: ctx.location?.id ?? null,
  };
}

export async function showPage(request: FastifyRequest, reply: FastifyReply, deps: PortalDeps, ctx: PageContext): Promise<FastifyReply | string | Buffer> {
  const result = ctx.arrival?.result;
  const view = pageView(request, ctx);
  if (result === "success" || result === "already") return renderConnected(reply, deps, ctx.payload, view);
  const sid = ensureSession(request, reply, deps.config.publicUrl);
  let mac = ctx.arrival?.clientMac ?? "";
  // A family whose redirect hides the guest's MAC (RUCKUS SmartZone, RUCKUS One) has it opened.
  const reveal = ctx.arrival ? handoffOf(ctx.arrival.state).revealClientMac : undefined;
  if (reveal && ctx.arrival && !mac && ctx.location) mac = await reveal(deps.ctx, ctx.location, ctx.arrival.state);
  const state = sealPageState(deps.signer, {
    sid,
    loc: ctx.location?.id ?? null,
    cmp: ctx.campaign.id,
    dev: ctx.device?.id ?? null,
    mac,
    gw: ctx.arrival?.state ?? null,
    lang: view.lang,
  });
  // A browser that logged in here before (device cookie), whatever MAC its device uses now: one tap.
  // Not after a failed login or a log-off: those show the login page with their notice.
  if (ctx.location && ctx.arrival && !(result && NOTICES[result])) {
    const pending = cookieGuest(request, deps, ctx.location);
    const guest = pending && (await pending);
    // A campaign that asks nothing of guests (click-through) lets them straight back in: no tap.
    if (guest && ctx.payload.login_options.clickthrough) {
      await deps.limits.loginAttempt(request);
      const opened = openPageState(deps.signer, state, sid);
      if (opened) return reconnect(request, reply, deps, { state: opened, location: ctx.location, campaign: ctx.campaign, payload: ctx.payload }, guest);
    }
    if (guest) return renderWelcomeBack(reply, deps, ctx.payload, state, ctx.arrival.state, guest.full_name ?? "", view);
  }
  const notice = (result && NOTICES[result]) ?? (ctx.location === null ? "notice.preview" : undefined);
  return renderLogin(reply, deps, ctx.payload, state, ctx.arrival?.state ?? null, view, { notice: notice ? { key: notice } : undefined });
}

export function pageRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.get<{ Params: { slug: string } }>(`${PORTAL_LOCATION_PREFIX}:slug`, { schema: { hide: true } }, async (request, reply) => {
    const ctx = await resolveLocationPage(deps.ctx, request.params.slug, await arrivalOf(request, deps, { slug: request.params.slug }), deps.pages);
    return showPage(request, reply, deps, ctx);
  });

  app.get<{ Params: { filename: string } }>(`${PORTAL_CAMPAIGN_PREFIX}:filename`, { schema: { hide: true } }, async (request, reply) => {
    const ctx = await resolveCampaignPage(deps.ctx, request.params.filename, await arrivalOf(request, deps, null), deps.pages);
    return showPage(request, reply, deps, ctx);
  });

  // UniFi's external portal: the AP names itself (ap) and the guest (id); its location's campaign is shown.
  app.get<{ Params: { site: string } }>(`${UNIFI_GUEST_PREFIX}:site`, { schema: { hide: true } }, async (request, reply) => {
    const parsed = parseUnifi(request.params.site, queryWithoutLang((request.query ?? {}) as Record<string, unknown>));
    if (parsed.kind !== "arrival") {
      request.log.info({ reason: parsed.kind === "refused" ? parsed.reason : "none" }, "portal: gateway parameters refused");
      throw portalErrors.gatewayRefused();
    }
    return showPage(request, reply, deps, await resolveAccessPointPage(deps.ctx, parsed.arrival));
  });
}
