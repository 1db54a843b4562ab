/** API identifiers: random url-safe secrets, stored only as SHA-256 hashes. */
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes (256 bits), base64url: 43 characters. */
export function newIdentifier(): string {
  return randomBytes(32).toString("base64url");
}

export function hashIdentifier(identifier: string): string {
  return createHash("sha256").update(identifier, "utf8").digest("hex");
}
