/**
 * What each gateway family hands the portal, as types only: the family parsers (coova.ts,
 * meraki.ts) produce them and gateway.ts dispatches to the parsers, so the types sit below both.
 */

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

export type GatewayState = CoovaState | MerakiState | UnifiState | OmadaState;

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

