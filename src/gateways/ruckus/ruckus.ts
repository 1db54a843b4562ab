/**
 * RUCKUS ZoneDirector and Unleashed (WISPr hotspot with an external portal). The redirect carries
 * `sip` (the ZoneDirector's or Unleashed master's address), `mac` (the AP's MAC), `client_mac`,
 * `uip` (the client's address), `ssid`, `url`; the browser posts `username, password, ip` (and the
 * client's MAC and the original URL) to `http://{sip}:9997/login`, and the ZoneDirector asks our
 * RADIUS server.
 */
import { isIP } from "node:net";
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { GatewayParse, RuckusState } from "../gateway-types.js";

/** ZoneDirector's and Unleashed's external-portal login port. */
export const RUCKUS_LOGIN_PORT = 9997;

export function parseRuckus(q: Record<string, unknown>): GatewayParse {
  const sip = param(q, "sip", 64);
  const apMac = macOrEmpty(q.mac);
  const uip = param(q, "uip", 64);
  if (isIP(sip) !== 4) return { kind: "refused", reason: "sip" };
  if (!apMac) return { kind: "refused", reason: "mac" };
  if (uip !== "" && isIP(uip) === 0) return { kind: "refused", reason: "uip" };
  const clientMac = macOrEmpty(q.client_mac);
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "ruckus", login: `http://${sip}:${RUCKUS_LOGIN_PORT}/login`, uip, clientMac, url: httpUrlOrEmpty(param(q, "url")) },
      apMac,
      clientMac,
      targetHost: sip,
    },
  };
}

export function ruckusLoginFields(state: RuckusState, credential: { username: string; password: string }, url: string): [string, string][] {
  const fields: [string, string][] = [
    ["username", credential.username],
    ["password", credential.password],
  ];
  if (state.uip) fields.push(["ip", state.uip]);
  if (state.clientMac) fields.push(["client_mac", state.clientMac]);
  if (url || state.url) fields.push(["url", url || state.url]);
  return fields;
}
