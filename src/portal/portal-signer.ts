/**
 * HMAC signing of the small documents the portal hands to the browser (page state, OAuth
 * cookie) and of SMS codes at rest. One key per purpose, derived from PORTAL_SECRET, so a
 * token of one kind can never be replayed as another.
 */
import * as crypto from "node:crypto";
import { randomBytesPooled } from "../random-text.js";

export type SignerPurpose = "page-state" | "oauth" | "sms-code" | "device";

export class PortalSigner {
  private readonly keys = new Map<SignerPurpose, HmacSha256>();

  /** `secret`: PORTAL_SECRET, or the key generated once and stored in the database (portal-deps.ts). */
  constructor(secret: string) {
    const root = Buffer.from(secret, "utf8");
    for (const p of ["page-state", "oauth", "sms-code", "device"] as const) {
      this.keys.set(p, new HmacSha256(crypto.createHmac("sha256", root).update(`guestwifi-portal:${p}`).digest()));
    }
  }

  mac(purpose: SignerPurpose, data: string): string {
    return this.keys.get(purpose)!.base64url(data);
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

/** node:crypto's one-shot hash (Node 20.12 and later). */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: string) => Buffer | string }).hash;
const BLOCK = 64;
/** Longest text the one-shot path takes (bytes); longer ones, and Node before 20.12, use createHmac. */
const SCRATCH = 8192;

/**
 * HMAC-SHA256 (RFC 2104), H((K ^ opad) || H((K ^ ipad) || text)), over the one-shot hash: every
 * page view seals a state, and an Hmac object per seal (a native handle made, then collected) cost
 * more than the hashing. The padded keys are made once; the text is written after the inner one
 * in a scratch buffer (synchronous, so one per key serves every call). Checked against createHmac
 * in test/portal/portal-signer.test.ts.
 */
export class HmacSha256 {
  private readonly key: crypto.KeyObject;
  private readonly inner = Buffer.alloc(BLOCK + SCRATCH);
  private readonly outer = Buffer.alloc(BLOCK + 32);

  /** `key`: at most one block (64 bytes), as the keys derived above (32). */
  constructor(key: Buffer) {
    if (key.length > BLOCK) throw new Error("HmacSha256: the key is longer than one block");
    this.key = crypto.createSecretKey(key);
    for (let i = 0; i < BLOCK; i++) {
      this.inner[i] = (key[i] ?? 0) ^ 0x36;
      this.outer[i] = (key[i] ?? 0) ^ 0x5c;
    }
  }

  base64url(text: string): string {
    if (!oneShotHash || text.length > SCRATCH / 3) return crypto.createHmac("sha256", this.key).update(text).digest("base64url");
    const n = this.inner.write(text, BLOCK, "utf8");
    (oneShotHash("sha256", this.inner.subarray(0, BLOCK + n), "buffer") as Buffer).copy(this.outer, BLOCK);
    return oneShotHash("sha256", this.outer, "base64url") as string;
  }
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function randomToken(bytes = 16): string {
  return randomBytesPooled(bytes).toString("base64url");
}
