/**
 * CoovaChilli / ChilliSpot UAM. The gateway redirects the guest to us with `res, uamip, uamport,
 * challenge, called, mac, userurl` (and `md` when it shares a uamsecret with us); after the login
 * we send the browser to `http://uamip:uamport/logon` with a one-time username and the password
 * PAP-encoded against the challenge, and the gateway asks our RADIUS server.
 */
import * as crypto from "node:crypto";
import { isIP } from "node:net";
import { macOrEmpty } from "../../mac-address.js";
import { md5 } from "../../md5.js";
import { safeEqual } from "../../portal/portal-signer.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { CoovaState, GatewayParse } from "../gateway-types.js";

/**
 * Coova signs its redirect as uppercase hex MD5(url-before-"&md=" + uamsecret). The URL is the
 * one the gateway built, so we try each base it may have used (public URL, request host).
 */
export function coovaMdValid(rawUrls: string[], md: string, secret: string): boolean {
  const given = md.toLowerCase();
  for (const raw of rawUrls) {
    const at = raw.lastIndexOf("&md=");
    if (at < 0) continue;
    if (safeEqual(md5Hex(raw.slice(0, at) + secret), given)) return true;
  }
  return false;
}

/** node:crypto's one-shot hash (Node 20.12 and later): a page view's MD5 without a Hash object. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

/** Lower-case hex MD5 of a text (UTF-8). */
function md5Hex(text: string): string {
  return oneShotHash ? oneShotHash("md5", text, "hex") : md5(text).toString("hex");
}

export function parseCoova(q: Record<string, unknown>, rawUrls: string[], secret: string | undefined): GatewayParse {
  const uamip = param(q, "uamip", 64);
  const port = param(q, "uamport", 5);
  const apMac = macOrEmpty(q.called);
  const result = param(q, "res", 32).toLowerCase() || "notyet";
  const challenge = param(q, "challenge", 64).toLowerCase();
  if (!isIP(uamip)) return { kind: "refused", reason: "uamip" };
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return { kind: "refused", reason: "uamport" };
  if (!apMac) return { kind: "refused", reason: "called" };
  if (challenge !== "" && !/^[0-9a-f]{32}$/.test(challenge)) return { kind: "refused", reason: "challenge" };
  if (challenge === "" && (result === "notyet" || result === "failed")) return { kind: "refused", reason: "challenge" };
  if (secret !== undefined) {
    const md = param(q, "md", 64);
    if (!/^[0-9A-Fa-f]{32}$/.test(md) || !coovaMdValid(rawUrls, md, secret)) return { kind: "refused", reason: "md" };
  }
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "coova", uamip, uamport: Number(port), challenge, userurl: httpUrlOrEmpty(param(q, "userurl")) },
      apMac,
      clientMac: macOrEmpty(q.mac),
      result,
      targetHost: uamip,
    },
  };
}

/** The key Coova XORs the password with: MD5(challenge + uamsecret), or the bare challenge without a secret. */
function papKey(challengeHex: string, secret: string | undefined): Buffer {
  const challenge = Buffer.from(challengeHex, "hex");
  return secret ? md5(challenge, secret) : challenge;
}

/** The `password` parameter of Coova's logon URL: the password XOR the key, per 16-byte block, hex. */
export function coovaPapEncode(password: string, challengeHex: string, secret: string | undefined): string {
  const key = papKey(challengeHex, secret);
  const plain = Buffer.from(password, "utf8");
  const padded = Buffer.alloc(Math.max(16, Math.ceil(plain.length / 16) * 16));
  plain.copy(padded);
  const out = Buffer.alloc(plain.length);
  for (let i = 0; i < plain.length; i++) out[i] = padded[i] ^ key[i % 16];
  return out.toString("hex");
}

/** What the gateway recovers from the encoded password (tests and docs use it to check the encoding). */
export function coovaPapDecode(hex: string, challengeHex: string, secret: string | undefined): string {
  const key = papKey(challengeHex, secret);
  const enc = Buffer.from(hex, "hex");
  return Buffer.from(enc.map((b, i) => b ^ key[i % 16])).toString("utf8");
}

/** `http://{uamip}:{uamport}/logon?username=U&password=P&userurl=...` */
export function coovaLogonUrl(
  state: CoovaState,
  credential: { username: string; password: string },
  secret: string | undefined,
  userurl: string,
): string {
  const host = isIP(state.uamip) === 6 ? `[${state.uamip}]` : state.uamip;
  const qs = new URLSearchParams({
    username: credential.username,
    password: coovaPapEncode(credential.password, state.challenge, secret),
  });
  if (userurl) qs.set("userurl", userurl);
  return `http://${host}:${state.uamport}/logon?${qs.toString()}`;
}
