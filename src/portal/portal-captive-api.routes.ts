/**
 * The RFC 8908 captive-portal API of each location, at its page's URL + `/captive-portal-api`,
 * announced to devices by DHCP option 114 or an IPv6 RA option (RFC 8910). A device learns from it
 * whether it is captive, where to log in, and, once in, how long and how many bytes it has left.
 */
import type { FastifyInstance } from "fastify";
import { captiveStatus } from "../modules/sessions/captive-status.service.js";
import { findLiveLocationBySlug } from "../modules/locations/locations.service.js";
import { CAPTIVE_API_SUFFIX, PORTAL_LOCATION_PREFIX, locationPortalUrl } from "../portal-urls.js";
import { isLocalAddress } from "../gateways/gateway.js";
import type { PortalDeps } from "./portal-deps.js";
import { portalErrors } from "./portal-errors.js";

export const CAPTIVE_JSON = "application/captive+json";

export function captiveApiRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.get<{ Params: { slug: string } }>(`${PORTAL_LOCATION_PREFIX}:slug${CAPTIVE_API_SUFFIX}`, { schema: { hide: true } }, async (request, reply) => {
    // RFC 8908 section 4 wants the API and the user portal over TLS: announce it (DHCP option 114,
    // RFC 8910) only with an https PUBLIC_URL (docs/gateways.md). The controller families and the
    // service's own tests read it over http too, so it answers whatever PUBLIC_URL is.
    const location = await findLiveLocationBySlug(deps.ctx, request.params.slug);
    if (!location) throw portalErrors.pageNotFound();
    const status = await captiveStatus(deps.ctx, location, request.ip, isLocalAddress);
    const body: Record<string, unknown> = {
      captive: status.captive,
      "user-portal-url": locationPortalUrl(deps.config.publicUrl, location.portal_slug),
    };
    if (location.website) body["venue-info-url"] = location.website;
    if (!status.captive) {
      if (status.secondsRemaining !== undefined) body["seconds-remaining"] = status.secondsRemaining;
      if (status.bytesRemaining !== undefined) body["bytes-remaining"] = status.bytesRemaining;
      body["can-extend-session"] = false;
    }
    // Per device and changing by the second: never cached (RFC 8908 section 4).
    reply.type(CAPTIVE_JSON).headers({ "cache-control": "private, no-store", "x-content-type-options": "nosniff" });
    return JSON.stringify(body);
  });
}
