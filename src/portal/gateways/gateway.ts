/**
 * What a gateway tells the portal when it sends a guest, and where the portal may send the guest
 * back. Only addresses the gateway vouched for become redirect targets: a login page that
 * redirects wherever its query string says is a phishing tool.
 */
import { BlockList, isIP } from "node:net";
import { parseCoova } from "./coova.js";
import type { GatewayArrival, GatewayParse } from "./gateway-types.js";
import { ARUBA_SECURELOGIN, parseAruba } from "./aruba.js";
import { parseCambium } from "./cambium.js";
import { parseMeraki } from "./meraki.js";
import { parseMerakiSignOn } from "./meraki-signon.js";
import { parseRuckus } from "./ruckus.js";
import { parseRuckusNbi } from "./ruckus-nbi.js";
import { parseMikrotik } from "./mikrotik.js";
import { parseOmada } from "./omada.js";

export type { GatewayArrival, GatewayParse, GatewayState } from "./gateway-types.js";

export interface GatewayParseInput {
  query: Record<string, unknown>;
  /** The page URL as the gateway built it (public base + raw path and query), for Coova's `md`. */
  rawUrls: string[];
  coovaUamSecret: string | undefined;
}

/** Reads the gateway parameters of a page request, if any. */
export function parseGateway(input: GatewayParseInput): GatewayParse {
  const q = input.query;
  if (q.uamip !== undefined || q.challenge !== undefined) return parseCoova(q, input.rawUrls, input.coovaUamSecret);
  if (q.base_grant_url !== undefined) return parseMeraki(q);
  if (q.clientMac !== undefined) return parseOmada(q);
  if (q["link-login-only"] !== undefined) return parseMikrotik(q);
  if (q.login_url !== undefined) return parseMerakiSignOn(q);
  if (q.ga_srvr !== undefined) return parseCambium(q, input.rawUrls[0] ?? "");
  // SmartZone's redirect carries sip too: nbiIP tells it from a ZoneDirector's.
  if (q.nbiIP !== undefined) return parseRuckusNbi(q);
  if (q.sip !== undefined) return parseRuckus(q);
  if (q.cmd !== undefined && (q.apmac !== undefined || q.essid !== undefined || q.switchip !== undefined)) return parseAruba(q);
  return { kind: "none" };
}

const LOCAL = new BlockList();
for (const [net, bits] of [
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
] as const) {
  LOCAL.addSubnet(net, bits, "ipv4");
}
LOCAL.addAddress("::1", "ipv6");
LOCAL.addSubnet("fc00::", 7, "ipv6");
LOCAL.addSubnet("fe80::", 10, "ipv6");

/** Private, carrier-grade NAT, loopback or link-local: where a captive gateway's own web server lives. */
/** A memo of a pure function: BlockList.check builds an address object per call; gateways repeat a few LAN addresses. */
const localMemo = new Map<string, boolean>();

export function isLocalAddress(ip: string): boolean {
  let local = localMemo.get(ip);
  if (local === undefined) {
    local = checkLocal(ip);
    if (localMemo.size >= 1_000) localMemo.clear();
    localMemo.set(ip, local);
  }
  return local;
}

function checkLocal(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return LOCAL.check(ip, "ipv4");
  if (v === 6) return LOCAL.check(ip, "ipv6");
  return false;
}

/** Families whose hand-off goes to the gateway's own LAN address (opennds.ts, mikrotik.ts, ...). */
const LAN_TARGET_KINDS: ReadonlySet<string> = new Set(["opennds", "mikrotik", "ruckus", "cambium"]);

/**
 * Whether the hand-off target is one this AP vouches for. Coova: the gateway's own LAN address
 * (private or loopback) or the AP's registered address. Meraki: Meraki's cloud
 * (`*.network-auth.com`, https) or the AP's registered address.
 */
export function targetAllowed(arrival: GatewayArrival, apAddress: string): boolean {
  const host = arrival.targetHost.replace(/^\[|\]$/g, "").toLowerCase();
  const known = apAddress.trim().toLowerCase();
  if (known !== "" && host === known) return true;
  if (arrival.state.kind === "coova") return isLocalAddress(host);
  if (LAN_TARGET_KINDS.has(arrival.state.kind)) return isLocalAddress(host);
  if (arrival.state.kind === "aruba") return host === ARUBA_SECURELOGIN || isLocalAddress(host);
  // Controller families: the grant goes to the location's own controller, nothing to the query's hosts.
  if (arrival.state.kind === "unifi" || arrival.state.kind === "omada" || arrival.state.kind === "ruckus-nbi") return true;
  const cloud = host === "network-auth.com" || host.endsWith(".network-auth.com");
  if (arrival.state.kind === "meraki-signon") return arrival.state.login.startsWith("https://") && cloud;
  if (arrival.state.kind !== "meraki") return false;
  return arrival.state.grant.startsWith("https://") && cloud;
}
