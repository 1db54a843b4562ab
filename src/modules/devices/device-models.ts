import { type CoaSupport, DEVICE_FAMILIES, FALLBACK_DIALECT, type FamilyId, type FilterRoleAttribute, type RadiusDialect } from "./device-families.js";

/**
 * The shipped catalogue of access points and gateways that can send guests to an external captive
 * portal and ask a RADIUS server (or a grant URL) to let them in. create-device's model_id is one of
 * these ids; GET /api/device-models serves the list. Ids are stable: never rename one.
 */
export interface DeviceModel {
  id: string;
  vendor: string;
  name: string;
  /** Its gateway family (device-families.ts): how it hands guests over and which RADIUS attributes it reads. Not served by the API (the console reads it from its own route). */
  family: FamilyId;
}

export const DEVICE_MODELS: readonly DeviceModel[] = Object.freeze([
  { id: "openwrt-generic", vendor: "OpenWrt", name: "Any OpenWrt router (CoovaChilli or openNDS package)", family: "openwrt" },
  { id: "coovachilli", vendor: "CoovaChilli", name: "CoovaChilli gateway on a Linux host", family: "coova" },
  { id: "glinet-gl-ar750s", vendor: "GL.iNet", name: "GL-AR750S Slate", family: "openwrt" },
  { id: "glinet-gl-mt3000", vendor: "GL.iNet", name: "GL-MT3000 Beryl AX", family: "openwrt" },
  { id: "meraki-mr36", vendor: "Cisco Meraki", name: "MR36", family: "meraki" },
  { id: "meraki-mr46", vendor: "Cisco Meraki", name: "MR46", family: "meraki" },
  { id: "meraki-mr57", vendor: "Cisco Meraki", name: "MR57", family: "meraki" },
  { id: "meraki-mx68w", vendor: "Cisco Meraki", name: "MX68W", family: "meraki" },
  { id: "ubiquiti-uap-ac-lite", vendor: "Ubiquiti", name: "UniFi AP AC Lite", family: "unifi" },
  { id: "ubiquiti-u6-lite", vendor: "Ubiquiti", name: "UniFi U6 Lite", family: "unifi" },
  { id: "ubiquiti-u6-pro", vendor: "Ubiquiti", name: "UniFi U6 Pro", family: "unifi" },
  { id: "tplink-eap225", vendor: "TP-Link", name: "Omada EAP225", family: "omada" },
  { id: "tplink-eap650", vendor: "TP-Link", name: "Omada EAP650", family: "omada" },
  { id: "tplink-er605", vendor: "TP-Link", name: "Omada ER605 gateway (portal on the gateway)", family: "omada" },
  { id: "mikrotik-hap-ac2", vendor: "MikroTik", name: "hAP ac2 (HotSpot)", family: "mikrotik" },
  { id: "mikrotik-cap-ax", vendor: "MikroTik", name: "cAP ax (HotSpot)", family: "mikrotik" },
  { id: "ruckus-r550", vendor: "RUCKUS", name: "R550 (ZoneDirector, Unleashed, SmartZone or RUCKUS One)", family: "ruckus" },
  { id: "aruba-ap-505", vendor: "HPE Aruba Networking", name: "AP-505 (Instant)", family: "aruba" },
  { id: "cambium-xv2-2", vendor: "Cambium Networks", name: "XV2-2 (cnMaestro)", family: "cambium" },
]);

const BY_ID = new Map(DEVICE_MODELS.map((m) => [m.id, m]));

export function findDeviceModel(id: string): DeviceModel | undefined {
  return BY_ID.get(id);
}

/** The RADIUS dialect of a device's model (the fallback for a model_id outside the catalogue). */
/** How a model's gateway takes the content filter's role from RADIUS; undefined: it does not. */
export function filterRoleAttributeOf(modelId: string): FilterRoleAttribute | undefined {
  const model = BY_ID.get(modelId);
  return model ? DEVICE_FAMILIES[model.family].filterRole : undefined;
}

export function radiusDialectOf(modelId: string): RadiusDialect {
  const model = BY_ID.get(modelId);
  return model ? DEVICE_FAMILIES[model.family].radius : FALLBACK_DIALECT;
}

/** Dynamic authorization of a device's model; an unknown model is treated as CoovaChilli (as for RADIUS). */
export function coaSupportOf(modelId: string): CoaSupport | undefined {
  const model = BY_ID.get(modelId);
  return model ? DEVICE_FAMILIES[model.family].coa : DEVICE_FAMILIES.coova.coa;
}
