/**
 * Cambium Networks cnPilot / cnMaestro guest access (external portal). The AP sends the guest with
 * `ga_ssid, ga_ap_mac, ga_nas_id, ga_srvr, ga_cmac, ga_cip, ga_Qv, ga_orig_url`; the browser posts
 * `ga_user, ga_pass` with the `ga_*` values echoed to `http://{ga_srvr}:880/cgi-bin/hotspot_login.cgi`
 * on the AP, which asks our RADIUS server.
 */
import { isIP } from "node:net";
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "./gateway-params.js";
import type { CambiumState, GatewayParse } from "./gateway-types.js";

export const CAMBIUM_LOGIN_PORT = 880;

/** The parameters the AP wants back with the credentials, as it sent them. */
const ECHOED = ["ga_ssid", "ga_ap_mac", "ga_nas_id", "ga_srvr", "ga_cmac", "ga_cip", "ga_Qv", "ga_orig_url"] as const;

export function parseCambium(q: Record<string, unknown>): GatewayParse {
  const srvr = param(q, "ga_srvr", 64);
  const apMac = macOrEmpty(q.ga_ap_mac);
  if (isIP(srvr) !== 4) return { kind: "refused", reason: "ga_srvr" };
  if (!apMac) return { kind: "refused", reason: "ga_ap_mac" };
  const echo: [string, string][] = [];
  for (const name of ECHOED) {
    const v = param(q, name, 1024);
    if (v !== "") echo.push([name, v]);
  }
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "cambium", login: `http://${srvr}:${CAMBIUM_LOGIN_PORT}/cgi-bin/hotspot_login.cgi`, echo, orig: httpUrlOrEmpty(param(q, "ga_orig_url")) },
      apMac,
      clientMac: macOrEmpty(q.ga_cmac),
      targetHost: srvr,
    },
  };
}

export function cambiumLoginFields(state: CambiumState, credential: { username: string; password: string }, url: string): [string, string][] {
  const fields: [string, string][] = [
    ["ga_user", credential.username],
    ["ga_pass", credential.password],
  ];
  for (const [name, value] of state.echo) fields.push([name, name === "ga_orig_url" && url ? url : value]);
  return fields;
}
