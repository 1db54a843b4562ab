/**
 * A gateway fetching its own configuration on a schedule (RouterOS `/tool fetch` then `/import`,
 * OpenWrt cron with `wget`): `GET /gateway/config/<device id>/<key>/config`, and for MikroTik
 * `.../login.html`. The key is derived from the device's secret (device-config.ts configKey): a
 * wrong key, an unknown device and a device without a location are answered alike, 404. Each fetch
 * of the configuration is recorded on the device (sync_response, last_upgraded).
 */
import type { FastifyInstance } from "fastify";
import { httpErrors } from "../errors.js";
import { findDeviceModel } from "../modules/devices/device-models.js";
import { findLiveLocation } from "../modules/locations/locations.service.js";
import { mikrotikLoginHtml } from "../modules/locations/mikrotik-login.js";
import type { PortalDeps } from "../portal/portal-deps.js";
import { configKeyMatches } from "./device-config.js";
import { GATEWAY_CONFIG_PREFIX, createDeviceConfigs, recordConfigFetch } from "./device-configs.js";

export function gatewayConfigRoutes(app: FastifyInstance, deps: PortalDeps): void {
  const configs = deps.ctx.deviceConfigs ?? createDeviceConfigs();
  const { config } = app;

  app.get<{ Params: { id: string; key: string; file: string } }>(`${GATEWAY_CONFIG_PREFIX}:id/:key/:file`, { schema: { hide: true } }, async (request, reply) => {
    const { id, key, file } = request.params;
    const notFound = () => httpErrors.notFound(request.method, request.url.split("?")[0]);
    const deviceId = /^\d{1,10}$/.test(id) ? Number(id) : 0;
    if (deviceId < 1 || deviceId > 2147483647 || !/^[0-9a-f]{32}$/.test(key) || (file !== "config" && file !== "login.html")) throw notFound();
    const device = await deps.ctx.repos.devices.findById(deps.ctx.db, deviceId);
    if (!device || !configKeyMatches(device.radius_secret, device.id, key)) throw notFound();
    reply.header("cache-control", "no-store");
    if (file === "login.html") {
      const location = device.location_id === null ? undefined : await findLiveLocation(deps.ctx, device.location_id);
      if (findDeviceModel(device.model_id)?.family !== "mikrotik" || !location || location.account_id !== device.account_id) throw notFound();
      return reply.type("text/html; charset=utf-8").send(mikrotikLoginHtml(config.publicUrl, location, device));
    }
    const out = await configs.forDevice(deps.ctx, device, config);
    if (!out) throw notFound();
    await recordConfigFetch(deps.ctx, device, out);
    return reply.type(out.content_type).send(out.content);
  });
}
