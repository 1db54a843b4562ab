/**
 * What an Access-Accept carries for a location, as a table an operator can read: the attributes
 * reply-attributes.ts encodes for a dialect and the location's options, decoded back from those very
 * octets (names as in FreeRADIUS's dictionaries), so that the table cannot drift from what is sent.
 */
import type { RadiusDialect } from "../modules/devices/device-families.js";
import { type AcceptOptions, AcceptTemplate, VENDORS } from "./reply-attributes.js";

export interface AttributeRow {
  name: string;
  /** Integers as numbers, Mikrotik-Rate-Limit as its text. */
  value: number | string;
}

const STANDARD: Record<number, string> = { 27: "Session-Timeout", 85: "Acct-Interim-Interval" };
const VENDOR_NAMES: Record<number, Record<number, string>> = {
  [VENDORS.WISPr.id]: { [VENDORS.WISPr.BandwidthMaxUp]: "WISPr-Bandwidth-Max-Up", [VENDORS.WISPr.BandwidthMaxDown]: "WISPr-Bandwidth-Max-Down" },
  [VENDORS.ChilliSpot.id]: {
    [VENDORS.ChilliSpot.MaxTotalOctets]: "ChilliSpot-Max-Total-Octets",
    [VENDORS.ChilliSpot.MaxTotalGigawords]: "ChilliSpot-Max-Total-Gigawords",
  },
  [VENDORS.Mikrotik.id]: {
    [VENDORS.Mikrotik.RateLimit]: "Mikrotik-Rate-Limit",
    [VENDORS.Mikrotik.TotalLimit]: "Mikrotik-Total-Limit",
    [VENDORS.Mikrotik.TotalLimitGigawords]: "Mikrotik-Total-Limit-Gigawords",
  },
  [VENDORS.Cambium.id]: {
    [VENDORS.Cambium.TrafficQuotaLimitTotal]: "Cambium-Traffic-Quota-Limit-Total",
    [VENDORS.Cambium.TrafficQuotaLimitTotalGigwords]: "Cambium-Traffic-Quota-Limit-Total-Gigwords",
  },
};
/** The one text attribute we send; every other is a 32-bit integer. */
const TEXT = new Set(["Mikrotik-Rate-Limit"]);

function attributeValue(name: string, b: Buffer): number | string {
  return TEXT.has(name) || b.length !== 4 ? b.toString("latin1") : b.readUInt32BE(0);
}

/** The attributes in `octets` (as reply-attributes.ts writes them: one sub-attribute per Vendor-Specific). */
export function decodeReplyAttributes(octets: Buffer): AttributeRow[] {
  const out: AttributeRow[] = [];
  for (let off = 0; off + 2 <= octets.length; ) {
    const type = octets[off];
    const length = octets[off + 1];
    if (length < 2) break;
    const value = octets.subarray(off + 2, off + length);
    if (type === 26 && value.length >= 6) {
      const vendor = value.readUInt32BE(0);
      const sub = value[4];
      const name = VENDOR_NAMES[vendor]?.[sub] ?? `Vendor-${vendor}-Attr-${sub}`;
      out.push({ name, value: attributeValue(name, value.subarray(6, 4 + value[5])) });
    } else {
      const name = STANDARD[type] ?? `Attr-${type}`;
      out.push({ name, value: attributeValue(name, value) });
    }
    off += length;
  }
  return out;
}

/**
 * The Access-Accept attributes of `dialect` for these options, for a guest with `remainingOctets`
 * of the daily cap left (undefined: the location has no cap), exactly as the RADIUS server encodes them.
 */
export function acceptAttributeRows(dialect: RadiusDialect, options: AcceptOptions, remainingOctets: number | undefined): AttributeRow[] {
  const into = Buffer.alloc(4096);
  const end = new AcceptTemplate(dialect, options).reply(remainingOctets).writeInto(into, 0);
  return decodeReplyAttributes(into.subarray(0, end));
}
