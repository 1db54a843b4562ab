/**
 * The MACs of a RADIUS packet's station ids (parsed by src/mac-address.ts): the access point's,
 * and the client's.
 */
import { LRUCache } from "lru-cache";
import { leadingMacOf } from "../mac-address.js";

/**
 * Gateways repeat the same few station ids in every packet: each is parsed once while it stays in
 * this bounded memo of a pure function ("" stands for "no MAC", which lru-cache cannot hold as undefined).
 */
const parsed = new LRUCache<string, string>({ max: 50_000 });

/** The MAC a station id starts with, in canonical form (upper case, colons), or undefined. */
export function leadingMac(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let mac = parsed.get(value);
  if (mac === undefined) {
    mac = leadingMacOf(value) ?? "";
    parsed.set(value, mac);
  }
  return mac === "" ? undefined : mac;
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
