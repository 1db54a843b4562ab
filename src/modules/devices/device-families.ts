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

/**
 * How the portal hands a guest back after the login: one id per protocol, the `kind` of the
 * gateway's state in src/gateways/ (gateway-types.ts checks that the two lists agree):
 * - `coova`: the browser to the gateway's `/logon` with a one-time credential; the gateway asks RADIUS;
 * - `opennds`: openNDS FAS levels 1 and 2 (the browser to `authdir` with `tok`) and 3 (authmon polls);
 * - `meraki`: click-through, the browser to Meraki's `base_grant_url`;
 * - `meraki-signon`, `mikrotik`, `aruba`, `ruckus`, `cambium`: the browser posts a one-time
 *   credential to the gateway's (or Meraki's cloud's) login URL; the gateway asks RADIUS;
 * - `unifi`, `omada`: the service asks the location's controller to let the client's MAC in;
 * - `ruckus-nbi`: the service hands a one-time credential to the location's RUCKUS controller
 *   (SmartZone, RUCKUS One) through its northbound portal interface; the controller asks RADIUS.
 */
export type HandoffId =
  | "coova"
  | "opennds"
  | "meraki"
  | "meraki-signon"
  | "unifi"
  | "omada"
  | "mikrotik"
  | "aruba"
  | "ruckus"
  | "ruckus-nbi"
  | "cambium";

/**
 * Dynamic authorization (RFC 5176) as a family's gateways offer it: the UDP port they listen on
 * (RADIUS_COA_PORT overrides it for every family), and whether they apply a CoA-Request (new
 * limits on a live session) besides a Disconnect-Request. Undefined: the family has none, and
 * limits reach a session only at its next authorisation (see docs/sessions.md).
 */
export interface CoaSupport {
  port: number;
  change: boolean;
}

/**
 * The Access-Accept attribute by which a family's gateway puts a guest in a filter role (the
 * content filter): RouterOS adds the guest's address to the named address list
 * (Mikrotik-Address-List, FreeRADIUS dictionary.mikrotik 19), Aruba assigns the user role
 * (Aruba-User-Role, dictionary.aruba 1), Meraki applies the group policy of that name (Filter-Id, RFC 2865).
 */
export type FilterRoleAttribute = "Mikrotik-Address-List" | "Aruba-User-Role" | "Filter-Id";

export interface DeviceFamily {
  id: FamilyId;
  /** What an operator calls it. */
  name: string;
  /** The hand-offs a device of this family may arrive with (the redirect's parameters tell which). */
  handoffs: readonly HandoffId[];
  radius: RadiusDialect;
  coa: CoaSupport | undefined;
  /** How RADIUS hands the content filter's role; undefined: the family takes the filter as DNS servers only. */
  filterRole?: FilterRoleAttribute;
}

export const DEVICE_FAMILIES: Readonly<Record<FamilyId, DeviceFamily>> = Object.freeze({
  coova: { id: "coova", name: "CoovaChilli", handoffs: ["coova"], radius: "chillispot", coa: { port: 3799, change: true } },
  openwrt: { id: "openwrt", name: "OpenWrt (CoovaChilli or openNDS)", handoffs: ["coova", "opennds"], radius: "chillispot", coa: { port: 3799, change: true } },
  meraki: { id: "meraki", name: "Cisco Meraki (click-through, or sign-on splash with RADIUS)", handoffs: ["meraki", "meraki-signon"], radius: "wispr", coa: undefined, filterRole: "Filter-Id" },
  unifi: { id: "unifi", name: "Ubiquiti UniFi", handoffs: ["unifi"], radius: "wispr", coa: undefined },
  omada: { id: "omada", name: "TP-Link Omada", handoffs: ["omada"], radius: "wispr", coa: undefined },
  mikrotik: { id: "mikrotik", name: "MikroTik RouterOS HotSpot", handoffs: ["mikrotik"], radius: "mikrotik", coa: { port: 3799, change: true }, filterRole: "Mikrotik-Address-List" },
  aruba: { id: "aruba", name: "HPE Aruba Networking (ArubaOS, Instant)", handoffs: ["aruba"], radius: "wispr", coa: { port: 3799, change: true }, filterRole: "Aruba-User-Role" },
  ruckus: {
    id: "ruckus",
    name: "RUCKUS (ZoneDirector, Unleashed, SmartZone, RUCKUS One)",
    handoffs: ["ruckus", "ruckus-nbi"],
    radius: "wispr",
    coa: { port: 3799, change: true },
  },
  cambium: { id: "cambium", name: "Cambium Networks (cnPilot, cnMaestro)", handoffs: ["cambium"], radius: "cambium", coa: { port: 3799, change: true } },
});

/**
 * A device whose model_id is not in the catalogue (rows written before it existed, or by hand) is
 * answered as the service always answered: WISPr and ChilliSpot attributes, which CoovaChilli
 * reads and other gateways ignore.
 */
export const FALLBACK_DIALECT: RadiusDialect = "chillispot";
