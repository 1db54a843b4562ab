/** Every management API module, registered in a fixed order. */
import type { FastifyInstance } from "fastify";
import { analyticsRoutes } from "./analytics/analytics.routes.js";
import { campaignRoutes } from "./campaigns/campaigns.routes.js";
import { deviceRoutes } from "./devices/devices.routes.js";
import { guestRoutes } from "./guests/guests.routes.js";
import { locationRoutes } from "./locations/locations.routes.js";
import { subUserRoutes } from "./subusers/subusers.routes.js";

export async function registerApiModules(app: FastifyInstance): Promise<void> {
  locationRoutes(app);
  campaignRoutes(app);
  deviceRoutes(app);
  subUserRoutes(app);
  guestRoutes(app);
  analyticsRoutes(app);
}
