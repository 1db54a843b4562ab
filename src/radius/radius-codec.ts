/**
 * The packet codec: attributes are decoded and replies encoded by attribute-codec.ts with our own
 * dictionary (dictionary.ts: the standard attributes, WISPr, ChilliSpot); the security-critical
 * parts are done here on the raw bytes. The npm `radius` package is only the tests' oracle: it
 * compares authenticators through UTF-8 strings (lossy), verifies Message-Authenticator by
 * re-encoding, and appends Message-Authenticator last where BlastRADIUS (CVE-2024-3596) asks for
 * it first.
 */
import { timingSafeEqual } from "node:crypto";
import { type ReplyAttribute, decodeAttributes, encodeAttributes } from "./attribute-codec.js";
import { HmacMd5, Md5 } from "../md5.js";

export type { ReplyAttribute };

/** Attributes that write themselves (the Access-Accept's, encoded ahead: reply-attributes.ts). */
export interface EncodedAttributes {
  /** Writes into `into` at `off`, returns the end; throws when they do not fit. */
  writeInto(into: Buffer, off: number): number;
}

export const CODE = {
  AccessRequest: 1,
  AccessAccept: 2,
  AccessReject: 3,
  AccountingRequest: 4,
  AccountingResponse: 5,
  AccessChallenge: 11,
} as const;

export const ATTR = {
  UserPassword: 2,
  ProxyState: 33,
  MessageAuthenticator: 80,
} as const;

const HEADER = 20;
const AUTH_START = 4;
const AUTH_END = 20;
/** RFC 2865 section 3: the largest packet. */
export const MAX_PACKET = 4096;

/**
 * The packet cut to its declared Length, or undefined when it is not a well-formed RADIUS packet:
 * shorter than its Length, Length outside 20..4096, or attributes that do not tile the packet
 * exactly (RFC 2865 section 3 says to silently discard those).
 */
export function wellFormed(buf: Buffer): Buffer | undefined {
  if (buf.length < HEADER) return undefined;
  const length = buf.readUInt16BE(2);
  if (length < HEADER || length > MAX_PACKET || length > buf.length) return undefined;
  let off = HEADER;
  while (off < length) {
    if (off + 2 > length) return undefined;
    const attrLength = buf[off + 1];
    if (attrLength < 2 || off + attrLength > length) return undefined;
    off += attrLength;
  }
  return buf.subarray(0, length);
}

/** Offsets of every top-level attribute of a type (the packet must be wellFormed). */
function attributeOffsets(packet: Buffer, type: number): number[] {
  const out: number[] = [];
  for (let off = HEADER; off < packet.length; off += packet[off + 1]) if (packet[off] === type) out.push(off);
  return out;
}

export interface Decoded {
  code: number;
  identifier: number;
  authenticator: Buffer;
  /** Attributes by dictionary name; vendor attributes under attributes["Vendor-Specific"]. */
  attributes: Record<string, unknown>;
  raw: Buffer;
}

/** Decodes a wellFormed packet's attributes without the secret; throws on malformed attribute values. */
export function decodePacket(packet: Buffer): Decoded {
  const attributes = decodeAttributes(packet);
  return {
    code: packet[0],
    identifier: packet[1],
    authenticator: Buffer.from(packet.subarray(AUTH_START, AUTH_END)),
    attributes,
    raw: packet,
  };
}

/** A string attribute (the first one when the packet repeats it). */
export function stringAttr(attrs: Record<string, unknown>, name: string): string | undefined {
  const v = attrs[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" ? first : undefined;
}

/** An integer attribute: its number, or its dictionary name when the value is enumerated. */
export function intAttr(attrs: Record<string, unknown>, name: string): number | string | undefined {
  const v = attrs[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "number" || typeof first === "string" ? first : undefined;
}

export function octetsAttr(attrs: Record<string, unknown>, name: string): Buffer | undefined {
  const v = attrs[name];
  const first = Array.isArray(v) ? v[0] : v;
  return Buffer.isBuffer(first) ? first : undefined;
}

/**
 * A device secret's octets and HMAC pads, worked out once. The packet handler keeps one per device
 * secret it sees; a plain string (tests, one-off calls) is worked out on each call.
 */
export class RadiusSecret {
  readonly octets: Buffer;
  readonly hmac: HmacMd5;
  constructor(readonly text: string) {
    this.octets = Buffer.from(text, "utf8");
    this.hmac = new HmacMd5(this.octets);
  }
}

function keyOf(secret: RadiusSecret | string): RadiusSecret {
  return typeof secret === "string" ? new RadiusSecret(secret) : secret;
}

/**
 * Scratch for the functions below: each uses them synchronously, start to finish, so no value
 * outlives a call (they hold no state between packets, only spare allocations).
 */
const hash = new Md5();
const digest = Buffer.alloc(16);

export type MessageAuthenticatorCheck = "absent" | "valid" | "invalid";

/**
 * RFC 3579 section 3.2: HMAC-MD5 over the packet with the Message-Authenticator value zeroed.
 * Access-Request signs with its own Request Authenticator; Accounting-Request (as FreeRADIUS
 * does, like RFC 5176 requests) with the authenticator field zeroed. More than one is invalid.
 */
export function checkMessageAuthenticator(packet: Buffer, secret: RadiusSecret | string): MessageAuthenticatorCheck {
  const offsets = attributeOffsets(packet, ATTR.MessageAuthenticator);
  if (offsets.length === 0) return "absent";
  const off = offsets[0];
  if (offsets.length > 1 || packet[off + 1] !== 18) return "invalid";
  const { hmac } = keyOf(secret);
  const h = hmac.begin(hash);
  if (packet[0] === CODE.AccountingRequest) h.update(packet, 0, AUTH_START).zeros(AUTH_END - AUTH_START).update(packet, AUTH_END, off + 2);
  else h.update(packet, 0, off + 2);
  hmac.finish(h.zeros(16).update(packet, off + 18, packet.length), digest);
  return timingSafeEqual(digest, packet.subarray(off + 2, off + 18)) ? "valid" : "invalid";
}

/** RFC 2866 section 3: Request Authenticator = MD5(Code+Identifier+Length+16 zero octets+Attributes+Secret). */
export function accountingAuthenticatorValid(packet: Buffer, secret: RadiusSecret | string): boolean {
  hash.reset().update(packet, 0, AUTH_START).zeros(AUTH_END - AUTH_START).update(packet, AUTH_END, packet.length);
  hash.update(keyOf(secret).octets).digestInto(digest);
  return timingSafeEqual(digest, packet.subarray(AUTH_START, AUTH_END));
}

/** RFC 2865 section 5.2: User-Password hidden with MD5(secret + RA), chained over 16-octet blocks. */
export function decryptUserPassword(hidden: Buffer, secret: RadiusSecret | string, requestAuthenticator: Buffer): string | undefined {
  if (hidden.length < 16 || hidden.length > 128 || hidden.length % 16 !== 0) return undefined;
  const out = Buffer.alloc(hidden.length);
  const { octets } = keyOf(secret);
  let prev = requestAuthenticator;
  for (let i = 0; i < hidden.length; i += 16) {
    hash.reset().update(octets).update(prev).digestInto(digest);
    for (let j = 0; j < 16; j++) out[i + j] = hidden[i + j] ^ digest[j];
    prev = hidden.subarray(i, i + 16);
  }
  const end = out.indexOf(0);
  return out.subarray(0, end === -1 ? out.length : end).toString("utf8");
}

/** The raw User-Password value of an Access-Request, when present. */
export function rawUserPassword(packet: Buffer): Buffer | undefined {
  const [off] = attributeOffsets(packet, ATTR.UserPassword);
  return off === undefined ? undefined : packet.subarray(off + 2, off + packet[off + 1]);
}

const scratch = Buffer.alloc(MAX_PACKET);

/** Encoded attributes (`head`, when given) followed by attributes already in wire form. */
export class WithRawAttributes implements EncodedAttributes {
  constructor(
    private readonly head: EncodedAttributes | undefined,
    private readonly raw: Buffer,
  ) {}

  writeInto(into: Buffer, off: number): number {
    const at = this.head ? this.head.writeInto(into, off) : off;
    if (at + this.raw.length > into.length) throw new RangeError("reply attributes exceed the packet");
    return at + this.raw.copy(into, at);
  }
}

/**
 * Encodes a reply to `request`: the package writes the attributes, we write the header around them
 * (its own encode() allocates and hashes more than a reply needs). Access replies (Challenge too) carry
 * Message-Authenticator as their first attribute (computed with the Request Authenticator in
 * place, then the Response Authenticator over the result, RFC 3579 section 3.2). Proxy-State
 * attributes are copied back unchanged (RFC 2865 section 5.33).
 */
export function encodeReply(request: Decoded, code: number, attributes: ReplyAttribute[] | EncodedAttributes, secret: RadiusSecret | string): Buffer {
  const withMa = code === CODE.AccessAccept || code === CODE.AccessReject || code === CODE.AccessChallenge;
  let off = HEADER;
  if (withMa) {
    scratch[off] = ATTR.MessageAuthenticator;
    scratch[off + 1] = 18;
    scratch.fill(0, off + 2, off + 18);
    off += 18;
  }
  off = Array.isArray(attributes) ? encodeAttributes(scratch, off, attributes) : attributes.writeInto(scratch, off);
  for (const at of attributeOffsets(request.raw, ATTR.ProxyState)) {
    const len = request.raw[at + 1];
    if (off + len > MAX_PACKET) throw new Error("reply would exceed 4096 octets");
    request.raw.copy(scratch, off, at, at + len);
    off += len;
  }
  const packet = Buffer.from(scratch.subarray(0, off));
  packet[0] = code;
  packet[1] = request.identifier;
  packet.writeUInt16BE(off, 2);
  return signResponse(packet, request.authenticator, secret, withMa);
}

/**
 * Signs an encoded response in place: with the Request Authenticator in the authenticator field,
 * first the Message-Authenticator (when the first attribute is one, RFC 3579 section 3.2), then
 * the Response Authenticator = MD5(Code+Identifier+Length+RequestAuth+Attributes+Secret) (RFC 2865 section 3).
 */
export function signResponse(packet: Buffer, requestAuthenticator: Buffer, secret: RadiusSecret | string, firstIsMessageAuthenticator: boolean): Buffer {
  const { octets, hmac } = keyOf(secret);
  requestAuthenticator.copy(packet, AUTH_START);
  if (firstIsMessageAuthenticator) {
    packet.fill(0, HEADER + 2, HEADER + 18);
    hmac.finish(hmac.begin(hash).update(packet), packet, HEADER + 2);
  }
  hash.reset().update(packet).update(octets).digestInto(packet, AUTH_START);
  return packet;
}
