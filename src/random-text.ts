/** Random text for secrets people copy into gateway settings: letters and digits only, no look-alikes. */
import { randomFillSync, randomInt } from "node:crypto";

/** Letters and digits that survive being read aloud or retyped (no 0/O, 1/l/I). */
export const READABLE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/**
 * `length` characters drawn uniformly from `alphabet` (2 to 256 characters) with a cryptographic
 * generator: bytes from the pool below the largest multiple of the alphabet's size, each taken
 * modulo that size (a byte at or above it is skipped, so no character is likelier than another).
 * One draw from the pool per string, not a generator call per character.
 */
export function randomString(alphabet: string, length: number): string {
  const n = alphabet.length;
  if (n < 2 || n > 256) return randomStringSlow(alphabet, length);
  const limit = 256 - (256 % n);
  let s = "";
  while (s.length < length) {
    for (const b of randomBytesPooled(length - s.length + 4)) {
      if (b >= limit) continue;
      s += alphabet[b % n];
      if (s.length === length) break;
    }
  }
  return s;
}

function randomStringSlow(alphabet: string, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}

/**
 * `n` bytes from the cryptographic generator, drawn from a pool refilled 4 KiB at a time: a call
 * to the generator per 16-byte token cost more than the rest of a login page's per-guest work.
 * The bytes are copied out and never handed out twice.
 */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

export function randomBytesPooled(n: number): Buffer {
  if (n > POOL_SIZE) return randomFillSync(Buffer.alloc(n));
  if (offset + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE));
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + n));
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}
