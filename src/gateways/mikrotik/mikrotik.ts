/**
 * MikroTik RouterOS HotSpot. The router serves its `login.html` to a guest who is not logged in;
 * the one the service generates for each device (GET /api/device-mikrotik-login-html) sends the
 * guest on to the portal with the router's variables: `link-login-only` (its login URL),
 * `link-orig`, `mac`, `ip`, `chap-id` and `chap-challenge` (octal-escaped bytes, as RouterOS writes
 * them into JavaScript strings), `error` (set when a login failed) and `device-mac` (the registered
 * MAC, written into the page, by which the device is found). After the login the browser posts
 * `username`, `password` and `dst` to `link-login-only`; with a challenge the password is CHAP:
 * MD5(chap-id + password + chap-challenge) in hex, as MikroTik's own login page computes it. The
 * router then asks our RADIUS server (CHAP, or PAP without a challenge).
 */
import { md5 } from "../../md5.js";
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { GatewayParse, MikrotikState } from "../gateway-types.js";

/** `\123\045...` (RouterOS's escaping of binary values) into bytes, or undefined when it is not that. */
export function octalBytes(s: string): Buffer | undefined {
  if (!/^(\\[0-3][0-7]{2})+$/.test(s)) return undefined;
  return Buffer.from(s.split("\\").slice(1).map((o) => Number.parseInt(o, 8)));
}

/** link-orig as the generated login.html sends it: `$(link-orig-esc)`, URL-encoded by the router. */
function originalUrl(raw: string): string {
  if (!/^https?%3A/i.test(raw)) return httpUrlOrEmpty(raw);
  try {
    return httpUrlOrEmpty(decodeURIComponent(raw));
  } catch {
    return "";
  }
}

export function parseMikrotik(q: Record<string, unknown>): GatewayParse {
  const login = httpUrlOrEmpty(param(q, "link-login-only"));
  const apMac = macOrEmpty(q["device-mac"]);
  const rawId = param(q, "chap-id", 16);
  const rawChallenge = param(q, "chap-challenge", 1024);
  if (!login) return { kind: "refused", reason: "link-login-only" };
  if (!apMac) return { kind: "refused", reason: "device-mac" };
  let chapId = "";
  let challenge = "";
  if (rawId !== "" || rawChallenge !== "") {
    const id = octalBytes(rawId);
    const ch = octalBytes(rawChallenge);
    if (id?.length !== 1) return { kind: "refused", reason: "chap-id" };
    if (!ch || ch.length > 64) return { kind: "refused", reason: "chap-challenge" };
    chapId = id.toString("hex");
    challenge = ch.toString("hex");
  }
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "mikrotik", login, orig: originalUrl(param(q, "link-orig")), chapId, challenge },
      apMac,
      clientMac: macOrEmpty(q.mac),
      result: param(q, "error", 512) !== "" ? "failed" : undefined,
      targetHost: new URL(login).hostname,
    },
  };
}

/** The fields the browser posts to `link-login-only`. */
export function mikrotikLoginFields(state: MikrotikState, credential: { username: string; password: string }, dst: string): [string, string][] {
  const password =
    state.chapId === ""
      ? credential.password
      : md5(Buffer.from(state.chapId, "hex"), credential.password, Buffer.from(state.challenge, "hex")).toString("hex");
  const fields: [string, string][] = [
    ["username", credential.username],
    ["password", password],
  ];
  if (dst) fields.push(["dst", dst]);
  fields.push(["popup", "false"]);
  return fields;
}
