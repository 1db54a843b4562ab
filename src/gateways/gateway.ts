/**
 * What a gateway tells the portal when it sends a guest, and where the portal may send the guest
 * back. Only addresses the gateway vouched for become redirect targets: a login page that
 * redirects wherever its query string says is a phishing tool. Each family says which targets it
 * vouches for (src/gateways/<family>/, found through registry.ts).
 */
import type { GatewayArrival } from "./gateway-types.js";
import { handoffOf } from "./registry.js";

export type { GatewayArrival, GatewayParse, GatewayState } from "./gateway-types.js";
export type { GatewayParseInput } from "./handoff.js";
export { isLocalAddress } from "./local-address.js";
export { parseGateway } from "./registry.js";

/**
 * Whether the hand-off target is one this AP vouches for: the AP's registered address, or what its
 * family allows (Coova: the gateway's own LAN address; Meraki: Meraki's cloud over https; ...).
 */
export function targetAllowed(arrival: GatewayArrival, apAddress: string): boolean {
  const host = arrival.targetHost.replace(/^\[|\]$/g, "").toLowerCase();
  const known = apAddress.trim().toLowerCase();
  if (known !== "" && host === known) return true;
  return handoffOf(arrival.state).targetAllowed(arrival.state, host);
}
