/**
 * RUCKUS SmartZone (vSZ, SZ100, SZ300) and RUCKUS One: a hotspot (WISPr) WLAN with an external
 * portal. The AP sends the guest with `nbiIP` (the controller's northbound portal interface),
 * `mac` (the AP's MAC, by which the device is found), `client_mac` and `uip` (the guest's MAC and
 * address, encrypted by the controller as "ENC" + hex, or plain when the portal profile says so),
 * `proxy`, `ssid`, `url`, `startUrl`, `zoneName`, `wlanName`, `reason`.
 *
 * After the login nothing goes back through the browser: the service posts the guest's one-time
 * credential to the location's controller (`POST <url>/portalintf`, JSON, RequestCategory
 * UserOnlineControl, RequestType Login, with UE-MAC and UE-IP exactly as the redirect carried
 * them), and the controller asks our RADIUS server with it, then answers 201 (logged in) or 101
 * (already authorised). To learn the guest's MAC (returning guests, the login's record) the portal
 * asks the same interface to decrypt `client_mac` (RequestCategory GetConfig, RequestType Decrypt).
 *
 * Only the location's registered controller is called: `nbiIP` comes from a query string anyone
 * can write, so it is never a target (SSRF); it is only compared with the controller's host, for
 * the log.
 */
import { isIP } from "node:net";
import { macOfAnyForm } from "../../mac-address.js";
import type { ControllerAccess } from "../../modules/controllers/controllers.service.js";
import type { OutboundRule } from "../../outbound-address.js";
import { ControllerError, answerOf, controllerRequest, jsonOf } from "../controller-http.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { GatewayParse, RuckusNbiState } from "../gateway-types.js";

/** "ENC" and an even number of hex digits, as the controller encrypts MACs and addresses. */
const ENCRYPTED_RE = /^ENC(?:[0-9A-Fa-f]{2}){4,128}$/;
/** A host name or address as nbiIP carries it. */
const HOST_RE = /^[A-Za-z0-9.:-]{1,253}$/;

export function parseRuckusNbi(q: Record<string, unknown>): GatewayParse {
  const nbi = param(q, "nbiIP", 253);
  const apMac = macOfAnyForm(param(q, "mac", 64));
  const ueMac = param(q, "client_mac", 300);
  const ueIp = param(q, "uip", 300);
  const proxy = param(q, "proxy", 1) || "0";
  if (!HOST_RE.test(nbi)) return { kind: "refused", reason: "nbiIP" };
  if (!apMac) return { kind: "refused", reason: "mac" };
  const clientMac = macOfAnyForm(ueMac);
  if (!clientMac && !ENCRYPTED_RE.test(ueMac)) return { kind: "refused", reason: "client_mac" };
  if (ueIp !== "" && isIP(ueIp) === 0 && !ENCRYPTED_RE.test(ueIp)) return { kind: "refused", reason: "uip" };
  if (proxy !== "0" && proxy !== "1") return { kind: "refused", reason: "proxy" };
  const url = httpUrlOrEmpty(param(q, "url")) || httpUrlOrEmpty(param(q, "startUrl"));
  const state: RuckusNbiState = { kind: "ruckus-nbi", nbi, ueMac, ueIp, proxy, url };
  // The guest's MAC when it came plain; an encrypted one is decrypted by the page (ruckusClientMac).
  return { kind: "arrival", arrival: { state, apMac, clientMac, targetHost: "" } };
}

/** Whether the redirect's client_mac still has to be decrypted by the controller. */
export function isEncrypted(value: string): boolean {
  return ENCRYPTED_RE.test(value);
}

/** The interface's URL: the controller's base URL, with /portalintf unless it names it already. */
export function portalIntfUrl(base: string): string {
  return /\/portalintf$/i.test(base) ? base : `${base}/portalintf`;
}

/** Whether nbiIP names the controller's host (a different one is logged: a cluster node, or a misconfiguration). */
export function nbiMatches(access: Pick<ControllerAccess, "url">, nbi: string): boolean {
  return new URL(access.url).hostname.replace(/^\[|\]$/g, "").toLowerCase() === nbi.replace(/^\[|\]$/g, "").toLowerCase();
}

export interface NbiCall {
  access: ControllerAccess;
  timeoutMs: number;
  rule: OutboundRule;
}

/** The codes of the interface's answers (RUCKUS One Hotspot WISPr API reference, "JSON Responses Definitions"). */
export const NBI_CODES: Readonly<Record<number, string>> = {
  100: "Client unauthorized",
  101: "Client authorized",
  200: "OK",
  201: "Login succeeded",
  202: "Authentication pending",
  300: "Not found",
  301: "Login failed",
  302: "Bad request",
  303: "Version not supported",
  304: "Command not supported",
  305: "Category not supported",
  306: "Wrong request password",
  400: "Internal server error",
  401: "Authentication server error",
};

async function nbiRequest(call: NbiCall, body: Record<string, string>): Promise<{ code: number; json: any; answer: { status: number; body: string } }> {
  const creds = call.access.credentials;
  if (!("password" in creds)) throw new ControllerError("rejected", "the controller has no northbound interface password");
  const res = await controllerRequest({
    method: "POST",
    url: portalIntfUrl(call.access.url),
    json: {
      Vendor: "ruckus",
      ...(creds.username ? { RequestUserName: creds.username } : {}),
      RequestPassword: creds.password,
      APIVersion: "1.0",
      ...body,
    },
    fingerprint: call.access.tlsFingerprint,
    timeoutMs: call.timeoutMs,
    rule: call.rule,
  });
  const json = jsonOf(res);
  const code = typeof json?.ResponseCode === "number" ? json.ResponseCode : Number(json?.ResponseCode);
  if (res.status !== 200 || !Number.isInteger(code)) {
    throw new ControllerError("refused", `the northbound interface answered HTTP ${res.status} without a ResponseCode`, answerOf(res));
  }
  return { code, json, answer: answerOf(res) };
}

function failure(code: number, answer: { status: number; body: string }): ControllerError {
  const words = NBI_CODES[code] ?? "unknown code";
  // 301: RADIUS refused the credential; 306: the stored password is not the interface's.
  const fault = code === 301 || code === 306 ? "rejected" : "refused";
  return new ControllerError(fault, `the northbound interface answered ${code} (${words})`, answer);
}

/**
 * The guest's MAC or address, decrypted by the controller (canonical MAC, or the address as
 * written); throws ControllerError when it cannot be.
 */
export async function nbiDecrypt(call: NbiCall, encrypted: string, what: "mac" | "ip"): Promise<string> {
  const { code, json, answer } = await nbiRequest(call, { RequestCategory: "GetConfig", RequestType: "Decrypt", Data: encrypted });
  if (code !== 200) throw failure(code, answer);
  const plain = typeof json.Data === "string" ? json.Data.trim() : "";
  const value = what === "mac" ? macOfAnyForm(plain) : isIP(plain) ? plain : "";
  if (!value) throw new ControllerError("refused", `the decrypted ${what === "mac" ? "client_mac is not a MAC" : "uip is not an IP"} address`, answer);
  return value;
}

/** How long to wait between status queries while the controller's login is pending (202). */
const PENDING_POLL_MS = 300;
const PENDING_POLLS = 10;

/**
 * Logs the guest on with the one-time credential: the controller asks our RADIUS server. Resolves
 * when the controller says the guest is in (201, or 101 already authorised); throws ControllerError
 * otherwise. A 202 (pending) is followed by status queries until the answer is known.
 */
export async function nbiLogin(call: NbiCall, gw: RuckusNbiState, credential: { username: string; password: string }): Promise<number> {
  const ue = { "UE-IP": gw.ueIp, "UE-MAC": gw.ueMac, "UE-Proxy": gw.proxy };
  let { code, answer } = await nbiRequest(call, {
    RequestCategory: "UserOnlineControl",
    RequestType: "Login",
    ...ue,
    "UE-Username": credential.username,
    "UE-Password": credential.password,
  });
  for (let i = 0; code === 202 && i < PENDING_POLLS; i++) {
    await new Promise((resolve) => setTimeout(resolve, PENDING_POLL_MS));
    ({ code, answer } = await nbiRequest(call, { RequestCategory: "UserOnlineControl", RequestType: "Status", ...ue }));
  }
  if (code === 201 || code === 101) return code;
  throw failure(code, answer);
}

/**
 * Test connection: a Decrypt of a value no AP wrote. The interface checks the request password
 * first (306 when wrong); any other code means it was reached and took the password. The
 * interface has no sites (the zone comes with each redirect). Throws ControllerError.
 */
export async function nbiCheck(call: NbiCall): Promise<string> {
  const { code, answer } = await nbiRequest(call, { RequestCategory: "GetConfig", RequestType: "Decrypt", Data: "ENC00000000" });
  if (code === 306) throw new ControllerError("refused", "the northbound interface refused the password (306)", answer);
  return `the northbound interface answered ${code} (${NBI_CODES[code] ?? "unknown code"}) and took the password`;
}
