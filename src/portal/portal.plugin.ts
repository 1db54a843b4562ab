/**
 * The captive portal: login pages, login methods and gateway hand-offs. Registered by app.ts in
 * its own encapsulated context (cookies are read and set with src/http/cookies.ts); its errors go
 * through the app's one error handler, which renders them as HTML pages for browsers.
 */
import type { FastifyInstance } from "fastify";
import type { Metrics } from "../metrics.js";
import { captiveApiRoutes } from "./portal-captive-api.routes.js";
import { type PortalCtx, createPortalDeps } from "./portal-deps.js";
import { loginRoutes } from "./portal-login.routes.js";
import { logoRoutes } from "./portal-logo.routes.js";
import { messageLinkRoutes } from "./message-links.routes.js";
import { smsInboundRoutes } from "./sms/sms-inbound.routes.js";
import { openNdsRoutes } from "./opennds/opennds.routes.js";
import { gatewayConfigRoutes } from "../gateways/device-config.routes.js";
import { handoffRoutes } from "./portal-handoff.routes.js";
import { oauthRoutes } from "./portal-oauth.routes.js";
import { pageRoutes } from "./portal-page.routes.js";
import { passpointRoutes } from "./passpoint.routes.js";
import { returningRoutes } from "./portal-returning.routes.js";
import { smsRoutes } from "./portal-sms.routes.js";
import { voucherRoutes } from "./portal-voucher.routes.js";

export async function portalPlugin(app: FastifyInstance, opts: { ctx: PortalCtx; metrics: Metrics }): Promise<void> {
  const deps = await createPortalDeps(app, opts.ctx, opts.metrics);
  pageRoutes(app, deps);
  logoRoutes(app, deps);
  loginRoutes(app, deps);
  smsRoutes(app, deps);
  returningRoutes(app, deps);
  voucherRoutes(app, deps);
  oauthRoutes(app, deps);
  captiveApiRoutes(app, deps);
  openNdsRoutes(app, deps);
  gatewayConfigRoutes(app, deps);
  handoffRoutes(app);
  passpointRoutes(app, deps);
  smsInboundRoutes(app, deps);
  // Its own context: the one-click unsubscribe's multipart parser stays with it.
  await app.register(async (scope) => messageLinkRoutes(scope, deps));
}
