/**
 * Meraki sign-on splash (with RADIUS). The AP sends the guest with `login_url, continue_url,
 * ap_mac, ap_name, ap_tags, client_mac, client_ip`; the browser posts `username, password,
 * success_url` to `login_url` (Meraki's cloud, `https://*.network-auth.com/...`), and Meraki's cloud
 * asks our RADIUS server with PAP.
 */
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { GatewayParse, MerakiSignOnState } from "../gateway-types.js";

export function parseMerakiSignOn(q: Record<string, unknown>): GatewayParse {
  const login = httpUrlOrEmpty(param(q, "login_url"));
  const apMac = macOrEmpty(q.ap_mac);
  if (!login) return { kind: "refused", reason: "login_url" };
  if (!apMac) return { kind: "refused", reason: "ap_mac" };
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "meraki-signon", login, cont: httpUrlOrEmpty(param(q, "continue_url")) },
      apMac,
      clientMac: macOrEmpty(q.client_mac),
      targetHost: new URL(login).hostname,
    },
  };
}

export function merakiSignOnFields(state: MerakiSignOnState, credential: { username: string; password: string }, successUrl: string): [string, string][] {
  const fields: [string, string][] = [
    ["username", credential.username],
    ["password", credential.password],
  ];
  if (successUrl || state.cont) fields.push(["success_url", successUrl || state.cont]);
  return fields;
}
