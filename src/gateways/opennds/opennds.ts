/**
 * openNDS Forwarding Authentication Service (FAS). The router sends the guest to us with
 * `?fas=<record>` (faslevel 1: the record base64-encoded) or `?fas=<record>&iv=<16 characters>`
 * (faslevels 2 and 3: the record AES-256-CBC-encrypted with the router's `faskey`, as PHP's
 * openssl_encrypt writes it, then base64-encoded once more). The record is `name=value` pairs
 * separated by ", ": hid, clientip, clientmac, gatewayname, gatewayaddress, gatewaymac, authdir
 * (levels 2 and 3), originurl, ...
 *
 * The router lets the guest in when it sees `tok = sha256(hid + faskey)`: levels 1 and 2 from the
 * browser at `http://{gatewayaddress}/{authdir}/?tok=...&redir=...`, level 3 from its authmon
 * daemon, which polls the portal for the list of authorised tokens with the session length, rates
 * and quotas of each (`auth_get`, see portal/opennds/).
 */
import { createDecipheriv, createHash } from "node:crypto";
import { isIP } from "node:net";
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { GatewayParse, OpenNdsState } from "../gateway-types.js";

/** openNDS's default authdir (levels 0 and 1 do not send it). */
export const DEFAULT_AUTHDIR = "opennds_auth";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function sha256Hex(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex");
}

/** The token the router accepts for a client: sha256(hid + faskey), hex. */
export function openNdsToken(hid: string, faskey: string): string {
  return sha256Hex(hid + faskey);
}

/** authmon's `gatewayhash`: sha256 of the gateway name as the router writes it in the record (url-encoded). */
export function openNdsGatewayHash(gatewayname: string): string {
  return sha256Hex(gatewayname);
}

/** PHP's openssl_* take the key as given: cut to 32 bytes, or padded with zero bytes. */
function aesKey(faskey: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(faskey, "utf8").copy(key, 0, 0, 32);
  return key;
}

/** The level-1 record, or undefined when `fas` is not base64 text. */
export function decodeFasLevel1(fas: string): string | undefined {
  if (fas.length > 8192 || !BASE64.test(fas)) return undefined;
  return Buffer.from(fas, "base64").toString("utf8");
}

/** The level-2/3 record decrypted with `faskey`, or undefined when it does not decrypt. */
export function decryptFas(fas: string, iv: string, faskey: string): string | undefined {
  if (fas.length > 8192 || !BASE64.test(fas) || !/^[A-Za-z0-9]{16}$/.test(iv) || faskey === "") return undefined;
  const inner = Buffer.from(fas, "base64").toString("latin1");
  if (!BASE64.test(inner)) return undefined;
  const cipherText = Buffer.from(inner, "base64");
  if (cipherText.length === 0 || cipherText.length % 16 !== 0) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-cbc", aesKey(faskey), Buffer.from(iv, "latin1"));
    return Buffer.concat([decipher.update(cipherText), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/** `name=value, name=value, ...` into a map (the first occurrence of a name wins, as in openNDS's own FAS). */
export function parseFasRecord(record: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of record.split(", ")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (!(name in out)) out[name] = pair.slice(at + 1).trim();
  }
  return out;
}

function urlDecoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return "";
  }
}

/** `a.b.c.d` or `a.b.c.d:port`: the router's LAN address as openNDS gives it. */
function gatewayAddressOrEmpty(s: string): string {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(s);
  if (!m || isIP(m[1]) !== 4) return "";
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535)) return "";
  return s;
}

/** The arrival a decoded record describes, or why it is refused. */
export function parseOpenNdsRecord(record: string, level: 1 | 2 | 3): GatewayParse {
  const r = parseFasRecord(record);
  const hid = (r.hid ?? "").toLowerCase();
  const address = gatewayAddressOrEmpty(r.gatewayaddress ?? "");
  const apMac = macOrEmpty(r.gatewaymac);
  const authdir = level === 1 ? DEFAULT_AUTHDIR : (r.authdir ?? "");
  const gatewayname = r.gatewayname ?? "";
  if (!/^[0-9a-f]{64}$/.test(hid)) return { kind: "refused", reason: "hid" };
  if (!address) return { kind: "refused", reason: "gatewayaddress" };
  if (!apMac) return { kind: "refused", reason: "gatewaymac" };
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(authdir)) return { kind: "refused", reason: "authdir" };
  if (gatewayname === "" || gatewayname.length > 256) return { kind: "refused", reason: "gatewayname" };
  const state: OpenNdsState = {
    kind: "opennds",
    level,
    address,
    authdir,
    hid,
    gwhash: openNdsGatewayHash(gatewayname),
    mac: apMac,
    originurl: httpUrlOrEmpty(urlDecoded(r.originurl ?? "")),
  };
  return {
    kind: "arrival",
    arrival: { state, apMac, clientMac: macOrEmpty(r.clientmac), targetHost: address.split(":")[0] },
  };
}

/** The parameters of an openNDS redirect: level 1 is read here; levels 2 and 3 need the router's key. */
export function openNdsQuery(q: Record<string, unknown>): { fas: string; iv: string } | undefined {
  if (q.fas === undefined) return undefined;
  return { fas: param(q, "fas", 8192), iv: param(q, "iv", 64) };
}

/** The level-1 arrival (no key needed to read it), or why it is refused. */
export function parseOpenNdsLevel1(fas: string): GatewayParse {
  const record = decodeFasLevel1(fas);
  return record === undefined ? { kind: "refused", reason: "fas" } : parseOpenNdsRecord(record, 1);
}

/** What the location lets a guest have, in openNDS's units (0: no limit). */
export interface OpenNdsLimits {
  sessionMinutes: number;
  uploadKbits: number;
  downloadKbits: number;
  /** Each direction's quota, kB: what remains of the daily cap. */
  quotaKbytes: number;
}

/**
 * One authmon entry: `rhid sessionlength uploadrate downloadrate uploadquota downloadquota custom`
 * (minutes, kbit/s, kB; 0 is no limit), exactly as openNDS's `ndsctl auth` takes it.
 */
export function openNdsAuthEntry(rhid: string, l: OpenNdsLimits): string {
  return `${rhid} ${l.sessionMinutes} ${l.uploadKbits} ${l.downloadKbits} ${l.quotaKbytes} ${l.quotaKbytes} guestwifi`;
}

/**
 * Levels 1 and 2: where the browser goes to be let in. `custom` carries the limits for a BinAuth
 * script (base64, as openNDS passes it on), since the authdir request itself has no place for them.
 */
export function openNdsAuthUrl(state: OpenNdsState, faskey: string, redir: string, limits: OpenNdsLimits): string {
  const qs = new URLSearchParams({ tok: openNdsToken(state.hid, faskey), redir: redir || "http://detectportal.firefox.com/" });
  const custom = `sessionlength=${limits.sessionMinutes}, uploadrate=${limits.uploadKbits}, downloadrate=${limits.downloadKbits}, uploadquota=${limits.quotaKbytes}, downloadquota=${limits.quotaKbytes}`;
  qs.set("custom", Buffer.from(custom, "utf8").toString("base64"));
  return `http://${state.address}/${state.authdir}/?${qs.toString()}`;
}
