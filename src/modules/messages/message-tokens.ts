/**
 * The links of a message name it by a signed token: `<purpose><message id>.<mac>`, the mac being
 * 128 bits of HMAC-SHA256 under a key the service generates once and keeps in its database
 * (service_secrets: every instance agrees, restarts keep it). Nobody can make or guess a token
 * for another message; a token says only which message it came in.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DB } from "../../db/database.js";
import { storedSecret } from "../../db/service-secrets.js";

/** u: unsubscribe (a guest from marketing, a recipient from the quick report); s: the survey. */
export type TokenPurpose = "u" | "s";

const KEY_NAME = "message-link-key";
/** Per database, as the key is the database's: two apps on two databases share nothing. */
const keys = new WeakMap<DB, Promise<Buffer>>();

export function linkKey(db: DB): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    k = storedSecret(db, KEY_NAME, () => randomBytes(32).toString("base64url")).then((v) => Buffer.from(v, "base64url"));
    k.catch(() => keys.delete(db));
    keys.set(db, k);
  }
  return k;
}

function mac(key: Buffer, purpose: TokenPurpose, messageId: number): Buffer {
  return createHmac("sha256", key).update(`${purpose}:${messageId}`).digest().subarray(0, 16);
}

export function signToken(key: Buffer, purpose: TokenPurpose, messageId: number): string {
  return `${purpose}${messageId}.${mac(key, purpose, messageId).toString("base64url")}`;
}

/** The message id a token of `purpose` names, or undefined when it is not one of ours. */
export function readToken(key: Buffer, purpose: TokenPurpose, token: string): number | undefined {
  const m = /^([us])(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m || m[1] !== purpose) return undefined;
  const id = Number(m[2]);
  const given = Buffer.from(m[3], "base64url");
  return given.length === 16 && timingSafeEqual(given, mac(key, purpose, id)) ? id : undefined;
}
