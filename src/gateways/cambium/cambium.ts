/**
 * Cambium Networks cnPilot / cnMaestro guest access (external portal). The AP sends the guest with
 * `ga_ssid, ga_ap_mac, ga_nas_id, ga_srvr, ga_cmac, ga_cip, ga_Qv, ga_orig_url`; the browser posts
 * `ga_user, ga_pass` to `http://{ga_srvr}:880/cgi-bin/hotspot_login.cgi` on the AP with every `ga_*`
 * parameter of the redirect in that URL's query string, exactly as received (the AP refuses a
 * re-encoded `ga_Qv`), and the AP asks our RADIUS server.
 */
import { isIP } from "node:net";
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { CambiumState, GatewayParse } from "../gateway-types.js";

export const CAMBIUM_LOGIN_PORT = 880;

/** The `ga_*` pairs of the redirect's query string as the AP wrote them (percent-encoding untouched). */
function rawGaQuery(rawUrl: string): string {
  const at = rawUrl.indexOf("?");
  if (at < 0) return "";
  return rawUrl
    .slice(at + 1)
    .split("&")
    .filter((pair) => /^ga_[A-Za-z_]+=/.test(pair))
    .join("&");
}

/** `rawUrl`: the page URL as requested (its query as the AP wrote it). */
export function parseCambium(q: Record<string, unknown>, rawUrl: string): GatewayParse {
  const srvr = param(q, "ga_srvr", 64);
  const apMac = macOrEmpty(q.ga_ap_mac);
  if (isIP(srvr) !== 4) return { kind: "refused", reason: "ga_srvr" };
  if (!apMac) return { kind: "refused", reason: "ga_ap_mac" };
  const query = rawGaQuery(rawUrl);
  if (query.length > 2048) return { kind: "refused", reason: "ga_query" };
  return {
    kind: "arrival",
    arrival: {
      state: {
        kind: "cambium",
        login: `http://${srvr}:${CAMBIUM_LOGIN_PORT}/cgi-bin/hotspot_login.cgi${query ? `?${query}` : ""}`,
        orig: httpUrlOrEmpty(param(q, "ga_orig_url")),
      },
      apMac,
      clientMac: macOrEmpty(q.ga_cmac),
      targetHost: srvr,
    },
  };
}

/** The AP sends the guest on to ga_orig_url itself; the campaign's redirect_url cannot be passed. */
export function cambiumLoginFields(_state: CambiumState, credential: { username: string; password: string }): [string, string][] {
  return [
    ["ga_user", credential.username],
    ["ga_pass", credential.password],
  ];
}
