/** Every management API module, registered in a fixed order. */
import type { ApiRouter } from "../http/api-route.js";
import { analyticsRoutes } from "./analytics/analytics.routes.js";
import { auditRoutes } from "./audit/audit.routes.js";
import { campaignRoutes } from "./campaigns/campaigns.routes.js";
import { controllerRoutes } from "./controllers/controllers.routes.js";
import { deviceCertificateRoutes } from "./device-certificates/device-certificates.routes.js";
import { deviceRoutes } from "./devices/devices.routes.js";
import type { ErasureCtx } from "./guests/guest-rights.service.js";
import { guestRoutes } from "./guests/guests.routes.js";
import { locationRoutes } from "./locations/locations.routes.js";
import { mikrotikLoginRoutes } from "./locations/mikrotik-login.routes.js";
import { automationRoutes } from "./messages/automations.routes.js";
import { messageRoutes } from "./messages/messages.routes.js";
import { sessionRoutes } from "./sessions/sessions.routes.js";
import { subUserRoutes } from "./subusers/subusers.routes.js";
import { webhookRoutes } from "./webhooks/webhooks.routes.js";
import { voucherRoutes } from "./vouchers/vouchers.routes.js";
import { passpointRoutes } from "./passpoint/passpoint.routes.js";

/** The routes' context: the modules' (Ctx) and RADIUS's part of a guest's erasure. */
export function registerApiModules(api: ApiRouter<ErasureCtx>): void {
  locationRoutes(api);
  campaignRoutes(api);
  deviceRoutes(api);
  deviceCertificateRoutes(api);
  subUserRoutes(api);
  guestRoutes(api);
  analyticsRoutes(api);
  sessionRoutes(api);
  controllerRoutes(api);
  voucherRoutes(api);
  mikrotikLoginRoutes(api);
  webhookRoutes(api);
  automationRoutes(api);
  messageRoutes(api);
  auditRoutes(api);
  passpointRoutes(api);
}
