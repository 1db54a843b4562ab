/**
 * What each gateway family hands the portal, as types only: the family parsers (coova.ts,
 * meraki.ts) produce them and gateway.ts dispatches to the parsers, so the types sit below both.
 */
import type { HandoffId } from "../modules/devices/device-families.js";

export interface CoovaState {
  kind: "coova";
  uamip: string;
  uamport: number;
  /** 16 random bytes of the gateway, hex. Empty on result redirects (success, already, logoff). */
  challenge: string;
  /** Where the guest was going, as the gateway reported it; handed back to the gateway only. */
  userurl: string;
}

export interface MerakiState {
  kind: "meraki";
  /** base_grant_url, vetted (targetAllowed) before it is kept. */
  grant: string;
  /** user_continue_url: where the guest was going. */
  cont: string;
}

export interface UnifiState {
  kind: "unifi";
  /** The site of the redirect's path (the controller's own site is what the grant names). */
  site: string;
  /** The AP's MAC, canonical: the grant's ap_mac. */
  ap: string;
}

export interface OmadaState {
  kind: "omada";
  /** Omada's site id as the EAP or gateway sent it (checked: letters, digits, - and _). */
  site: string;
  /** Whether an EAP (apMac, ssidName, radioId) or a gateway (gatewayMac, vid) sent the guest. */
  via: "ap" | "gateway";
  /** The EAP's or gateway's MAC, canonical. */
  ap: string;
  ssid: string;
  radio: number;
  vid: number;
}


/** openNDS FAS (opennds.ts): what the hand-off needs; the faskey is the device's secret, looked up at login. */
export interface OpenNdsState {
  kind: "opennds";
  /** faslevel: 1 (base64), 2 (AES, the browser is sent to authdir), 3 (AES, authmon collects the grant). */
  level: 1 | 2 | 3;
  /** gatewayaddress: the router's LAN address and port (`192.168.8.1:2050`). */
  address: string;
  authdir: string;
  /** The client's hash id (hid), from which the token is made. */
  hid: string;
  /** sha256 of the gateway name: authmon's `gatewayhash`. */
  gwhash: string;
  /** gatewaymac, canonical: the device whose secret is the faskey. */
  mac: string;
  /** originurl: where the guest was going. */
  originurl: string;
}

/** MikroTik HotSpot (mikrotik.ts). */
export interface MikrotikState {
  kind: "mikrotik";
  /** link-login-only: the router's login URL, vetted (targetAllowed). */
  login: string;
  /** link-orig: where the guest was going. */
  orig: string;
  /** CHAP id (one byte) and challenge, hex; both "" when the router offers no CHAP (PAP). */
  chapId: string;
  challenge: string;
}

/** Meraki sign-on splash (meraki-signon.ts): credentials posted to Meraki's cloud, which asks RADIUS. */
export interface MerakiSignOnState {
  kind: "meraki-signon";
  /** login_url, vetted (targetAllowed). */
  login: string;
  /** continue_url. */
  cont: string;
}

/** Aruba (aruba.ts). */
export interface ArubaState {
  kind: "aruba";
  /** https://{switchip}/cgi-bin/login, or /swarm.cgi on Instant. */
  login: string;
  /** url: where the guest was going. */
  url: string;
  instant: boolean;
}

/** RUCKUS ZoneDirector / Unleashed (ruckus.ts). */
export interface RuckusState {
  kind: "ruckus";
  /** http://{sip}:9997/login */
  login: string;
  uip: string;
  clientMac: string;
  url: string;
}

/**
 * RUCKUS SmartZone and RUCKUS One (ruckus-nbi.ts): the service logs the guest on through the
 * location's controller (its northbound portal interface), which then asks our RADIUS server.
 */
export interface RuckusNbiState {
  kind: "ruckus-nbi";
  /** nbiIP: the interface's address as the redirect named it (logged; calls go to the location's controller). */
  nbi: string;
  /** client_mac and uip as the redirect carried them: encrypted ("ENC" + hex) or plain, handed back as is. */
  ueMac: string;
  ueIp: string;
  /** proxy: whether the guest's browser uses a web proxy ("0" or "1"). */
  proxy: string;
  /** url: where the guest was going; else startUrl, the hotspot's configured start page. */
  url: string;
}

/** Cambium cnPilot / cnMaestro (cambium.ts). */
export interface CambiumState {
  kind: "cambium";
  /** http://{ga_srvr}:880/cgi-bin/hotspot_login.cgi?{the redirect's ga_* parameters, as received} */
  login: string;
  /** ga_orig_url: where the AP sends the guest afterwards. */
  orig: string;
}

export type GatewayState =
  | CoovaState
  | MerakiState
  | UnifiState
  | OmadaState
  | OpenNdsState
  | MikrotikState
  | MerakiSignOnState
  | ArubaState
  | RuckusState
  | RuckusNbiState
  | CambiumState;

/**
 * The hand-off ids of the device families (device-families.ts, and the table in docs/gateways.md)
 * are exactly these states' kinds: adding a family's state without its id, or the other way round,
 * fails to compile.
 */
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type MustHold<T extends true> = T;
export type HandoffIdsAreStateKinds = MustHold<SameSet<GatewayState["kind"], HandoffId>>;

/** A gateway redirect, parsed; the AP still has to be found among registered devices. */
export interface GatewayArrival {
  state: GatewayState;
  /** The access point's MAC (canonical), by which the device is found. */
  apMac: string;
  /** The guest's MAC (canonical), or "" when the gateway gave none. */
  clientMac: string;
  /** Coova's `res` (notyet, success, already, failed, logoff); undefined for Meraki. */
  result?: string;
  /** The host the hand-off will go to, checked against the AP's known address. */
  targetHost: string;
}

export type GatewayParse = { kind: "none" } | { kind: "arrival"; arrival: GatewayArrival } | { kind: "refused"; reason: string };

