/**
 * A location's options as Access-Accept attributes, in the dialect of the access point's gateway
 * family (src/modules/devices/device-families.ts; the table is in docs/radius.md). Location options
 * are bytes (per second) and seconds; rates go out in bits per second; every RADIUS integer is 32
 * bits unsigned, so a remaining cap of 4 GiB or more is split into octets and gigawords (2^32).
 *
 * Everything but the remaining cap depends only on the family and the location's options, so it is
 * encoded once (`AcceptTemplate`, kept per cached access point by `AcceptTemplates`) and copied into
 * each reply; only the remaining cap is written per packet. Vendor ids and attribute numbers are
 * FreeRADIUS's (dictionary.wispr, .chillispot, .mikrotik, .cambium; checked against them in
 * test/radius/radius-vendors.test.ts). Each vendor attribute goes in a Vendor-Specific (26)
 * attribute of its own, as FreeRADIUS sends them: 26, length, vendor id (4 octets), then the
 * sub-attribute (type, length, value).
 */
import { type Grant, grantFor } from "../gateways/grant-policy.js";
import type { FilterRoleAttribute, RadiusDialect } from "../modules/devices/device-families.js";
import { filterRoleAttributeOf, radiusDialectOf } from "../modules/devices/device-models.js";
import type { NasContext } from "./nas-lookup.js";

const UINT32_MAX = 0xffff_ffff;
const GIGAWORD = 2 ** 32;

/** RFC 2865 / 2869 attribute types. */
const FILTER_ID = 11;
const SESSION_TIMEOUT = 27;
const ACCT_INTERIM_INTERVAL = 85;
const VENDOR_SPECIFIC = 26;

/** IANA enterprise numbers and the sub-attribute types we send, as in FreeRADIUS's dictionaries. */
export const VENDORS = {
  WISPr: { id: 14122, BandwidthMaxUp: 7, BandwidthMaxDown: 8 },
  ChilliSpot: { id: 14559, MaxTotalOctets: 3, MaxTotalGigawords: 23 },
  Mikrotik: { id: 14988, RateLimit: 8, TotalLimit: 17, TotalLimitGigawords: 18, AddressList: 19 },
  Aruba: { id: 14823, UserRole: 1 },
  Cambium: { id: 17713, TrafficQuotaLimitTotal: 155, TrafficQuotaLimitTotalGigwords: 156 },
} as const;

/** Where a dialect puts the remaining daily cap: low 32 bits and gigawords, both integers. */
interface QuotaAttributes {
  vendor: number;
  octets: number;
  gigawords: number;
}

const QUOTA: Readonly<Record<RadiusDialect, QuotaAttributes | undefined>> = {
  chillispot: { vendor: VENDORS.ChilliSpot.id, octets: VENDORS.ChilliSpot.MaxTotalOctets, gigawords: VENDORS.ChilliSpot.MaxTotalGigawords },
  mikrotik: { vendor: VENDORS.Mikrotik.id, octets: VENDORS.Mikrotik.TotalLimit, gigawords: VENDORS.Mikrotik.TotalLimitGigawords },
  cambium: { vendor: VENDORS.Cambium.id, octets: VENDORS.Cambium.TrafficQuotaLimitTotal, gigawords: VENDORS.Cambium.TrafficQuotaLimitTotalGigwords },
  wispr: undefined,
};

export interface AcceptOptions {
  /** Seconds; 0 = off. */
  sessionTimeLimit: number;
  /** Bytes per second; 0 = off. */
  maxBandwidthUp: number;
  maxBandwidthDown: number;
  /** Seconds between Interim-Updates the gateway should send. */
  interimInterval: number;
  /** The content filter's role (grant-policy.ts CONTENT_FILTER_ROLE), "" when the filter is off. */
  filterRole?: string;
}

/** The parts of a grant (src/gateways/grant-policy.ts) an Access-Accept or CoA-Request carries besides the cap. */
export function acceptOptionsOf(grant: Grant): AcceptOptions {
  return {
    sessionTimeLimit: grant.sessionSeconds,
    maxBandwidthUp: grant.upBytesPerSecond,
    maxBandwidthDown: grant.downBytesPerSecond,
    interimInterval: grant.interimInterval,
    filterRole: grant.filterRole,
  };
}

/** The attribute that puts the guest in the filter role, in the family's way (device-families.ts FilterRoleAttribute). */
function filterRoleAttribute(kind: FilterRoleAttribute, role: string): Buffer {
  const value = Buffer.from(role, "utf8");
  if (kind === "Mikrotik-Address-List") return vendorSpecific(VENDORS.Mikrotik.id, VENDORS.Mikrotik.AddressList, value);
  if (kind === "Aruba-User-Role") return vendorSpecific(VENDORS.Aruba.id, VENDORS.Aruba.UserRole, value);
  const b = Buffer.alloc(2 + value.length);
  b[0] = FILTER_ID;
  b[1] = b.length;
  value.copy(b, 2);
  return b;
}

function clamp32(n: number): number {
  return Math.min(UINT32_MAX, Math.max(0, Math.floor(n)));
}

function integer(type: number, value: number): Buffer {
  const b = Buffer.alloc(6);
  b[0] = type;
  b[1] = 6;
  b.writeUInt32BE(clamp32(value), 2);
  return b;
}

/** One Vendor-Specific attribute holding one sub-attribute (type, value octets). */
function vendorSpecific(vendor: number, type: number, value: Buffer): Buffer {
  if (value.length > 247) throw new RangeError("vendor attribute value too long");
  const b = Buffer.alloc(8 + value.length);
  b[0] = VENDOR_SPECIFIC;
  b[1] = b.length;
  b.writeUInt32BE(vendor, 2);
  b[6] = type;
  b[7] = 2 + value.length;
  value.copy(b, 8);
  return b;
}

function vendorInteger(vendor: number, type: number, value: number): Buffer {
  const v = Buffer.alloc(4);
  v.writeUInt32BE(clamp32(value), 0);
  return vendorSpecific(vendor, type, v);
}

/**
 * A rate in RouterOS's notation: bits per second, with `k` (1,000) or `M` (1,000,000) when exact;
 * 0 is "no limit" in RouterOS.
 */
export function routerOsRate(bitsPerSecond: number): string {
  const bits = Math.max(0, Math.floor(bitsPerSecond));
  if (bits > 0 && bits % 1_000_000 === 0) return `${bits / 1_000_000}M`;
  if (bits > 0 && bits % 1_000 === 0) return `${bits / 1_000}k`;
  return String(bits);
}

/** The rate attributes of a dialect (none when both rates are off). */
function rateAttributes(dialect: RadiusDialect, upBytes: number, downBytes: number): Buffer[] {
  const up = Math.max(0, upBytes) * 8;
  const down = Math.max(0, downBytes) * 8;
  if (up <= 0 && down <= 0) return [];
  if (dialect === "mikrotik") {
    // rx/tx from the router's view: it receives what the guest uploads, transmits what it downloads.
    const value = Buffer.from(`${routerOsRate(up)}/${routerOsRate(down)}`, "ascii");
    return [vendorSpecific(VENDORS.Mikrotik.id, VENDORS.Mikrotik.RateLimit, value)];
  }
  const out: Buffer[] = [];
  if (up > 0) out.push(vendorInteger(VENDORS.WISPr.id, VENDORS.WISPr.BandwidthMaxUp, up));
  if (down > 0) out.push(vendorInteger(VENDORS.WISPr.id, VENDORS.WISPr.BandwidthMaxDown, down));
  return out;
}

/** The encoded attributes of one (dialect, location options) pair, and where the cap goes. */
export class AcceptTemplate {
  /** Session-Timeout, Acct-Interim-Interval and the rate attributes, encoded. */
  readonly fixed: Buffer;
  readonly quota: QuotaAttributes | undefined;

  constructor(
    readonly dialect: RadiusDialect,
    options: AcceptOptions,
    /** How the family takes the content filter's role; undefined: it takes none. */
    readonly roleAttribute?: FilterRoleAttribute,
  ) {
    const parts: Buffer[] = [];
    if (options.sessionTimeLimit > 0) parts.push(integer(SESSION_TIMEOUT, options.sessionTimeLimit));
    parts.push(integer(ACCT_INTERIM_INTERVAL, options.interimInterval));
    parts.push(...rateAttributes(dialect, options.maxBandwidthUp, options.maxBandwidthDown));
    if (roleAttribute && options.filterRole) parts.push(filterRoleAttribute(roleAttribute, options.filterRole));
    this.fixed = Buffer.concat(parts);
    this.quota = QUOTA[dialect];
  }

  /**
   * The attributes for a guest with `remainingOctets` of today's cap left (undefined: no cap), and
   * attributes of this guest's own, already encoded (a Passpoint login's Chargeable-User-Identity).
   */
  reply(remainingOctets: number | undefined, own?: Buffer): AcceptReply {
    return new AcceptReply(this, remainingOctets, own);
  }
}

/** One Access-Accept's attributes, written straight into the reply (see encodeReply). */
export class AcceptReply {
  constructor(
    readonly template: AcceptTemplate,
    /** Octets left of today's cap, or undefined when the location has no daily cap. */
    readonly remainingOctets: number | undefined,
    /** Encoded attributes of this reply alone, copied after the template's. */
    readonly own?: Buffer,
  ) {}

  /** Writes the attributes into `into` at `off`; returns the end. Throws if they do not fit. */
  writeInto(into: Buffer, off: number): number {
    const { fixed, quota } = this.template;
    const ownLength = this.own?.length ?? 0;
    if (off + fixed.length + ownLength + 24 > into.length) throw new RangeError("reply attributes exceed the packet");
    off += fixed.copy(into, off);
    if (this.own) off += this.own.copy(into, off);
    if (quota && this.remainingOctets !== undefined) {
      const remaining = Math.max(0, Math.floor(this.remainingOctets));
      off = writeVendorInteger(into, off, quota.vendor, quota.octets, remaining % GIGAWORD);
      const gigawords = Math.floor(remaining / GIGAWORD);
      if (gigawords > 0) off = writeVendorInteger(into, off, quota.vendor, quota.gigawords, clamp32(gigawords));
    }
    return off;
  }
}

function writeVendorInteger(into: Buffer, off: number, vendor: number, type: number, value: number): number {
  into[off] = VENDOR_SPECIFIC;
  into[off + 1] = 12;
  into.writeUInt32BE(vendor, off + 2);
  into[off + 6] = type;
  into[off + 7] = 6;
  into.writeUInt32BE(value, off + 8);
  return off + 12;
}

/**
 * The templates of one RADIUS server, one per cached access point: a NasContext lives for the NAS
 * cache's few seconds, so a changed option or model is picked up with it, and the template is
 * built once per access point in that time instead of once per packet.
 */
export class AcceptTemplates {
  private readonly byNas = new WeakMap<NasContext, AcceptTemplate>();

  constructor(private readonly interimInterval: number) {}

  for(nas: NasContext): AcceptTemplate | undefined {
    let template = this.byNas.get(nas);
    if (template) return template;
    const { options } = nas;
    if (!options) return undefined;
    const grant = grantFor({ options, settings: { interimInterval: this.interimInterval } });
    template = new AcceptTemplate(radiusDialectOf(nas.device.model_id), acceptOptionsOf(grant), filterRoleAttributeOf(nas.device.model_id));
    this.byNas.set(nas, template);
    return template;
  }
}

/**
 * Octets counted by accounting: RFC 2869 Gigawords carry the overflow of the 32-bit counters.
 * Capped at 2^53 - 1 (8 PiB): beyond it a hostile NAS could only break the totals' precision.
 */
export function totalOctets(octets: number | undefined, gigawords: number | undefined): number {
  return Math.min(Number.MAX_SAFE_INTEGER, (gigawords ?? 0) * GIGAWORD + (octets ?? 0));
}
