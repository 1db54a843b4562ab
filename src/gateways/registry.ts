/**
 * The registry of gateway families: each hand-off id (device-families.ts's HandoffId, the `kind` of
 * a gateway's state) to its family's implementation of the hand-off interface (handoff.ts), and
 * the order in which a page's query is tried against them. Adding a family: its folder
 * (src/gateways/<family>/) and a line here (docs/architecture.md).
 */
import type { FamilyId, HandoffId } from "../modules/devices/device-families.js";
import { arubaConfig } from "./aruba/aruba.config.js";
import { cambiumConfig } from "./cambium/cambium.config.js";
import { coovaConfig } from "./coova/coova.config.js";
import type { DeviceConfigWriter } from "./device-config.js";
import { merakiConfig } from "./meraki/meraki.config.js";
import { mikrotikConfig } from "./mikrotik/mikrotik.config.js";
import { omadaConfig } from "./omada/omada.config.js";
import { openNdsConfig } from "./opennds/opennds.config.js";
import { ruckusConfig } from "./ruckus/ruckus.config.js";
import { unifiConfig } from "./unifi/unifi.config.js";
import { arubaHandoff } from "./aruba/aruba.family.js";
import { cambiumHandoff } from "./cambium/cambium.family.js";
import { coovaHandoff } from "./coova/coova.family.js";
import type { GatewayParse, GatewayState } from "./gateway-types.js";
import type { GatewayParseInput, Handoff } from "./handoff.js";
import { merakiHandoff, merakiSignOnHandoff } from "./meraki/meraki.family.js";
import { mikrotikHandoff } from "./mikrotik/mikrotik.family.js";
import { omadaHandoff } from "./omada/omada.family.js";
import { openNdsHandoffModule } from "./opennds/opennds.family.js";
import { ruckusHandoff, ruckusNbiHandoff } from "./ruckus/ruckus.family.js";
import { unifiHandoff } from "./unifi/unifi.family.js";

/** A family's hand-off; what its `prepare` hands to `complete` is its own business. */
type HandoffOf<K extends HandoffId> = Handoff<Extract<GatewayState, { kind: K }>, any>;

/** Every hand-off id has its implementation: a family missing here does not compile. */
export const HANDOFFS: { readonly [K in HandoffId]: HandoffOf<K> } = {
  coova: coovaHandoff,
  opennds: openNdsHandoffModule,
  meraki: merakiHandoff,
  "meraki-signon": merakiSignOnHandoff,
  unifi: unifiHandoff,
  omada: omadaHandoff,
  mikrotik: mikrotikHandoff,
  aruba: arubaHandoff,
  ruckus: ruckusHandoff,
  "ruckus-nbi": ruckusNbiHandoff,
  cambium: cambiumHandoff,
};

/**
 * The order a page's query is tried in: the first whose parameters it carries reads it. SmartZone's
 * redirect carries `sip` too, so RUCKUS's northbound interface (nbiIP) comes before ZoneDirector.
 */
const DETECTION_ORDER: readonly HandoffId[] = ["coova", "meraki", "omada", "mikrotik", "meraki-signon", "cambium", "ruckus-nbi", "ruckus", "aruba"];

/** The hand-off of a gateway state. */
export function handoffOf(state: GatewayState): Handoff {
  return HANDOFFS[state.kind] as unknown as Handoff;
}

/** Reads the gateway parameters of a page request, if any. */
export function parseGateway(input: GatewayParseInput): GatewayParse {
  for (const id of DETECTION_ORDER) {
    const h = HANDOFFS[id] as unknown as Handoff;
    if (h.detects?.(input.query) && h.parse) return h.parse(input);
  }
  return { kind: "none" };
}

/**
 * Each family's configuration (GET /api/get-device-config, the gateway's scheduled fetch): a file
 * the gateway applies (MikroTik, openNDS on OpenWrt, CoovaChilli), or the values and steps for the
 * vendor's screens. A family missing here does not compile.
 */
export const FAMILY_CONFIGS: { readonly [F in FamilyId]: DeviceConfigWriter } = {
  coova: coovaConfig,
  // OpenWrt routers are configured for openNDS (FAS level 3); CoovaChilli on OpenWrt takes the coova file (model coovachilli).
  openwrt: openNdsConfig,
  meraki: merakiConfig,
  unifi: unifiConfig,
  omada: omadaConfig,
  mikrotik: mikrotikConfig,
  aruba: arubaConfig,
  ruckus: ruckusConfig,
  cambium: cambiumConfig,
};
