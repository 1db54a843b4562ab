/**
 * Gateway families: what a device model is, as far as the portal's hand-off and RADIUS care. Every
 * model of the catalogue (device-models.ts) names its family; RADIUS reads the family's dialect to
 * choose the attributes of an Access-Accept (src/radius/reply-attributes.ts, docs/radius.md).
 */

/**
 * How a family wants the location's options in an Access-Accept (besides Session-Timeout and
 * Acct-Interim-Interval, which every family gets):
 * - `chillispot`: WISPr rates (bits/s) and the remaining daily cap as ChilliSpot-Max-Total-Octets
 *   with ChilliSpot-Max-Total-Gigawords (CoovaChilli and its derivatives);
 * - `mikrotik`: Mikrotik-Rate-Limit ("rx/tx" from the router's view) and Mikrotik-Total-Limit with
 *   Mikrotik-Total-Limit-Gigawords (RouterOS HotSpot);
 * - `cambium`: WISPr rates and Cambium-Traffic-Quota-Limit-Total with its Gigwords companion
 *   (cnPilot / cnMaestro);
 * - `wispr`: WISPr rates only; the family has no RADIUS attribute for a data quota, so the daily
 *   cap is enforced when the guest next asks to get online.
 */
export type RadiusDialect = "chillispot" | "mikrotik" | "cambium" | "wispr";

export type FamilyId = "coova" | "openwrt" | "meraki" | "unifi" | "omada" | "mikrotik" | "aruba" | "ruckus" | "cambium";

export interface DeviceFamily {
  id: FamilyId;
  /** What an operator calls it. */
  name: string;
  radius: RadiusDialect;
}

export const DEVICE_FAMILIES: Readonly<Record<FamilyId, DeviceFamily>> = Object.freeze({
  coova: { id: "coova", name: "CoovaChilli", radius: "chillispot" },
  openwrt: { id: "openwrt", name: "OpenWrt (CoovaChilli or openNDS)", radius: "chillispot" },
  meraki: { id: "meraki", name: "Cisco Meraki (sign-on splash with RADIUS)", radius: "wispr" },
  unifi: { id: "unifi", name: "Ubiquiti UniFi", radius: "wispr" },
  omada: { id: "omada", name: "TP-Link Omada", radius: "wispr" },
  mikrotik: { id: "mikrotik", name: "MikroTik RouterOS HotSpot", radius: "mikrotik" },
  aruba: { id: "aruba", name: "HPE Aruba Networking (ArubaOS, Instant)", radius: "wispr" },
  ruckus: { id: "ruckus", name: "RUCKUS (ZoneDirector, Unleashed, SmartZone)", radius: "wispr" },
  cambium: { id: "cambium", name: "Cambium Networks (cnPilot, cnMaestro)", radius: "cambium" },
});

/**
 * A device whose model_id is not in the catalogue (rows written before it existed, or by hand) is
 * answered as the service always answered: WISPr and ChilliSpot attributes, which CoovaChilli
 * reads and other gateways ignore.
 */
export const FALLBACK_DIALECT: RadiusDialect = "chillispot";
