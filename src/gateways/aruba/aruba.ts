/**
 * HPE Aruba Networking captive portal (ArubaOS controllers and Instant APs). The redirect carries
 * `cmd=login, mac, ip, essid, apname, apmac, url` and `switchip`: the controller's address, or on
 * Instant the fixed name `securelogin.arubanetworks.com`, which the AP answers itself (Instant also
 * sends `vcname`, its virtual controller). The browser posts `user, password, cmd=authenticate,
 * url` over https to the controller's `/cgi-bin/login` (Instant: `/swarm.cgi`, with
 * `opcode=cp_auth`), and the controller asks our RADIUS server with PAP. The device is found by
 * `apmac` (Instant sends it; on a controller, add it to the portal URL, see the docs).
 */
import { isIP } from "node:net";
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { ArubaState, GatewayParse } from "../gateway-types.js";

/** The name Aruba APs and controllers answer for their own captive portal. */
export const ARUBA_SECURELOGIN = "securelogin.arubanetworks.com";

/** `switchip`: Aruba's fixed login name, or an IPv4 address (optionally with a port). */
function switchHost(s: string): string {
  if (s === "" || s.toLowerCase() === ARUBA_SECURELOGIN) return ARUBA_SECURELOGIN;
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(s);
  if (!m || isIP(m[1]) !== 4) return "";
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535)) return "";
  return s;
}

export function parseAruba(q: Record<string, unknown>): GatewayParse {
  const apMac = macOrEmpty(q.apmac);
  const host = switchHost(param(q, "switchip", 64));
  if (!apMac) return { kind: "refused", reason: "apmac" };
  if (!host) return { kind: "refused", reason: "switchip" };
  const instant = q.vcname !== undefined;
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "aruba", login: `https://${host}${instant ? "/swarm.cgi" : "/cgi-bin/login"}`, url: httpUrlOrEmpty(param(q, "url")), instant },
      apMac,
      clientMac: macOrEmpty(q.mac),
      result: param(q, "errmsg", 512) !== "" ? "failed" : undefined,
      targetHost: host.split(":")[0],
    },
  };
}

export function arubaLoginFields(state: ArubaState, credential: { username: string; password: string }, url: string): [string, string][] {
  const fields: [string, string][] = [];
  if (state.instant) fields.push(["opcode", "cp_auth"]);
  fields.push(["user", credential.username], ["password", credential.password], ["cmd", "authenticate"]);
  if (url || state.url) fields.push(["url", url || state.url]);
  return fields;
}
