/**
 * `GET /console/api/location-radius?location_id=N`: what RADIUS sends in an Access-Accept for one of
 * the account's locations, for each gateway family in use there (the families of its devices; all
 * dialects when it has none), computed by the RADIUS server's own encoder (reply-attribute-table.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { AppError } from "../errors.js";
import type { ConsoleUser } from "../modules/console/console.service.js";
import { DEVICE_FAMILIES, type RadiusDialect } from "../modules/devices/device-families.js";
import { findDeviceModel, radiusDialectOf } from "../modules/devices/device-models.js";
import { findDevicesAtLocation } from "../modules/devices/devices.service.js";
import { findLiveLocation, loadOptions } from "../modules/locations/locations.service.js";
import { grantFor, grantSettings } from "../gateways/grant-policy.js";
import { type AttributeRow, acceptAttributeRows } from "../radius/reply-attribute-table.js";
import { acceptOptionsOf } from "../radius/reply-attributes.js";

const DIALECTS: readonly RadiusDialect[] = ["chillispot", "mikrotik", "cambium", "wispr"];

export interface DialectAttributes {
  dialect: RadiusDialect;
  /** The gateway families (their names) answered in this dialect: those of the location's devices, or all. */
  families: string[];
  /** How many of the location's devices get these attributes. */
  devices: number;
  attributes: AttributeRow[];
}

export function locationRadiusRoutes(app: FastifyInstance, deps: AppDeps, requireUser: (request: FastifyRequest, write: boolean) => Promise<ConsoleUser>): void {
  const { config } = app;

  app.get<{ Querystring: Record<string, string | undefined> }>("/console/api/location-radius", { schema: { hide: true } }, async (request, reply) => {
    const user = await requireUser(request, false);
    reply.header("cache-control", "no-store");
    const raw = request.query.location_id;
    if (raw === undefined || raw.trim() === "") throw new AppError(400, { location_id: ["The location_id field is required."] });
    const id = /^\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : 0;
    // Another account's location, a deleted one and a missing one are refused alike.
    const location = id > 0 && id <= 2147483647 ? await findLiveLocation(deps, id) : undefined;
    if (!location || location.account_id !== user.caller.accountId) throw new AppError(400, { location_id: ["The selected location_id is invalid."] });

    const [options, devices] = await Promise.all([loadOptions(deps, location.id), findDevicesAtLocation(deps, location.id)]);
    const inUse = new Map<RadiusDialect, { families: Set<string>; devices: number }>();
    for (const d of devices) {
      const dialect = radiusDialectOf(d.model_id);
      const family = findDeviceModel(d.model_id)?.family;
      const entry = inUse.get(dialect) ?? { families: new Set<string>(), devices: 0 };
      entry.families.add(family ? DEVICE_FAMILIES[family].name : `Unknown model ${d.model_id.slice(0, 40)} (answered as CoovaChilli)`);
      entry.devices++;
      inUse.set(dialect, entry);
    }
    // The grant policy's answer for a guest's first login of the day: the cap attribute carries the whole cap.
    const grant = grantFor({ options, settings: grantSettings(config) });
    const accept = acceptOptionsOf(grant);
    const remaining = grant.remainingBytes;
    const dialects = (inUse.size > 0 ? DIALECTS.filter((d) => inUse.has(d)) : DIALECTS).map(
      (dialect): DialectAttributes => ({
        dialect,
        families: inUse.size > 0
          ? [...inUse.get(dialect)!.families].sort()
          : Object.values(DEVICE_FAMILIES)
              .filter((f) => f.radius === dialect)
              .map((f) => f.name),
        devices: inUse.get(dialect)?.devices ?? 0,
        attributes: acceptAttributeRows(dialect, accept, remaining),
      }),
    );
    return { status: "success", data: { location_id: location.id, devices: devices.length, daily_bandwidth_cap: options.daily_bandwidth_cap, dialects } };
  });
}
