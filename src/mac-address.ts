/**
 * MAC addresses, the one place that reads them: the API (create-device), the portal's gateway
 * parameters and RADIUS station ids all turn what they are given into the canonical form the
 * database stores and compares: six upper-case hex pairs separated by colons ("AA:BB:CC:DD:EE:FF").
 */

/** What the API and gateways accept: six hex pairs separated by colons or dashes, any case. */
export const MAC_RE = /^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/;

const CANONICAL_RE = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;

/** The canonical form of a MAC that matches MAC_RE (after trimming). */
export function canonicalMac(s: string): string {
  return s.trim().toUpperCase().replace(/-/g, ":");
}

/** Whether `s` is already canonical: what look-ups by MAC require before they ask the database. */
export function isCanonicalMac(s: string): boolean {
  return CANONICAL_RE.test(s);
}

/** A MAC given as a parameter (colons or dashes, any case) in canonical form, or "" when it is not one. */
export function macOrEmpty(v: unknown): string {
  return typeof v === "string" && MAC_RE.test(v.trim()) ? canonicalMac(v) : "";
}

/*
 * RADIUS station ids (Called-Station-Id, Calling-Station-Id, NAS-Identifier, MAC-auth User-Names)
 * write MACs more freely: "AA-BB-CC-DD-EE-FF:SSID" (RFC 3580 section 3.20), "aa:bb:cc:dd:ee:ff",
 * "aabbccddeeff", "aabb.ccdd.eeff", possibly followed by a suffix.
 */
const SEPARATED = /^([0-9A-Fa-f]{2})([-:])([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})(?![0-9A-Fa-f])/;
const DOTTED = /^([0-9A-Fa-f]{4})\.([0-9A-Fa-f]{4})\.([0-9A-Fa-f]{4})(?![0-9A-Fa-f])/;
const BARE = /^([0-9A-Fa-f]{12})(?![0-9A-Fa-f])/;

function fromHex12(hex12: string): string {
  return hex12.toUpperCase().match(/../g)!.join(":");
}

/** The MAC a station id starts with, in canonical form, or undefined. */
export function leadingMacOf(value: string): string | undefined {
  const s = value.trim();
  const sep = SEPARATED.exec(s);
  if (sep) return fromHex12(sep[1] + sep[3] + sep[4] + sep[5] + sep[6] + sep[7]);
  const dot = DOTTED.exec(s);
  if (dot) return fromHex12(dot[1] + dot[2] + dot[3]);
  const bare = BARE.exec(s);
  return bare ? fromHex12(bare[1]) : undefined;
}

/** A MAC written in any of the station-id forms and nothing else ("aabbccddeeff" too), canonical, or "". */
export function macOfAnyForm(value: string): string {
  const s = value.trim();
  const mac = s.length === 17 || s.length === 14 || s.length === 12 ? leadingMacOf(s) : undefined;
  return mac ?? "";
}
