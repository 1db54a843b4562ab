/**
 * Secrets the service keeps for others (controller passwords and API keys), sealed at rest with
 * AES-256-GCM. The key is SECRET_BOX_KEY when set, else one generated once and kept in
 * service_secrets (every instance on the database agrees on it). A sealed value reads
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); the purpose is bound in as associated data, so a value
 * sealed for one record cannot be pasted into another.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { DB } from "./database.js";
import { storedSecret } from "./service-secrets.js";

/** The name of the generated key in service_secrets. */
export const SECRET_BOX_NAME = "secret-box-key";

export async function secretBoxKey(db: DB, configured: Buffer | undefined): Promise<Buffer> {
  if (configured) return configured;
  return Buffer.from(await storedSecret(db, SECRET_BOX_NAME, () => randomBytes(32).toString("base64url")), "base64url");
}

export function sealSecret(key: Buffer, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

/** The plain text, or undefined when the value was sealed with another key or purpose, or altered. */
export function openSecret(key: Buffer, purpose: string, sealed: string): string | undefined {
  const [v, iv, tag, body] = sealed.split(".");
  if (v !== "v1" || iv === undefined || tag === undefined || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
