/**
 * The DeviceConfigs of an app (modules/context.ts): a device's configuration from its family's
 * writer (registry.ts FAMILY_CONFIGS), its location's grant (grant-policy.ts) and the service's
 * addresses; and the gateway's own scheduled fetch, recorded on the device (sync_response,
 * last_upgraded).
 */
import { createHash } from "node:crypto";
import type { Config } from "../config.js";
import { toDbDatetime } from "../db/time.js";
import { parsePayload } from "../modules/campaigns/campaign-payload.js";
import { campaignShownAt } from "../modules/campaigns/campaigns.service.js";
import type { Ctx, DeviceConfigFile, DeviceConfigs } from "../modules/context.js";
import { DEVICE_FAMILIES, type FamilyId } from "../modules/devices/device-families.js";
import { findDeviceModel } from "../modules/devices/device-models.js";
import type { DeviceRow } from "../modules/devices/devices.repository.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import { findLiveLocation, loadOptions } from "../modules/locations/locations.service.js";
import { locationPortalUrl } from "../portal-urls.js";
import { CONFIG_POLL_MINUTES, configKey, loopbackWarning, radiusPublicHost } from "./device-config.js";
import { type Grant, grantFor, grantSettings, loginUrlsOf } from "./grant-policy.js";
import { FAMILY_CONFIGS } from "./registry.js";

/** Where a gateway fetches its own files: `<PUBLIC_URL>/gateway/config/<device id>/<key>`. */
export const GATEWAY_CONFIG_PREFIX = "/gateway/config/";

export function gatewayConfigBase(publicUrl: string, device: Pick<DeviceRow, "id" | "radius_secret">): string {
  return `${publicUrl.replace(/\/+$/, "")}${GATEWAY_CONFIG_PREFIX}${device.id}/${configKey(device.radius_secret, device.id)}`;
}

/** The family of a device's model; a model outside the catalogue is answered as CoovaChilli (as RADIUS does). */
export function familyOfModel(modelId: string): FamilyId {
  return findDeviceModel(modelId)?.family ?? "coova";
}

export function createDeviceConfigs(): DeviceConfigs {
  return {
    async forDevice(ctx: Ctx, device: DeviceRow, config: Readonly<Config>): Promise<DeviceConfigFile | undefined> {
      if (device.location_id === null) return undefined;
      const location = await findLiveLocation(ctx, device.location_id);
      if (!location || location.account_id !== device.account_id) return undefined;
      const grant = await locationGrant(ctx, location, config);
      const family = familyOfModel(device.model_id);
      const base = gatewayConfigBase(config.publicUrl, device);
      const written = FAMILY_CONFIGS[family]({
        device: { id: device.id, name: oneLine(device.name), mac: device.mac_address, secret: device.radius_secret, modelId: device.model_id },
        location: { id: location.id, name: oneLine(location.name), portalUrl: locationPortalUrl(config.publicUrl, location.portal_slug) },
        grant,
        publicUrl: config.publicUrl,
        radius: {
          host: radiusPublicHost(config.publicUrl, config.radiusPublicHost),
          authPort: config.radius.authPort,
          acctPort: config.radius.acctPort,
          coaPort: config.radius.coaPort || (DEVICE_FAMILIES[family].coa?.port ?? 3799),
          interimInterval: config.radius.interimInterval,
        },
        fetchUrl: `${base}/config`,
        fetchBase: base,
        pollMinutes: CONFIG_POLL_MINUTES,
      });
      const warnings: string[] = [];
      const warning = loopbackWarning(config.publicUrl);
      if (warning) warnings.push(warning);
      // Controller families: the walled garden is pushed to the location's controller now, and the file says whether it took it.
      const pushed = CONTROLLER_FAMILIES.has(family) ? await pushToController(ctx, location.id, config) : undefined;
      if (pushed && !pushed.ok) warnings.push(`The location's controller did not take the walled garden as pre-authorization allowances: ${pushed.message} Enter them on the controller's screens, or fix the controller and fetch this again.`);
      return { family, ...written, warnings };
    },
  };
}

/** Families whose walled garden the service sets through the location's controller. */
const CONTROLLER_FAMILIES: ReadonlySet<FamilyId> = new Set(["unifi", "omada"]);

async function pushToController(ctx: Ctx, locationId: number, config: Readonly<Config>) {
  const row = ctx.controllerSync ? await ctx.repos.controllers.findForLocation(ctx.db, locationId) : undefined;
  return row ? ctx.controllerSync?.push(ctx, row.id, config) : undefined;
}

/** What a guest gets at a location as a gateway's configuration states it: with the walled garden of the login methods its campaign offers. */
export async function locationGrant(ctx: Ctx, location: LocationRow, config: Readonly<Config>): Promise<Grant> {
  const [options, campaign] = await Promise.all([loadOptions(ctx, location.id), campaignShownAt(ctx, location)]);
  const offered = parsePayload(campaign.payload).login_options;
  return grantFor({ options, settings: grantSettings(config, loginUrlsOf(config.oauth, offered)) });
}

/** Names go into comments and values of scripts: never a line break (the API refuses control characters; rows written otherwise are made safe here). */
function oneLine(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  return s.replace(/[\u0000-\u001f\u007f]/g, " ");
}

/** What a fetch answered, as the device's sync_response keeps it. */
export function syncResponseOf(file: DeviceConfigFile): string {
  const digest = createHash("sha256").update(file.content).digest("hex").slice(0, 16);
  return `fetched ${file.filename} sha256:${digest}`;
}

/** Records that the gateway fetched its configuration now. */
export async function recordConfigFetch(ctx: Ctx, device: DeviceRow, file: DeviceConfigFile, at = new Date()): Promise<void> {
  await ctx.repos.devices.recordConfigFetch(ctx.db, device.id, syncResponseOf(file), toDbDatetime(at));
}
