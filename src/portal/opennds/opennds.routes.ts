/**
 * openNDS at faslevel 3: the router's `faspath` is the location's page plus `/authmon`. Guests
 * arrive there with the encrypted redirect (GET, the login page), and the router's authmon daemon
 * polls the same address (POST `auth_get`) for the guests it may let in.
 */
import type { FastifyInstance } from "fastify";
import { PORTAL_LOCATION_PREFIX } from "../../portal-urls.js";
import type { PortalDeps } from "../portal-deps.js";
import { resolveLocationPage } from "../portal-page.service.js";
import { showPage } from "../portal-page.routes.js";
import { bodyOf } from "../portal-request.js";
import { answerAuthmon, resolveOpenNdsArrival } from "./opennds.service.js";

export const OPENNDS_AUTHMON_SUFFIX = "/authmon";

export function openNdsRoutes(app: FastifyInstance, deps: PortalDeps): void {
  const path = `${PORTAL_LOCATION_PREFIX}:slug${OPENNDS_AUTHMON_SUFFIX}`;

  app.get<{ Params: { slug: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const arrival = await resolveOpenNdsArrival(deps.ctx, { slug: request.params.slug }, query, true);
    const ctx = await resolveLocationPage(deps.ctx, request.params.slug, arrival, deps.pages);
    return showPage(request, reply, deps, ctx);
  });

  app.post<{ Params: { slug: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
    const text = await answerAuthmon(deps.ctx, request.params.slug, bodyOf(request));
    reply.header("cache-control", "no-store").type("text/plain; charset=utf-8");
    return text;
  });
}
