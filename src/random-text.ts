/** Random text for secrets people copy into gateway settings: letters and digits only, no look-alikes. */
import { randomInt } from "node:crypto";

/** Letters and digits that survive being read aloud or retyped (no 0/O, 1/l/I). */
export const READABLE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** `length` characters drawn uniformly from `alphabet` with a cryptographic generator. */
export function randomString(alphabet: string, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}
