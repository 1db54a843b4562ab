/**
 * `GET /console/api/location-radius?location_id=N`: what RADIUS sends in an Access-Accept for one of
 * the caller's locations, for each gateway family in use there (the families of its devices; all
 * dialects when it has none), computed by the RADIUS server's own encoder (reply-attribute-table.ts).
 */
import type { Static } from "@sinclair/typebox";
import type { AppDeps } from "../app-deps.js";
import type { Config } from "../config.js";
import { type ApiRouter, ok } from "../http/api-route.js";
import { liveLocation } from "../modules/locations/locations.refs.js";
import { DEVICE_FAMILIES, type FamilyId, type RadiusDialect } from "../modules/devices/device-families.js";
import { findDeviceModel, radiusDialectOf } from "../modules/devices/device-models.js";
import { findDevicesAtLocation } from "../modules/devices/devices.service.js";
import { loadOptions } from "../modules/locations/locations.service.js";
import { grantFor, grantSettings } from "../gateways/grant-policy.js";
import { acceptAttributeRows } from "../radius/reply-attribute-table.js";
import { acceptOptionsOf } from "../radius/reply-attributes.js";
import * as S from "./console.schemas.js";

const DIALECTS: readonly RadiusDialect[] = ["chillispot", "mikrotik", "cambium", "wispr"];

export type DialectAttributes = Static<typeof S.DialectAttributes>;

/**
 * The content-filter role (grant policy) as the families of a dialect that take one receive it: a
 * role is chosen per family, not per dialect (Aruba and Meraki share the WISPr dialect with families
 * that take none). `families`: those in use at the location, or every family of the dialect.
 */
function filterRolesOf(dialect: RadiusDialect, families: Set<FamilyId> | undefined, role: string): DialectAttributes["filter_roles"] {
  if (!role) return [];
  return Object.values(DEVICE_FAMILIES)
    .filter((f) => f.radius === dialect && f.filterRole !== undefined && (families === undefined || families.has(f.id)))
    .map((f) => ({ family: f.name, attribute: f.filterRole!, value: role }));
}

export function locationRadiusRoutes(api: ApiRouter<AppDeps>, config: Readonly<Config>): void {
  api.route({
    method: "GET",
    url: "/console/api/location-radius",
    via: "console",
    summary: "What RADIUS sends in an Access-Accept for a location, per gateway dialect in use there",
    tags: ["Console"],
    access: "read",
    params: S.LocationRadiusParams,
    // Another account's location, one outside a sub-user's scope and a deleted one are refused alike.
    refs: { location_id: liveLocation.one() },
    response: S.LocationRadiusResponse,
    handler: async ({ ctx }, _p, r) => {
      const location = r.location_id;
      const [options, devices] = await Promise.all([loadOptions(ctx, location.id), findDevicesAtLocation(ctx, location.id)]);
      const inUse = new Map<RadiusDialect, { families: Set<string>; familyIds: Set<FamilyId>; devices: number }>();
      for (const d of devices) {
        const dialect = radiusDialectOf(d.model_id);
        const family = findDeviceModel(d.model_id)?.family;
        const entry = inUse.get(dialect) ?? { families: new Set<string>(), familyIds: new Set<FamilyId>(), devices: 0 };
        entry.families.add(family ? DEVICE_FAMILIES[family].name : `Unknown model ${d.model_id.slice(0, 40)} (answered as CoovaChilli)`);
        if (family) entry.familyIds.add(family);
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
          families:
            inUse.size > 0
              ? [...inUse.get(dialect)!.families].sort()
              : Object.values(DEVICE_FAMILIES)
                  .filter((f) => f.radius === dialect)
                  .map((f) => f.name),
          devices: inUse.get(dialect)?.devices ?? 0,
          attributes: acceptAttributeRows(dialect, accept, remaining),
          filter_roles: filterRolesOf(dialect, inUse.size > 0 ? inUse.get(dialect)!.familyIds : undefined, grant.filterRole),
        }),
      );
      return ok({ data: { location_id: location.id, devices: devices.length, daily_bandwidth_cap: options.daily_bandwidth_cap, dialects } });
    },
  });
}
