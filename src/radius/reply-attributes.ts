/**
 * A location's options as Access-Accept attributes. Location options are bytes (per second) and
 * seconds; WISPr bandwidth is bits per second; every RADIUS integer is 32 bits unsigned.
 */
import type { ReplyAttribute } from "./radius-codec.js";

const UINT32_MAX = 0xffff_ffff;
const GIGAWORD = 2 ** 32;

export interface AcceptInput {
  /** Seconds; 0 = off. */
  sessionTimeLimit: number;
  /** Bytes per second; 0 = off. */
  maxBandwidthUp: number;
  maxBandwidthDown: number;
  /** Octets left of today's cap, or undefined when the location has no daily cap. */
  remainingOctets: number | undefined;
  /** Seconds between Interim-Updates the gateway should send. */
  interimInterval: number;
}

function clamp32(n: number): number {
  return Math.min(UINT32_MAX, Math.max(0, Math.floor(n)));
}

/** The attributes of an Access-Accept, only for the options that are on. */
export function acceptAttributes(input: AcceptInput): ReplyAttribute[] {
  const out: ReplyAttribute[] = [];
  if (input.sessionTimeLimit > 0) out.push(["Session-Timeout", clamp32(input.sessionTimeLimit)]);
  out.push(["Acct-Interim-Interval", clamp32(input.interimInterval)]);
  const wispr: [string, number][] = [];
  if (input.maxBandwidthUp > 0) wispr.push(["WISPr-Bandwidth-Max-Up", clamp32(input.maxBandwidthUp * 8)]);
  if (input.maxBandwidthDown > 0) wispr.push(["WISPr-Bandwidth-Max-Down", clamp32(input.maxBandwidthDown * 8)]);
  if (wispr.length > 0) out.push(["Vendor-Specific", "WISPr", wispr]);
  if (input.remainingOctets !== undefined) {
    // A limit past 4 GiB needs the Gigawords companion (CoovaChilli adds gigawords * 2^32).
    const remaining = Math.max(0, Math.floor(input.remainingOctets));
    const chilli: [string, number][] = [["ChilliSpot-Max-Total-Octets", remaining % GIGAWORD]];
    const gigawords = Math.floor(remaining / GIGAWORD);
    if (gigawords > 0) chilli.push(["ChilliSpot-Max-Total-Gigawords", clamp32(gigawords)]);
    out.push(["Vendor-Specific", "ChilliSpot", chilli]);
  }
  return out;
}

/**
 * Octets counted by accounting: RFC 2869 Gigawords carry the overflow of the 32-bit counters.
 * Capped at 2^53 - 1 (8 PiB): beyond it a hostile NAS could only break the totals' precision.
 */
export function totalOctets(octets: number | undefined, gigawords: number | undefined): number {
  return Math.min(Number.MAX_SAFE_INTEGER, (gigawords ?? 0) * GIGAWORD + (octets ?? 0));
}
