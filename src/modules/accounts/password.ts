/**
 * Passwords of account owners and sub-users: a slow, salted scrypt hash stored as `scrypt$N$salt$hash` (salt and hash in
 * base64url), so the cost can be raised later without breaking the hashes already stored.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * The one password rule, for owners and sub-users alike: at least PASSWORD_MIN characters (by code
 * point), at most PASSWORD_MAX, one line. Ten characters, not the specification's five: a console
 * password guards every guest's data of an account, whoever holds it.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;

/** Why `password` cannot be an owner's or a sub-user's password, or undefined when it can. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length === 0) return "the password is empty";
  if (length < PASSWORD_MIN) return `the password must have at least ${PASSWORD_MIN} characters (it has ${length})`;
  if (length > PASSWORD_MAX) return `the password must have at most ${PASSWORD_MAX} characters`;
  if (/[\r\n]/.test(password)) return "the password must be one line";
  return undefined;
}

const COST = 16384; // 2^14: Node's default, ~50 ms and 16 MiB per hash.
const BLOCK_SIZE = 8;
const PARALLEL = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N: cost, r: BLOCK_SIZE, p: PARALLEL, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** True when `password` matches a stored `scrypt$N$salt$hash`; false for anything else. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== "scrypt" || !/^\d+$/.test(parts[1])) return false;
  const cost = Number(parts[1]);
  // A power of two within what `derive` can afford: anything else is not one of our hashes.
  if (cost < 2 || cost > 2 ** 15 || (cost & (cost - 1)) !== 0) return false;
  const expected = Buffer.from(parts[3], "base64url");
  if (expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, Buffer.from(parts[2], "base64url"), cost);
  return timingSafeEqual(key, expected);
}

/** A well-formed hash no password derives to (an all-zero key): the stand-in for "no such user". */
const NOBODY = `scrypt$${COST}$${Buffer.alloc(16).toString("base64url")}$${Buffer.alloc(KEY_LENGTH).toString("base64url")}`;

/**
 * Whether `password` matches `stored`; when there is no stored hash (unknown e-mail, no password
 * set) it still derives a key against a stand-in, so both answers take the same time.
 */
export async function passwordMatches(password: string, stored: string | null | undefined): Promise<boolean> {
  const matches = await verifyPassword(password, stored ?? NOBODY);
  return matches && stored !== null && stored !== undefined;
}
