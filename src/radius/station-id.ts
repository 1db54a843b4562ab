/**
 * MAC addresses as gateways write them in Called-Station-Id, Calling-Station-Id, NAS-Identifier and
 * MAC-auth User-Names: "AA-BB-CC-DD-EE-FF:SSID" (RFC 3580 section 3.20), "aa:bb:cc:dd:ee:ff",
 * "aabbccddeeff", "aabb.ccdd.eeff", possibly followed by a suffix.
 */

const SEPARATED = /^([0-9A-Fa-f]{2})([-:])([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})\2([0-9A-Fa-f]{2})(?![0-9A-Fa-f])/;
const DOTTED = /^([0-9A-Fa-f]{4})\.([0-9A-Fa-f]{4})\.([0-9A-Fa-f]{4})(?![0-9A-Fa-f])/;
const BARE = /^([0-9A-Fa-f]{12})(?![0-9A-Fa-f])/;

function canonical(hex12: string): string {
  return hex12.toUpperCase().match(/../g)!.join(":");
}

/** Gateways repeat the same few station ids in every packet: parsed once each, within bounds. */
const parsed = new Map<string, string | undefined>();
const PARSED_MAX = 50_000;

/** The MAC a station id starts with, in canonical form (upper case, colons), or undefined. */
export function leadingMac(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const hit = parsed.get(value);
  if (hit !== undefined || parsed.has(value)) return hit;
  const mac = parse(value);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(value, mac);
  return mac;
}

function parse(value: string): string | undefined {
  const s = value.trim();
  const sep = SEPARATED.exec(s);
  if (sep) return canonical(sep[1] + sep[3] + sep[4] + sep[5] + sep[6] + sep[7]);
  const dot = DOTTED.exec(s);
  if (dot) return canonical(dot[1] + dot[2] + dot[3]);
  const bare = BARE.exec(s);
  return bare ? canonical(bare[1]) : undefined;
}

/** The access point's MAC candidates, most specific first: Called-Station-Id, then NAS-Identifier. */
export function accessPointMacs(calledStationId: string | undefined, nasIdentifier: string | undefined): string[] {
  const out: string[] = [];
  for (const v of [calledStationId, nasIdentifier]) {
    const mac = leadingMac(v);
    if (mac && !out.includes(mac)) out.push(mac);
  }
  return out;
}
