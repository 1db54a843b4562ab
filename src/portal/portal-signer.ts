/**
 * HMAC signing of the small documents the portal hands to the browser (page state, OAuth
 * cookie) and of SMS codes at rest. One key per purpose, derived from PORTAL_SECRET, so a
 * token of one kind can never be replayed as another.
 */
import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import { randomBytesPooled } from "../random-text.js";

export type SignerPurpose = "page-state" | "oauth" | "sms-code" | "device";

export class PortalSigner {
  /** KeyObjects, not Buffers: an HMAC made from a KeyObject skips importing the key, half its cost for a page state. */
  private readonly keys = new Map<SignerPurpose, KeyObject>();

  /** `secret`: PORTAL_SECRET, or the key generated once and stored in the database (portal-deps.ts). */
  constructor(secret: string) {
    const root = Buffer.from(secret, "utf8");
    for (const p of ["page-state", "oauth", "sms-code", "device"] as const) {
      this.keys.set(p, createSecretKey(createHmac("sha256", root).update(`guestwifi-portal:${p}`).digest()));
    }
  }

  mac(purpose: SignerPurpose, data: string): string {
    return createHmac("sha256", this.keys.get(purpose)!).update(data).digest("base64url");
  }

  /** `<base64url(json)>.<mac>`: readable by us only after the MAC checks. */
  seal(purpose: SignerPurpose, value: unknown): string {
    const body = Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
    return `${body}.${this.mac(purpose, body)}`;
  }

  /** The sealed value, or undefined when the token was not made by us for this purpose. */
  open<T>(purpose: SignerPurpose, token: unknown): T | undefined {
    if (typeof token !== "string" || token.length > 8192) return undefined;
    const dot = token.indexOf(".");
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    if (!safeEqual(token.slice(dot + 1), this.mac(purpose, body))) return undefined;
    try {
      return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
    } catch {
      return undefined;
    }
  }
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

export function randomToken(bytes = 16): string {
  return randomBytesPooled(bytes).toString("base64url");
}
