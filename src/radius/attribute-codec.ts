/**
 * Attribute decoding and encoding with our own dictionary (dictionary.ts), by the rules of the npm
 * `radius` package that the tests keep as the oracle (decoding: the same names, values and
 * refusals as its decode_without_secret; encoding: the same octets as its encode_attributes),
 * without its per-attribute costs: lookups are tables per vendor and type, values are read in
 * place, and the common integer and text replies are written directly.
 */
import { DICTIONARY, NO_VENDOR } from "./dictionary.js";

/** Codes the decoder knows (those of RFC 2865, 2866, 5176, 5997 and the package's others); any other is refused. */
const KNOWN_CODES = new Set([
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 21, 22, 23, 24, 25, 26, 27, 29, 30, 31, 32, 33, 34, 40, 41, 42, 43, 44, 45, 50, 51,
]);

const Kind = { Octets: 0, Text: 1, IpAddr: 2, Date: 3, Integer: 4, Encrypted: 5 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

interface Info {
  /** As the package keys it (null for an entry that has VALUE lines only). */
  name: string;
  kind: Kind;
  hasTag: boolean;
  vendorSpecific: boolean;
  enumNames: Record<string, string>;
}

const tables = new Map<number, (Info | null | undefined)[]>();

function lookup(vendor: number, type: number): Info | null {
  let table = tables.get(vendor);
  if (!table) {
    table = new Array(256);
    tables.set(vendor, table);
  }
  let info = table[type];
  if (info !== undefined) return info;
  const def = DICTIONARY.byId(vendor, type);
  const modifiers = def?.flags;
  if (def === undefined || modifiers === undefined) {
    info = null;
  } else {
    const name = String(def.name);
    const t = def.type;
    let kind: Kind = Kind.Octets;
    if (modifiers["encrypt=1"]) kind = Kind.Encrypted;
    else if (t === "string" || t === "text") kind = Kind.Text;
    else if (t === "ipaddr") kind = Kind.IpAddr;
    else if (t === "date") kind = Kind.Date;
    else if (t === "time" || t === "integer") kind = Kind.Integer;
    info = {
      name,
      kind,
      hasTag: Boolean(modifiers.has_tag),
      vendorSpecific: kind !== Kind.Encrypted && name === "Vendor-Specific",
      enumNames: def.names,
    };
  }
  table[type] = info;
  return info;
}

function put(out: Record<string, unknown>, name: string, value: unknown): void {
  const prev = out[name];
  if (prev === undefined) out[name] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else out[name] = [prev, value];
}

/**
 * The attributes in `data` (the package's decode_attributes); throws where it throws. Values are
 * read in place: only octet strings (and vendor blocks) become Buffer views of the packet.
 */
function decodeInto(data: Buffer, out: Record<string, unknown>, vendor: number): void {
  let off = 0;
  const end = data.length;
  while (off < end) {
    if (off + 2 > end) throw new RangeError("attribute header cut short");
    const type = data[off];
    const length = data[off + 1];
    if (length < 2) throw new Error(`invalid attribute length: ${length}`);
    const next = off + length;
    let start = off + 2;
    const stop = next < end ? next : end;
    off = next;
    const info = lookup(vendor, type);
    if (!info) continue;
    let tag: number | undefined;
    if (info.hasTag) {
      if (stop === start) throw new RangeError("tagged attribute without a value");
      if (data[start] <= 0x1f) {
        tag = data[start];
        start++;
      }
    }
    const size = stop - start;
    let decoded: unknown;
    switch (info.kind) {
      case Kind.Encrypted:
        decoded = null; // hidden with the secret: the package decodes without it
        break;
      case Kind.Text:
        decoded = data.toString("utf8", start, stop);
        break;
      case Kind.IpAddr: {
        let ip = "";
        for (let i = start; i < stop; i++) ip += i === start ? `${data[i]}` : `.${data[i]}`;
        decoded = ip;
        break;
      }
      case Kind.Date:
        if (size < 4) throw new RangeError("date attribute shorter than 4 octets");
        decoded = new Date(data.readUInt32BE(start) * 1000);
        break;
      case Kind.Integer: {
        let n: number;
        if (info.hasTag) {
          // The package right-aligns up to 3 octets after the tag into a 32-bit integer.
          n = (size > 0 ? data[start] << 16 : 0) | (size > 1 ? data[start + 1] << 8 : 0) | (size > 2 ? data[start + 2] : 0);
        } else {
          if (size < 4) throw new RangeError("integer attribute shorter than 4 octets");
          n = data.readUInt32BE(start);
        }
        decoded = info.enumNames[n] || n;
        break;
      }
      default:
        decoded = data.subarray(start, stop);
    }
    if (info.vendorSpecific) {
      if (size === 0 || data[start] !== 0) throw new Error("Invalid vendor id");
      let vendorAttrs = out["Vendor-Specific"] as Record<string, unknown> | undefined;
      if (!vendorAttrs) {
        vendorAttrs = {};
        out["Vendor-Specific"] = vendorAttrs;
      }
      if (size < 4) throw new RangeError("vendor id cut short");
      decodeInto(data.subarray(start + 4, stop), vendorAttrs, data.readUInt32BE(start));
      continue;
    }
    put(out, info.name, tag === undefined ? decoded : [tag, decoded]);
  }
}

/**
 * The attributes of a packet whose attribute lengths tile it (the caller checked), keyed by
 * dictionary name, vendor attributes under "Vendor-Specific"; hidden values (User-Password) as null.
 */
export function decodeAttributes(packet: Buffer): Record<string, unknown> {
  if (!KNOWN_CODES.has(packet[0])) throw new Error(`decode: invalid packet code '${packet[0]}'`);
  const out: Record<string, unknown> = {};
  decodeInto(packet.subarray(20), out, NO_VENDOR);
  return out;
}

/** Attributes in the package's array syntax: [name, value] or ["Vendor-Specific", vendor, [[name, value]...]]. */
export type ReplyAttribute = [string, string | number | Buffer] | ["Vendor-Specific", string, [string, number | string][]];

interface EncodeInfo {
  id: number;
  /** Integer and text attributes without tag or encryption are written here; others by the package. */
  kind: typeof Kind.Integer | typeof Kind.Text | undefined;
  /**
   * The package looks an integer value up among the attribute's VALUE names before writing it;
   * only a name that is itself a number could match. Those are kept here (almost always none:
   * probing the name table with every number would cost a deoptimization per packet).
   */
  numericNames: Set<number> | undefined;
}

const encodeTables = new Map<number, Map<string, EncodeInfo | null>>();

function encodeInfo(vendor: number, name: string): EncodeInfo | null {
  let table = encodeTables.get(vendor);
  if (!table) {
    table = new Map();
    encodeTables.set(vendor, table);
  }
  let info = table.get(name);
  if (info !== undefined) return info;
  const def = DICTIONARY.byName(vendor, name);
  const modifiers = def?.flags;
  const id = Number(def?.id);
  const t = def?.type;
  if (def === undefined || modifiers === undefined || modifiers.has_tag || modifiers["encrypt=1"] || !(id >= 0 && id <= 255)) {
    info = null;
  } else {
    const kind = t === "integer" || t === "time" ? Kind.Integer : t === "string" || t === "text" ? Kind.Text : undefined;
    const reverseEnum = def.numbers;
    const numeric = Object.keys(reverseEnum).filter((k) => String(Number(k)) === k);
    info = { id, kind, numericNames: numeric.length > 0 ? new Set(numeric.map(Number)) : undefined };
  }
  table.set(name, info);
  return info;
}

function room(into: Buffer, off: number, length: number): void {
  if (off + length > into.length) throw new RangeError("reply attributes exceed the packet");
}

/** One plain attribute the fast way, or -1 when encodeGeneral must (it then also throws where it should). */
function encodePlain(into: Buffer, off: number, vendor: number, name: string, value: unknown): number {
  const info = encodeInfo(vendor, name);
  if (!info) return -1;
  if (info.kind === Kind.Integer && typeof value === "number") {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff || info.numericNames?.has(value)) return -1;
    room(into, off, 6);
    into[off] = info.id;
    into[off + 1] = 6;
    into.writeUInt32BE(value, off + 2);
    return 6;
  }
  if (info.kind === Kind.Text && typeof value === "string") {
    if (value.length === 0) return 0; // the package leaves out empty strings
    const length = Buffer.byteLength(value, "utf8");
    if (length > 253) return -1;
    room(into, off, 2 + length);
    into[off] = info.id;
    into[off + 1] = 2 + length;
    into.write(value, off + 2, "utf8");
    return 2 + length;
  }
  return -1;
}

type GeneralAttribute = [string | number, unknown, unknown?];

function checkedLength(n: number): number {
  if (n > 255) throw new RangeError("attribute longer than 255 octets");
  return n;
}

/**
 * Any attribute, by the dictionary's type (the rules the fast path leaves out): raw Buffers,
 * tagged values ([name, tag, value]), IP addresses, dates, integers given by value name, and
 * Vendor-Specific with its own list. Returns the octets written; throws on what cannot be encoded.
 */
function encodeGeneral(into: Buffer, off: number, vendor: number, attr: GeneralAttribute): number {
  const def = typeof attr[0] === "string" ? DICTIONARY.byName(vendor, attr[0]) : undefined;
  const known = def && def.flags !== undefined && def.id !== undefined ? def : undefined;
  let value = attr[1];
  if (!known && !Buffer.isBuffer(value)) throw new Error(`encode: invalid attributes - must give Buffer for unknown attribute '${attr[0]}'`);
  const id = known ? (known.id as number) : Number(attr[0]);
  let out: Buffer;
  let tag: number | undefined;
  if (Buffer.isBuffer(value)) {
    out = value;
  } else {
    const def = known as NonNullable<typeof known>;
    const flags = def.flags as Record<string, boolean>;
    if (flags.has_tag && attr.length === 3) {
      tag = Number(attr[1]);
      value = attr[2];
    }
    if (flags["encrypt=1"]) throw new Error(`encode: ${def.name} is hidden with the secret and the request authenticator; not a reply attribute`);
    if (def.name === "Vendor-Specific") {
      const vendorId = typeof attr[1] === "number" ? attr[1] : DICTIONARY.vendorId(String(attr[1]));
      if (vendorId === undefined || !Array.isArray(attr[2])) throw new Error(`encode: unknown vendor '${attr[1]}'`);
      let at = off + 6;
      for (const inner of attr[2] as GeneralAttribute[]) {
        const n = typeof inner[0] === "string" && inner.length === 2 ? encodePlain(into, at, vendorId, inner[0], inner[1]) : -1;
        at += n >= 0 ? n : encodeGeneral(into, at, vendorId, inner);
      }
      room(into, off, 6);
      into[off] = id;
      into[off + 1] = checkedLength(at - off);
      into.writeUInt32BE(vendorId, off + 2);
      return at - off;
    }
    switch (def.type) {
      case "string":
      case "text": {
        const text = String(value);
        if (text.length === 0) return 0;
        out = Buffer.from(text, "utf8");
        break;
      }
      case "ipaddr": {
        const parts = String(value).split(".");
        if (parts.length !== 4) throw new Error(`encode: invalid IP: ${value}`);
        out = Buffer.from(parts.map(Number));
        break;
      }
      case "date":
      case "time":
      case "integer": {
        const raw = value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
        const n = Number(def.numbers[String(raw)] || raw);
        if (Number.isNaN(n)) throw new Error(`encode: invalid attribute value: ${String(value)}`);
        out = Buffer.alloc(4);
        out.writeUInt32BE(n, 0);
        if (tag !== undefined) out = out.subarray(1);
        break;
      }
      default:
        throw new Error(`encode: must provide Buffer for attribute '${def.name}'`);
    }
  }
  const length = checkedLength(2 + out.length + (tag === undefined ? 0 : 1));
  room(into, off, length);
  into[off] = id;
  into[off + 1] = length;
  let at = off + 2;
  if (tag !== undefined) into[at++] = tag;
  out.copy(into, at);
  return length;
}

/**
 * Writes `attributes` into `into` at `off` exactly as the package's encode_attributes would (same
 * octets, same errors), the common integer, text and vendor attributes directly; returns the end.
 */
export function encodeAttributes(into: Buffer, off: number, attributes: ReplyAttribute[]): number {
  for (const attr of attributes) {
    let written = -1;
    if (attr[0] === "Vendor-Specific" && typeof attr[1] === "string" && Array.isArray(attr[2])) {
      const vendor = DICTIONARY.vendorId(attr[1]) ?? Number.NaN;
      const vsa = encodeInfo(NO_VENDOR, "Vendor-Specific");
      if (vsa && Number.isInteger(vendor) && vendor >= 0) {
        let at = off + 6;
        for (const [name, value] of attr[2]) {
          const n = encodePlain(into, at, vendor, name, value);
          if (n < 0) {
            at = -1;
            break;
          }
          at += n;
        }
        if (at >= 0 && at - off <= 255) {
          room(into, off, 6);
          into[off] = vsa.id;
          into[off + 1] = at - off;
          into.writeUInt32BE(vendor, off + 2);
          written = at - off;
        }
      }
    } else if (typeof attr[0] === "string") {
      written = encodePlain(into, off, NO_VENDOR, attr[0], attr[1]);
    }
    if (written < 0) written = encodeGeneral(into, off, NO_VENDOR, attr as GeneralAttribute);
    off += written;
  }
  return off;
}
